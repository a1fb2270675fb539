extension Dock {
    /// A `MotionEnd`: how a motion that was not refused ended.
    public enum MotionEnd: Hashable, Sendable {
        /// How a motion completed by itself.
        public enum Finish: String, CaseIterable, Hashable, Sendable {
            /// The velocity's duration expired.
            case expired
            /// The orientation was reached.
            case reached
            /// The animation finished.
            case finished
            /// A move, or an animation's return, did not arrive in time.
            case timedOut = "timed_out"
        }

        /// The names of `how`.
        public enum How: String, CaseIterable, Hashable, Sendable {
            /// It played to its end.
            case completed
            /// A later motion replaced it.
            case replaced
            /// A `Stop`, or dockd, stopped it.
            case stopped
        }

        /// It played to its end.
        case completed(Finish)
        /// A later motion replaced it (from the client named).
        case replaced(byClient: ClientID)
        /// A `Stop` from the client named ended it, or dockd did (nil).
        case stopped(byClient: ClientID?)

        /// `how`.
        public var how: How {
            switch self {
            case .completed: .completed
            case .replaced: .replaced
            case .stopped: .stopped
            }
        }

        /// Whether the motion ran to its end and got where it was going (not replaced, stopped
        /// or timed out).
        public var isSuccess: Bool {
            switch self {
            case .completed(let finish): finish != .timedOut
            case .replaced, .stopped: false
            }
        }
    }

    /// A `MotionResult`: what became of an accepted motion request.
    public struct MotionResult: Hashable, Sendable {
        /// The parameters clamped to the limits, by name.
        public var clamped: [String]
        /// The animation the request cancelled, if one was playing.
        public var cancelledAnimation: AnimationKind?
        /// How the motion ended, when the call asked to wait.
        public var ended: MotionEnd?

        /// Creates a result.
        public init(clamped: [String] = [], cancelledAnimation: AnimationKind? = nil, ended: MotionEnd? = nil) {
            self.clamped = clamped
            self.cancelledAnimation = cancelledAnimation
            self.ended = ended
        }
    }
}

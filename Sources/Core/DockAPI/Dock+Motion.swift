public import DockJSON
import DockLinks
public import DockPolicy
public import DockVocabulary

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

        /// What clients see of `ending`.
        public init(_ ending: MotionEnding) {
            switch ending {
            case .completed(let finish):
                let name: Finish =
                    switch finish {
                    case .velocityExpired: .expired
                    case .orientationReached: .reached
                    case .animationFinished: .finished
                    case .timedOut: .timedOut
                    }
                self = .completed(name)
            case .replaced(let client): self = .replaced(byClient: client)
            case .stopped(let client): self = .stopped(byClient: client)
            }
        }

        /// Reads a `MotionEnd` (or the same fields inside a `MotionEnded`).
        public init(json: JSONValue, path: String) throws(ReplyError) {
            let r = try ReplyReader(json, path: path)
            switch try r.choice("how", as: How.self) {
            case .completed: self = .completed(try r.choice("finish", as: Finish.self))
            case .replaced: self = .replaced(byClient: try r.integer("by_client", as: ClientID.self))
            case .stopped: self = .stopped(byClient: try r.optionalInteger("by_client", as: ClientID.self))
            }
        }

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

        /// The JSON members (an object of its own in `MotionResult`, merged into `MotionEnded`).
        public var members: [String: JSONValue] {
            switch self {
            case .completed(let finish): ["how": .string(how.rawValue), "finish": .string(finish.rawValue)]
            case .replaced(let client), .stopped(let client?): ["how": .string(how.rawValue), "by_client": .integer(Int64(client))]
            case .stopped(nil): ["how": .string(how.rawValue)]
            }
        }

        /// The JSON form.
        public var json: JSONValue { .object(members) }
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

        /// What clients see of `outcome`.
        public init(_ outcome: MotionOutcome) {
            self.init(
                clamped: outcome.clampedFields.map(\.wireName), cancelledAnimation: outcome.cancelledAnimation,
                ended: outcome.ending.map(MotionEnd.init))
        }

        /// Reads a `MotionResult`.
        public init(json: JSONValue, path: String) throws(ReplyError) {
            let r = try ReplyReader(json, path: path)
            self.init(
                clamped: try r.strings("clamped"), cancelledAnimation: try r.optionalChoice("cancelled_animation", as: AnimationKind.self),
                ended: try r.optionalDecoded("ended", MotionEnd.init(json:path:)))
        }

        /// The JSON form.
        public var json: JSONValue {
            var members: [String: JSONValue] = ["clamped": .array(clamped.map(JSONValue.string))]
            if let cancelledAnimation { members["cancelled_animation"] = .string(cancelledAnimation.rawValue) }
            if let ended { members["ended"] = ended.json }
            return .object(members)
        }
    }
}

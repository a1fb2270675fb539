extension Dock {
    /// A `CommandRefusal`: a command the dock refused.
    public struct CommandRefusal: Hashable, Sendable {
        /// Why (`faulted`, `out_of_range`, `not_ready`, `unknown_message`, `wrong_length`,
        /// `unsupported_version`).
        public var reason: String
        /// The dock's detail code.
        public var detail: Int
        /// The refused command's type, when known (`set_velocity`, `move_to`...).
        public var command: String?

        /// Creates a refusal.
        public init(reason: String, detail: Int, command: String?) {
            self.reason = reason
            self.detail = detail
            self.command = command
        }
    }

    /// A `ButtonEvent`: a button went down or up, the zoom rocker moved, or the dock sensor saw a
    /// camera mounted or removed.
    public enum ButtonEvent: Hashable, Sendable {
        /// The tracking button.
        case trackingButton(isPressed: Bool)
        /// The shutter button.
        case shutterButton(isPressed: Bool)
        /// The camera-flip button.
        case flipButton(isPressed: Bool)
        /// The zoom rocker moved by this many steps (negative: wider).
        case zoom(steps: Int8)
        /// A vendor's button.
        case customButton(identifier: UInt8, isPressed: Bool)
        /// The dock sensor: a camera mounted (true) or removed.
        case dockChanged(isDocked: Bool)

        /// The names of a `ButtonEvent`'s buttons.
        public enum Button: String, CaseIterable, Hashable, Sendable {
            /// The tracking button.
            case tracking
            /// The shutter button.
            case shutter
            /// The camera-flip button.
            case flip
            /// The zoom rocker.
            case zoom
            /// A vendor's button.
            case custom
            /// The dock sensor (a camera mounted or removed).
            case dock
        }

        /// Which button this is.
        public var button: Button {
            switch self {
            case .trackingButton: .tracking
            case .shutterButton: .shutter
            case .flipButton: .flip
            case .zoom: .zoom
            case .customButton: .custom
            case .dockChanged: .dock
            }
        }
    }

    /// An `Event`, as `Watch` streams it: what happened, when, and the status at that moment.
    public struct Event: Hashable, Sendable {
        /// The names of the events' kinds.
        public enum Kind: String, CaseIterable, Hashable, Sendable {
            /// The 10 Hz status (nothing else happened).
            case status
            /// A dock attached.
            case attached
            /// A camera was mounted.
            case docked
            /// The camera was removed.
            case undocked
            /// The link to the dock is gone.
            case disconnected
            /// A button or the zoom rocker.
            case button
            /// A fault was raised or cleared.
            case fault
            /// Control changed hands.
            case control
            /// The dock refused a command.
            case refused
            /// The framing mode changed.
            case framing
            /// A client's motion ended.
            case motionEnded = "motion_ended"
        }

        /// What happened, with its own fields.
        public enum Payload: Hashable, Sendable {
            /// The 10 Hz status.
            case status
            /// A dock attached.
            case attached(Accessory)
            /// A camera was mounted.
            case docked
            /// The camera was removed.
            case undocked
            /// The link to the dock is gone.
            case disconnected
            /// A button went down or up, or the zoom rocker moved.
            case button(ButtonEvent)
            /// A fault was raised or cleared.
            case fault(Fault)
            /// Control changed hands.
            case control(from: Controller, to: Controller)
            /// The dock refused a command.
            case refused(CommandRefusal)
            /// The framing mode changed.
            case framing(FramingMode)
            /// A client's motion ended, and how.
            case motionEnded(client: ClientID, ending: MotionEnd)
        }

        /// The host's monotonic clock, seconds.
        public var timeSeconds: Double
        /// What happened.
        public var payload: Payload
        /// The same in a line of text for people.
        public var detail: String
        /// The status at that moment.
        public var status: Status
        /// The name of the accessory whose event it is (nil from a dockd that does not say).
        public var accessoryName: String?

        /// Creates an event.
        public init(timeSeconds: Double, payload: Payload, detail: String, status: Status, accessoryName: String? = nil) {
            self.accessoryName = accessoryName
            self.timeSeconds = timeSeconds
            self.payload = payload
            self.detail = detail
            self.status = status
        }

        /// The event's kind.
        public var kind: Kind {
            switch payload {
            case .status: .status
            case .attached: .attached
            case .docked: .docked
            case .undocked: .undocked
            case .disconnected: .disconnected
            case .button: .button
            case .fault: .fault
            case .control: .control
            case .refused: .refused
            case .framing: .framing
            case .motionEnded: .motionEnded
            }
        }
    }
}

public import DockJSON

extension Dock {
    /// A successful reply: what a method answers (the reply type its method says).
    public enum Reply: Hashable, Sendable {
        /// A reply with no fields (`Stop`, `Track`, `SetFramingMode`...).
        case done
        /// `GetStatus`'s `status`.
        case status(Status)
        /// `ListAccessories`' `accessories`.
        case accessories([AccessoryEntry])
        /// The `result` of `SetVelocity`, `SetOrientation` or `Animate`.
        case motion(MotionResult)
        /// `SetLimits`' `limits`.
        case limits(Limits)
        /// `SelectSubjectAt`'s `subject`.
        case subject(Int)
        /// `SetRegionOfInterest`'s `region`: the region in force, cut to the picture.
        case region(NormalizedRect)
        /// `SelectSubjects`' `untracked`: the IDs chosen that no subject tracked now has.
        case selection(untracked: [Int])
        /// `SetZoom`'s `zoom`: the zoom set, a fraction of the camera's range.
        case zoom(Double)
        /// `SavePreset`'s `preset`: the preset saved.
        case preset(Preset)
        /// `ListPresets`' `presets`.
        case presets([Preset])
        /// `SetLostBehaviour`'s `lost`: the lost behaviour in force.
        case lostBehaviour(LostBehaviour)
        /// `SetFramingSpeed`'s `speed`: the framing speed in force, and as applied.
        case framingSpeed(FramingSpeedState)
        /// One of `Watch`'s `event`s.
        case event(Event)
    }

    /// A named error dockd answers, with its fields.
    public enum Failure: Error, Hashable, Sendable {
        /// `NoSuchAccessory`: no accessory with this name or serial number.
        case noSuchAccessory(String)
        /// `AccessoryAmbiguous`: several accessories, and the call named none: their names.
        case accessoryAmbiguous([String])
        /// `NotReady`: no dock is attached and ready.
        case notReady
        /// `Busy`: another client (its connection number) holds control.
        case busy(holder: ClientID)
        /// `NoSubjectFound`: no tracked subject at that point.
        case noSubjectFound
        /// `NotSupported`: the dock lacks the capability asked for (its name: `zoom`).
        case notSupported(capability: String)
        /// `InvalidParameter` (dockd's or the service interface's): a parameter is missing, of
        /// the wrong type, not finite or out of range.
        case invalidParameter(ParameterError)
        /// `DockRefused`: the dock refused the command.
        case dockRefused(reason: String, detail: Int)
        /// `DockFault`: the dock raised a fault that ended the motion.
        case dockFault(Fault)
        /// `NoSuchPreset`: no preset of this name.
        case noSuchPreset(String)
        /// `PresetsUnavailable`: the presets file cannot be written, or was found damaged: the
        /// file, and what is wrong.
        case presetsUnavailable(file: String, reason: String)
        /// `org.varlink.service.MethodNotFound`.
        case methodNotFound(String)
        /// `org.varlink.service.InterfaceNotFound`.
        case interfaceNotFound(String)
        /// `org.varlink.service.ExpectedMore`: a streaming call sent without `more`.
        case expectedMore
        /// An error this client does not know, as it came.
        case other(name: String, parameters: [String: JSONValue])

        /// The refusal of a motion or limits request whose value `MotionError` names: the
        /// parameter as the API spells it, and what it must be (`NotReady` when no dock could
        /// take it).
        public init(_ error: MotionError) {
            switch error {
            case .notFinite(let field): self = .invalidParameter(ParameterError(parameter: field.wireName, reason: "must be finite"))
            case .outOfRange(let field, let allowed):
                self = .invalidParameter(
                    ParameterError(parameter: field.wireName, reason: "must be within \(allowed.lowerBound)...\(allowed.upperBound)"))
            case .notReady: self = .notReady
            }
        }
    }
}

extension Dock.Failure: CustomStringConvertible {
    /// What went wrong, and what to do about it where there is something to do.
    public var description: String {
        switch self {
        case .busy(let holder): "another client (\(holder)) controls the dock; use --take-over"
        case .notReady: "no dock is attached and ready"
        case .invalidParameter(let error): "invalid \(error.parameter): \(error.reason)"
        case .noSuchAccessory(let name): "no accessory \(name) (dockctl list shows them)"
        case .accessoryAmbiguous(let names): "dockd serves \(names.joined(separator: ", ")): name one with --accessory"
        case .dockRefused(let reason, let detail): "refused by the dock: \(reason) (detail \(detail))"
        case .dockFault(let fault): "the dock raised a fault: \(fault.code)" + (fault.axis.map { " on \($0.rawValue)" } ?? "")
        case .noSubjectFound: "no tracked subject there"
        case .noSuchPreset(let name): "no preset '\(name)' (dockctl preset list shows them)"
        case .presetsUnavailable(let file, let reason): "presets cannot be saved: \(file) \(reason)"
        case .notSupported(let capability): "this dock cannot do that: it has no \(capability) dockd can drive"
        case .methodNotFound(let method): "dockd has no method \(method)"
        case .interfaceNotFound(let name): "dockd has no interface \(name)"
        case .expectedMore: "a streaming call needs \"more\""
        case .other(let name, let parameters): "\(name) \(JSONValue.object(parameters).serialized)"
        }
    }
}

/// A parameter that is missing, unknown, of the wrong type, or out of range; the API answers it
/// with `io.dockd.Dock.InvalidParameter`.
public struct ParameterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The parameter's name.
    public var parameter: String
    /// What is wrong with it.
    public var reason: String

    /// Creates the error.
    public init(parameter: String, reason: String) {
        self.parameter = parameter
        self.reason = reason
    }

    public var description: String { "\(parameter): \(reason)" }
}

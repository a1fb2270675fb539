import DockAPI
import DockLinks
import DockPolicy
import DockProtocol
import DockVocabulary

extension ClientRequest {
    /// What was asked, for the log: `velocity`, `tracking on`, `zoom`.
    var words: String {
        switch self {
        case .motion(.velocity, _, _): "velocity"
        case .motion(.orientation, _, _): "orientation"
        case .motion(.stop, _, _), .stop: "stop"
        case .motion(.animate(let kind), _, _): "animation \(kind.rawValue)"
        case .acquireControl: "request for control"
        case .releaseControl: "release of control"
        case .setSystemTracking(let enabled): "tracking \(enabled ? "on" : "off")"
        case .setLimits: "limits"
        case .setZoom: "zoom"
        case .setFramingMode: "framing"
        case .setShotSize: "shot size"
        case .setRegionOfInterest: "region of interest"
        case .selectSubjects: "subject selection"
        case .selectSubject: "subject at a point"
        case .track: "frame of observations"
        case .savePreset(let name): "saving of preset '\(name)'"
        case .listPresets: "list of presets"
        case .recallPreset(let name, _, _): "recall of preset '\(name)'"
        case .deletePreset(let name): "deletion of preset '\(name)'"
        case .setLostBehaviour: "lost behaviour"
        }
    }

    /// A `Track` frame: refused ones are logged at debug, since they come many a second.
    var isFrame: Bool {
        if case .track = self { true } else { false }
    }
}

extension HostError {
    /// Why, for the log: in words, with the wire's names for parameters.
    var words: String {
        switch self {
        case .notReady: "no dock is ready"
        case .busy(let holder): "client \(holder) holds control"
        case .invalid(.notFinite(let field)): "\(field.wireName) is not a finite number"
        case .invalid(.outOfRange(let field, let allowed)):
            "\(field.wireName) is outside \(allowed.lowerBound)...\(allowed.upperBound)"
        case .invalid(.notReady): "no dock is ready"
        case .invalidParameter(let parameter, let reason): "\(parameter) \(reason)"
        case .dockRefused(let reason, let detail): "the dock refused it (\(reason.name), detail \(detail))"
        case .dockFault(let fault): "the dock raised a fault (\(fault.code.name))"
        case .noSubjectFound: "no subject at that point"
        case .notSupported(let capability): "the dock has no \(capability) dockd can drive"
        case .noSuchPreset(let name): "there is no preset '\(name)'"
        case .presetsUnavailable(let file, let reason): "the presets file \(file) \(reason)"
        }
    }
}

import DockLinks
import DockProtocol

extension AccessoryEvent.Kind {
    /// How the log names a button or the dock sensor: `tracking button pressed`, `zoom +2`.
    var words: String {
        switch self {
        case .dockChanged(let isDocked): isDocked ? "camera docked" : "camera undocked"
        case .trackingButton(let pressed): "tracking button \(pressed ? "pressed" : "released")"
        case .shutterButton(let pressed): "shutter button \(pressed ? "pressed" : "released")"
        case .flipButton(let pressed): "flip button \(pressed ? "pressed" : "released")"
        case .zoom(let steps): "zoom \(steps > 0 ? "+" : "")\(steps)"
        case .customButton(let identifier, let pressed): "button \(identifier) \(pressed ? "pressed" : "released")"
        }
    }
}

extension AccessoryProtocol {
    /// What the log calls the device of an accessory of this protocol: a webcam is a camera, not a port.
    var deviceNoun: String {
        switch self {
        case .dockSerial: "dock's serial port"
        case .visca: "camera's connection"
        case .uvc: "camera"
        case .pelcoD: "head's serial port"
        case .digital: "crop"
        }
    }
}

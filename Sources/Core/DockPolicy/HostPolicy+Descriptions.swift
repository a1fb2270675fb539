public import DockLinks
import DockProtocol

extension ControlArbiter.Controller: CustomStringConvertible {
    /// How logs and `Watch` name the controller.
    public var description: String {
        switch self {
        case .none: "nobody"
        case .systemTracker: "system tracker"
        case .client(let client, let isExplicit): "client \(client)\(isExplicit ? " (acquired)" : "")"
        case .unattended(let client): "client \(client)'s motion (client gone)"
        }
    }
}

extension MotionFinish: CustomStringConvertible {
    /// How logs and `Watch` say a motion finished: in words, never the Swift case
    /// (`animationFinished(DockLinks.AnimationKind.kapow)`).
    public var description: String {
        switch self {
        case .velocityExpired: "its duration ran out"
        case .orientationReached: "reached"
        case .timedOut: "timed out before arriving"
        case .animationFinished(let kind): "\(kind.rawValue) finished"
        }
    }
}

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
        }
    }
}

extension Array {
    /// Keeps the last `count` elements.
    mutating func suffixInPlace(_ count: Int) {
        if self.count > count { removeFirst(self.count - count) }
    }
}

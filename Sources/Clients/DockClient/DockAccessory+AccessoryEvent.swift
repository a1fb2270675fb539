import DockAPI
import DockVocabulary

extension DockAccessory {
    /// A button or camera control on the dock, as DockKit's `DockAccessory.AccessoryEvent` names them.
    public enum AccessoryEvent: Hashable, Sendable {
        /// The shutter button was pressed.
        case cameraShutter
        /// The camera-flip button was pressed.
        case cameraFlip
        /// The zoom rocker moved this many steps (positive: in).
        case cameraZoom(steps: Int)
        /// A vendor's button went down or up.
        case button(id: Int, pressed: Bool)
        /// The tracking button went down or up.
        case trackingButton(pressed: Bool)
    }

    /// Events of this dock's buttons and camera controls (on the manager's connection).
    public var accessoryEvents: AsyncThrowingStream<AccessoryEvent, any Error> {
        get throws(DockClientError) {
            try watchEvents { event in
                // The event's own fields, never its text.
                guard case .button(let button) = event.payload else { return nil }
                switch button {
                case .trackingButton(let pressed): return .trackingButton(pressed: pressed)
                case .shutterButton(let pressed): return pressed ? .cameraShutter : nil
                case .flipButton(let pressed): return pressed ? .cameraFlip : nil
                case .zoom(let steps): return .cameraZoom(steps: Int(steps))
                case .customButton(let identifier, let pressed): return .button(id: Int(identifier), pressed: pressed)
                case .dockChanged: return nil
                }
            }
        }
    }
}

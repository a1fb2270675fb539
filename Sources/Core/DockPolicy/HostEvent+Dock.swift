import DockLinks
import DockNumbers
import DockProtocol
public import DockVocabulary

extension HostPolicy {
    /// What `Watch` says of `event` (nil: the periodic status) at `time`, with the status of that
    /// moment; `device` names the port. The event's line of text for people is made here too.
    public func clientEvent(_ event: HostEvent?, time: Duration, status: Dock.Status, device: String) -> Dock.Event {
        let payload: Dock.Event.Payload =
            switch event {
            case nil: .status
            case .attached(let info, _)?: .attached(accessory(info, device: device))
            case .docked?: .docked
            case .undocked?: .undocked
            case .disconnected?: .disconnected
            case .button(let button)?: .button(Dock.ButtonEvent(button))
            case .fault(let fault)?: .fault(Dock.Fault(fault))
            case .refused(let refusal)?:
                .refused(Dock.CommandRefusal(reason: refusal.reason.name, detail: Int(refusal.detail), command: refusal.command?.name))
            case .control(let change)?: .control(from: change.from, to: change.to)
            case .framing(let mode)?: .framing(mode)
            case .motionEnded(let owner, let ending)?: .motionEnded(client: owner, ending: Dock.MotionEnd(ending))
            }
        return Dock.Event(timeSeconds: time.secondsValue, payload: payload, detail: Self.detail(of: event, device: device), status: status)
    }

    /// An event's line of text for people.
    static func detail(of event: HostEvent?, device: String) -> String {
        switch event {
        case nil: return ""
        case .attached(let info, let isDocked)?: return "\(info.model) \(info.serialNumber), \(isDocked ? "docked" : "undocked")"
        case .docked?: return "camera mounted"
        case .undocked?: return "camera removed"
        case .disconnected?: return device
        case .button(let kind)?:
            switch kind {
            case .trackingButton(let pressed): return "tracking \(pressed ? "pressed" : "released")"
            case .shutterButton(let pressed): return "shutter \(pressed ? "pressed" : "released")"
            case .flipButton(let pressed): return "flip \(pressed ? "pressed" : "released")"
            case .zoom(let steps): return "zoom \(steps)"
            case .customButton(let identifier, let pressed): return "button \(identifier) \(pressed ? "pressed" : "released")"
            case .dockChanged(let isDocked): return isDocked ? "docked" : "undocked"
            }
        case .fault(let fault)?:
            return "\(fault.code.name)\(fault.axis.map { " on \($0.name)" } ?? "") " + (fault.isActive ? "raised" : "cleared")
        case .refused(let refusal)?:
            return "\(refusal.command.map { $0.name + " " } ?? "")refused: \(refusal.reason.name) detail \(refusal.detail)"
        case .control(let change)?:
            return "\(change.from) -> \(change.to)"
        case .framing(let mode)?:
            return mode.rawValue
        case .motionEnded(let owner, let ending)?:
            let how: String =
                switch ending {
                case .completed(let finish): "completed (\(finish))"
                case .replaced(let client): "replaced by client \(client)"
                case .stopped(let client?): "stopped by client \(client)"
                case .stopped(nil): "stopped"
                }
            return "client \(owner)'s motion \(how)"
        }
    }
}

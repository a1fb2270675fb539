import DockAPI

/// Human-readable forms of dockd's replies (radians shown with degrees alongside).
enum Presentation {
    static func degrees(_ radians: Double?) -> String {
        guard let radians else { return "?" }
        let degrees = (radians * 180 / .pi * 10).rounded() / 10
        return "\((radians * 1000).rounded() / 1000) rad (\(degrees)°)"
    }

    static func describe(_ method: DockMethod, _ reply: [String: JSONValue]) -> String {
        switch method {
        case .getStatus:
            guard case .object(let status)? = reply["status"] else { return "no status" }
            return summary(status)
        case .listAccessories:
            guard case .array(let list)? = reply["accessories"], !list.isEmpty else { return "no docks" }
            return list.map { value in
                "\(value["id"]?.stringValue ?? "?")  \(value["model"]?.stringValue ?? "?")  firmware \(value["firmware"]?.stringValue ?? "?")  on \(value["device"]?.stringValue ?? "?")"
            }.joined(separator: "\n")
        case .setLimits:
            guard case .object(let limits)? = reply["limits"] else { return "ok" }
            return limitsText(limits)
        case .setZoom:
            return "zoom \(reply["zoom"]?.doubleValue.map(round3) ?? "?")"
        case .selectSubjectAt:
            return "following subject \(reply["subject"]?.doubleValue.map { String(Int($0)) } ?? "?")"
        default:
            if case .object(let result)? = reply["result"] {
                var notes: [String] = []
                if case .array(let clamped)? = result["clamped"], !clamped.isEmpty {
                    notes.append("clamped to the limits: " + clamped.compactMap(\.stringValue).joined(separator: ", "))
                }
                if let cancelled = result["cancelled_animation"]?.stringValue { notes.append("cancelled \(cancelled)") }
                let head = result["ended"].map(ending) ?? "ok"
                return notes.isEmpty ? head : head + "; " + notes.joined(separator: "; ")
            }
            return "ok"
        }
    }

    /// How a motion ended, in a word or three: `reached`, `done`, `replaced by client 4`...
    static func ending(_ ended: JSONValue) -> String {
        let byClient = ended["by_client"]?.doubleValue.map { " by client \(Int($0))" } ?? ""
        switch ended["how"]?.stringValue {
        case "completed":
            switch ended["finish"]?.stringValue {
            case "reached": return "reached"
            case "timed_out": return "timed out before arriving"
            default: return "done"
            }
        case "replaced": return "replaced" + byClient
        case "stopped": return "stopped" + byClient
        default: return "ended"
        }
    }

    static func limitsText(_ limits: [String: JSONValue]) -> String {
        "yaw \(limits["yaw"]?["min"]?.doubleValue.map(round3) ?? "?")...\(limits["yaw"]?["max"]?.doubleValue.map(round3) ?? "?") rad, "
            + "pitch \(limits["pitch"]?["min"]?.doubleValue.map(round3) ?? "?")...\(limits["pitch"]?["max"]?.doubleValue.map(round3) ?? "?") rad, "
            + "speed ≤ \(limits["yaw_max_speed"]?.doubleValue.map(round3) ?? "?") / \(limits["pitch_max_speed"]?.doubleValue.map(round3) ?? "?") rad/s"
    }

    static func round3(_ value: Double) -> String { String((value * 1000).rounded() / 1000) }

    static func summary(_ status: [String: JSONValue]) -> String {
        var lines: [String] = []
        let name = status["accessory"].map { "\($0["model"]?.stringValue ?? "?") (\($0["id"]?.stringValue ?? "?")) on \($0["device"]?.stringValue ?? "?")" } ?? "no dock"
        lines.append("dock:       \(name)")
        lines.append("state:      \(status["state"]?.stringValue ?? "?"), \(status["docked"]?.boolValue == true ? "docked" : "undocked")")
        if case .object(let accessory)? = status["accessory"] {
            let names = { (key: String) -> String in
                guard case .array(let items)? = accessory[key] else { return "" }
                return items.compactMap { $0.stringValue }.joined(separator: ", ")
            }
            lines.append("protocol:   \(accessory["protocol"]?.stringValue ?? "?")")
            lines.append("can:        \(names("capabilities").isEmpty ? "none" : names("capabilities"))")
            lines.append("cannot:     \(names("lacks").isEmpty ? "nothing listed" : names("lacks"))")
        }
        if case .object(let pose)? = status["pose"] {
            lines.append("yaw:        \(degrees(pose["yaw"]?.doubleValue)), \(round3(pose["yaw_rate"]?.doubleValue ?? 0)) rad/s")
            lines.append("pitch:      \(degrees(pose["pitch"]?.doubleValue)), \(round3(pose["pitch_rate"]?.doubleValue ?? 0)) rad/s")
            if let age = pose["age"]?.doubleValue { lines.append("pose age:   \(Int((age * 1000).rounded())) ms") }
        }
        if case .object(let limits)? = status["limits"] { lines.append("limits:     \(limitsText(limits))") }
        lines.append("tracking:   \(status["tracking"]?.boolValue == true ? "on" : "off"), framing \(status["framing"]?.stringValue ?? "?")")
        if case .object(let controller)? = status["controller"] {
            let kind = controller["kind"]?.stringValue ?? "?"
            let client = controller["client"]?.doubleValue.map { " \(Int($0))" } ?? ""
            lines.append("controller: \(kind)\(client)\(controller["acquired"]?.boolValue == true ? " (acquired)" : "")")
        }
        lines.append("motion:     \(status["motion"]?.stringValue ?? "?")")
        if case .array(let faults)? = status["faults"], !faults.isEmpty {
            lines.append("faults:     " + faults.map { fault in
                (fault["code"]?.stringValue ?? "?") + (fault["axis"]?.stringValue.map { " on \($0)" } ?? "")
            }.joined(separator: ", "))
        }
        let primary = status["primary"]?.doubleValue.map { ", subject \(Int($0))" } ?? ""
        let inFrame = status["subject_in_frame"]?.boolValue == true ? ", in frame" : ""
        lines.append("tracker:    \(status["tracker"]?.stringValue ?? "?")\(primary)\(inFrame)")
        if case .array(let subjects)? = status["subjects"] {
            for case .object(let subject) in subjects {
                let id = subject["id"]?.doubleValue.map { String(Int($0)) } ?? "?"
                var box = "behind the camera"
                if case .object(let rect)? = subject["box"] {
                    box = "box " + ["x", "y", "width", "height"].map { round3(rect[$0]?.doubleValue ?? 0) }.joined(separator: " ")
                }
                let flags = (subject["primary"]?.boolValue == true ? " primary" : "") + (subject["coasting"]?.boolValue == true ? " coasting" : "")
                lines.append("  subject \(id): \(subject["kind"]?.stringValue ?? "?"), \(box), saliency #\(Int(subject["saliency_rank"]?.doubleValue ?? 0))\(flags)")
            }
        }
        if case .object(let counters)? = status["counters"] {
            lines.append("counters:   bad frames \(Int(counters["bad_frames"]?.doubleValue ?? 0)), reconnects \(Int(counters["reconnects"]?.doubleValue ?? 0)), refusals \(Int(counters["refusals"]?.doubleValue ?? 0))")
        }
        return lines.joined(separator: "\n")
    }

    static func live(_ status: [String: JSONValue], recent: [String]) -> String {
        summary(status) + "\n\nrecent events:\n" + (recent.isEmpty ? "  none\n" : recent.map { "  \($0)\n" }.joined())
    }
}

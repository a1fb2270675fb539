import DockAPI
import DockNumbers
import DockVocabulary

/// Human-readable forms of dockd's replies (radians shown with degrees alongside).
enum Presentation {
    static func degrees(_ radians: Double) -> String {
        // + 0 turns a negative zero (a pose of -1e-9 rounded) into 0: no "-0.0" is shown.
        let degrees = (radians * 180 / .pi * 10).rounded() / 10 + 0
        return "\((radians * 1000).rounded() / 1000 + 0) rad (\(degrees)°)"
    }

    static func describe(_ reply: Dock.Reply) -> String {
        switch reply {
        case .status(let status):
            return summary(status)
        case .accessories(let list):
            guard !list.isEmpty else { return "no accessories" }
            return list.map { entry in
                "\(entry.name)  \(entry.state.rawValue)  \(entry.device)"
                    + (entry.accessory.map { "  \($0.identifier)  \($0.model)  firmware \($0.firmwareVersion)" } ?? "")
            }.joined(separator: "\n")
        case .limits(let limits):
            return limitsText(limits)
        case .subject(let subject):
            return "following subject \(subject)"
        case .region(let region):
            return
                "region in force: x \(round3(region.x)) y \(round3(region.y)) width \(round3(region.width)) height \(round3(region.height))"
        case .selection(let untracked):
            return untracked.isEmpty ? "ok" : "ok, but no subject tracked now has ID " + untracked.map(String.init).joined(separator: ", ")
        case .zoom(let zoom):
            return "zoom \(round3(zoom))"
        case .motion(let result):
            return motion(result, clamped: result.clamped)
        case .preset(let preset):
            return "saved " + presetLine(preset)
        case .presets(let presets):
            return presets.isEmpty ? "no presets" : presets.map(presetLine).joined(separator: "\n")
        case .lostBehaviour(let behaviour):
            return "when the subject is lost: after \(behaviour.after.secondsValue) s, \(behaviour.action.setting)"
        case .framingSpeed(let state):
            return framingSpeedText(state)
        case .done, .event:
            return "ok"
        }
    }

    /// A preset on one line: its name, pose and zoom.
    static func presetLine(_ preset: Preset) -> String {
        "\(preset.name): yaw \(degrees(preset.yawRadians)), pitch \(degrees(preset.pitchRadians))"
            + (preset.zoomFraction.map { ", zoom \(round3($0))" } ?? "")
    }

    /// How a motion ended, with what was `clamped` to the limits (each named with its limit where
    /// dockctl knows it) and the animation it cancelled.
    static func motion(_ result: Dock.MotionResult, clamped: [String]) -> String {
        var notes: [String] = []
        if !clamped.isEmpty { notes.append("clamped to the limits: " + clamped.joined(separator: ", ")) }
        if let cancelled = result.cancelledAnimation { notes.append("cancelled \(cancelled.rawValue)") }
        let head = result.ended.map(ending) ?? "ok"
        return notes.isEmpty ? head : head + "; " + notes.joined(separator: "; ")
    }

    /// How a motion ended, in a word or three: `reached`, `done`, `replaced by client 4`...
    static func ending(_ ended: Dock.MotionEnd) -> String {
        switch ended {
        case .completed(.reached): "reached"
        case .completed(.timedOut): "timed out before arriving"
        case .completed(.expired), .completed(.finished): "done"
        case .replaced(let client): "replaced by client \(client)"
        case .stopped(let client): "stopped" + (client.map { " by client \($0)" } ?? "")
        }
    }

    static func limitsText(_ limits: Dock.Limits) -> String {
        "yaw \(round3(limits.yawRadians.lowerBound))...\(round3(limits.yawRadians.upperBound)) rad, "
            + "pitch \(round3(limits.pitchRadians.lowerBound))...\(round3(limits.pitchRadians.upperBound)) rad, "
            + "speed ≤ \(round3(limits.yawSpeedRadiansPerSecond)) / \(round3(limits.pitchSpeedRadiansPerSecond)) rad/s"
    }

    /// The framing speed in force, and as applied where the dock's limits narrow it.
    static func framingSpeedText(_ state: Dock.FramingSpeedState) -> String {
        func axis(_ a: FramingSpeed.Axis) -> String {
            "\(round3(a.maximumSpeedRadiansPerSecond)) rad/s, \(round3(a.maximumAccelerationRadiansPerSecondSquared)) rad/s², "
                + "dead band \(round3(a.deadBandRadians)) rad"
        }
        var text = "\(state.speed.profile.rawValue): yaw \(axis(state.speed.yaw)); pitch \(axis(state.speed.pitch))"
        if let applied = state.applied, applied != state.speed {
            text += "\napplied (the dock's limits): yaw \(axis(applied.yaw)); pitch \(axis(applied.pitch))"
        }
        return text
    }

    static func round3(_ value: Double) -> String { String((value * 1000).rounded() / 1000 + 0) }

    static func summary(_ status: Dock.Status) -> String {
        var lines: [String] = []
        let name = status.accessory.map { "\($0.model) (\($0.identifier)) on \($0.device)" } ?? "no dock"
        lines.append("dock:       \(name)")
        lines.append("state:      \(status.state.rawValue), \(status.isDocked ? "docked" : "undocked")")
        if let accessory = status.accessory {
            lines.append("protocol:   \(accessory.protocolName)")
            lines.append("can:        \(accessory.capabilities.isEmpty ? "none" : accessory.capabilities.joined(separator: ", "))")
            lines.append("cannot:     \(accessory.lacks.isEmpty ? "nothing listed" : accessory.lacks.joined(separator: ", "))")
        }
        if let pose = status.pose {
            lines.append("yaw:        \(degrees(pose.yawRadians)), \(round3(pose.yawRadiansPerSecond)) rad/s")
            lines.append("pitch:      \(degrees(pose.pitchRadians)), \(round3(pose.pitchRadiansPerSecond)) rad/s")
            if let age = pose.ageSeconds { lines.append("pose age:   \(Int((age * 1000).rounded())) ms") }
        }
        if let limits = status.limits { lines.append("limits:     \(limitsText(limits))") }
        lines.append("tracking:   \(tracking(status))")
        lines.append("framing:    \(status.framingMode.rawValue)")
        if let speed = status.framingSpeed { lines.append("speed:      \(speed.speed.profile.rawValue)") }
        lines.append("shot:       \(status.shotSize.setting)")
        let controller: String =
            switch status.controller {
            case .none, .systemTracker: status.controller.kind.rawValue
            case .client(let client, let isExplicit): "client \(client)\(isExplicit ? " (acquired)" : "")"
            case .unattended(let client): "unattended \(client)"
            }
        lines.append("controller: \(controller)")
        lines.append("motion:     \(status.motion.rawValue)")
        if !status.faults.isEmpty {
            lines.append(
                "faults:     " + status.faults.map { $0.code + ($0.axis.map { " on \($0.rawValue)" } ?? "") }.joined(separator: ", "))
        }
        for subject in status.subjects {
            let box =
                subject.box.map { "box " + [$0.x, $0.y, $0.width, $0.height].map(round3).joined(separator: " ") } ?? "behind the camera"
            let flags = (subject.isPrimary ? " primary" : "") + (subject.isCoasting ? " coasting" : "")
            lines.append("  subject \(subject.identifier): \(subject.kind.rawValue), \(box), saliency #\(subject.saliencyRank)\(flags)")
        }
        let counters = status.counters
        lines.append("counters:   bad frames \(counters.badFrames), reconnects \(counters.reconnects), refusals \(counters.refusals)")
        return lines.joined(separator: "\n")
    }

    /// Tracking's state as one thing: whether dockd moves the dock to follow, and what the
    /// tracker sees (it watches whether tracking is on or off); with tracking on and no
    /// observation ever received, where they come from.
    static func tracking(_ status: Dock.Status) -> String {
        let subject = status.primary.map { "subject \($0)" + (status.isSubjectInFrame ? " (in frame)" : " (out of the region)") }
        guard status.isTrackingEnabled else {
            return subject.map { "off, watching \($0); dockctl track on follows them" } ?? "off"
        }
        let holder: String? =
            switch status.controller {
            case .client(let client, _), .unattended(let client): "client \(client) holds control, so nothing is followed until it lets go"
            case .none, .systemTracker: nil
            }
        if let holder { return "on, but \(holder)" }
        switch status.tracker {
        case .following: return "on, following " + (subject ?? "the subject")
        case .holding: return "on, holding still where the subject was lost"
        case .returning: return "on, turning back to rest: the subject was lost"
        case .paused: return "on, leaving the dock where a client moved it for a moment (manual-pause-s)"
        case .idle:
            guard status.counters.observations == 0 else { return "on, watching: nobody to follow" }
            return "on, but no observations have arrived: boxes come from dockd-vision, an app's Track, "
                + "or docksim --camera"
        }
    }

    static func live(_ status: Dock.Status, recent: [String]) -> String {
        summary(status) + "\n\nrecent events:\n" + (recent.isEmpty ? "  none\n" : recent.map { "  \($0)\n" }.joined())
    }

    /// `watch`'s live view of every accessory heard from, in the order first heard: one alone as
    /// ``live(_:recent:)`` shows it; several each under its name, then the recent events.
    static func live(_ statuses: [(name: String, status: Dock.Status)], recent: [String]) -> String {
        guard statuses.count > 1 else { return statuses.first.map { live($0.status, recent: recent) } ?? "" }
        return statuses.map { "[\($0.name)]\n" + summary($0.status) + "\n" }.joined(separator: "\n") + "\nrecent events:\n"
            + (recent.isEmpty ? "  none\n" : recent.map { "  \($0)\n" }.joined())
    }

    /// What `watch` shows of the latest event: the statuses heard so far with this event's, and
    /// the recent events with this one's (named after its accessory when there are several), the
    /// last eight.
    static func heard(
        _ event: Dock.Event, statuses: inout [(name: String, status: Dock.Status)], recent: inout [String]
    ) {
        let name = event.accessoryName ?? ""
        if let index = statuses.firstIndex(where: { $0.name == name }) {
            statuses[index].status = event.status
        } else {
            statuses.append((name, event.status))
        }
        guard event.kind != .status else { return }
        recent.append((statuses.count > 1 ? "\(name) " : "") + "\(event.kind.rawValue): \(event.detail)")
        recent = Array(recent.suffix(8))
    }

    /// What `select` did when some of the subjects asked for are not tracked: dockd keeps the
    /// selection (a subject of that ID may yet appear) but follows none of them now.
    /// What `select` did, from dockd's answer: the IDs it keeps that no subject tracked now has.
    static func selection(_ asked: [Int], untracked: [Int]) -> String {
        guard !untracked.isEmpty else { return "ok" }
        let subjects = untracked.map(String.init).joined(separator: ", ")
        let followed = untracked.count == asked.count ? "none of them" : "the others"
        return "ok, but no subject tracked now has ID \(subjects); dockd keeps the choice and follows \(followed) until one appears"
    }

    /// What `roi` kept of a region that reaches past the picture's edge.
    static func region(asked: NormalizedRect, kept: NormalizedRect) -> String {
        guard asked != kept else { return "ok" }
        return "ok; the region reaches past the picture's edge: kept x \(round3(kept.x)) y \(round3(kept.y)) "
            + "width \(round3(kept.width)) height \(round3(kept.height))"
    }
}

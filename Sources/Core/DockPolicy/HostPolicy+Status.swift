import DockLinks
import DockNumbers
public import DockProtocol
import DockTracking
public import DockVocabulary

extension HostPolicy {
    /// Everything a client may ask about the dock at `now`, in the API's one status model;
    /// `device` names the port. The link's state, the motion controller's activity and the
    /// tracker's are each mapped to the API's names here, and only here. The loop's figures are
    /// the shell's to fill in (`loop()`).
    public func status(now: Duration, device: String) -> Dock.Status {
        let state: Dock.Status.State
        var isDocked = false
        switch session.state {
        case .disconnected: state = .disconnected
        case .connecting: state = .connecting
        case .handshaking: state = .handshaking
        case .incompatible: state = .incompatible
        case .ready(let docked):
            state = .ready
            isDocked = docked
        }
        let motionState: Dock.Status.Motion
        switch motion.activity {
        case .idle: motionState = .idle
        case .velocity: motionState = .velocity
        case .moving: motionState = .moving
        case .animating: motionState = .animating
        case .settling: motionState = .settling
        }
        var trackerState: Dock.Status.Tracker
        switch trackingStep?.activity ?? .idle {
        case .idle: trackerState = .idle
        case .following: trackerState = .following
        case .holding: trackerState = .holding
        case .returning: trackerState = .returning
        }
        if arbiter.controller == .systemTracker, let moved = lastManualMoveAt, now - moved < settings.manualMovePause {
            trackerState = .paused
        }
        let pose = session.state == .disconnected ? nil : session.pose(at: now)
        let age = pose == nil ? nil : session.poseAge(at: now)
        var status = Dock.Status(
            state: state, isDocked: isDocked, accessory: session.info.map { accessory($0, device: device) },
            pose: pose.map {
                Dock.Pose(
                    yawRadians: $0.yawRadians, pitchRadians: $0.pitchRadians, yawRadiansPerSecond: $0.yawRadiansPerSecond,
                    pitchRadiansPerSecond: $0.pitchRadiansPerSecond, ageSeconds: age?.secondsValue)
            },
            limits: limits.map(Dock.Limits.init), isTrackingEnabled: arbiter.isSystemTrackingEnabled, framingMode: framingMode,
            regionOfInterest: regionOfInterest, selectedSubjects: selectedSubjects, controller: arbiter.controller,
            motion: motionState, faults: activeFaults.map(Dock.Fault.init), tracker: trackerState,
            isSubjectInFrame: trackingStep?.isSubjectInFrame ?? false, primary: pipeline.primary,
            subjects: pose.map { pipeline.summaries(gimbalYawRadians: $0.yawRadians, gimbalPitchRadians: $0.pitchRadians, now: now) } ?? [],
            loop: .none,
            counters: Dock.Counters(
                badFrames: session.badFrameCount, reconnects: session.disconnectCount, refusals: session.refusalCount,
                observations: observationCount, cameraFrames: cameraFrameCount), shotSize: pipeline.shotSize)
        status.framingSpeed = framingSpeedState
        status.crop = session.state == .disconnected ? nil : session.cropWindow(at: now)
        return status
    }

    /// The accessory `info` describes, on `device`, as clients see it: the protocol the link
    /// speaks (its wire name) and what it can and cannot do.
    public func accessory(_ info: AccessoryInfo, device: String) -> Dock.Accessory {
        let capabilities = session.capabilities
        return Dock.Accessory(
            identifier: info.serialNumber, device: device, model: info.model, firmwareVersion: info.firmwareVersion,
            protocolName: session.accessoryProtocol.name, protocolVersion: Int(info.protocolVersion),
            capabilities: capabilities.names,
            lacks: AccessoryCapabilities.named.filter { !capabilities.contains($0.capability) }.map(\.name))
    }

    /// A one-line summary for `STATUS=` and logs; `device` names the port.
    public func summary(device: String) -> String {
        let tracking = arbiter.isSystemTrackingEnabled ? "tracking on" : "tracking off"
        switch session.state {
        case .disconnected, .connecting: return "waiting for \(device); \(tracking)"
        case .handshaking: return "handshaking with \(device)"
        case .incompatible: return "\(device) is not a dock dockd can run (see the log)"
        case .ready(let isDocked):
            let name = session.info.map { "\($0.model) \($0.serialNumber)" } ?? device
            return "\(name) ready, \(isDocked ? "docked" : "undocked"); \(tracking); bad frames \(session.badFrameCount), "
                + "reconnects \(session.disconnectCount)"
                + (activeFaults.isEmpty ? "" : "; faults: " + activeFaults.map(\.code.name).joined(separator: ", "))
        }
    }
}

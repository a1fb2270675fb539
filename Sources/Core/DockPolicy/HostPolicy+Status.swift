import DockLinks
import DockProtocol
import DockTracking

extension HostPolicy {
    /// Everything a client may ask about the dock at `now`; `device` names the port.
    public func status(now: Duration, device: String) -> DockStatus {
        let state: DockStatus.State
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
        let motionState: DockStatus.Motion
        switch motion.activity {
        case .idle: motionState = .idle
        case .velocity: motionState = .velocity
        case .moving: motionState = .moving
        case .animating: motionState = .animating
        case .settling: motionState = .settling
        }
        let pose = session.state == .disconnected ? nil : session.pose(at: now)
        let trackerState: DockStatus.Tracker
        switch trackingStep?.activity ?? .idle {
        case .idle: trackerState = .idle
        case .following: trackerState = .following
        case .holding: trackerState = .holding
        case .returning: trackerState = .returning
        }
        var status = DockStatus(
            state: state, isDocked: isDocked, info: session.info, device: device, pose: pose, limits: limits,
            isTrackingEnabled: arbiter.isSystemTrackingEnabled, framingMode: framingMode, regionOfInterest: regionOfInterest,
            selectedSubjects: selectedSubjects, controller: arbiter.controller, motion: motionState, faults: activeFaults,
            badFrames: session.badFrameCount, reconnects: session.disconnectCount, refusals: session.refusalCount,
            observations: observationCount, cameraFrames: cameraFrameCount,
            subjects: pose.map { pipeline.summaries(gimbalYawRadians: $0.yawRadians, gimbalPitchRadians: $0.pitchRadians, now: now) } ?? [],
            primary: pipeline.primary, tracker: trackerState, isSubjectInFrame: trackingStep?.isSubjectInFrame ?? false)
        status.protocolName = session.accessoryProtocol.name
        status.capabilities = session.capabilities
        status.poseAge = pose == nil ? nil : session.poseAge(at: now)
        return status
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

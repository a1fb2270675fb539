import DockLinks
import DockLogLevel
import DockTracking
public import DockVocabulary

/// The framing speed: how fast and how readily the tracker turns the dock (`FramingSpeed`), set
/// from the settings and by clients.
extension HostPolicy {
    /// The framing speed in force, and as the tracker applies it (narrowed to the dock's limits;
    /// nil before a dock is attached).
    public var framingSpeedState: Dock.FramingSpeedState {
        var applied: FramingSpeed?
        if let limits {
            // The controller's own rule, on the limits in force now.
            var controller = FramingController()
            controller.speed = settings.framingSpeed
            controller.isAccessoryAccelerationAdvertised = session.accessoryProtocol.advertisesAcceleration
            controller.accessorySpeedRadiansPerSecond = (limits.yawSpeedRadiansPerSecond, limits.pitchSpeedRadiansPerSecond)
            controller.accessoryAccelerationRadiansPerSecondSquared = (
                limits.yawAccelerationRadiansPerSecondSquared, limits.pitchAccelerationRadiansPerSecondSquared
            )
            let axes = controller.limits
            applied = FramingSpeed(profile: settings.framingSpeed.profile, yaw: axes.yaw, pitch: axes.pitch)
        }
        return Dock.FramingSpeedState(speed: settings.framingSpeed, applied: applied)
    }

    /// A client changes the framing speed: all of the change, or none of it (InvalidParameter
    /// naming the first parameter that is wrong).
    mutating func setFramingSpeed(
        _ change: FramingSpeedChange, token: RequestToken, client: ClientID, into actions: inout [HostAction]
    ) {
        do {
            let speed = try settings.framingSpeed.changed(by: change)
            if speed != settings.framingSpeed {
                settings.framingSpeed = speed
                applyPipelineSettings()
                log(.notice, "framing speed: \(speed.summary) (client \(client))", into: &actions)
            }
            actions.append(.reply(token, .framingSpeed(framingSpeedState)))
        } catch {
            actions.append(.reply(token, .failure(.invalidParameter(error.parameter, reason: error.description))))
        }
    }
}

extension FramingSpeed {
    /// The profile and numbers in a line of the log.
    var summary: String {
        func axis(_ a: Axis) -> String {
            "\(a.maximumSpeedRadiansPerSecond) rad/s, \(a.maximumAccelerationRadiansPerSecondSquared) rad/s², "
                + "dead band \(a.deadBandRadians) rad"
        }
        return "\(profile.rawValue) (yaw \(axis(yaw)); pitch \(axis(pitch)))"
    }
}

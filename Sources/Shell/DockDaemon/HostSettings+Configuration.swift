import DockLinks
public import DockPolicy
import DockTracking
public import DockVocabulary

extension Configuration {
    /// The settings the host's policy takes from the daemon's configuration.
    public var hostSettings: HostSettings {
        let degree = Double.pi / 180
        var settings = HostSettings()
        settings.isTrackingEnabled = tracking
        settings.wakesOnAttach = wakesOnAttach
        settings.limits = LimitRequest(
            yawRadians: yawMinimumDegrees * degree...yawMaximumDegrees * degree,
            pitchRadians: pitchMinimumDegrees * degree...pitchMaximumDegrees * degree,
            yawSpeedRadiansPerSecond: maximumSpeedDegreesPerSecond * degree,
            pitchSpeedRadiansPerSecond: maximumSpeedDegreesPerSecond * degree)
        settings.lostBehaviour = LostBehaviour(after: .milliseconds(Int64((lostAfterSeconds * 1000).rounded())), action: lostAction)
        settings.framingSpeed = framingSpeedSetting
        settings.shotSize = shotSize
        settings.manualMovePause = .milliseconds(Int64((manualPauseSeconds * 1000).rounded()))
        settings.restYawRadians = restYawDegrees * degree
        settings.restPitchRadians = restPitchDegrees * degree
        settings.reidentificationWindow = .milliseconds(Int64((reidentificationWindowSeconds * 1000).rounded()))
        return settings
    }
}

extension Configuration {
    /// The framing speed the settings give: `framingSpeed`'s profile with the numbers set (each
    /// key's range is the API's, so it always applies).
    public var framingSpeedSetting: FramingSpeed {
        let degree = Double.pi / 180
        let change = FramingSpeedChange(
            yawMaximumSpeed: framingYawMaximumDegreesPerSecond.map { $0 * degree },
            yawAcceleration: framingYawAccelerationDegreesPerSecondSquared.map { $0 * degree },
            yawDeadBand: framingYawDeadBandDegrees.map { min($0 * degree, FramingSpeed.widestDeadBandRadians) },
            pitchMaximumSpeed: framingPitchMaximumDegreesPerSecond.map { $0 * degree },
            pitchAcceleration: framingPitchAccelerationDegreesPerSecondSquared.map { $0 * degree },
            pitchDeadBand: framingPitchDeadBandDegrees.map { min($0 * degree, FramingSpeed.widestDeadBandRadians) })
        return (try? FramingSpeed(framingSpeed).changed(by: change)) ?? FramingSpeed(framingSpeed)
    }
}

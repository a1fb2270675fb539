import DockLinks
public import DockPolicy
import DockTracking
import DockVocabulary

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
        settings.shotSize = shotSize
        settings.manualMovePause = .milliseconds(Int64((manualPauseSeconds * 1000).rounded()))
        settings.restYawRadians = restYawDegrees * degree
        settings.restPitchRadians = restPitchDegrees * degree
        settings.reidentificationWindow = .milliseconds(Int64((reidentificationWindowSeconds * 1000).rounded()))
        return settings
    }
}

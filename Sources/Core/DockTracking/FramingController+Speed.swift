public import DockVocabulary

extension FramingController {
    /// Each axis's speed, acceleration and least dead band as the controller applies them: the
    /// framing speed's (`speed`; without one the configuration's), the speed narrowed to the
    /// accessory's where it is less, the acceleration too where the accessory advertises it
    /// (`isAccessoryAccelerationAdvertised`); a value that is not a positive number is none.
    public var limits: (yaw: FramingSpeed.Axis, pitch: FramingSpeed.Axis) {
        let own = speed ?? configuration.framingSpeed
        let advertised = isAccessoryAccelerationAdvertised ? accessoryAccelerationRadiansPerSecondSquared : nil
        func narrowed(_ axis: FramingSpeed.Axis, speed: Double?, acceleration: Double?) -> FramingSpeed.Axis {
            func least(_ own: Double, _ advertised: Double?) -> Double {
                guard let advertised, advertised.isFinite, advertised > 0 else { return own }
                return min(own, advertised)
            }
            var result = axis
            result.maximumSpeedRadiansPerSecond = least(axis.maximumSpeedRadiansPerSecond, speed)
            result.maximumAccelerationRadiansPerSecondSquared = least(axis.maximumAccelerationRadiansPerSecondSquared, acceleration)
            return result
        }
        return (
            narrowed(
                own.yaw, speed: accessorySpeedRadiansPerSecond?.yaw, acceleration: advertised?.yaw),
            narrowed(own.pitch, speed: accessorySpeedRadiansPerSecond?.pitch, acceleration: advertised?.pitch)
        )
    }
}

extension FramingController.Configuration {
    /// This configuration's speed, acceleration and least dead band as a framing speed, the same
    /// on both axes (profile `normal`: the defaults are its numbers).
    public var framingSpeed: FramingSpeed {
        let axis = FramingSpeed.Axis(
            maximumSpeedRadiansPerSecond: maximumSpeedRadiansPerSecond,
            maximumAccelerationRadiansPerSecondSquared: maximumAccelerationRadiansPerSecondSquared, deadBandRadians: deadBandRadians)
        return FramingSpeed(profile: .normal, yaw: axis, pitch: axis)
    }
}

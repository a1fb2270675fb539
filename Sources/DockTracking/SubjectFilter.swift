#if canImport(Glibc)
import Glibc
#endif

/// An extended Kalman filter for one subject, in the dock's fixed angular frame.
///
/// State x = [yaw, pitch, yaw rate, pitch rate, angular width, angular height] (rad, rad/s). The
/// motion model is constant velocity for the direction (white-noise acceleration of standard
/// deviation `accelerationNoise`, rad/s², per axis) and a random walk for the size
/// (`sizeNoise`, rad/√s). The measurement is a box in the delivered image,
/// z = [centre x, centre y, width, height] (normalised), and h(x) is `AngularBox.project` with the
/// gimbal pose at the frame's capture time — non-linear, hence the EKF: its Jacobian H is taken by
/// central differences of h. Measurement noise is `boxNoise` × the box's size (plus a floor), as
/// detectors err in proportion to what they see. The update is in Joseph form, (I − KH)P(I − KH)ᵀ +
/// KRKᵀ, and P is symmetrised afterwards, so it stays positive definite in floating point. Fixed-size
/// storage: no heap allocation per step.
public struct SubjectFilter: Sendable {
    /// Noise settings.
    public struct Noise: Hashable, Sendable {
        /// Standard deviation of the subject's angular acceleration, rad/s².
        public var accelerationNoise: Double = 2.0
        /// Random-walk rate of the angular size, rad/√s.
        public var sizeNoise: Double = 0.05
        /// Standard deviation of a box's centre and size, as a fraction of its size.
        public var boxNoise: Double = 0.05
        /// The least standard deviation of any box coordinate (normalised units).
        public var boxNoiseFloor: Double = 0.003

        public init() {}
    }

    /// The state estimate.
    public private(set) var state: InlineArray<6, Double>
    /// Its covariance, row-major 6 × 6.
    public private(set) var covariance: InlineArray<36, Double>
    /// The noise settings.
    public let noise: Noise

    /// Starts a filter from a first observation's angular box: direction and size known to the
    /// measurement's accuracy, rates unknown (standard deviation 1 rad/s).
    public init(first: AngularBox, noise: Noise = Noise()) {
        self.noise = noise
        state = [first.yawRadians, first.pitchRadians, 0, 0, first.widthRadians, first.heightRadians]
        covariance = InlineArray(repeating: 0)
        let angle = max(first.widthRadians, first.heightRadians) * noise.boxNoise + 0.005
        let variances: [Double] = [angle * angle, angle * angle, 1, 1, angle * angle, angle * angle]
        for index in 0..<6 { covariance[index * 7] = variances[index] }
    }

    /// The estimate as an angular box.
    public var angularBox: AngularBox {
        AngularBox(yawRadians: state[0], pitchRadians: state[1], widthRadians: state[4], heightRadians: state[5])
    }

    /// The estimated angular rates, rad/s.
    public var rates: (yawRadiansPerSecond: Double, pitchRadiansPerSecond: Double) { (state[2], state[3]) }

    /// Moves the estimate `seconds` ahead (negative or non-finite steps do nothing; long ones are
    /// capped at a second, beyond which the model means nothing).
    public mutating func predict(seconds: Double) {
        guard seconds.isFinite, seconds > 0 else { return }
        let dt = min(seconds, 1)
        state[0] += state[2] * dt
        state[1] += state[3] * dt
        // P = F P Fᵀ + Q with F = I + dt on (0,2) and (1,3).
        var next = covariance
        for row in 0..<6 {
            for column in 0..<6 {
                var value = covariance[row * 6 + column]
                if row < 2 { value += dt * covariance[(row + 2) * 6 + column] }
                if column < 2 { value += dt * covariance[row * 6 + column + 2] }
                if row < 2, column < 2 { value += dt * dt * covariance[(row + 2) * 6 + column + 2] }
                next[row * 6 + column] = value
            }
        }
        let q = noise.accelerationNoise * noise.accelerationNoise
        for axis in 0..<2 {
            next[axis * 7] += q * dt * dt * dt * dt / 4
            next[axis * 6 + axis + 2] += q * dt * dt * dt / 2
            next[(axis + 2) * 6 + axis] += q * dt * dt * dt / 2
            next[(axis + 2) * 7] += q * dt * dt
        }
        next[4 * 7] += noise.sizeNoise * noise.sizeNoise * dt
        next[5 * 7] += noise.sizeNoise * noise.sizeNoise * dt
        covariance = next
    }

    /// The box the filter expects for a camera and gimbal pose (h(x)), as [cx, cy, w, h].
    func expectedMeasurement(_ state: InlineArray<6, Double>, camera: CameraInformation,
                             gimbalYawRadians: Double, gimbalPitchRadians: Double) -> InlineArray<4, Double>? {
        let box = AngularBox(yawRadians: state[0], pitchRadians: state[1], widthRadians: state[4], heightRadians: state[5])
        guard let rect = box.project(camera: camera, gimbalYawRadians: gimbalYawRadians, gimbalPitchRadians: gimbalPitchRadians)
        else { return nil }
        return [rect.center.x, rect.center.y, rect.width, rect.height]
    }

    /// The squared Mahalanobis distance of a box from the prediction, for gating; nil when the
    /// box is not usable or the subject projects behind the camera.
    public func distance(to box: NormalizedRect, camera: CameraInformation, gimbalYawRadians: Double,
                         gimbalPitchRadians: Double, lagSeconds: Double = 0) -> Double? {
        guard let (innovation, s, _) = innovation(box, camera: camera, yaw: gimbalYawRadians, pitch: gimbalPitchRadians,
                                                  lag: lagSeconds),
            let inverse = invert4(s)
        else { return nil }
        var total = 0.0
        for row in 0..<4 {
            for column in 0..<4 { total += innovation[row] * inverse[row * 4 + column] * innovation[column] }
        }
        return total
    }

    /// Fuses a box observed with the gimbal at the given pose; returns false (and changes nothing)
    /// for a box that is not finite, has no size, or cannot be explained (subject behind the camera).
    /// A late box (captured `lagSeconds` before the filter's time) is compared with the estimate
    /// moved back by that lag along its rates, and the correction applied now — the usual
    /// one-step treatment of an out-of-sequence measurement.
    @discardableResult
    public mutating func update(with box: NormalizedRect, camera: CameraInformation, gimbalYawRadians: Double,
                                gimbalPitchRadians: Double, lagSeconds: Double = 0) -> Bool {
        guard let (innovation, s, h) = innovation(box, camera: camera, yaw: gimbalYawRadians, pitch: gimbalPitchRadians,
                                                  lag: lagSeconds),
            let inverse = invert4(s)
        else { return false }
        // K = P Hᵀ S⁻¹ (6 × 4).
        var pht = InlineArray<24, Double>(repeating: 0)
        for row in 0..<6 {
            for column in 0..<4 {
                var value = 0.0
                for k in 0..<6 { value += covariance[row * 6 + k] * h[column * 6 + k] }
                pht[row * 4 + column] = value
            }
        }
        var gain = InlineArray<24, Double>(repeating: 0)
        for row in 0..<6 {
            for column in 0..<4 {
                var value = 0.0
                for k in 0..<4 { value += pht[row * 4 + k] * inverse[k * 4 + column] }
                gain[row * 4 + column] = value
            }
        }
        for row in 0..<6 {
            var correction = 0.0
            for k in 0..<4 { correction += gain[row * 4 + k] * innovation[k] }
            state[row] += correction
        }
        // Joseph form: P = (I − KH) P (I − KH)ᵀ + K R Kᵀ.
        var a = InlineArray<36, Double>(repeating: 0)
        for row in 0..<6 {
            for column in 0..<6 {
                var value = row == column ? 1.0 : 0.0
                for k in 0..<4 { value -= gain[row * 4 + k] * h[k * 6 + column] }
                a[row * 6 + column] = value
            }
        }
        var ap = InlineArray<36, Double>(repeating: 0)
        for row in 0..<6 {
            for column in 0..<6 {
                var value = 0.0
                for k in 0..<6 { value += a[row * 6 + k] * covariance[k * 6 + column] }
                ap[row * 6 + column] = value
            }
        }
        let r = measurementNoise(box)
        var next = InlineArray<36, Double>(repeating: 0)
        for row in 0..<6 {
            for column in 0..<6 {
                var value = 0.0
                for k in 0..<6 { value += ap[row * 6 + k] * a[column * 6 + k] }
                for k in 0..<4 { value += gain[row * 4 + k] * r[k] * gain[column * 4 + k] }
                next[row * 6 + column] = value
            }
        }
        for row in 0..<6 {
            for column in (row + 1)..<6 where column < 6 {
                let mean = (next[row * 6 + column] + next[column * 6 + row]) / 2
                next[row * 6 + column] = mean
                next[column * 6 + row] = mean
            }
        }
        covariance = next
        state[4] = max(state[4], 1e-4)
        state[5] = max(state[5], 1e-4)
        return true
    }

    /// Measurement noise variances of a box's [cx, cy, w, h].
    private func measurementNoise(_ box: NormalizedRect) -> InlineArray<4, Double> {
        let floor = noise.boxNoiseFloor
        let x = max(box.width * noise.boxNoise, floor), y = max(box.height * noise.boxNoise, floor)
        return [x * x, y * y, x * x, y * y]
    }

    /// The innovation z − h(x), its covariance S = H P Hᵀ + R, and H (4 × 6, by central differences).
    private func innovation(_ box: NormalizedRect, camera: CameraInformation, yaw: Double, pitch: Double, lag: Double)
        -> (InlineArray<4, Double>, InlineArray<16, Double>, InlineArray<24, Double>)?
    {
        guard lag.isFinite, lag >= 0, lag <= 1 else { return nil }
        // h(x) = project(the direction `lag` seconds earlier): for a late box it depends on the
        // rates too, so H has rate columns (−lag × the position columns); for lag 0 they are zero.
        func measure(_ x: InlineArray<6, Double>) -> InlineArray<4, Double>? {
            var shifted = x
            shifted[0] -= x[2] * lag
            shifted[1] -= x[3] * lag
            return expectedMeasurement(shifted, camera: camera, gimbalYawRadians: yaw, gimbalPitchRadians: pitch)
        }
        guard box.x.isFinite, box.y.isFinite, box.width.isFinite, box.height.isFinite, box.width > 0, box.height > 0,
            let predicted = measure(state)
        else { return nil }
        var h = InlineArray<24, Double>(repeating: 0)
        let step = 1e-5
        for column in 0..<6 where lag > 0 || (column != 2 && column != 3) {
            var plus = state, minus = state
            plus[column] += step
            minus[column] -= step
            guard let high = measure(plus), let low = measure(minus) else { return nil }
            for row in 0..<4 { h[row * 6 + column] = (high[row] - low[row]) / (2 * step) }
        }
        let measured: InlineArray<4, Double> = [box.center.x, box.center.y, box.width, box.height]
        var innovation = InlineArray<4, Double>(repeating: 0)
        for index in 0..<4 { innovation[index] = measured[index] - predicted[index] }
        var s = InlineArray<16, Double>(repeating: 0)
        let r = measurementNoise(box)
        for row in 0..<4 {
            for column in 0..<4 {
                var value = 0.0
                for i in 0..<6 {
                    var hp = 0.0
                    for j in 0..<6 { hp += h[row * 6 + j] * covariance[j * 6 + i] }
                    value += hp * h[column * 6 + i]
                }
                s[row * 4 + column] = value + (row == column ? r[row] : 0)
            }
        }
        return (innovation, s, h)
    }
}

/// The inverse of a 4 × 4 matrix (row-major) by Gauss–Jordan elimination with partial pivoting;
/// nil when it is singular or not finite.
func invert4(_ matrix: InlineArray<16, Double>) -> InlineArray<16, Double>? {
    var a = matrix
    var inverse = InlineArray<16, Double>(repeating: 0)
    for index in 0..<4 { inverse[index * 5] = 1 }
    for column in 0..<4 {
        var pivot = column
        for row in (column + 1)..<4 where abs(a[row * 4 + column]) > abs(a[pivot * 4 + column]) { pivot = row }
        let value = a[pivot * 4 + column]
        guard value.isFinite, abs(value) > 1e-300 else { return nil }
        if pivot != column {
            for k in 0..<4 {
                a.swapAt(pivot * 4 + k, column * 4 + k)
                inverse.swapAt(pivot * 4 + k, column * 4 + k)
            }
        }
        for k in 0..<4 {
            a[column * 4 + k] /= value
            inverse[column * 4 + k] /= value
        }
        for row in 0..<4 where row != column {
            let factor = a[row * 4 + column]
            guard factor != 0 else { continue }
            for k in 0..<4 {
                a[row * 4 + k] -= factor * a[column * 4 + k]
                inverse[row * 4 + k] -= factor * inverse[column * 4 + k]
            }
        }
    }
    return inverse
}

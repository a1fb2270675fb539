public import DockVocabulary

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
/// gimbal pose at the frame's capture time — non-linear, hence the EKF: its Jacobian H is
/// analytic (`MeasurementModel`). Measurement noise is `boxNoise` × the expected box's size (plus a
/// floor), as detectors err in proportion to what they see. The covariance update is
/// P − K H P with K = P Hᵀ S⁻¹ (for a late box, P − α Q(τ) in place of P on the right: see
/// `prediction(_:lagSeconds:)`), computed as a symmetric matrix with a positive floor on its
/// diagonal. Fixed-size storage: no heap allocation per step.
public struct SubjectFilter: Sendable {
    /// Noise settings.
    public struct Noise: Hashable, Sendable {
        /// Standard deviation of the subject's angular acceleration, rad/s² (3: a child running
        /// about a metre and a half away turns faster than 2 allows; the erratic scenario).
        public var accelerationNoise: Double = 3.0
        /// Random-walk rate of the angular size, rad/√s.
        public var sizeNoise: Double = 0.05
        /// Standard deviation of a box's centre and size, as a fraction of its size.
        public var boxNoise: Double = 0.05
        /// The least standard deviation of any box coordinate (normalised units).
        public var boxNoiseFloor: Double = 0.003
        /// How often the filter is moved ahead, seconds: the daemon's control tick. `predict` adds
        /// its noise per step, so what it has added over a late box's lag — which the box's
        /// retrodiction takes out (`prediction`) — depends on the step.
        public var predictionInterval: Double = 1.0 / 30

        public init() {}
    }

    /// The state estimate.
    public private(set) var state: InlineArray<6, Double>
    /// Its covariance, row-major 6 × 6.
    public private(set) var covariance: InlineArray<36, Double>
    /// The noise settings.
    public var noise: Noise

    /// Starts a filter from a first observation's angular box: direction and size known to the
    /// measurement's accuracy, rates unknown (standard deviation 1 rad/s).
    public init(first: AngularBox, noise: Noise = Noise()) {
        self.noise = noise
        state = [first.yawRadians, first.pitchRadians, 0, 0, first.widthRadians, first.heightRadians]
        covariance = InlineArray(repeating: 0)
        let angle = max(first.widthRadians, first.heightRadians) * noise.boxNoise + 0.005
        let variances: InlineArray<6, Double> = [angle * angle, angle * angle, 1, 1, angle * angle, angle * angle]
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
        // P = F P Fᵀ + Q with F = I + dt on (0,2) and (1,3): rows 0 and 1 gain dt × rows 2 and 3,
        // then columns 0 and 1 gain dt × columns 2 and 3. (Matrices are read and written through
        // pointers, `withMutableElements`: an InlineArray subscript in a loop can copy the whole array on
        // every read, and a span's checks every index.)
        let q = noise.accelerationNoise * noise.accelerationNoise, sizeQ = noise.sizeNoise * noise.sizeNoise
        covariance.withMutableElements { p in
            for row in 0..<2 {
                for column in 0..<6 { p[row * 6 + column] += dt * p[(row + 2) * 6 + column] }
            }
            for row in 0..<6 {
                for column in 0..<2 { p[row * 6 + column] += dt * p[row * 6 + column + 2] }
            }
            for axis in 0..<2 {
                p[axis * 7] += q * dt * dt * dt * dt / 4
                p[axis * 6 + axis + 2] += q * dt * dt * dt / 2
                p[(axis + 2) * 6 + axis] += q * dt * dt * dt / 2
                p[(axis + 2) * 7] += q * dt * dt
            }
            p[4 * 7] += sizeQ * dt
            p[5 * 7] += sizeQ * dt
        }
    }

    /// Forgets the pitch rate: sets it to zero and drops its covariance, so that the pitch moves
    /// from here on only as the acceleration noise lets it (the tracker does this for a track it
    /// has lost, as ByteTrack stops a lost track's height rate).
    public mutating func forgetPitchRate() {
        state[3] = 0
        var p = covariance.mutableSpan
        for index in 0..<6 {
            p[3 * 6 + index] = 0
            p[index * 6 + 3] = 0
        }
    }

    /// Replaces the yaw rate's estimate and its variance, uncorrelated with the rest (the tracker
    /// gives a track that starts to coast the rate its observations show, `ObservedRate`).
    /// Non-finite or negative values do nothing.
    public mutating func setYawRate(_ radiansPerSecond: Double, variance: Double) {
        guard radiansPerSecond.isFinite, variance.isFinite, variance >= 0 else { return }
        state[2] = radiansPerSecond
        var p = covariance.mutableSpan
        for index in 0..<6 {
            p[2 * 6 + index] = 0
            p[index * 6 + 2] = 0
        }
        p[2 * 7] = max(variance, 1e-12)
    }

    /// Allows for a change of one axis's rate (0: yaw, 1: pitch) of variance `variance`, (rad/s)²,
    /// that happened `secondsAgo`: since then it has moved the direction by the change times
    /// that, so the axis's position–rate block gains v [τ², τ; τ, 1]. Non-finite or negative
    /// values, or another axis, do nothing. (The tracker's rule for a late box that tells of a
    /// maneuver, `SubjectTracker.Configuration.lateManeuverRatio`.)
    mutating func allowRateChange(axis: Int, variance: Double, secondsAgo lever: Double) {
        guard (0..<2).contains(axis), variance.isFinite, variance > 0, lever.isFinite, lever >= 0 else { return }
        covariance.withMutableElements { p in
            p[axis * 7] += variance * lever * lever
            p[axis * 6 + axis + 2] += variance * lever
            p[(axis + 2) * 6 + axis] += variance * lever
            p[(axis + 2) * 7] += variance
        }
    }

    /// Mixes `other` (an estimate of the same subject under another hypothesis) into this one with
    /// weight `share` (0...1): the state the weighted mean, the covariance each one's about that
    /// mean, weighted alike (the combination step of an interacting multiple model filter).
    mutating func mix(with other: SubjectFilter, share: Double) {
        guard share.isFinite, share > 0 else { return }
        let p = min(share, 1), q = 1 - p
        var mean = state
        for index in 0..<6 { mean[index] = q * state[index] + p * other.state[index] }
        var mine = InlineArray<6, Double>(repeating: 0), theirs = InlineArray<6, Double>(repeating: 0)
        for index in 0..<6 {
            mine[index] = state[index] - mean[index]
            theirs[index] = other.state[index] - mean[index]
        }
        covariance.withMutableElements { c in
            other.covariance.withElements { o in
                for row in 0..<6 {
                    for column in 0..<6 {
                        let index = row * 6 + column
                        c[index] = q * (c[index] + mine[row] * mine[column]) + p * (o[index] + theirs[row] * theirs[column])
                    }
                }
            }
        }
        state = mean
    }

    /// What the filter expects of a box seen from one camera pose: h(x), its Jacobian H, P Hᵀ and
    /// S⁻¹ = (H P Hᵀ + R)⁻¹. Worked out once per track and frame; gating every observation against
    /// it is then a 4 × 4 quadratic form, and fusing one a few small products.
    public struct Prediction: Sendable {
        /// Whether the subject projects into the camera with a usable innovation covariance; an
        /// invalid prediction gates nothing in and fuses nothing.
        var isValid: Bool
        /// The expected box, [cx, cy, w, h] in the delivered image.
        var measurement: InlineArray<4, Double>
        /// P Hᵀ, 6 × 4 row-major.
        var covarianceTimesJacobian: InlineArray<24, Double>
        /// S⁻¹, 4 × 4 row-major.
        var inverseInnovationCovariance: InlineArray<16, Double>
        /// S, 4 × 4 row-major (kept for `clipped`).
        var innovationCovariance: InlineArray<16, Double>
        /// Whether the box was captured before the filter's time: then its distance is judged
        /// against `gateCovariance`, not S.
        var isLate = false
        /// For a late box, S + H Q₁(τ) Hᵀ with Q₁(τ) one step of the white acceleration over the
        /// lag τ: what the subject may have done meanwhile, a start or a stop included (kept for
        /// `clipped`).
        var gateCovariance: InlineArray<16, Double> = InlineArray(repeating: 0)
        /// Its inverse.
        var inverseGateCovariance: InlineArray<16, Double> = InlineArray(repeating: 0)
        /// The edges whose measurement is dropped (see `ClippedEdges`): the innovation, P Hᵀ and
        /// S⁻¹ are of the measured part only.
        var clippedEdges: ClippedEdges = []

        /// A prediction that matches nothing.
        static let invalid = Prediction(
            isValid: false, measurement: InlineArray(repeating: 0),
            covarianceTimesJacobian: InlineArray(repeating: 0),
            inverseInnovationCovariance: InlineArray(repeating: 0),
            innovationCovariance: InlineArray(repeating: 0))

        /// The prediction for a box whose `edges` the image's border cut: of the measured part
        /// T z only (`ClippedEdges.transform`), with P Hᵀ Tᵀ and (T S Tᵀ)⁻¹, a dropped row's
        /// variance 1. Itself when nothing is cut; invalid when the measured part's covariance is
        /// singular.
        func clipped(_ edges: ClippedEdges) -> Prediction {
            guard isValid, !edges.isEmpty else { return self }
            // T S Tᵀ: T applied to each column of S, then to each row of the result.
            var s = edges.transformingRows(of: edges.transformingColumns(of: innovationCovariance))
            for row in 0..<4 where edges.isDropped(row) { s[row * 5] = 1 }
            guard let inverse = invertCovariance4(s) else { return .invalid }
            // P Hᵀ Tᵀ: T applied to each of P Hᵀ's rows.
            let pht = edges.transformingRows(of: covarianceTimesJacobian)
            var clipped = Prediction(
                isValid: true, measurement: measurement, covarianceTimesJacobian: pht,
                inverseInnovationCovariance: inverse, innovationCovariance: s, clippedEdges: edges)
            if isLate {
                var gate = edges.transformingRows(of: edges.transformingColumns(of: gateCovariance))
                for row in 0..<4 where edges.isDropped(row) { gate[row * 5] = 1 }
                guard let inverseGate = invertCovariance4(gate) else { return .invalid }
                clipped.isLate = true
                clipped.gateCovariance = gate
                clipped.inverseGateCovariance = inverseGate
            }
            return clipped
        }

        /// The squared Mahalanobis distance of `box` from the expected one (for a late box, against
        /// `gateCovariance`); nil for an invalid prediction or a box that is not finite or has no
        /// size.
        @inline(__always)
        func distance(to box: NormalizedRect) -> Double? {
            guard isValid, let innovation = innovation(box) else { return nil }
            return (isLate ? inverseGateCovariance : inverseInnovationCovariance).withElements { inverse in
                innovation.withElements { v in
                    var total = 0.0
                    for row in 0..<4 {
                        var value = 0.0
                        for column in 0..<4 { value += inverse[row * 4 + column] * v[column] }
                        total += v[row] * value
                    }
                    return total
                }
            }
        }

        /// z − h(x) (T (z − h(x)) for a clipped box); nil for a box that is not finite or has no size.
        @inline(__always)
        func innovation(_ box: NormalizedRect) -> InlineArray<4, Double>? {
            guard box.x.isFinite, box.y.isFinite, box.width.isFinite, box.height.isFinite, box.width > 0, box.height > 0
            else { return nil }
            let whole: InlineArray<4, Double> = [
                box.x + box.width / 2 - measurement[0], box.y + box.height / 2 - measurement[1],
                box.width - measurement[2], box.height - measurement[3],
            ]
            return clippedEdges.isEmpty ? whole : clippedEdges.transform(whole)
        }
    }

    /// The prediction for boxes captured `lagSeconds` before the filter's time through `model`;
    /// invalid when the subject is behind the camera or the innovation covariance is singular.
    ///
    /// A box captured τ = `lagSeconds` ago measures the state as it was then,
    /// x(t − τ) = F(τ)⁻¹ (x(t) − w), where w is the process noise the subject put in over those τ
    /// seconds (covariance Q(τ), the same white-noise-acceleration model as `predict`). h is
    /// evaluated at F(τ)⁻¹ x(t) (`MeasurementModel` moves the direction back along the rates, so
    /// its Jacobian is H = H₀ F(τ)⁻¹). When no box captured after this one has been fused, the
    /// estimate's error now is F(τ) times its error then plus w, so (linearised)
    ///
    ///     Cov(x(t), z) = (P − Q(τ)) Hᵀ,   S = H (P − Q(τ)) Hᵀ + R:
    ///
    /// the box measures the state as it was, which the filter knew better than it knows it now by
    /// exactly the noise it has added since (the one-lag case of Bar-Shalom, "Update with
    /// out-of-sequence measurements in tracking: exact solution", IEEE Trans. Aerospace and
    /// Electronic Systems 38(3), 2002). Q(τ) is what `predict` adds over τ in steps of
    /// δ = `Noise.predictionInterval` (`accelerationNoise(over:inStepsOf:)`, and the size's random
    /// walk σs² τ), not one step of τ: `predict`'s noise is piecewise constant per step, so over the daemon's
    /// 30 Hz ticks a 300 ms lag accumulates a ninth of the rate variance one 300 ms step would.
    ///
    /// Two earlier forms: no lag term at all (S = H P Hᵀ + R), which took every late box's noise
    /// for motion — the dock wobbled by ±6° with 250–350 ms of varying latency; and
    /// S = H P Hᵀ + R + H Q Hᵀ with Q one step of τ, which counted the noise added since the
    /// capture twice (it is in P already), its rate term nine times too large, and left the estimate 0.6 s
    /// behind every start and stop (slow-detector grid, `DetectorDelayGridTests`, 10 fps / 300 ms:
    /// 57.8 % of frames in tolerance; this form 72.9 %; BENCHMARKS.md).
    ///
    /// The exactness rests on P holding Q(τ): a constant σa over the lag, steps of δ, nothing
    /// fused out of order. Where P − Q(τ) is not positive definite (the tracker's σa moves with a
    /// track's maneuvers, boxes arrive out of order, an earlier box kept part of its Q), each
    /// axis's position–rate block and each size takes out the largest share α of its part of
    /// Q(τ) that leaves it positive — 1, ½, ¼, or none, which is the first form above for that
    /// block. (Exact bookkeeping would keep the noise `predict` actually added, step by step; not
    /// done.)
    ///
    /// How far a late box is from the estimate (`Prediction.distance`: the gate and the pair
    /// costs) is judged more widely than its fusion, against `Prediction.gateCovariance`.
    func prediction(_ model: MeasurementModel, lagSeconds lag: Double) -> Prediction {
        var prediction = Prediction.invalid
        self.prediction(model, lagSeconds: lag, into: &prediction)
        return prediction
    }

    /// `prediction(_:lagSeconds:)` worked out in `prediction`'s own storage (the tracker's buffer
    /// of them): P Hᵀ, S and S⁻¹ are not copied into it. Every field is written, but the gate's
    /// two when the box is not late (nothing reads them then). Inlined into its caller: called,
    /// the filter was first copied out of the tracker's array (376 bytes, ten times a frame).
    @inline(__always)
    func prediction(_ model: MeasurementModel, lagSeconds lag: Double, into prediction: inout Prediction) {
        var h = InlineArray<24, Double>(repeating: 0)
        guard lag.isFinite, lag >= 0, lag <= 1, model.measure(state, lagSeconds: lag, into: &prediction.measurement, &h) else {
            prediction = .invalid
            return
        }
        prediction.isValid = true
        prediction.clippedEdges = []
        // P − α Q(τ): the covariance of the estimate as of the box's capture, carried to now
        // without the noise added since (F P₀ Fᵀ; see above). A box on time reads P itself. R
        // from the expected box's size: a detector errs in proportion to what it sees, and a wild
        // observation must not widen its own gate.
        let r = measurementNoise(prediction.measurement)
        if lag > 0 {
            var retrodicted = covariance
            let (position, cross, rate) = accelerationNoise(over: lag, inStepsOf: min(lag, max(noise.predictionInterval, 1e-3)))
            let size = noise.sizeNoise * noise.sizeNoise * lag
            // Each axis's block, and each size, keeps the largest share of its Q it can lose and
            // stay positive definite.
            retrodicted.withMutableElements { p in
                for axis in 0..<2 {
                    let (pp, pr, rr) = (p[axis * 7], p[axis * 6 + axis + 2], p[(axis + 2) * 7])
                    var alpha = 1.0
                    while alpha > 0 {
                        let (a, b, c) = (pp - alpha * position, pr - alpha * cross, rr - alpha * rate)
                        if a > 0, c > 0, a * c > b * b { break }
                        alpha = alpha > 0.25 ? alpha / 2 : 0
                    }
                    p[axis * 7] = pp - alpha * position
                    p[axis * 6 + axis + 2] = pr - alpha * cross
                    p[(axis + 2) * 6 + axis] = pr - alpha * cross
                    p[(axis + 2) * 7] = rr - alpha * rate
                }
                for index in stride(from: 28, through: 35, by: 7) {
                    var alpha = 1.0
                    while alpha > 0, p[index] - alpha * size <= 0 { alpha = alpha > 0.25 ? alpha / 2 : 0 }
                    p[index] -= alpha * size
                }
            }
            retrodicted.withElements { p in Self.project(p, h, r, isOnTime: false, into: &prediction) }
        } else {
            covariance.withElements { p in Self.project(p, h, r, isOnTime: true, into: &prediction) }
        }
        let isInvertible = prediction.innovationCovariance.withElements { s in
            prediction.inverseInnovationCovariance.withMutableElements { invertCovariance4(s, into: $0) }
        }
        guard isInvertible else {
            prediction = .invalid
            return
        }
        // The gate of a late box: S + H Q₁(τ) Hᵀ (see `Prediction.gateCovariance`). The fusion
        // weighs the box by what it was worth at its capture; whether it is this subject's at all
        // allows for what the subject may have done since — a walker who stopped or set off within
        // the lag is further from the retrodicted estimate than S alone expects, and refused, was
        // born again as someone new (the slow-detector grid, 10 fps / 300 ms, seed 52).
        prediction.isLate = lag > 0
        guard lag > 0 else { return }
        let sizeQ = noise.sizeNoise * noise.sizeNoise * lag
        let (position, cross, rate) = accelerationNoise(over: lag, inStepsOf: lag)
        prediction.gateCovariance = prediction.innovationCovariance
        h.withElements { hs in
            prediction.gateCovariance.withMutableElements { out in
                for row in 0..<4 {
                    for column in 0..<4 {
                        var value = 0.0
                        for axis in 0..<2 {
                            let (a, b) = (hs[row * 6 + axis], hs[row * 6 + axis + 2])
                            let (c, d) = (hs[column * 6 + axis], hs[column * 6 + axis + 2])
                            value += a * c * position + (a * d + b * c) * cross + b * d * rate
                        }
                        out[row * 4 + column] +=
                            value + (hs[row * 6 + 4] * hs[column * 6 + 4] + hs[row * 6 + 5] * hs[column * 6 + 5]) * sizeQ
                    }
                }
            }
        }
        let isGateInvertible = prediction.gateCovariance.withElements { s in
            prediction.inverseGateCovariance.withMutableElements { invertCovariance4(s, into: $0) }
        }
        if !isGateInvertible { prediction = .invalid }
    }

    /// P Hᵀ and S = H P Hᵀ + R into `prediction`, for the covariance `p` (6 × 6), the Jacobian
    /// `h` (4 × 6) and R `r` (4 × 4). For a box on time H's rate columns are zero (a rate moves
    /// nothing in no time, `MeasurementModel`), and the sums skip them: the same numbers, two
    /// thirds of the products.
    @inline(__always)
    private static func project(
        _ p: UnsafePointer<Double>, _ h: InlineArray<24, Double>, _ r: InlineArray<16, Double>, isOnTime: Bool,
        into prediction: inout Prediction
    ) {
        h.withElements { hs in
            prediction.covarianceTimesJacobian.withMutableElements { out in
                for row in 0..<6 {
                    for column in 0..<4 {
                        let (pr, hr) = (p + row * 6, hs + column * 6)
                        var value = pr[0] * hr[0] + pr[1] * hr[1]
                        if !isOnTime { value = value + pr[2] * hr[2] + pr[3] * hr[3] }
                        out[row * 4 + column] = value + pr[4] * hr[4] + pr[5] * hr[5]
                    }
                }
            }
            r.withElements { rs in
                prediction.covarianceTimesJacobian.withElements { phts in
                    prediction.innovationCovariance.withMutableElements { out in
                        for row in 0..<4 {
                            for column in row..<4 {
                                let hr = hs + row * 6
                                var value = hr[0] * phts[column] + hr[1] * phts[4 + column]
                                if !isOnTime { value = value + hr[2] * phts[8 + column] + hr[3] * phts[12 + column] }
                                value = value + hr[4] * phts[16 + column] + hr[5] * phts[20 + column] + rs[row * 4 + column]
                                out[row * 4 + column] = value
                                out[column * 4 + row] = value
                            }
                        }
                    }
                }
            }
        }
    }

    /// The white acceleration's noise that `predict` adds to one axis's position, position–rate
    /// and rate variances over `lag` seconds in steps of `step` (n = lag/step of them), each
    /// step's σa² (δ⁴/4, δ³/2, δ²) carried to the end: σa² δ⁴ (n/4 + n(n − 1)/2 + n(n − 1)(2n − 1)/6),
    /// σa² δ lag²/2 and σa² δ lag. One step of the whole lag is σa² (τ⁴/4, τ³/2, τ²).
    private func accelerationNoise(over lag: Double, inStepsOf step: Double) -> (position: Double, cross: Double, rate: Double) {
        let q = noise.accelerationNoise * noise.accelerationNoise
        let n = lag / step
        let position = q * step * step * step * step * (n / 4 + (n * n - n) / 2 + (n - 1) * n * (2 * n - 1) / 6)
        return (position, q * step * lag * lag / 2, q * step * lag)
    }

    /// Fuses `box` against a prediction made from the current state; false (and nothing changed)
    /// for a box that is not finite or has no size.
    @discardableResult
    @inline(__always)
    mutating func update(with box: NormalizedRect, _ prediction: Prediction) -> Bool {
        guard prediction.isValid, let innovation = prediction.innovation(box) else { return false }
        // Four columns at a time (`SIMD4`): the rows of P Hᵀ, S⁻¹ and K are vectors.
        prediction.covarianceTimesJacobian.withElements { pht in
            prediction.inverseInnovationCovariance.withElements { inverse in
                func row(_ m: UnsafePointer<Double>, _ index: Int) -> SIMD4<Double> {
                    SIMD4(m[index * 4], m[index * 4 + 1], m[index * 4 + 2], m[index * 4 + 3])
                }
                let inverseRows = (row(inverse, 0), row(inverse, 1), row(inverse, 2), row(inverse, 3))
                let v = SIMD4(innovation[0], innovation[1], innovation[2], innovation[3])
                // K = P Hᵀ S⁻¹ (6 × 4), a row at a time.
                var gain = InlineArray<6, SIMD4<Double>>(repeating: .zero)
                for index in 0..<6 {
                    let h = row(pht, index)
                    gain[index] = h[0] * inverseRows.0 + h[1] * inverseRows.1 + h[2] * inverseRows.2 + h[3] * inverseRows.3
                }
                // (Each sum written out in the order the scalar loops took: the same numbers to the
                // bit, whatever order `SIMD.sum()` may take.)
                state.withMutableElements { x in
                    for index in 0..<6 {
                        let terms = gain[index] * v
                        x[index] += terms[0] + terms[1] + terms[2] + terms[3]
                    }
                    x[4] = max(x[4], 1e-4)
                    x[5] = max(x[5], 1e-4)
                }
                // P = P − K (P Hᵀ)ᵀ = P − K H P, computed for the upper triangle and mirrored.
                covariance.withMutableElements { p in
                    for r in 0..<6 {
                        let k = gain[r]
                        for c in r..<6 {
                            let terms = k * row(pht, c)
                            var value = p[r * 6 + c]
                            value -= terms[0]
                            value -= terms[1]
                            value -= terms[2]
                            value -= terms[3]
                            p[r * 6 + c] = value
                            p[c * 6 + r] = value
                        }
                    }
                    for index in 0..<6 { p[index * 7] = max(p[index * 7], 1e-12) }
                }
            }
        }
        return true
    }

    /// The squared Mahalanobis distance of a box from the prediction, for gating; nil when the
    /// box is not usable or the subject projects behind the camera.
    public func distance(
        to box: NormalizedRect, camera: CameraInformation, gimbalYawRadians: Double,
        gimbalPitchRadians: Double, lagSeconds: Double = 0
    ) -> Double? {
        guard let model = MeasurementModel(camera: camera, gimbalYawRadians: gimbalYawRadians, gimbalPitchRadians: gimbalPitchRadians)
        else { return nil }
        return prediction(model, lagSeconds: lagSeconds).distance(to: box)
    }

    /// Fuses a box observed with the gimbal at the given pose; returns false (and changes nothing)
    /// for a box that is not finite, has no size, or cannot be explained (subject behind the camera).
    /// A late box (captured `lagSeconds` before the filter's time) is compared with the estimate
    /// moved back by that lag along its rates, and the correction applied now — the one-lag
    /// retrodiction of an out-of-sequence measurement (see `prediction`): it weighs what it was
    /// worth when it was captured.
    @discardableResult
    public mutating func update(
        with box: NormalizedRect, camera: CameraInformation, gimbalYawRadians: Double,
        gimbalPitchRadians: Double, lagSeconds: Double = 0
    ) -> Bool {
        guard let model = MeasurementModel(camera: camera, gimbalYawRadians: gimbalYawRadians, gimbalPitchRadians: gimbalPitchRadians)
        else { return false }
        return update(with: box, prediction(model, lagSeconds: lagSeconds))
    }

    /// The measurement noise covariance R of [cx, cy, w, h] (4 × 4, row-major) for boxes
    /// expected to be `expected`: centre and size each with standard deviation `boxNoise` × the
    /// size (at least the floor), independent.
    ///
    /// An edge that the image's border cut is dropped from the measurement by the tracker
    /// (`Prediction.clipped`, `ClippedEdges`), and its pairs are judged against the expected box
    /// cut alike. (A first attempt on the framing branch gave such an edge a huge variance here
    /// instead, and compared the cut box with the whole expected one: the innovation covariance of
    /// every clipped box became enormous along it, sizes no longer matched, and people standing
    /// close together traded boxes — the group-of-four replay fell from IDF1 0.91 to 0.61.)
    private func measurementNoise(_ expected: InlineArray<4, Double>) -> InlineArray<16, Double> {
        let floor = noise.boxNoiseFloor
        var r = InlineArray<16, Double>(repeating: 0)
        for axis in 0..<2 {
            let deviation = max(abs(expected[axis + 2]) * noise.boxNoise, floor)
            r[axis * 5] = deviation * deviation
            r[(axis + 2) * 5] = deviation * deviation
        }
        return r
    }
}

/// The inverse of a 4 × 4 matrix by Gauss–Jordan elimination with partial pivoting, through
/// pointers: writes the inverse of `matrix` (row-major, left as it is) into `result`, or returns
/// false when it is singular or not finite (`result` then holds nothing of use).
func invert4(_ matrix: UnsafePointer<Double>, into result: UnsafeMutablePointer<Double>) -> Bool {
    var a = InlineArray<16, Double>(repeating: 0)
    return a.withMutableElements { m in
        for index in 0..<16 {
            m[index] = matrix[index]
            result[index] = 0
        }
        for index in 0..<4 { result[index * 5] = 1 }
        for column in 0..<4 {
            var pivot = column
            for row in (column + 1)..<4 where abs(m[row * 4 + column]) > abs(m[pivot * 4 + column]) { pivot = row }
            let value = m[pivot * 4 + column]
            guard value.isFinite, abs(value) > 1e-300 else { return false }
            // Of `m`, only the columns from this one on are read again (the ones before are
            // eliminated, and never a pivot or a factor): they alone are swapped, scaled and reduced.
            if pivot != column {
                for k in column..<4 { swap(&m[pivot * 4 + k], &m[column * 4 + k]) }
                for k in 0..<4 { swap(&result[pivot * 4 + k], &result[column * 4 + k]) }
            }
            for k in column..<4 { m[column * 4 + k] /= value }
            for k in 0..<4 { result[column * 4 + k] /= value }
            for row in 0..<4 where row != column {
                let factor = m[row * 4 + column]
                guard factor != 0 else { continue }
                for k in column..<4 { m[row * 4 + k] -= factor * m[column * 4 + k] }
                for k in 0..<4 { result[row * 4 + k] -= factor * result[column * 4 + k] }
            }
        }
        return true
    }
}

/// The inverse of a symmetric positive definite 4 × 4 matrix (row-major; its lower triangle is
/// read) by its LDLᵀ factors, written in full into `result`; false, and `result` untouched, when
/// a pivot is not finite or not above 10⁻³⁰⁰ (`invert4`'s least pivot): the matrix is not
/// positive definite, or not finite. An innovation covariance nearly always is one — H P Hᵀ with
/// P positive semi-definite, plus R with a positive floor — but a late box's retrodicted P is
/// kept positive only block by block, so `invertCovariance4` falls back on `invert4`. Unrolled and
/// without pivoting, it is a few times quicker than Gauss–Jordan (which was a tenth of the
/// tracker's time), and LDLᵀ needs no pivoting on a positive definite matrix to be stable.
func invertSymmetric4(_ a: UnsafePointer<Double>, into result: UnsafeMutablePointer<Double>) -> Bool {
    // A = L D Lᵀ, L unit lower triangular.
    let d0 = a[0]
    guard d0 > 1e-300, d0.isFinite else { return false }
    let l10 = a[4] / d0, l20 = a[8] / d0, l30 = a[12] / d0
    let d1 = a[5] - l10 * l10 * d0
    guard d1 > 1e-300, d1.isFinite else { return false }
    let l21 = (a[9] - l20 * l10 * d0) / d1, l31 = (a[13] - l30 * l10 * d0) / d1
    let d2 = a[10] - l20 * l20 * d0 - l21 * l21 * d1
    guard d2 > 1e-300, d2.isFinite else { return false }
    let l32 = (a[14] - l30 * l20 * d0 - l31 * l21 * d1) / d2
    let d3 = a[15] - l30 * l30 * d0 - l31 * l31 * d1 - l32 * l32 * d2
    guard d3 > 1e-300, d3.isFinite else { return false }
    // X = L⁻¹, unit lower triangular too; A⁻¹ = Xᵀ D⁻¹ X.
    let x10 = -l10, x21 = -l21, x32 = -l32
    let x20 = -(l20 + l21 * x10), x31 = -(l31 + l32 * x21)
    let x30 = -(l30 + l31 * x10 + l32 * x20)
    let e0 = 1 / d0, e1 = 1 / d1, e2 = 1 / d2, e3 = 1 / d3
    // (A⁻¹)ᵢⱼ = Σₖ Xₖᵢ Xₖⱼ / dₖ over k ≥ max(i, j), with Xₖₖ = 1.
    let i33 = e3
    let i23 = x32 * e3
    let i13 = x31 * e3
    let i03 = x30 * e3
    let i22 = e2 + x32 * x32 * e3
    let i12 = x21 * e2 + x31 * x32 * e3
    let i02 = x20 * e2 + x30 * x32 * e3
    let i11 = e1 + x21 * x21 * e2 + x31 * x31 * e3
    let i01 = x10 * e1 + x20 * x21 * e2 + x30 * x31 * e3
    let i00 = e0 + x10 * x10 * e1 + x20 * x20 * e2 + x30 * x30 * e3
    result[0] = i00
    result[1] = i01
    result[2] = i02
    result[3] = i03
    result[4] = i01
    result[5] = i11
    result[6] = i12
    result[7] = i13
    result[8] = i02
    result[9] = i12
    result[10] = i22
    result[11] = i23
    result[12] = i03
    result[13] = i13
    result[14] = i23
    result[15] = i33
    return true
}

/// The inverse of a symmetric 4 × 4 matrix (row-major) through pointers: `invertSymmetric4`'s,
/// or where that finds it is not positive definite `invert4`'s; false when it is singular or not
/// finite.
func invertCovariance4(_ matrix: UnsafePointer<Double>, into result: UnsafeMutablePointer<Double>) -> Bool {
    invertSymmetric4(matrix, into: result) || invert4(matrix, into: result)
}

/// `invertCovariance4` of an array; nil when the matrix is singular or not finite.
func invertCovariance4(_ matrix: InlineArray<16, Double>) -> InlineArray<16, Double>? {
    var inverse = InlineArray<16, Double>(repeating: 0)
    let isInvertible = matrix.withElements { matrix in inverse.withMutableElements { invertCovariance4(matrix, into: $0) } }
    return isInvertible ? inverse : nil
}

extension InlineArray where Element == Double {
    /// Calls `body` with a pointer to the elements: the filter's matrix arithmetic reads and
    /// writes through it, as an InlineArray subscript in a loop can copy the whole array on every
    /// read and a span checks every index. `body` must not keep the pointer.
    @inline(__always)
    mutating func withMutableElements<Result>(_ body: (UnsafeMutablePointer<Double>) -> Result) -> Result {
        var span = mutableSpan
        return span.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }

    /// Calls `body` with a pointer to the elements, to read them (see `withMutableElements`).
    @inline(__always)
    func withElements<Result>(_ body: (UnsafePointer<Double>) -> Result) -> Result {
        span.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

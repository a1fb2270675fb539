import DockVocabulary

#if canImport(Glibc)
    import Glibc
#endif

/// The EKF's measurement function h and its Jacobian for one camera and one gimbal pose, with
/// everything that is the same for every track of a frame (the pose's sines and cosines, the
/// pinhole's scale, how the delivered image is turned and mirrored) worked out once.
///
/// h takes a subject's state [yaw, pitch, yaw rate, pitch rate, width, height] to the box it shows
/// as in the delivered image, [centre x, centre y, width, height] — the same numbers as
/// `AngularBox.project`. For a box captured `lag` seconds before the filter's time the direction
/// is first moved back along the rates, so h depends on the rates too. The Jacobian is analytic:
/// the chain rule through the rotation into the camera's frame, the pinhole's tangents and the
/// delivered image's turn, which is a signed permutation.
struct MeasurementModel: Sendable {
    private let sinYaw: Double, cosYaw: Double, sinPitch: Double, cosPitch: Double
    /// Normalised image units per unit of tangent, across and down.
    private let scaleX: Double, scaleY: Double
    /// Delivered coordinate k is `offset[k] + sign[k] × aligned[source[k]]`.
    private let source: InlineArray<4, Int>
    private let sign: InlineArray<4, Double>
    private let offset: InlineArray<4, Double>

    /// The model for `camera` with the gimbal at the given angles; nil when the camera
    /// information is not valid or the angles are not finite.
    init?(camera: CameraInformation, gimbalYawRadians: Double, gimbalPitchRadians: Double) {
        guard camera.isValid, gimbalYawRadians.isFinite, gimbalPitchRadians.isFinite else { return nil }
        (sinYaw, cosYaw) = (sin(gimbalYawRadians), cos(gimbalYawRadians))
        (sinPitch, cosPitch) = (sin(gimbalPitchRadians), cos(gimbalPitchRadians))
        let halfWidth = tan(camera.horizontalFieldOfViewRadians / 2)
        scaleX = 1 / (2 * halfWidth)
        scaleY = camera.aspectRatio / (2 * halfWidth)
        // Mirroring first (x → 1 − x), then the turn of the image; no arrays, so no allocation.
        let isMirrored = camera.isMirrored
        func mirrored(_ index: Int) -> (Int, Double, Double) {
            index == 0 && isMirrored ? (0, -1, 1) : (index, 1, 0)
        }
        func flipped(_ entry: (Int, Double, Double)) -> (Int, Double, Double) { (entry.0, -entry.1, 1 - entry.2) }
        let orientation = camera.orientation
        func turned(_ index: Int) -> (Int, Double, Double) {
            switch (orientation, index) {
            case (.up, _): mirrored(index)
            case (.rotatedClockwise, 0): flipped(mirrored(1))
            case (.rotatedClockwise, 1): mirrored(0)
            case (.upsideDown, 0), (.upsideDown, 1): flipped(mirrored(index))
            case (.rotatedCounterclockwise, 0): mirrored(1)
            case (.rotatedCounterclockwise, 1): flipped(mirrored(0))
            case (_, 2): orientation.swapsAxes ? mirrored(3) : mirrored(2)
            default: orientation.swapsAxes ? mirrored(2) : mirrored(3)
            }
        }
        let entries = (turned(0), turned(1), turned(2), turned(3))
        source = [entries.0.0, entries.1.0, entries.2.0, entries.3.0]
        sign = [entries.0.1, entries.1.1, entries.2.1, entries.3.1]
        offset = [entries.0.2, entries.1.2, entries.2.2, entries.3.2]
    }

    /// h(state) for a box captured `lagSeconds` ago, and ∂h/∂state (4 × 6, row-major); nil when
    /// the subject is behind the camera, an edge of its box exactly at a right angle to the view,
    /// or the state not finite.
    func measure(_ state: InlineArray<6, Double>, lagSeconds lag: Double)
        -> (measurement: InlineArray<4, Double>, jacobian: InlineArray<24, Double>)?
    {
        var measurement = InlineArray<4, Double>(repeating: 0)
        var jacobian = InlineArray<24, Double>(repeating: 0)
        guard measure(state, lagSeconds: lag, into: &measurement, &jacobian) else { return nil }
        return (measurement, jacobian)
    }

    /// `measure(_:lagSeconds:)` written into the caller's `measurement` and `jacobian` (every
    /// element); false, and neither touched, when `measure(_:lagSeconds:)` is nil.
    func measure(
        _ state: InlineArray<6, Double>, lagSeconds lag: Double, into measurement: inout InlineArray<4, Double>,
        _ jacobian: inout InlineArray<24, Double>
    ) -> Bool {
        let yaw = state[0] - state[2] * lag, pitch = state[1] - state[3] * lag
        let width = state[4], height = state[5]
        guard yaw.isFinite, pitch.isFinite, width.isFinite, height.isFinite else { return false }
        let (sy, cy, sp, cp) = (sin(yaw), cos(yaw), sin(pitch), cos(pitch))
        // The direction in the dock's frame and its derivatives by yaw and by pitch.
        let direction = (cp * sy, cp * cy, sp)
        let byYaw = (cp * cy, -cp * sy, 0.0)
        let byPitch = (-sp * sy, -sp * cy, cp)
        // Into the camera's frame: (forward, right, up).
        func camera(_ v: (Double, Double, Double)) -> (forward: Double, right: Double, up: Double) {
            (
                v.0 * sinYaw * cosPitch + v.1 * cosYaw * cosPitch + v.2 * sinPitch,
                v.0 * cosYaw - v.1 * sinYaw,
                -v.0 * sinYaw * sinPitch - v.1 * cosYaw * sinPitch + v.2 * cosPitch
            )
        }
        let d = camera(direction), dYaw = camera(byYaw), dPitch = camera(byPitch)
        guard d.forward > 1e-9 else { return false }
        let tanRight = d.right / d.forward, tanUp = d.up / d.forward
        let forward2 = d.forward * d.forward
        // The derivatives of the centre's angles in the camera's frame (atan of those tangents).
        let rightScale = 1 / ((1 + tanRight * tanRight) * forward2), upScale = 1 / ((1 + tanUp * tanUp) * forward2)
        let rightByYaw = (dYaw.right * d.forward - d.right * dYaw.forward) * rightScale
        let rightByPitch = (dPitch.right * d.forward - d.right * dPitch.forward) * rightScale
        let upByYaw = (dYaw.up * d.forward - d.up * dYaw.forward) * upScale
        let upByPitch = (dPitch.up * d.forward - d.up * dPitch.forward) * upScale
        // The edges through the pinhole, at the centre's angle ± half the size: tan(a ± b) from
        // tan a (the centre's tangent, at hand) and tan b, two tangents where four tangents of
        // two arctangents were (a sixth of the tracker's time went to them). The same numbers
        // within rounding, wrapping past a right angle as tan does; a denominator of exactly 0 (an
        // edge at a right angle to the view, which tan only nears) has no measurement.
        let halfWidthTan = tan(width / 2), halfHeightTan = tan(height / 2)
        let leftDenominator = 1 + tanRight * halfWidthTan, rightDenominator = 1 - tanRight * halfWidthTan
        let topDenominator = 1 - tanUp * halfHeightTan, bottomDenominator = 1 + tanUp * halfHeightTan
        guard leftDenominator != 0, rightDenominator != 0, topDenominator != 0, bottomDenominator != 0 else { return false }
        let tanLeft = (tanRight - halfWidthTan) / leftDenominator
        let tanRightEdge = (tanRight + halfWidthTan) / rightDenominator
        let tanTop = (tanUp + halfHeightTan) / topDenominator
        let tanBottom = (tanUp - halfHeightTan) / bottomDenominator
        // sec² = 1 + tan² is each edge's slope.
        let secLeft = 1 + tanLeft * tanLeft, secRight = 1 + tanRightEdge * tanRightEdge
        let secTop = 1 + tanTop * tanTop, secBottom = 1 + tanBottom * tanBottom
        // Dock-aligned [cx, cy, w, h] and their derivatives by (centre angle, size).
        let aligned: InlineArray<4, Double> = [
            0.5 + (tanLeft + tanRightEdge) * scaleX / 2,
            0.5 - (tanTop + tanBottom) * scaleY / 2,
            (tanRightEdge - tanLeft) * scaleX,
            (tanTop - tanBottom) * scaleY,
        ]
        let xByCentre = scaleX * (secLeft + secRight) / 2, xBySize = scaleX * (secRight - secLeft) / 4
        let wByCentre = scaleX * (secRight - secLeft), wBySize = scaleX * (secRight + secLeft) / 2
        let yByCentre = -scaleY * (secTop + secBottom) / 2, yBySize = scaleY * (secBottom - secTop) / 4
        let hByCentre = scaleY * (secTop - secBottom), hBySize = scaleY * (secTop + secBottom) / 2
        // ∂aligned/∂state, row-major 4 × 6; the rate columns are −lag × the direction columns.
        var alignedJacobian = InlineArray<24, Double>(repeating: 0)
        alignedJacobian[0] = xByCentre * rightByYaw
        alignedJacobian[1] = xByCentre * rightByPitch
        alignedJacobian[4] = xBySize
        alignedJacobian[6] = yByCentre * upByYaw
        alignedJacobian[7] = yByCentre * upByPitch
        alignedJacobian[11] = yBySize
        alignedJacobian[12] = wByCentre * rightByYaw
        alignedJacobian[13] = wByCentre * rightByPitch
        alignedJacobian[16] = wBySize
        alignedJacobian[18] = hByCentre * upByYaw
        alignedJacobian[19] = hByCentre * upByPitch
        alignedJacobian[23] = hBySize
        // Into the delivered image (through pointers: see SubjectFilter.predict).
        deliver(aligned, &alignedJacobian, lag: lag, into: &measurement, &jacobian)
        return true
    }

    /// Fills in the rate columns (−lag × the direction columns) and turns the dock-aligned box and
    /// Jacobian into the delivered image's.
    private func deliver(
        _ aligned: InlineArray<4, Double>, _ alignedJacobian: inout InlineArray<24, Double>, lag: Double,
        into measurement: inout InlineArray<4, Double>, _ jacobian: inout InlineArray<24, Double>
    ) {
        alignedJacobian.withMutableElements { from in
            for row in 0..<4 {
                from[row * 6 + 2] = -lag * from[row * 6]
                from[row * 6 + 3] = -lag * from[row * 6 + 1]
            }
        }
        let (sources, signs, offsets) = (source, sign, offset)
        aligned.withElements { alignedValues in
            alignedJacobian.withElements { from in
                signs.withElements { signs in
                    offsets.withElements { offsets in
                        measurement.withMutableElements { values in
                            jacobian.withMutableElements { out in
                                for row in 0..<4 {
                                    let index = sources[row], scale = signs[row]
                                    values[row] = offsets[row] + scale * alignedValues[index]
                                    for column in 0..<6 { out[row * 6 + column] = scale * from[index * 6 + column] }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

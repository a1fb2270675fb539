public import DockVocabulary

#if canImport(Glibc)
    import Glibc
#endif

/// A flat, upright part of a subject that a detector can report: a face, a body or an object. It
/// is modelled as a rectangle standing on the floor plan and turned to face the camera.
public struct SubjectPart: Hashable, Sendable {
    /// The subject it belongs to.
    public var subjectIdentifier: Int
    /// What a detector would call it.
    public var kind: SubjectKind
    /// Position on the floor, metres (x right of the dock, y ahead).
    public var xMeters: Double
    /// Position on the floor, metres.
    public var yMeters: Double
    /// Width, metres.
    public var widthMeters: Double
    /// Height of its lower edge above the floor, metres.
    public var bottomMeters: Double
    /// Height of its upper edge above the floor, metres.
    public var topMeters: Double

    /// The parts a subject shows when it stands at (x, y): a person a body and a face, an object
    /// itself.
    public static func parts(of subject: SubjectScript, xMeters: Double, yMeters: Double) -> [SubjectPart] {
        switch subject.kind {
        case .person(let height):
            let headHeight = height * 0.13
            return [
                SubjectPart(
                    subjectIdentifier: subject.identifier, kind: .body, xMeters: xMeters, yMeters: yMeters,
                    widthMeters: height * 0.26, bottomMeters: 0, topMeters: height),
                SubjectPart(
                    subjectIdentifier: subject.identifier, kind: .face, xMeters: xMeters, yMeters: yMeters,
                    widthMeters: height * 0.09, bottomMeters: height - headHeight, topMeters: height - headHeight * 0.05),
            ]
        case .object(let width, let height, let elevation):
            return [
                SubjectPart(
                    subjectIdentifier: subject.identifier, kind: .object, xMeters: xMeters, yMeters: yMeters,
                    widthMeters: width, bottomMeters: elevation, topMeters: elevation + height)
            ]
        }
    }
}

/// Where a part shows in the image.
public struct PartProjection: Hashable, Sendable {
    /// The part.
    public var part: SubjectPart
    /// Its box in the delivered image, not clipped to the image.
    public var box: NormalizedRect
    /// The share of the box inside the image, 0...1.
    public var inFrameFraction: Double
    /// Distance from the camera, metres.
    public var distanceMeters: Double
}

/// The pinhole camera on the dock: it turns with the dock's yaw and pitch from a fixed point
/// `mountHeightMeters` above the floor, straight above the dock's axes.
public struct VirtualCamera: Hashable, Sendable {
    /// How the camera sees.
    public let setup: CameraSetup

    /// Creates a camera.
    public init(setup: CameraSetup) { self.setup = setup }

    /// Projects a part seen with the camera at the given yaw and pitch; nil when any of it lies
    /// behind the camera.
    public func project(_ part: SubjectPart, yawRadians: Double, pitchRadians: Double) -> PartProjection? {
        guard let corners = dockAlignedCorners(of: part, yawRadians: yawRadians, pitchRadians: pitchRadians),
            let box = NormalizedRect(enclosing: corners.map { setup.information.deliveredPoint(fromDockAligned: $0) }), box.area > 0
        else { return nil }
        let inFrame = (box.intersection(.fullImage)?.area ?? 0) / box.area
        let horizontalDistance = (part.xMeters * part.xMeters + part.yMeters * part.yMeters).squareRoot()
        let centerHeight = (part.bottomMeters + part.topMeters) / 2 - setup.mountHeightMeters
        let distance = (horizontalDistance * horizontalDistance + centerHeight * centerHeight).squareRoot()
        return PartProjection(part: part, box: box, inFrameFraction: inFrame, distanceMeters: distance)
    }

    /// A part's box in the dock-aligned image (not clipped to it) with the camera at the given yaw
    /// and pitch: the box around its four corners, the part standing turned to face the camera;
    /// nil when any of it lies behind the camera.
    public func dockAlignedBox(of part: SubjectPart, yawRadians: Double, pitchRadians: Double) -> NormalizedRect? {
        guard let corners = dockAlignedCorners(of: part, yawRadians: yawRadians, pitchRadians: pitchRadians),
            let box = NormalizedRect(enclosing: corners), box.area > 0
        else { return nil }
        return box
    }

    private func dockAlignedCorners(of part: SubjectPart, yawRadians: Double, pitchRadians: Double) -> [NormalizedPoint]? {
        let horizontalDistance = (part.xMeters * part.xMeters + part.yMeters * part.yMeters).squareRoot()
        guard horizontalDistance > 1e-6 else { return nil }
        // Unit vector across the line of sight on the floor, to place the part's left and right edges.
        let acrossX = part.yMeters / horizontalDistance, acrossY = -part.xMeters / horizontalDistance
        let halfWidth = part.widthMeters / 2
        var points: [NormalizedPoint] = []
        for side in [-1.0, 1.0] {
            for height in [part.bottomMeters, part.topMeters] {
                let x = part.xMeters + side * acrossX * halfWidth
                let y = part.yMeters + side * acrossY * halfWidth
                let z = height - setup.mountHeightMeters
                guard let point = dockAlignedPoint(x: x, y: y, z: z, yawRadians: yawRadians, pitchRadians: pitchRadians)
                else { return nil }
                points.append(point)
            }
        }
        return points
    }

    /// Where a point (metres, relative to the camera: x right of the dock, y ahead, z up) shows in
    /// the dock-aligned image when the camera points at the given yaw and pitch.
    public func dockAlignedPoint(x: Double, y: Double, z: Double, yawRadians: Double, pitchRadians: Double) -> NormalizedPoint? {
        let (sinYaw, cosYaw) = (sin(yawRadians), cos(yawRadians))
        let (sinPitch, cosPitch) = (sin(pitchRadians), cos(pitchRadians))
        // Camera axes in room coordinates: yaw > 0 turns right (towards +x), pitch > 0 tilts up.
        let forward = x * sinYaw * cosPitch + y * cosYaw * cosPitch + z * sinPitch
        let right = x * cosYaw - y * sinYaw
        let up = -x * sinYaw * sinPitch - y * cosYaw * sinPitch + z * cosPitch
        return setup.information.dockAlignedPoint(right: right, up: up, forward: forward)
    }
}

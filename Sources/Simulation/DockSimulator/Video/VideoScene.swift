import DockNumbers
import DockProtocol
public import DockVocabulary

#if canImport(Glibc)
    import Glibc
#endif

/// What the emulated webcam sees in one frame, in the simulator's own terms: where it points, how
/// wide it sees (its zoom), and where each subject stands in its picture — the truth a picture
/// is drawn from, and the truth a detector on that picture is scored against.
public struct VideoScene: Hashable, Sendable {
    /// The frame's capture time, simulation time.
    public var captureTime: Duration
    /// Where the camera points (yaw > 0 right), radians.
    public var yawRadians: Double
    /// Where the camera points (pitch > 0 up), radians.
    public var pitchRadians: Double
    /// The camera as zoomed: its field of view, aspect ratio and mirroring.
    public var camera: CameraInformation
    /// The camera's height above the floor, metres.
    public var mountHeightMeters: Double
    /// The people in the room, farthest first (the order they are drawn in).
    public var people: [ScenePerson]
    /// The objects in the room, farthest first.
    public var objects: [SceneObject]

    /// Creates a scene.
    public init(
        captureTime: Duration, yawRadians: Double, pitchRadians: Double, camera: CameraInformation, mountHeightMeters: Double = 1.2,
        people: [ScenePerson] = [], objects: [SceneObject] = []
    ) {
        self.captureTime = captureTime
        self.mountHeightMeters = mountHeightMeters
        self.yawRadians = yawRadians
        self.pitchRadians = pitchRadians
        self.camera = camera
        self.people = people
        self.objects = objects
    }

    /// The scene at `seconds` with the camera at `yawRadians`, `pitchRadians`, magnified
    /// `magnification` times (1: the scenario's field of view), of `subjects` seen by `camera`.
    public static func make(
        subjects: [ResolvedSubject], camera: VirtualCamera, yawRadians: Double, pitchRadians: Double, magnification: Double,
        captureTime: Duration
    ) -> VideoScene {
        let seconds = captureTime.secondsValue
        let zoomed = camera.zoomed(by: magnification)
        var people: [(Double, ScenePerson)] = [], objects: [(Double, SceneObject)] = []
        for subject in subjects {
            guard let position = subject.position(atSeconds: seconds) else { continue }
            let distance = (position.xMeters * position.xMeters + position.yMeters * position.yMeters).squareRoot()
            for part in SubjectPart.parts(of: subject.script, xMeters: position.xMeters, yMeters: position.yMeters) where part.kind != .face
            {
                guard let box = zoomed.dockAlignedBox(of: part, yawRadians: yawRadians, pitchRadians: pitchRadians) else { continue }
                switch subject.script.kind {
                case .person(let height):
                    let look = subject.script.looksLike ?? subject.script.identifier
                    people.append(
                        (
                            distance,
                            ScenePerson(
                                subjectIdentifier: subject.script.identifier, look: look, box: box, distanceMeters: distance,
                                walkedMeters: subject.distanceWalked(atSeconds: seconds),
                                movesRight: subject.movesRight(atSeconds: seconds), xMeters: position.xMeters,
                                yMeters: position.yMeters, heightMeters: height)
                        ))
                case .object:
                    objects.append(
                        (distance, SceneObject(subjectIdentifier: subject.script.identifier, box: box, distanceMeters: distance)))
                }
            }
        }
        return VideoScene(
            captureTime: captureTime, yawRadians: yawRadians, pitchRadians: pitchRadians, camera: zoomed.setup.information,
            mountHeightMeters: camera.setup.mountHeightMeters, people: people.sorted { $0.0 > $1.0 }.map(\.1),
            objects: objects.sorted { $0.0 > $1.0 }.map(\.1))
    }
}

/// A person in a frame.
public struct ScenePerson: Hashable, Sendable {
    /// The scenario's subject.
    public var subjectIdentifier: Int
    /// Which look (which person from the footage) it has: its own identifier, or that of the
    /// subject it looks like.
    public var look: Int
    /// Its body's box in the dock-aligned picture (not clipped to it).
    public var box: NormalizedRect
    /// How far from the camera it stands (on the floor), metres.
    public var distanceMeters: Double
    /// How far it has walked since the run began, metres (its walk's animation follows it).
    public var walkedMeters: Double
    /// Whether it crosses the picture to the right (false: left; nil: it hardly crosses).
    public var movesRight: Bool?
    /// Where it stands, metres (x right of the dock, y ahead).
    public var xMeters: Double
    /// Where it stands, metres.
    public var yMeters: Double
    /// How tall it is, metres.
    public var heightMeters: Double
}

/// An object in a frame (drawn as a flat grey panel).
public struct SceneObject: Hashable, Sendable {
    /// The scenario's subject.
    public var subjectIdentifier: Int
    /// Its box in the dock-aligned picture.
    public var box: NormalizedRect
    /// How far from the camera it stands, metres.
    public var distanceMeters: Double
}

extension VirtualCamera {
    /// The camera magnified `magnification` times (≥ 1): the field of view whose half-angle's
    /// tangent is the original's over the magnification, as a digital or optical zoom narrows it.
    public func zoomed(by magnification: Double) -> VirtualCamera {
        guard magnification.isFinite, magnification > 1 else { return self }
        var setup = self.setup
        let half = atan(tan(setup.information.horizontalFieldOfViewRadians / 2) / magnification)
        setup.information.horizontalFieldOfViewRadians = 2 * half
        return VirtualCamera(setup: setup)
    }
}

extension ResolvedSubject {
    /// How far the subject has walked by `seconds` along its path, metres.
    public func distanceWalked(atSeconds seconds: Double) -> Double {
        guard let first = waypoints.first else { return 0 }
        var walked = 0.0
        var previous = first
        for point in waypoints.dropFirst() {
            if point.timeSeconds >= seconds {
                let span = point.timeSeconds - previous.timeSeconds
                let fraction = span > 0 ? max(0, min(1, (seconds - previous.timeSeconds) / span)) : 0
                walked += fraction * hypot(point.xMeters - previous.xMeters, point.yMeters - previous.yMeters)
                return walked
            }
            walked += hypot(point.xMeters - previous.xMeters, point.yMeters - previous.yMeters)
            previous = point
        }
        return walked
    }

    /// Whether the subject crosses the dock's view to the right at `seconds` (its bearing from
    /// the dock growing over the last 0.2 s), to the left, or neither (nil: it turned less than
    /// 0.2°, or was not there).
    public func movesRight(atSeconds seconds: Double) -> Bool? {
        guard let now = position(atSeconds: seconds), let before = position(atSeconds: max(0, seconds - 0.2)) else { return nil }
        let turned = atan2(now.xMeters, now.yMeters) - atan2(before.xMeters, before.yMeters)
        guard abs(turned) > 0.2 * .pi / 180 else { return nil }
        return turned > 0
    }
}

/// A subject as the dock knows it: a person (a body, a face, or both, fused) or an object, with
/// an identifier that stays the same when its face or body comes and goes.
public struct FusedSubject: Hashable, Sendable {
    /// The subject's identifier (the identifier of the first of its tracks).
    public var identifier: Int
    /// What it is: `.body` for a person (with or without a face seen), `.face` for a face seen
    /// without its body, `.object`.
    public var kind: SubjectKind
    /// The body's track, if one is seen.
    public var bodyTrack: Int?
    /// The face's track, if one is seen.
    public var faceTrack: Int?
    /// Where it is: the body's angular box when there is one, else the face's.
    public var angularBox: AngularBox
    /// Its angular rates (of the same track as the box), rad/s.
    public var yawRateRadiansPerSecond: Double
    /// Its angular rates, rad/s.
    public var pitchRateRadiansPerSecond: Double
    /// Whether none of its tracks was seen in the last frames (all coasting).
    public var isCoasting: Bool
    /// When the first of its tracks was first seen.
    public var born: Duration

    /// The subject one track makes on its own.
    public init(track: SubjectTracker.Track, identifier: Int? = nil) {
        self.identifier = identifier ?? track.identifier
        kind = track.kind
        bodyTrack = track.kind == .body ? track.identifier : nil
        faceTrack = track.kind == .face ? track.identifier : nil
        angularBox = track.filter.angularBox
        (yawRateRadiansPerSecond, pitchRateRadiansPerSecond) = track.filter.rates
        isCoasting = track.phase == .coasting
        born = track.born
    }
}

/// Joins a face with the body it belongs to, so a person is one subject: a face belongs to a body
/// when it lies across the body's width and in the top 40 % of its height. Identifiers are kept:
/// a face and a body that join take the older of their two subject identifiers, and keep it.
public struct SubjectFusion: Sendable {
    private var subjectOfTrack: [Int: Int] = [:]

    /// Creates an empty fusion.
    public init() {}

    /// The subjects the tracks make up (tentative tracks are left out).
    public mutating func fuse(_ tracks: [SubjectTracker.Track]) -> [FusedSubject] {
        let live = tracks.filter { $0.phase != .tentative }
        let bodies = live.filter { $0.kind == .body }
        var subjects: [FusedSubject] = []
        var usedFaces = Set<Int>()
        for body in bodies {
            let box = body.filter.angularBox
            let face = live.filter { $0.kind == .face && !usedFaces.contains($0.identifier) }
                .filter { Self.belongs($0.filter.angularBox, to: box) }
                .min { abs($0.filter.angularBox.yawRadians - box.yawRadians) < abs($1.filter.angularBox.yawRadians - box.yawRadians) }
            if let face { usedFaces.insert(face.identifier) }
            let identifier = subjectIdentifier(for: [body.identifier] + (face.map { [$0.identifier] } ?? []))
            var subject = FusedSubject(track: body, identifier: identifier)
            if let face {
                subject.faceTrack = face.identifier
                subject.isCoasting = body.phase == .coasting && face.phase == .coasting
                subject.born = min(body.born, face.born)
            }
            subjects.append(subject)
        }
        for track in live where track.kind != .body && !usedFaces.contains(track.identifier) {
            subjects.append(FusedSubject(track: track, identifier: subjectIdentifier(for: [track.identifier])))
        }
        let liveTracks = Set(live.map(\.identifier))
        subjectOfTrack = subjectOfTrack.filter { liveTracks.contains($0.key) }
        return subjects
    }

    /// Whether a face's box lies across a body's width and in the top 40 % of its height.
    static func belongs(_ face: AngularBox, to body: AngularBox) -> Bool {
        abs(face.yawRadians - body.yawRadians) <= body.widthRadians / 2
            && face.pitchRadians <= body.pitchRadians + body.heightRadians / 2
            && face.pitchRadians >= body.pitchRadians + body.heightRadians * 0.1
    }

    /// The oldest subject identifier any of the tracks had, given to all of them.
    private mutating func subjectIdentifier(for tracks: [Int]) -> Int {
        let identifier = tracks.compactMap { subjectOfTrack[$0] }.min() ?? tracks.min()!
        for track in tracks { subjectOfTrack[track] = identifier }
        return identifier
    }
}

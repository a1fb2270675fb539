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
    /// Its face's angular box, when a face is seen (alone, or joined to the body).
    public var faceBox: AngularBox?
    /// Its angular rates (of the same track as the box), rad/s.
    public var yawRateRadiansPerSecond: Double
    /// Its angular rates, rad/s.
    public var pitchRateRadiansPerSecond: Double
    /// How well its place and rates are known (of the same track as the box).
    public var uncertainty: SubjectUncertainty
    /// Whether none of its tracks was seen in the last frames (all coasting).
    public var isCoasting: Bool
    /// Whether the track its box comes from is coasting (its place is a prediction), even if
    /// another of its tracks is seen.
    public var isBoxCoasting: Bool
    /// When the first of its tracks was first seen.
    public var born: Duration

    /// The subject one track makes on its own.
    public init(track: SubjectTracker.Track, identifier: Int? = nil) {
        self.identifier = identifier ?? track.identifier
        kind = track.kind
        bodyTrack = track.kind == .body ? track.identifier : nil
        faceTrack = track.kind == .face ? track.identifier : nil
        angularBox = track.filter.angularBox
        faceBox = track.kind == .face ? track.filter.angularBox : nil
        (yawRateRadiansPerSecond, pitchRateRadiansPerSecond) = track.filter.rates
        uncertainty = SubjectUncertainty(track.filter)
        isCoasting = track.phase == .coasting
        isBoxCoasting = track.phase == .coasting
        born = track.born
    }
}

/// Joins a face with the body it belongs to, so a person is one subject: a face belongs to a body
/// when it lies across the body's width and in the top 40 % of its height. Identifiers are kept:
/// a face and a body that join take the subject identifier known longest, and keep it.
///
/// An identifier follows the person, not a box: a face whose subject still has another live part
/// — the body it was joined to, now coasting behind an occluder, say — does not carry that
/// subject's identifier into a join with some other body: the join takes the body's. (Without
/// it, a hidden subject's coasting face track that took an occluder's face handed the subject's
/// identifier to the occluder's body.) Parts of one subject that no longer belong together are
/// not split into two identifiers yet: doing it at once, or after half a second, made a group of
/// four milling people trade identifiers; the primary selector's size check is what keeps the
/// dock off a person who inherited one.
/// Its buffers are sized once, so fusing a frame allocates nothing in the steady state.
public struct SubjectFusion: Sendable {
    /// Which subject each live track belongs to.
    private var subjectOfTrack: [(track: Int, subject: Int)] = []
    /// When each live subject identifier was first given (the count of `fuse` calls then).
    private var subjectSince: [(subject: Int, generation: Int)] = []
    private var generation = 0
    private var faceUsed: [Bool] = []


    /// Creates an empty fusion.
    public init() {
        subjectOfTrack.reserveCapacity(64)
        subjectSince.reserveCapacity(64)
        faceUsed.reserveCapacity(64)
    }

    /// The subjects the tracks make up (tentative tracks are left out).
    public mutating func fuse(_ tracks: [SubjectTracker.Track]) -> [FusedSubject] {
        var subjects: [FusedSubject] = []
        fuse(tracks, into: &subjects)
        return subjects
    }

    /// The subjects the tracks make up, written over `subjects` (whose capacity is kept).
    public mutating func fuse(_ tracks: [SubjectTracker.Track], into subjects: inout [FusedSubject]) {
        generation += 1
        subjects.removeAll(keepingCapacity: true)
        faceUsed.removeAll(keepingCapacity: true)
        for _ in tracks.indices { faceUsed.append(false) }
        for body in tracks where body.kind == .body && body.phase != .tentative {
            let box = body.filter.angularBox
            var face: Int?
            for index in tracks.indices where tracks[index].kind == .face && tracks[index].phase != .tentative && !faceUsed[index] {
                let candidate = tracks[index].filter.angularBox
                guard Self.belongs(candidate, to: box) else { continue }
                if let chosen = face,
                    abs(tracks[chosen].filter.angularBox.yawRadians - box.yawRadians) <= abs(candidate.yawRadians - box.yawRadians)
                {
                    continue
                }
                face = index
            }
            var subject = FusedSubject(track: body)
            if let face {
                faceUsed[face] = true
                let faceTrack = tracks[face]
                subject.identifier = subjectIdentifier(body.identifier, faceTrack.identifier, live: tracks)
                subject.faceTrack = faceTrack.identifier
                subject.faceBox = faceTrack.filter.angularBox
                subject.isCoasting = body.phase == .coasting && faceTrack.phase == .coasting
                subject.born = min(body.born, faceTrack.born)
            } else {
                subject.identifier = subjectIdentifier(body.identifier, nil)
            }
            subjects.append(subject)
        }
        for index in tracks.indices where tracks[index].kind != .body && tracks[index].phase != .tentative && !faceUsed[index] {
            var subject = FusedSubject(track: tracks[index])
            subject.identifier = subjectIdentifier(tracks[index].identifier, nil)
            subjects.append(subject)
        }
        subjectOfTrack.removeAll { entry in !tracks.contains { $0.identifier == entry.track && $0.phase != .tentative } }
        let mappings = subjectOfTrack
        subjectSince.removeAll { since in !mappings.contains { $0.subject == since.subject } }
    }

    /// Whether a face's box lies across a body's width and in the top 40 % of its height.
    static func belongs(_ face: AngularBox, to body: AngularBox) -> Bool {
        abs(face.yawRadians - body.yawRadians) <= body.widthRadians / 2
            && face.pitchRadians <= body.pitchRadians + body.heightRadians / 2
            && face.pitchRadians >= body.pitchRadians + body.heightRadians * 0.1
    }

    /// The oldest subject identifier either track already had — so a subject keeps its identifier
    /// when a newly confirmed track joins it — or, for tracks new to every subject, the older
    /// track's own; given to both. A second track whose subject has another live part does not
    /// bring that subject along (see the type's documentation).
    private mutating func subjectIdentifier(_ first: Int, _ second: Int?, live tracks: [SubjectTracker.Track] = []) -> Int {
        // Of the subjects the two tracks already belong to, the one clients have known longest
        // (a face seen alone as subject 6 keeps 6 when its body, track 4, joins it later).
        var known: (subject: Int, since: Int)?
        var isSecondAnotherSubjects = false
        for entry in subjectOfTrack where entry.track == first || entry.track == second {
            if let second, entry.track == second, entry.subject != subject(of: first),
                subjectOfTrack.contains(where: { other in
                    other.subject == entry.subject && other.track != second && other.track != first
                        && tracks.contains { $0.identifier == other.track && $0.phase != .tentative }
                })
            {
                isSecondAnotherSubjects = true
                continue
            }
            let since = subjectSince.first { $0.subject == entry.subject }?.generation ?? generation
            if known.map({ since < $0.since || (since == $0.since && entry.subject < $0.subject) }) ?? true {
                known = (entry.subject, since)
            }
        }
        let identifier = known?.subject ?? (isSecondAnotherSubjects ? first : min(first, second ?? first))
        if known == nil, !subjectSince.contains(where: { $0.subject == identifier }) {
            subjectSince.append((identifier, generation))
        }
        assign(first, identifier)
        if let second { assign(second, identifier) }
        return identifier
    }

    /// The subject `track` belongs to, if any.
    private func subject(of track: Int) -> Int? {
        subjectOfTrack.first { $0.track == track }?.subject
    }

    private mutating func assign(_ track: Int, _ subject: Int) {
        if let index = subjectOfTrack.firstIndex(where: { $0.track == track }) {
            subjectOfTrack[index].subject = subject
        } else {
            subjectOfTrack.append((track, subject))
        }
    }
}

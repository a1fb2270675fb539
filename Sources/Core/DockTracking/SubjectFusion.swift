public import DockVocabulary

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
    /// The capture time of the newest box fused into the track its box comes from: how old the
    /// evidence for its place is.
    public var boxLastSeen: Duration

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
        boxLastSeen = track.lastSeen
    }
}

/// Joins a face with the body it belongs to, so a person is one subject: a face belongs to a body
/// when it lies across the body's width and in the top 40 % of its height, and moves with it (see
/// `movesTogether`). Identifiers are kept: a face and a body that join take the subject
/// identifier known longest, and keep it.
///
/// **A face and a body that disagree are two subjects.** A face outside its body's box, or one
/// moving against it (someone passing in front of or behind a person, whose face the face track
/// was handed), is not fused: it is a subject of its own. When its track had been joined to a
/// body that still carries the subject's identifier, the body keeps it (it is the person's box,
/// the one the dock frames) and the face gets an identifier of its own — its track's, or, when
/// the subject's identifier *is* its track's, a fresh one from `fuse`'s `freshIdentifier` —
/// instead of two subjects reporting one identifier.
///
/// An identifier follows the person, not a box: a face whose subject still has another live part
/// — the body it was joined to, now coasting behind an occluder, say — does not carry that
/// subject's identifier into a join with some other body: the join takes the body's. (Without
/// it, a hidden subject's coasting face track that took an occluder's face handed the subject's
/// identifier to the occluder's body.) Parts of one subject that no longer belong together are
/// not re-joined by force: doing it at once, or after half a second, made a group of
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

    /// The subjects the tracks make up (tentative tracks, and those out of the picture, are left
    /// out; a track that comes back into the picture is its subject again, with its identifier).
    public mutating func fuse(_ tracks: [SubjectTracker.Track]) -> [FusedSubject] {
        var subjects: [FusedSubject] = []
        fuse(tracks, into: &subjects)
        return subjects
    }

    /// The subjects the tracks make up, written over `subjects` (whose capacity is kept).
    ///
    /// - Parameters:
    ///   - lost: tracks the tracker may still bring back under their identifiers
    ///     (`SubjectTracker.lostTracks`): which subject each belonged to is remembered, so a
    ///     person whose face comes back before their body is their old subject again, not the
    ///     face track's own.
    ///   - freshIdentifier: a subject identifier never given before, for a face split from
    ///     the body whose subject identifier is its own track's (`SubjectTracker.reserveIdentifier`);
    ///     nil when there is none to give, and then the face shares the body's identifier.
    public mutating func fuse(
        _ tracks: [SubjectTracker.Track], into subjects: inout [FusedSubject],
        keepingSubjectsOf lost: [SubjectTracker.LostTrack] = [],
        freshIdentifier: () -> Int? = { nil }
    ) {
        generation += 1
        subjects.removeAll(keepingCapacity: true)
        faceUsed.removeAll(keepingCapacity: true)
        for _ in tracks.indices { faceUsed.append(false) }
        for body in tracks where body.kind == .body && body.phase != .tentative && !body.isOutOfPicture {
            let box = body.filter.angularBox
            var face: Int?
            for index in tracks.indices
            where tracks[index].kind == .face && tracks[index].phase != .tentative && !faceUsed[index]
                && !tracks[index].isOutOfPicture
            {
                let candidate = tracks[index].filter.angularBox
                guard Self.belongs(candidate, to: box), Self.movesTogether(tracks[index].filter, body.filter) else { continue }
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
        for index in tracks.indices
        where tracks[index].kind != .body && tracks[index].phase != .tentative && !faceUsed[index]
            && !tracks[index].isOutOfPicture
        {
            var subject = FusedSubject(track: tracks[index])
            subject.identifier = subjectIdentifier(tracks[index].identifier, nil)
            // A face split from the body that carries its subject's identifier: one of its own.
            if tracks[index].kind == .face, subjects.contains(where: { $0.identifier == subject.identifier }) {
                let own = tracks[index].identifier
                let identifier =
                    own != subject.identifier && !subjects.contains(where: { $0.identifier == own })
                        && !subjectOfTrack.contains(where: { $0.subject == own && $0.track != own }) ? own : freshIdentifier()
                if let identifier {
                    assign(own, identifier)
                    if !subjectSince.contains(where: { $0.subject == identifier }) { subjectSince.append((identifier, generation)) }
                    subject.identifier = identifier
                }
            }
            subjects.append(subject)
        }
        subjectOfTrack.removeAll { entry in
            !tracks.contains { $0.identifier == entry.track && $0.phase != .tentative } && !lost.contains { $0.identifier == entry.track }
        }
        let mappings = subjectOfTrack
        subjectSince.removeAll { since in !mappings.contains { $0.subject == since.subject } }
    }

    /// The least difference of angular rate, rad/s, that counts as a face moving against its
    /// body (a walker's rate at 3 m is about 0.3 rad/s; the jitter of a young face track's rate
    /// is the other bound, `movesTogether`).
    public static let disagreeingRateRadiansPerSecond = 0.25

    /// Whether a face's and a body's estimated rates agree: on each axis they differ by less than
    /// `disagreeingRateRadiansPerSecond` or by less than three standard deviations of the
    /// difference (a track whose rate is still unknown agrees with anything).
    static func movesTogether(_ face: SubjectFilter, _ body: SubjectFilter) -> Bool {
        let (faceRates, bodyRates) = (face.rates, body.rates)
        let yawVariance = face.covariance[14] + body.covariance[14], pitchVariance = face.covariance[21] + body.covariance[21]
        func agrees(_ difference: Double, _ variance: Double) -> Bool {
            abs(difference) <= max(disagreeingRateRadiansPerSecond, 3 * max(variance, 0).squareRoot())
        }
        return agrees(faceRates.yawRadiansPerSecond - bodyRates.yawRadiansPerSecond, yawVariance)
            && agrees(faceRates.pitchRadiansPerSecond - bodyRates.pitchRadiansPerSecond, pitchVariance)
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

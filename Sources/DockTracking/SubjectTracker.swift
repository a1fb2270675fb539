/// Many subjects at once: each frame's observations are associated with the tracks by optimal
/// assignment on the gated Mahalanobis distance (faces with faces, bodies with bodies, objects with
/// objects), each track runs its own `SubjectFilter`, and tracks live through a
/// tentative → confirmed → coasting → deleted lifecycle, so a subject keeps its ID through short
/// misses and occlusions while a one-frame false detection never becomes a subject.
public struct SubjectTracker: Sendable {
    /// Tuning.
    public struct Configuration: Hashable, Sendable {
        /// The most tracks at once.
        public var maximumTracks = 16
        /// Gate on the squared Mahalanobis distance (χ² with 4 degrees of freedom: 30 lets through
        /// all but 5 in a million true matches). Wide on purpose: a subject that turns sharply must
        /// stay its own track, and the optimal assignment keeps neighbours apart.
        public var gate = 30.0
        /// Hits that confirm a tentative track.
        public var confirmationHits = 3
        /// How long a tentative track may go unseen before it is dropped.
        public var tentativeTimeout: Duration = .milliseconds(300)
        /// How long a confirmed track goes without an observation fused before it counts as coasting.
        public var coastAfter: Duration = .milliseconds(100)
        /// How long a confirmed track coasts unseen before it is deleted.
        public var coastTimeout: Duration = .milliseconds(1500)
        /// Filter noise.
        public var noise = SubjectFilter.Noise()

        public init() {}
    }

    /// Where a track is in its life.
    public enum Phase: Hashable, Sendable {
        case tentative, confirmed, coasting
    }

    /// One tracked subject.
    public struct Track: Sendable {
        /// Its identifier: stable for its life, never reused.
        public let identifier: Int
        /// What it is.
        public let kind: SubjectKind
        /// Its filter.
        public var filter: SubjectFilter
        /// Where it is in its life.
        public var phase: Phase
        /// Observations fused so far.
        public var hits: Int
        /// When it was last seen (capture time).
        public var lastSeen: Duration
        /// The tracker's time when it was last fused: a track coasts when nothing has been fused
        /// into it for a while, however late the frames arrive.
        public var lastFused: Duration
        /// When it was first seen.
        public let born: Duration
    }

    /// The settings.
    public let configuration: Configuration
    /// The live tracks.
    public private(set) var tracks: [Track] = []
    /// The time the filters have been predicted to.
    public private(set) var time: Duration = .zero
    private var nextIdentifier = 1
    private var solver: AssignmentSolver
    // Per-frame buffers, sized once.
    private var predictions: [SubjectFilter.Prediction] = []
    private var rows: [Int] = []
    private var columns: [Int] = []
    private var assigned: [Bool] = []

    /// Creates an empty tracker.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        tracks.reserveCapacity(configuration.maximumTracks)
        solver = AssignmentSolver(maximumRows: configuration.maximumTracks, maximumColumns: 64)
        predictions.reserveCapacity(configuration.maximumTracks)
        rows.reserveCapacity(configuration.maximumTracks)
        columns.reserveCapacity(solver.maximumColumns)
        assigned.reserveCapacity(solver.maximumColumns)
    }

    /// Drops every track; identifiers go on from where they were, so none is ever reused.
    public mutating func removeAll() {
        tracks.removeAll(keepingCapacity: true)
    }

    /// Predicts every track to `now` and retires those unseen for too long.
    public mutating func predict(to now: Duration) {
        guard now > time else { return }
        let seconds = (now - time).trackerSeconds
        for index in tracks.indices { tracks[index].filter.predict(seconds: seconds) }
        time = now
        tracks.removeAll { track in
            switch track.phase {
            case .tentative: now - track.lastFused > configuration.tentativeTimeout
            case .confirmed, .coasting: now - track.lastFused > configuration.coastTimeout
            }
        }
        for index in tracks.indices where tracks[index].phase == .confirmed && now - tracks[index].lastFused > configuration.coastAfter {
            tracks[index].phase = .coasting
        }
    }

    /// Fuses one frame's observations, captured at `captureTime` with the gimbal at the given pose.
    /// A frame from the future first moves the tracker there; a late one is fused with each track
    /// moved back by the lag. Observations without a usable box are ignored. In the steady state
    /// (no track born) this allocates nothing: the per-frame buffers are the tracker's own.
    public mutating func update(_ observations: [Observation], camera: CameraInformation, captureTime: Duration,
                                gimbalYawRadians: Double, gimbalPitchRadians: Double) {
        guard let model = MeasurementModel(camera: camera, gimbalYawRadians: gimbalYawRadians, gimbalPitchRadians: gimbalPitchRadians)
        else { return }
        if captureTime > time { predict(to: captureTime) }
        let lag = captureTime < time ? (time - captureTime).trackerSeconds : 0
        let count = min(observations.count, solver.maximumColumns)
        assigned.removeAll(keepingCapacity: true)
        for _ in 0..<count { assigned.append(false) }
        predictions.removeAll(keepingCapacity: true)
        for index in tracks.indices { predictions.append(tracks[index].filter.prediction(model, lagSeconds: lag)) }
        for kind in SubjectKind.allCases {
            rows.removeAll(keepingCapacity: true)
            columns.removeAll(keepingCapacity: true)
            for index in tracks.indices where tracks[index].kind == kind && predictions[index].isValid { rows.append(index) }
            for index in 0..<count where observations[index].kind == kind && observations[index].box.isUsable {
                columns.append(index)
            }
            guard !rows.isEmpty, !columns.isEmpty else { continue }
            let (rows, columns, predictions) = (self.rows, self.columns, self.predictions)
            solver.solve(rows: rows.count, columns: columns.count, gate: configuration.gate) { row, column in
                predictions[rows[row]].distance(to: observations[columns[column]].box) ?? .infinity
            }
            for row in rows.indices {
                let column = solver.column(forRow: row)
                guard column >= 0 else { continue }
                let trackIndex = rows[row], observationIndex = columns[column]
                guard tracks[trackIndex].filter.update(with: observations[observationIndex].box, predictions[trackIndex]) else { continue }
                assigned[observationIndex] = true
                tracks[trackIndex].hits += 1
                tracks[trackIndex].lastSeen = max(tracks[trackIndex].lastSeen, captureTime)
                tracks[trackIndex].lastFused = time
                if tracks[trackIndex].phase == .coasting || tracks[trackIndex].hits >= configuration.confirmationHits {
                    tracks[trackIndex].phase = .confirmed
                }
            }
        }
        // Unassigned observations start tentative tracks, while there is room.
        for index in 0..<count where !assigned[index] && tracks.count < configuration.maximumTracks {
            let observation = observations[index]
            guard observation.box.isUsable,
                let angular = AngularBox(box: observation.box, camera: camera, gimbalYawRadians: gimbalYawRadians,
                                         gimbalPitchRadians: gimbalPitchRadians)
            else { continue }
            tracks.append(Track(identifier: nextIdentifier, kind: observation.kind,
                                filter: SubjectFilter(first: angular, noise: configuration.noise),
                                phase: .tentative, hits: 1, lastSeen: captureTime, lastFused: time, born: captureTime))
            nextIdentifier += 1
        }
    }
}

extension Duration {
    /// The duration in seconds (DockTracking depends on the standard library only, so it keeps its
    /// own copy of DockProtocol's `secondsValue`).
    var trackerSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

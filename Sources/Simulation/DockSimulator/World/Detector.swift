public import DockVocabulary

#if canImport(Glibc)
    import Glibc
#endif

/// The observations of one video frame, as a camera app would send them.
public struct DetectionBatch: Hashable, Sendable {
    /// When the frame was captured, simulation time.
    public var captureTime: Duration
    /// When the detector finished with it (capture time plus latency).
    public var deliveryTime: Duration
    /// How the image relates to the dock.
    public var camera: CameraInformation
    /// What the detector reported.
    public var observations: [Observation]
}

/// What was really in one frame, for scoring.
public struct GroundTruthFrame: Hashable, Sendable {
    /// When the frame was captured, simulation time.
    public var captureTime: Duration
    /// Where the camera pointed (the dock's output angles, after backlash), radians.
    public var yawRadians: Double
    /// Where the camera pointed, radians.
    public var pitchRadians: Double
    /// Every part of every subject in the room that projects in front of the camera.
    public var parts: [GroundTruthPart]
    /// Subjects in the room at capture time.
    public var presentSubjects: [Int]
    /// Subjects in the room that have not moved (less than `GroundTruthFrame.stillDistanceMeters`)
    /// over the `GroundTruthFrame.stillWindowSeconds` before capture.
    public var stillSubjects: [Int]
    /// The velocity commands the dock had accepted by capture time (cumulative).
    public var velocityCommands: VelocityCommandCounts
    /// Where the camera's pan can go, radians (its axis's end stops); nil when not known.
    public var yawRangeRadians: ClosedRange<Double>?
    /// How many times the camera's zoom magnified the picture at capture time (1: at its widest,
    /// or no zoom); the parts' boxes are in the picture as zoomed.
    public var magnification = 1.0

    /// How far a subject may move over `stillWindowSeconds` and still count as still, metres.
    public static let stillDistanceMeters = 0.01
    /// The window over which stillness is judged, seconds.
    public static let stillWindowSeconds = 0.5

    /// Creates a frame's ground truth.
    public init(
        captureTime: Duration, yawRadians: Double, pitchRadians: Double, parts: [GroundTruthPart],
        presentSubjects: [Int], stillSubjects: [Int] = [], velocityCommands: VelocityCommandCounts = VelocityCommandCounts(),
        yawRangeRadians: ClosedRange<Double>? = nil
    ) {
        self.yawRangeRadians = yawRangeRadians
        self.captureTime = captureTime
        self.yawRadians = yawRadians
        self.pitchRadians = pitchRadians
        self.parts = parts
        self.presentSubjects = presentSubjects
        self.stillSubjects = stillSubjects
        self.velocityCommands = velocityCommands
    }
}

/// One part of one subject in one frame.
public struct GroundTruthPart: Hashable, Sendable {
    /// The subject's identifier in the scenario.
    public var subjectIdentifier: Int
    /// Face, body or object.
    public var kind: SubjectKind
    /// Its true box in the delivered image, not clipped.
    public var box: NormalizedRect
    /// The share of the box inside the image.
    public var inFrameFraction: Double
    /// The share of the box inside the image and not hidden by nearer subjects.
    public var visibleFraction: Double
    /// Whether the detector reported it in this frame.
    public var wasReported: Bool
    /// The direction of its centre on the floor plan from the dock, radians of yaw (> 0 right of
    /// the dock's home), whatever the camera's pose.
    public var bearingRadians: Double = 0
}

/// A detector with the flaws of real ones: it misses, it jitters, it sees things that are not
/// there, it cannot see through people, and it takes time.
public struct DetectorModel: Sendable {
    /// How it errs.
    public let parameters: DetectorParameters
    private var random: SimulationRandom
    /// What people look like to it, when it sends appearance descriptors (its own random
    /// numbers: the boxes are the same with descriptors or without).
    public var appearance: AppearanceModel?

    /// Creates a detector.
    public init(parameters: DetectorParameters, random: SimulationRandom) {
        self.parameters = parameters
        self.random = random
    }

    /// Looks at one frame: what the camera projects, captured at `captureTime`.
    public mutating func detect(
        _ projections: [PartProjection], captureTime: Duration, camera: CameraInformation
    ) -> (batch: DetectionBatch, truth: [GroundTruthPart]) {
        var observations: [Observation] = []
        var truth: [GroundTruthPart] = []
        // Bodies and objects hide what is behind them; faces are part of their body.
        let occluders = projections.filter { $0.part.kind != .face }
        for projection in projections {
            var hidden = 0.0
            for occluder in occluders
            where occluder.part.subjectIdentifier != projection.part.subjectIdentifier
                && occluder.distanceMeters < projection.distanceMeters
            {
                hidden += (projection.box.intersection(occluder.box)?.area ?? 0) / projection.box.area
            }
            let visible = projection.inFrameFraction * max(0, 1 - hidden)
            let isReportable =
                switch projection.part.kind {
                case .face: parameters.reportsFaces
                case .body: parameters.reportsBodies
                case .object: true
                }
            var reported = false
            if isReportable, visible >= parameters.minimumVisibleFraction, !random.chance(parameters.missRate),
                let box = noisy(projection.box)
            {
                let confidence = min(0.99, max(0.3, 0.55 + 0.4 * visible + random.gaussian(standardDeviation: 0.03)))
                let descriptor = appearance?.descriptor(of: projection.part.subjectIdentifier, xMeters: projection.part.xMeters)
                observations.append(Observation(kind: projection.part.kind, box: box, confidence: confidence, appearance: descriptor))
                reported = true
            }
            truth.append(
                GroundTruthPart(
                    subjectIdentifier: projection.part.subjectIdentifier, kind: projection.part.kind, box: projection.box,
                    inFrameFraction: projection.inFrameFraction, visibleFraction: visible, wasReported: reported,
                    bearingRadians: atan2(projection.part.xMeters, projection.part.yMeters)))
        }
        for _ in 0..<poisson(parameters.falsePositivesPerFrame) {
            let width = 0.03 + random.unit() * 0.15, height = 0.05 + random.unit() * 0.2
            let box = NormalizedRect(
                x: random.unit() * (1 - width), y: random.unit() * (1 - height),
                width: width, height: height)
            let kind: SubjectKind = random.chance(0.5) ? .face : .body
            observations.append(Observation(kind: kind, box: box, confidence: 0.3 + random.unit() * 0.3))
        }
        let jitterNanoseconds =
            Double(parameters.latencyJitter.components.seconds) * 1e9
            + Double(parameters.latencyJitter.components.attoseconds) / 1e9
        let delay = parameters.latency + .nanoseconds(Int64(random.unit() * jitterNanoseconds))
        let batch = DetectionBatch(
            captureTime: captureTime, deliveryTime: captureTime + delay, camera: camera,
            observations: observations)
        return (batch, truth)
    }

    /// The box as the detector reports it: centre and size with noise, clipped to the image.
    private mutating func noisy(_ box: NormalizedRect) -> NormalizedRect? {
        let width = box.width * max(0.2, 1 + random.gaussian(standardDeviation: parameters.sizeNoise))
        let height = box.height * max(0.2, 1 + random.gaussian(standardDeviation: parameters.sizeNoise))
        let centerX = box.center.x + random.gaussian(standardDeviation: parameters.positionNoise * box.width)
        let centerY = box.center.y + random.gaussian(standardDeviation: parameters.positionNoise * box.height)
        let noisy = NormalizedRect(x: centerX - width / 2, y: centerY - height / 2, width: width, height: height)
        return noisy.intersection(.fullImage)
    }

    /// A Poisson-distributed count with the given mean (Knuth's method; the means here are small).
    private mutating func poisson(_ mean: Double) -> Int {
        guard mean > 0 else { return 0 }
        let limit = exp(-mean)
        var count = 0
        var product = random.unit()
        while product > limit, count < 100 {
            count += 1
            product *= random.unit()
        }
        return count
    }
}

import CAllocationCounter
import DockSimulator
import DockSystem
import DockTracking
import DockVocabulary
import Glibc

/// Times the tracker on synthetic frames: `subjects` people walking, each seen as a body and a
/// face (twice as many observations as subjects), one frame at 30 fps after another, every box
/// jittered as a detector's are (`jittered`).
enum TrackerBenchmark {
    static let camera = CameraInformation(horizontalFieldOfViewRadians: 70 * .pi / 180, aspectRatio: 16.0 / 9)
    /// The seed of the boxes' jitter: every run sees the same boxes.
    static let seed: UInt64 = 23
    /// A box's centre moves by this fraction of its size (standard deviation, per axis)...
    static let centreJitter = 0.03
    /// ...and its width and height by this fraction: edges that wander by about 4 %, as real
    /// detectors' do (5 to 10 %, the tracker assumes 8 %). Without jitter every box falls where
    /// its track expects it, and the filter's update, the maneuver rule and the association's
    /// costs are not exercised as they are on real boxes.
    static let sizeJitter = 0.05

    /// `box` with its centre and size jittered by `random` (see `centreJitter`, `sizeJitter`).
    static func jittered(_ box: NormalizedRect, _ random: inout SimulationRandom) -> NormalizedRect {
        let width = box.width * (1 + random.gaussian(standardDeviation: sizeJitter))
        let height = box.height * (1 + random.gaussian(standardDeviation: sizeJitter))
        let centreX = box.x + box.width / 2 + box.width * random.gaussian(standardDeviation: centreJitter)
        let centreY = box.y + box.height / 2 + box.height * random.gaussian(standardDeviation: centreJitter)
        return NormalizedRect(x: centreX - width / 2, y: centreY - height / 2, width: width, height: height)
    }

    /// Whether the interposed allocator really counts: an array of a thousand elements must show.
    static var allocationCounterWorks: Bool {
        let before = dockd_allocation_count()
        let probe = [Int](repeating: 7, count: 1000)
        let after = dockd_allocation_count()
        return withExtendedLifetime(probe) { after > before }
    }

    /// Microseconds per frame (median, 99th percentile) over `frames` frames after a warm-up, and
    /// the heap allocations those frames made (counted by the interposed allocator).
    /// `wholePipeline` times `TrackingPipeline` (observe and a control step: the tracker plus
    /// face/body fusion, the primary's choice and the framing controller) instead of the tracker.
    /// With `appearance`, each body carries a 32-value descriptor of its own (made once, before
    /// the timed frames, as a client's arrive with its observations).
    static func measure(
        subjects: Int, frames: Int, wholePipeline: Bool = false,
        appearance: Bool = false
    ) -> (p50: Double, p99: Double, maximum: Double, allocations: UInt64) {
        var tracker = SubjectTracker()
        var pipeline = TrackingPipeline()
        var samples: [Double] = []
        var allocations: UInt64 = 0
        samples.reserveCapacity(frames)
        var observations: [Observation] = []
        observations.reserveCapacity(subjects * 2)
        var random = SimulationRandom(seed: seed)
        let descriptors: [[Float]] = (0..<subjects).map { subject in
            (0..<32).map { bin in Float(0.1 + abs(sin(Double(bin * (subject + 3))))) }
        }
        for index in 0..<(frames + 60) {
            let t = Double(index) / 30
            observations.removeAll(keepingCapacity: true)
            for subject in 0..<subjects {
                let yaw = -0.5 + Double(subject) / Double(max(subjects, 1)) + 0.05 * sin(t + Double(subject))
                let body = AngularBox(yawRadians: yaw, pitchRadians: -0.05, widthRadians: 0.05, heightRadians: 0.25)
                let face = AngularBox(yawRadians: yaw, pitchRadians: 0.05, widthRadians: 0.02, heightRadians: 0.03)
                if let box = body.project(camera: camera, gimbalYawRadians: 0, gimbalPitchRadians: 0) {
                    observations.append(
                        Observation(
                            kind: .body, box: jittered(box, &random), confidence: 0.9,
                            appearance: appearance ? descriptors[subject] : nil))
                }
                if let box = face.project(camera: camera, gimbalYawRadians: 0, gimbalPitchRadians: 0) {
                    observations.append(Observation(kind: .face, box: jittered(box, &random), confidence: 0.9))
                }
            }
            let capture = Duration.nanoseconds(Int64(index) * 33_333_333)
            let allocationsBefore = dockd_allocation_count()
            let start = MonotonicClock.now()
            if wholePipeline {
                pipeline.observe(observations, camera: camera, captureTime: capture, gimbalYawRadians: 0, gimbalPitchRadians: 0)
                _ = pipeline.step(now: capture, gimbalYawRadians: 0, gimbalPitchRadians: 0)
            } else {
                tracker.predict(to: capture)
                tracker.update(observations, camera: camera, captureTime: capture, gimbalYawRadians: 0, gimbalPitchRadians: 0)
            }
            let elapsed = MonotonicClock.now() - start
            if index >= 60 {
                allocations += dockd_allocation_count() - allocationsBefore
                samples.append(Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
            }
        }
        samples.sort()
        let p99Index = min(samples.count - 1, Int((0.99 * Double(samples.count)).rounded(.up)) - 1)
        return (samples[samples.count / 2], samples[p99Index], samples[samples.count - 1], allocations)
    }
}

/// Which detectors run on a frame: faces on every frame the service takes, bodies on every
/// `bodyEvery`-th frame the camera captured (by the buffers' sequence numbers, so frames the
/// service had to skip while it was busy count: at 30 frames a second and `bodyEvery` 3, bodies
/// ten times a second whatever the faces cost). The service always takes the newest frame, so
/// when the detectors take longer than a frame, frames are skipped and each Track is as late as
/// the work made it — its capture time says so.
public struct DetectorSchedule: Hashable, Sendable {
    /// Bodies on every this-many-th captured frame.
    public let bodyEvery: Int
    private var lastBodySequence: UInt32?

    /// A schedule; `bodyEvery` is at least 1.
    public init(bodyEvery: Int) {
        self.bodyEvery = max(1, bodyEvery)
    }

    /// What to run on the frame of this sequence number.
    public struct Plan: Hashable, Sendable {
        /// Look for faces.
        public var faces: Bool
        /// Look for bodies.
        public var bodies: Bool
    }

    /// The plan for the frame `sequence`, counting it as done.
    public mutating func plan(sequence: UInt32) -> Plan {
        let bodies: Bool
        if let last = lastBodySequence {
            // Wrapping subtraction: the sequence is a 32-bit counter; one that went back (the
            // stream restarted) is a huge step, and bodies run.
            bodies = sequence &- last >= UInt32(bodyEvery)
        } else {
            bodies = true
        }
        if bodies { lastBodySequence = sequence }
        return Plan(faces: true, bodies: bodies)
    }
}

import DockAPI
import DockVocabulary
import Synchronization

extension DockAccessory {
    /// The state of tracking, as DockKit's `trackingStates` reports it: whether system tracking is on,
    /// the framing mode, the subjects selected, and the tracked subjects.
    public struct TrackingState: Hashable, Sendable {
        /// Whether system tracking is on.
        public var isSystemTrackingEnabled: Bool
        /// Where the subject sits in the frame.
        public var framingMode: FramingMode
        /// The subjects a client chose (empty: dockd chooses).
        public var selectedSubjectIdentifiers: [Int]
        /// The subjects dockd tracks, as DockKit's `trackedSubjects`.
        public var trackedSubjects: [TrackedSubject]
        /// The host's monotonic clock, seconds.
        public var timestamp: Double
    }

    /// Tracking state changes (sampled from the 10 Hz status; repeated states are left out).
    public var trackingStates: AsyncThrowingStream<TrackingState, any Error> {
        get throws(DockClientError) {
            final class Last: Sendable { let state = Mutex<TrackingState?>(nil) }
            let last = Last()
            return try watchEvents { event in
                let status = event.status
                let state = TrackingState(
                    isSystemTrackingEnabled: status.isTrackingEnabled, framingMode: FramingMode(status.framingMode),
                    selectedSubjectIdentifiers: status.selectedSubjects, trackedSubjects: status.subjects.map(TrackedSubject.init),
                    timestamp: event.timeSeconds)
                let changed = last.state.withLock { previous in
                    defer { previous = state }
                    return previous.map {
                        $0.isSystemTrackingEnabled != state.isSystemTrackingEnabled
                            || $0.framingMode != state.framingMode
                            || $0.selectedSubjectIdentifiers != state.selectedSubjectIdentifiers
                            || $0.trackedSubjects != state.trackedSubjects
                    } ?? true
                }
                return changed ? state : nil
            }
        }
    }
}

import DockNumbers
public import DockVocabulary

#if canImport(Glibc)
    import Glibc
#endif

/// The tracker as the daemon runs it, one value: frames of observations go in as they arrive
/// (`observe`, with the gimbal's pose at each frame's capture time), and every control tick
/// (`step`, at 30 Hz) predicts the tracks to now, fuses faces with bodies, chooses or holds the
/// primary subject and turns where it is into yaw and pitch rates for the dock.
///
/// When the primary subject is lost the dock holds still (rates 0) — the subject is most likely
/// hidden, and will come back near where it went — and after `lostBehaviour.after` without a
/// subject it does what `lostBehaviour.action` says (`LostBehaviour`): keeps holding, turns to
/// the rest pose or to a pose and stops commanding there, or zooms out (`Step.zoomsOut`, which
/// the host carries out where the accessory can zoom) and keeps holding. When the pose it would
/// turn to shows the place the subject left anyway (its centre well inside the image from
/// there), nothing is gained by staring at it: the dock goes as soon as the selector stops
/// waiting for the subject to reappear there (3 s, longer while someone stands over the place: a
/// hidden subject is not turned away from) and at least `restWhenInViewAfter` has passed. A
/// subject found at any point — while holding, on the way, or once there — is followed again.
///
/// **Hidden, or walked out of the picture.** A primary whose tracks coast is hidden — behind
/// someone or something in the picture, or missed — and the dock holds still for it (above): it
/// will come back near where it went, and turning would lose that place. A primary whose track
/// walked out of the picture (`SubjectTracker.Track.outOfPicture`: its centre went past the
/// left or right border unseen) has outrun the framing, and is most likely just beyond the
/// border, still walking: for its first `followOutOfPictureFor` the dock keeps turning after it
/// at the rate it was walking when it left (through the controller's speed and acceleration
/// limits; the host's position limits stop it at the end stops), then holds as for a hidden
/// subject. If they come back into the picture — on that side, as the turn means they should —
/// their track is brought back under its identifier (`SubjectTracker`), and the selector takes
/// them again like any subject.
public struct TrackingPipeline: Sendable {
    /// Tuning.
    public struct Configuration: Hashable, Sendable {
        /// The multi-subject tracker's settings.
        public var tracker = SubjectTracker.Configuration()
        /// The framing controller's settings.
        public var framing = FramingController.Configuration()
        /// The zoom's settings, for a shot size.
        public var shot = ShotSizeController.Configuration()

        public init() {}
    }

    /// What the tracker is doing with the dock.
    public enum Activity: Hashable, Sendable {
        /// No subject yet: the dock is left alone.
        case idle
        /// Framing the primary subject.
        case following(subject: Int)
        /// The subject is lost: holding still for it (or turning after one who walked out, for a
        /// moment), and, once the lost behaviour says hold or zoom out, waiting there.
        case holding
        /// Lost for longer than the lost behaviour's `after`: turning to the pose it says (home,
        /// or another).
        case returning
    }

    /// One tick's outcome.
    public struct Step: Hashable, Sendable {
        /// What the tracker is doing.
        public var activity: Activity
        /// The rates to command, rad/s; nil when the tracker leaves the dock alone.
        public var yawRadiansPerSecond: Double?
        /// The rates to command, rad/s.
        public var pitchRadiansPerSecond: Double?
        /// Whether the primary subject is seen and inside the region of interest.
        public var isSubjectInFrame: Bool
        /// Whether to zoom all the way out now (set on the one tick the lost behaviour's
        /// `zoomOut` begins; the host zooms where the accessory can).
        public var zoomsOut = false
        /// The magnification the shot size wants now (`ShotSizeController`); nil: the zoom is
        /// left alone (no shot size, no subject followed, no zoom optics known).
        public var magnification: Double? = nil
        /// The zoom to set now, a fraction of the accessory's range (set on the one tick the
        /// lost behaviour turns to a preset that holds a zoom).
        public var zoomFraction: Double?
        /// The preset the lost behaviour named that did not exist when it began (set on that one
        /// tick; the dock holds instead, and the host says so once).
        public var missingPreset: String?
    }

    /// The settings.
    public let configuration: Configuration
    /// Where the primary subject goes in the frame.
    public var framingMode = FramingMode.automatic
    /// The part of the delivered image framing may use.
    public var regionOfInterest = NormalizedRect.fullImage
    /// Subjects a client chose; empty: automatic.
    public var selection: [Int] = []
    /// How large the subject is kept in the picture by zooming (`off`: the zoom is left alone).
    public var shotSize = ShotSize.off
    /// What the dock does when its subject is lost, and after how long.
    public var lostBehaviour = LostBehaviour.default
    /// The presets a lost behaviour of `preset:NAME` looks its pose up in, when it begins.
    public var presets = PresetStore()
    /// How long it holds still at least when the pose the lost behaviour turns to would show the
    /// place the subject left (then it goes once the selector no longer waits for the subject
    /// there; at most `lostBehaviour.after`).
    public var restWhenInViewAfter: Duration = .seconds(1)
    /// How long the dock keeps turning after a primary that walked out of the picture (see the
    /// type's documentation); zero: it holds at once, as for a hidden subject.
    public var followOutOfPictureFor: Duration = .seconds(1)
    /// Whether the primary last lost walked out of the picture (and on which side) rather than
    /// being hidden, as of the last step; nil while following, or when it was hidden.
    public private(set) var lostPrimaryWalkedOut: SubjectTracker.PictureSide?
    /// How far inside the image's border (normalised units) the place the subject left must be,
    /// seen from the rest pose, to count as in view there.
    public static let restViewMargin = 0.15
    /// The rest pose, radians.
    public var restYawRadians = 0.0
    /// The rest pose, radians.
    public var restPitchRadians = 0.0
    /// The camera information of the newest frame.
    public private(set) var camera: CameraInformation?
    /// How many times the newest frame's picture was magnified (its zoom at capture time; 1
    /// when not known): `camera` is the widest one narrowed by it.
    public private(set) var cameraMagnification = 1.0
    /// The tracks.
    public private(set) var tracker: SubjectTracker
    /// How long a lost subject may come back under its identifier, recognised by its appearance
    /// (the tracker's `reidentificationWindow`; the daemon's `reidentification-window-s`).
    public var reidentificationWindow: Duration {
        get { tracker.reidentificationWindow }
        set { tracker.reidentificationWindow = newValue }
    }
    /// The subjects the tracks make up, as of the last step.
    public private(set) var subjects: [FusedSubject] = []
    /// The primary subject, as of the last step.
    public private(set) var primary: Int?
    /// What the tracker is doing, as of the last step.
    public private(set) var activity = Activity.idle
    private var fusion = SubjectFusion()
    private var selector = PrimarySelector()
    private var controller: FramingController
    /// The zoom half of the framing.
    public private(set) var shotController: ShotSizeController
    private var lastStep: Duration?
    private var lostSince: Duration?
    /// Whether the lost behaviour's action has begun since the subject was lost.
    private var hasCarriedOutLostAction = false
    /// The tracks of the primary as last followed, body and face.
    private var primaryTracks: (body: Int?, face: Int?) = (nil, nil)
    /// The yaw rate the primary walked out at, rad/s, while the dock turns after it.
    private var walkedOutYawRate = 0.0

    /// Creates an empty pipeline.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        tracker = SubjectTracker(configuration: configuration.tracker)
        controller = FramingController(configuration: configuration.framing)
        shotController = ShotSizeController(configuration: configuration.shot)
        subjects.reserveCapacity(configuration.tracker.maximumTracks)
    }

    /// Fuses one frame's observations, captured at `captureTime` with the gimbal at the given
    /// pose (the pose at capture time, not now: the dock may have moved since) and the camera
    /// as given — already narrowed by `magnification`, the zoom's at capture time.
    public mutating func observe(
        _ observations: [Observation], camera: CameraInformation, captureTime: Duration,
        gimbalYawRadians: Double, gimbalPitchRadians: Double, magnification: Double = 1
    ) {
        guard camera.isValid else { return }
        selector.choosesWithinView = false
        self.camera = camera
        cameraMagnification = magnification.isFinite && magnification >= 1 ? magnification : 1
        tracker.update(
            observations, camera: camera, captureTime: captureTime, gimbalYawRadians: gimbalYawRadians,
            gimbalPitchRadians: gimbalPitchRadians)
    }

    /// Fuses one frame's observations from a fixed camera whose picture does not turn with the
    /// accessory's pose (a digital pan-tilt-zoom's, `fixed_picture`): they are placed in the
    /// picture as seen at pose zero and magnification 1 — the whole picture — while the framing
    /// sees what the accessory shows, the crop: `camera` narrowed by `cropMagnification`, at the
    /// crop's pose (the gimbal's in `step`). A primary is chosen automatically only among the
    /// subjects the crop shows (`PrimarySelector.choosesWithinView`), as a motorised camera's
    /// tracker would.
    public mutating func observeFixedPicture(
        _ observations: [Observation], camera: CameraInformation, captureTime: Duration, cropMagnification: Double
    ) {
        guard camera.isValid else { return }
        selector.choosesWithinView = true
        let magnification = cropMagnification.isFinite && cropMagnification >= 1 ? cropMagnification : 1
        self.camera = camera.zoomed(by: magnification)
        cameraMagnification = magnification
        tracker.update(observations, camera: camera, captureTime: captureTime, gimbalYawRadians: 0, gimbalPitchRadians: 0)
    }

    /// One control tick at `now`, the gimbal at the given pose; `accessoryAcceleration` and
    /// `accessorySpeed` are the accessory's (its motion limits as the host applies them): the
    /// framing controller asks no more speed, no more acceleration either where the accessory
    /// advertises it (`isAccelerationAdvertised`; else its catch-up only plans to stop with it).
    /// With `zoom` (the accessory's zoom now, where it has one whose optics are known) and a shot
    /// size, the step says the magnification wanted; `accessoryYawSpeedRadiansPerSecond` is the
    /// fastest the accessory pans, which bounds what the zoom expects the pan to follow.
    public mutating func step(
        now: Duration, gimbalYawRadians: Double, gimbalPitchRadians: Double,
        accessoryAccelerationRadiansPerSecondSquared accessoryAcceleration: (yaw: Double, pitch: Double)? = nil,
        accessorySpeedRadiansPerSecond accessorySpeed: (yaw: Double, pitch: Double)? = nil, isAccelerationAdvertised: Bool = true,
        zoom: ZoomOptics? = nil, accessoryYawSpeedRadiansPerSecond: Double? = nil
    ) -> Step {
        if let accessoryAcceleration { controller.accessoryAccelerationRadiansPerSecondSquared = accessoryAcceleration }
        if let accessorySpeed { controller.accessorySpeedRadiansPerSecond = accessorySpeed }
        controller.isAccessoryAccelerationAdvertised = isAccelerationAdvertised
        let seconds = lastStep.map { max(0, (now - $0).secondsValue) } ?? 1.0 / 30
        lastStep = now
        tracker.predict(to: now)
        let tracks = tracker.tracks
        let lost = tracker.lostTracks
        fusion.fuse(tracks, into: &subjects, keepingSubjectsOf: lost) { tracker.reserveIdentifier() }
        primary = selector.choose(
            subjects, selection: selection, gimbalYawRadians: gimbalYawRadians,
            gimbalPitchRadians: gimbalPitchRadians, now: now, camera: camera)
        let members = selection.count >= 2 ? subjects.filter { selection.contains($0.identifier) } : []
        // A shot size frames its part of the subject only where the zoom can hold it.
        let shot = zoom == nil ? ShotSize.off : shotSize
        let framed = subjects.first(where: { $0.identifier == primary }).map {
            shotController.framedBox(shot, subject: $0, members: members)
        }
        if let primary, let subject = subjects.first(where: { $0.identifier == primary }), let camera, let framed,
            let box = framed.project(
                camera: camera, gimbalYawRadians: gimbalYawRadians,
                gimbalPitchRadians: gimbalPitchRadians)
        {
            lostSince = nil
            hasCarriedOutLostAction = false
            lostPrimaryWalkedOut = nil
            primaryTracks = (subject.bodyTrack, subject.faceTrack)
            activity = .following(subject: primary)
            var target = controller.target(for: box, mode: framingMode, regionOfInterest: regionOfInterest)
            if shot == .head || shot == .half {
                // A face shot sits the face under the headroom whatever the mode (the mode still
                // says across).
                target.y = controller.target(for: box, mode: .automatic, regionOfInterest: regionOfInterest).y
            }
            let age = evidenceAge(of: subject, now: now)
            // In doubt, hold still: a subject whose box is only predicted (its track coasts,
            // hidden or missed) is not chased; the dock brakes and waits for it to be seen.
            let rates =
                subject.isBoxCoasting
                ? controller.brake(seconds: seconds)
                : controller.command(
                    subject: framed, subjectRates: (subject.yawRateRadiansPerSecond, subject.pitchRateRadiansPerSecond),
                    gimbalYawRadians: gimbalYawRadians, gimbalPitchRadians: gimbalPitchRadians, target: target, camera: camera,
                    seconds: seconds, uncertainty: subject.uncertainty, evidenceAgeSeconds: age)
            let inFrame = !subject.isCoasting && regionOfInterest.contains(box.center)
            var magnification: Double?
            if let zoom, let share = shotController.share(shotSize) {
                // Where the framing will put the box once it has the shot's size.
                var sized = box
                sized.y = box.center.y - share / 2
                sized.height = share
                var zoomTarget = controller.target(for: sized, mode: framingMode, regionOfInterest: regionOfInterest)
                if shotSize == .head || shotSize == .half {
                    zoomTarget.y = controller.target(for: sized, mode: .automatic, regionOfInterest: regionOfInterest).y
                }
                let panSpeed = min(
                    configuration.framing.maximumSpeedRadiansPerSecond, accessoryYawSpeedRadiansPerSecond ?? .infinity)
                magnification = shotController.step(
                    shot: shotSize,
                    subject: ShotSizeController.Subject(
                        box: framed, yawRadiansPerSecond: subject.yawRateRadiansPerSecond,
                        pitchRadiansPerSecond: subject.pitchRateRadiansPerSecond, uncertainty: subject.uncertainty,
                        isCoasting: subject.isBoxCoasting || subject.isCoasting, evidenceAgeSeconds: age,
                        face: subject.faceBox),
                    optics: zoom, widest: widestCamera(camera), gimbalYawRadians: gimbalYawRadians,
                    gimbalPitchRadians: gimbalPitchRadians, target: zoomTarget, panSpeedRadiansPerSecond: panSpeed, now: now)
            } else {
                shotController.letGo()
            }
            return Step(
                activity: activity, yawRadiansPerSecond: rates.yawRadiansPerSecond,
                pitchRadiansPerSecond: rates.pitchRadiansPerSecond, isSubjectInFrame: inFrame, magnification: magnification)
        }
        switch activity {
        case .idle:
            return Step(activity: .idle, isSubjectInFrame: false)
        case .following:
            lostSince = now
            activity = .holding
            // Walked out, or hidden? The primary's track that left the picture, if one did.
            let left = tracker.tracks.first { track in
                track.isOutOfPicture && (track.identifier == primaryTracks.body || track.identifier == primaryTracks.face)
            }
            lostPrimaryWalkedOut = left?.outOfPicture
            walkedOutYawRate = left?.filter.rates.yawRadiansPerSecond ?? 0
        case .holding, .returning:
            break
        }
        if lostPrimaryWalkedOut == nil || !shotSize.isActive || zoom == nil { shotController.letGo() }
        let target = lostBehaviour.target(restYawRadians: restYawRadians, restPitchRadians: restPitchRadians, presets: presets)
        let after = lostBehaviour.after
        let isGoingEarly = target.map { isLostPlaceInView(from: $0) } == true && !selector.isWaitingForLostPrimary
        var zoomsOut = false
        var zoomFraction: Double?
        var missingPreset: String?
        if activity == .holding, !hasCarriedOutLostAction, let lostSince,
            now - lostSince >= (isGoingEarly ? min(after, restWhenInViewAfter) : after)
        {
            hasCarriedOutLostAction = true
            switch lostBehaviour.action {
            case .hold: break
            case .zoomOut: zoomsOut = true
            case .home, .pose: activity = .returning
            case .preset(let name):
                // Looked up now: the preset may have been saved, changed or deleted since the
                // setting was made. Without it the dock holds, as for `hold`.
                if let preset = presets.preset(named: name) {
                    activity = .returning
                    zoomFraction = preset.zoomFraction
                } else {
                    missingPreset = name
                }
            }
        }
        // A shot size zooms out from a subject who walked out of the picture, all the way.
        let widened = lostPrimaryWalkedOut != nil && shotSize.isActive ? zoom.flatMap { shotController.widen(optics: $0, now: now) } : nil
        if activity == .holding, lostPrimaryWalkedOut != nil, let lostSince, now - lostSince < followOutOfPictureFor,
            walkedOutYawRate.isFinite
        {
            // Turning after a subject who walked out, at their walking rate, within the
            // controller's limits.
            let rates = controller.turn(yawRadiansPerSecond: walkedOutYawRate, seconds: seconds)
            return Step(
                activity: .holding, yawRadiansPerSecond: rates.yawRadiansPerSecond,
                pitchRadiansPerSecond: rates.pitchRadiansPerSecond, isSubjectInFrame: false, zoomsOut: zoomsOut,
                magnification: widened, missingPreset: missingPreset)
        }
        guard activity == .returning, let target else {
            let rates = controller.brake(seconds: seconds)
            return Step(
                activity: .holding, yawRadiansPerSecond: rates.yawRadiansPerSecond,
                pitchRadiansPerSecond: rates.pitchRadiansPerSecond, isSubjectInFrame: false, zoomsOut: zoomsOut,
                magnification: widened, missingPreset: missingPreset)
        }
        // Returning: the framing controller's law towards the pose, then leave the dock be.
        let yawError = target.yawRadians - gimbalYawRadians
        let pitchError = target.pitchRadians - gimbalPitchRadians
        let limits = controller.limits
        if abs(yawError) < limits.yaw.deadBandRadians, abs(pitchError) < limits.pitch.deadBandRadians {
            controller.reset()
            activity = .idle
            self.lostSince = nil
            hasCarriedOutLostAction = false
            return Step(
                activity: .idle, yawRadiansPerSecond: 0, pitchRadiansPerSecond: 0, isSubjectInFrame: false,
                zoomFraction: zoomFraction)
        }
        let rates = controller.command(towardsYawError: yawError, pitchError: pitchError, seconds: seconds)
        return Step(
            activity: .returning, yawRadiansPerSecond: rates.yawRadiansPerSecond,
            pitchRadiansPerSecond: rates.pitchRadiansPerSecond, isSubjectInFrame: false, zoomFraction: zoomFraction)
    }

    /// The newest frame's camera at its widest zoom.
    private func widestCamera(_ camera: CameraInformation) -> CameraInformation {
        var widest = camera
        widest.horizontalFieldOfViewRadians = 2 * atan(min(tan(camera.horizontalFieldOfViewRadians / 2) * cameraMagnification, 1e6))
        return widest
    }

    /// Whether `pose` would show the place the primary subject was last seen.
    private func isLostPlaceInView(from pose: (yawRadians: Double, pitchRadians: Double)) -> Bool {
        guard let camera, let place = selector.lastPlace,
            let box = AngularBox(
                yawRadians: place.yawRadians, pitchRadians: place.pitchRadians, widthRadians: 1e-3,
                heightRadians: 1e-3
            ).project(
                camera: camera, gimbalYawRadians: pose.yawRadians,
                gimbalPitchRadians: pose.pitchRadians)
        else { return false }
        let margin = Self.restViewMargin, centre = box.center
        return centre.x >= margin && centre.x <= 1 - margin && centre.y >= margin && centre.y <= 1 - margin
    }

    /// Forgets every subject and the primary (another dock attached); identifiers are not reused.
    public mutating func reset() {
        tracker.removeAll()
        fusion = SubjectFusion()
        selector.reset()
        controller.reset()
        shotController.reset()
        cameraMagnification = 1
        subjects.removeAll(keepingCapacity: true)
        primary = nil
        activity = .idle
        lastStep = nil
        lostSince = nil
        hasCarriedOutLostAction = false
        lostPrimaryWalkedOut = nil
        primaryTracks = (nil, nil)
    }

    /// The accessory's accelerations at the last tick (nil: none yet): the framing controller
    /// asks no more.
    public var accessoryAccelerationRadiansPerSecondSquared: (yaw: Double, pitch: Double)? {
        controller.accessoryAccelerationRadiansPerSecondSquared
    }

    /// The framing controller's speed, acceleration and dead band per axis (`FramingSpeed`); nil:
    /// the configuration's.
    public var framingSpeed: FramingSpeed? {
        get { controller.speed }
        set { controller.speed = newValue }
    }

    /// The framing controller's limits per axis as it applies them: `framingSpeed` narrowed to
    /// the accessory's speed and acceleration as of the last tick.
    public var framingLimits: (yaw: FramingSpeed.Axis, pitch: FramingSpeed.Axis) { controller.limits }

    /// How old the evidence for `subject`'s box is at `now`, seconds: since the capture of the
    /// newest box fused into the track its box comes from (a person's body, else its face; an
    /// object's own).
    func evidenceAge(of subject: FusedSubject, now: Duration) -> Double {
        max(0, (now - subject.boxLastSeen).secondsValue)
    }

    /// The dock moved under someone else's command: the controller starts again from rest.
    public mutating func controllerInterrupted() {
        controller.reset()
    }

    /// The subjects as a client sees them, with the gimbal at the given pose: boxes in the
    /// delivered image of the newest frame's camera, the primary flagged, ranked by saliency
    /// (1 = most salient).
    public func summaries(gimbalYawRadians: Double, gimbalPitchRadians: Double, now: Duration) -> [SubjectSummary] {
        guard let camera else { return [] }
        let ranked = subjects.map { subject in
            (subject, selector.saliency(subject, gimbalYawRadians, gimbalPitchRadians, now))
        }.sorted { $0.1 > $1.1 }
        return ranked.enumerated().map { rank, entry in
            SubjectSummary(
                identifier: entry.0.identifier, kind: entry.0.kind,
                box: entry.0.angularBox.project(camera: camera, gimbalYawRadians: gimbalYawRadians, gimbalPitchRadians: gimbalPitchRadians),
                isPrimary: entry.0.identifier == primary, saliencyRank: rank + 1, isCoasting: entry.0.isCoasting)
        }.sorted { $0.identifier < $1.identifier }
    }

    /// The subject whose box, seen with the gimbal at the given pose, contains `point` (the
    /// smallest such box); nil when none does.
    public func subject(at point: NormalizedPoint, gimbalYawRadians: Double, gimbalPitchRadians: Double) -> Int? {
        guard let camera else { return nil }
        var best: (identifier: Int, area: Double)?
        for subject in subjects {
            guard
                let box = subject.angularBox.project(
                    camera: camera, gimbalYawRadians: gimbalYawRadians,
                    gimbalPitchRadians: gimbalPitchRadians),
                box.contains(point)
            else { continue }
            if best.map({ box.area < $0.area }) ?? true { best = (subject.identifier, box.area) }
        }
        return best?.identifier
    }
}

public import DockVocabulary

/// The framed picture's crop window: the part of the camera's picture (normalised, the picture's
/// own shape) that keeps the primary subject where the framing mode puts it, inside the region of
/// interest, moved smoothly as a motor would be. It holds still while the subject stays within a
/// dead band (no jitter on a still subject), approaches a new place at a bounded speed (no snap),
/// never crops tighter than `narrowest` of the picture (no runaway zoom), and when the subject has
/// been lost for `lostAfter` it widens smoothly back to the region of interest. Pure: each call
/// takes `now`.
public struct CropFramer: Hashable, Sendable {
    /// How the crop follows.
    public struct Configuration: Hashable, Sendable {
        /// The part of the person framed: from the top of their box, this share of its height
        /// (a half: head to waist, a video call's framing).
        public var framedPart = 0.5
        /// That part takes this share of the crop's height.
        public var subjectShare = 0.75
        /// The narrowest crop, a share of the picture's width and height.
        public var narrowest = 0.4
        /// The crop holds while its wanted centre is within this share of its width of where it
        /// is, and its wanted size within this share of its size.
        public var deadBand = 0.06
        /// Once moving, it stops within this share of its width (hysteresis: it ends near the
        /// wanted place, not at the band's edge).
        public var settleBand = 0.01
        /// Seconds for most of a move (an exponential approach).
        public var timeConstant = 0.4
        /// The fastest the crop's centre and size change, picture widths a second.
        public var maximumSpeed = 0.6
        /// Seconds without the subject after which the crop widens.
        public var lostAfter = 1.5
        /// Headroom for the automatic mode, as the tracker's framing uses it.
        public var headroom = 0.12

        /// The defaults.
        public init() {}
    }

    /// How it follows.
    public var configuration: Configuration
    /// The crop now.
    public private(set) var crop = NormalizedRect(x: 0, y: 0, width: 1, height: 1)
    private var isMoving = false
    private var lastSeen: Double?
    private var lastAdvance: Double?
    private var subject: NormalizedRect?

    /// A crop of the whole picture.
    public init(configuration: Configuration = Configuration()) { self.configuration = configuration }

    /// The primary subject's box now (normalised in the camera's picture), or nil when it is not
    /// seen, at `now` (seconds).
    public mutating func observe(_ box: NormalizedRect?, now: Double) {
        guard let box, box.width > 0, box.height > 0 else { return }
        subject = box
        lastSeen = now
    }

    /// The subject to frame among the detections of a frame of `size` pixels, normalised: of the
    /// people (a face alone stands for the person under it: 3 faces wide, 7 tall from the face's
    /// top), the one whose centre is nearest the subject followed, else the tallest; nil for none.
    public func primary(among detections: [Detection], size: FrameSize) -> NormalizedRect? {
        let width = Double(max(1, size.width)), height = Double(max(1, size.height))
        let bodies = detections.filter { $0.kind == .body }
        let people = bodies.isEmpty ? detections.filter { $0.kind == .face } : bodies
        let boxes = people.map { detection -> NormalizedRect in
            var box = detection.box
            if detection.kind == .face {
                box = PixelBox(x: box.x - box.width, y: box.y, width: box.width * 3, height: box.height * 7)
            }
            let left = max(0, box.x / width), top = max(0, box.y / height)
            return NormalizedRect(
                x: left, y: top, width: min(1, (box.x + box.width) / width) - left, height: min(1, (box.y + box.height) / height) - top)
        }
        guard let subject else { return boxes.max { $0.height < $1.height } }
        func distance(_ box: NormalizedRect) -> Double {
            let dx = box.x + box.width / 2 - (subject.x + subject.width / 2)
            let dy = box.y + box.height / 2 - (subject.y + subject.height / 2)
            return dx * dx + dy * dy
        }
        return boxes.min { distance($0) < distance($1) }
    }

    /// The person's box for a tracked subject's box in the picture: a face stands for the person
    /// under it (3 faces wide, 7 tall from the face's top), cut to the picture.
    public static func person(of box: NormalizedRect, kind: SubjectKind) -> NormalizedRect {
        guard kind == .face else { return box }
        let left = max(0, box.x - box.width), top = max(0, box.y)
        return NormalizedRect(x: left, y: top, width: min(1, box.x + 2 * box.width) - left, height: min(1, box.y + 7 * box.height) - top)
    }

    /// Where the crop wants to be for `person`: its height the framed part's over `subjectShare`
    /// (between `narrowest` and the region's), placed so the part sits at the framing mode's point
    /// of the crop, kept inside the region.
    public func wanted(for person: NormalizedRect, mode: FramingMode, region: NormalizedRect) -> NormalizedRect {
        let subject = NormalizedRect(x: person.x, y: person.y, width: person.width, height: person.height * configuration.framedPart)
        let largest = min(region.width, region.height)
        let size = min(largest, max(configuration.narrowest, subject.height / configuration.subjectShare))
        let point = mode.placement(ofHeight: subject.height / size, headroom: configuration.headroom)
        let left = subject.x + subject.width / 2 - point.x * size
        let top = subject.y + subject.height / 2 - point.y * size
        return NormalizedRect(
            x: min(max(left, region.x), region.x + region.width - size), y: min(max(top, region.y), region.y + region.height - size),
            width: size, height: size)
    }

    /// Moves the crop for the frame at `now` (seconds) and returns it.
    public mutating func advance(now: Double, mode: FramingMode, region: NormalizedRect = NormalizedRect(x: 0, y: 0, width: 1, height: 1))
        -> NormalizedRect
    {
        let seconds = max(0, min(0.5, now - (lastAdvance ?? now)))
        lastAdvance = now
        let target: NormalizedRect
        if let subject, let lastSeen, now - lastSeen <= configuration.lostAfter {
            target = wanted(for: subject, mode: mode, region: region)
        } else {
            let size = min(region.width, region.height)
            target = NormalizedRect(
                x: region.x + (region.width - size) / 2, y: region.y + (region.height - size) / 2, width: size, height: size)
        }
        let (cx, cy) = (crop.x + crop.width / 2, crop.y + crop.height / 2)
        let (tx, ty) = (target.x + target.width / 2, target.y + target.height / 2)
        let off = max(abs(tx - cx), abs(ty - cy), abs(target.width - crop.width))
        if !isMoving, off > configuration.deadBand * crop.width { isMoving = true }
        if isMoving, off <= configuration.settleBand * crop.width { isMoving = false }
        guard isMoving else { return crop }
        let share = 1 - exp(-seconds / configuration.timeConstant)
        let most = configuration.maximumSpeed * seconds
        func step(_ from: Double, _ to: Double) -> Double { from + max(-most, min(most, (to - from) * share)) }
        let size = step(crop.width, target.width)
        let x = step(cx, tx) - size / 2
        let y = step(cy, ty) - size / 2
        crop = NormalizedRect(x: min(max(x, 0), 1 - size), y: min(max(y, 0), 1 - size), width: size, height: size)
        return crop
    }
}

#if canImport(Glibc)
    import Glibc
#endif

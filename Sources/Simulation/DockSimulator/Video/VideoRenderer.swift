import CFrameKernel
public import DockVocabulary

#if canImport(Glibc)
    import Glibc
#endif

/// Draws the emulated webcam's picture of a `VideoScene` from `Footage`: the plate seen through
/// the camera at its pose and zoom (a homography: the plate is a picture at infinity, so turning
/// the camera only moves it), then each person — farthest first — as a frame of a real person's
/// walk cut from footage, stretched over the body's box the simulator's pinhole camera projects,
/// the walk advancing with the distance the subject has walked and mirrored to face the way it
/// crosses the picture; objects as flat grey panels. The picture is drawn as the dock sees it
/// and then mirrored if the camera mirrors (turned orientations are not drawn: the picture stays
/// upright).
///
/// The pixel work is `CFrameKernel`'s (C, so it keeps up at video rate in a debug build).
public struct VideoRenderer: Sendable {
    /// What pictures are made of.
    public let footage: Footage
    private var canvasY: [UInt8] = []
    private var canvasU: [UInt8] = []
    private var canvasV: [UInt8] = []
    /// The canvas's size.
    public private(set) var width = 0
    /// The canvas's size.
    public private(set) var height = 0

    /// A renderer of `footage`.
    public init(footage: Footage) { self.footage = footage }

    /// What was drawn for one person: which look and which frame of it, mirrored or not, over
    /// which rectangle of the picture (pixels; in the delivered picture, after any mirroring).
    public struct DrawnPerson: Hashable, Sendable {
        /// The subject.
        public var subjectIdentifier: Int
        /// Which person of the footage (an index into `Footage.people`).
        public var personIndex: Int
        /// Which frame of their walk.
        public var frameIndex: Int
        /// Whether the frame was drawn mirrored (before the picture's own mirroring).
        public var isFlipped: Bool
        /// The rectangle's left edge, pixels.
        public var x: Double
        /// The rectangle's top edge, pixels.
        public var y: Double
        /// The rectangle's width, pixels.
        public var width: Double
        /// The rectangle's height, pixels.
        public var height: Double
    }

    /// Draws `scene` at `width` × `height` pixels on the canvas; returns what it drew of each
    /// person.
    @discardableResult
    public mutating func render(_ scene: VideoScene, width: Int, height: Int) -> [DrawnPerson] {
        precondition(width > 0 && height > 0 && width % 2 == 0, "a picture needs an even width and a height")
        if width != self.width || height != self.height {
            self.width = width
            self.height = height
            canvasY = [UInt8](repeating: 0, count: width * height)
            canvasU = canvasY
            canvasV = canvasY
        }
        let homography = Self.plateHomography(
            camera: scene.camera, yawRadians: scene.yawRadians, pitchRadians: scene.pitchRadians, width: width, height: height,
            plateWidth: footage.plate.width, plateHeight: footage.plate.height, plateFocalPixels: footage.plateFocalPixels)
        var drawn: [DrawnPerson] = []
        let footage = self.footage
        withCanvas { canvas in
            withImage(footage.plate) { plate in
                homography.withUnsafeBufferPointer { dock_render_plate(plate, $0.baseAddress, canvas) }
            }
            var people = scene.people.makeIterator(), objects = scene.objects.makeIterator()
            var nextPerson = people.next(), nextObject = objects.next()
            // Farthest first across both lists.
            while nextPerson != nil || nextObject != nil {
                if let object = nextObject, nextPerson.map({ object.distanceMeters >= $0.distanceMeters }) ?? true {
                    dock_fill_rect(
                        object.box.x * Double(width), object.box.y * Double(height), object.box.width * Double(width),
                        object.box.height * Double(height), 90, 128, 128, canvas)
                    nextObject = objects.next()
                } else if let person = nextPerson {
                    if let drawing = Self.draw(person, from: footage, width: width, height: height, on: canvas) { drawn.append(drawing) }
                    nextPerson = people.next()
                }
            }
            if scene.camera.isMirrored { dock_mirror(canvas) }
        }
        if scene.camera.isMirrored {
            for index in drawn.indices { drawn[index].x = Double(width) - drawn[index].x - drawn[index].width }
        }
        return drawn
    }

    /// The canvas packed as YUYV into `output` (width × height × 2 bytes).
    public mutating func packYUYV(into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count >= width * height * 2, "a YUYV picture needs two bytes a pixel")
        withCanvas { canvas in dock_pack_yuyv(canvas, output.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
    }

    /// One canvas row as full-range interleaved Y Cb Cr (`width` × 3 bytes), for a JPEG encoder.
    public mutating func fullRangeRow(_ row: Int, into output: UnsafeMutablePointer<UInt8>) {
        precondition(row >= 0 && row < height, "row \(row) is outside the picture")
        withCanvas { canvas in dock_full_range_row(canvas, Int32(row), output) }
    }

    /// The canvas's planes (Y, U, V, each width × height), for tests and pictures.
    public var planes: (y: [UInt8], u: [UInt8], v: [UInt8]) { (canvasY, canvasU, canvasV) }

    private static func draw(
        _ person: ScenePerson, from footage: Footage, width: Int, height: Int, on canvas: UnsafeMutablePointer<dock_canvas>
    ) -> DrawnPerson? {
        guard !footage.people.isEmpty else { return nil }
        let personIndex = ((person.look - 1) % footage.people.count + footage.people.count) % footage.people.count
        let look = footage.people[personIndex]
        let frameIndex = walkFrame(walkedMeters: person.walkedMeters, strideMeters: footage.strideMeters, frames: look.frames.count)
        let frame = look.frames[frameIndex]
        let flip = person.movesRight.map { $0 != look.walksRight } ?? false
        // The frame's own proportions, its height the body's, centred on the body's box.
        let boxHeight = person.box.height * Double(height)
        let boxWidth = boxHeight * Double(frame.width) / Double(frame.height)
        let centerX = (person.box.x + person.box.width / 2) * Double(width)
        let x = centerX - boxWidth / 2, y = person.box.y * Double(height)
        withImage(frame) { image in dock_render_sprite(image, x, y, boxWidth, boxHeight, flip ? 1 : 0, canvas) }
        return DrawnPerson(
            subjectIdentifier: person.subjectIdentifier, personIndex: personIndex, frameIndex: frameIndex, isFlipped: flip, x: x, y: y,
            width: boxWidth, height: boxHeight)
    }

    /// Which frame of a walk of `frames` frames shows after `walkedMeters`: one frame a stride,
    /// played forwards then backwards (a walk played back is still a walk, and nothing jumps).
    public static func walkFrame(walkedMeters: Double, strideMeters: Double, frames: Int) -> Int {
        guard frames > 1, walkedMeters.isFinite, walkedMeters > 0 else { return 0 }
        let period = 2 * (frames - 1)
        let step = Int((walkedMeters / strideMeters).rounded(.down)) % period
        return step < frames ? step : period - step
    }

    /// The homography (row-major 3×3) from the picture's pixel coordinates (x right, y down, pixel
    /// centres at half-integers) to the plate's: the pixel's ray through the pinhole camera of
    /// `camera`'s field of view, turned by the pose into the room, then through the plate's own
    /// pinhole (focal `plateFocalPixels`, looking straight ahead at yaw 0, pitch 0).
    public static func plateHomography(
        camera: CameraInformation, yawRadians: Double, pitchRadians: Double, width: Int, height: Int, plateWidth: Int,
        plateHeight: Int, plateFocalPixels: Double
    ) -> [Double] {
        let halfWidth = tan(camera.horizontalFieldOfViewRadians / 2)
        let halfHeight = halfWidth / (Double(width) / Double(height))
        // Pixel (x, y, 1) -> camera ray (right, up, forward).
        let toRay: [Double] = [
            2 * halfWidth / Double(width), 0, -halfWidth,
            0, -2 * halfHeight / Double(height), halfHeight,
            0, 0, 1,
        ]
        let (sinYaw, cosYaw) = (sin(yawRadians), cos(yawRadians))
        let (sinPitch, cosPitch) = (sin(pitchRadians), cos(pitchRadians))
        // Columns: the camera's right, up and forward in the room (x right, y ahead, z up).
        let toRoom: [Double] = [
            cosYaw, -sinYaw * sinPitch, sinYaw * cosPitch,
            -sinYaw, -cosYaw * sinPitch, cosYaw * cosPitch,
            0, cosPitch, sinPitch,
        ]
        // Room direction (x, y, z) -> plate (f·x + cx·y, −f·z + cy·y, y).
        let f = plateFocalPixels, cx = Double(plateWidth) / 2, cy = Double(plateHeight) / 2
        let toPlate: [Double] = [
            f, cx, 0,
            0, cy, -f,
            0, 1, 0,
        ]
        return multiply(toPlate, multiply(toRoom, toRay))
    }

    private static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        var product = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                product[row * 3 + column] = (0..<3).reduce(0) { $0 + a[row * 3 + $1] * b[$1 * 3 + column] }
            }
        }
        return product
    }

    private mutating func withCanvas<Result>(_ body: (UnsafeMutablePointer<dock_canvas>) -> Result) -> Result {
        let (width, height) = (Int32(self.width), Int32(self.height))
        return canvasY.withUnsafeMutableBufferPointer { y in
            canvasU.withUnsafeMutableBufferPointer { u in
                canvasV.withUnsafeMutableBufferPointer { v in
                    var canvas = dock_canvas(y: y.baseAddress, u: u.baseAddress, v: v.baseAddress, width: width, height: height)
                    return body(&canvas)
                }
            }
        }
    }
}

import DockJSON

/// A planar 4:4:4 picture, 8 bits a sample, limited-range video YCbCr (as decoded footage is),
/// with an optional alpha plane (255 opaque): the plate the emulated webcam pans over, or one
/// frame of a person cut from footage.
public struct FootageImage: Hashable, Sendable {
    /// Width, pixels.
    public var width: Int
    /// Height, pixels.
    public var height: Int
    /// Luma, row by row.
    public var y: [UInt8]
    /// Blue-difference chroma.
    public var u: [UInt8]
    /// Red-difference chroma.
    public var v: [UInt8]
    /// Coverage, 0 (none) to 255 (opaque); nil: opaque everywhere.
    public var alpha: [UInt8]?

    /// Creates an image; the planes must each hold width × height samples.
    public init(width: Int, height: Int, y: [UInt8], u: [UInt8], v: [UInt8], alpha: [UInt8]? = nil) {
        precondition(width > 0 && height > 0, "an image needs a size")
        precondition(
            y.count == width * height && u.count == y.count && v.count == y.count && (alpha?.count ?? y.count) == y.count,
            "an image's planes must each hold width × height samples")
        self.width = width
        self.height = height
        self.y = y
        self.u = u
        self.v = v
        self.alpha = alpha
    }

    /// Its bytes as the footage files hold them: Y, then U, then V, then alpha when it has one.
    public var planarBytes: [UInt8] { y + u + v + (alpha ?? []) }

    /// An image from `bytes` as `planarBytes` lays them out; nil when the count is wrong.
    public init?(planar bytes: ArraySlice<UInt8>, width: Int, height: Int, hasAlpha: Bool) {
        let plane = width * height
        guard width > 0, height > 0, bytes.count == plane * (hasAlpha ? 4 : 3) else { return nil }
        let start = bytes.startIndex
        self.init(
            width: width, height: height, y: Array(bytes[start..<(start + plane)]),
            u: Array(bytes[(start + plane)..<(start + 2 * plane)]), v: Array(bytes[(start + 2 * plane)..<(start + 3 * plane)]),
            alpha: hasAlpha ? Array(bytes[(start + 3 * plane)..<(start + 4 * plane)]) : nil)
    }
}

/// One person cut from footage: the frames of a walk (or of standing about), each cropped to the
/// person and carrying their outline as alpha, and which way they walk in it.
public struct FootagePerson: Hashable, Sendable {
    /// The frames, in the footage's order.
    public var frames: [FootageImage]
    /// Whether the person moves to the right of the picture in the footage (else left, or not at all).
    public var walksRight: Bool
    /// Where each frame came from: the footage's frame number and the box (x, y, width, height,
    /// pixels) it was cut from — for the record and the pictures in the documentation.
    public var sources: [(frame: Int, x: Int, y: Int, width: Int, height: Int)]

    /// Creates a person.
    public init(frames: [FootageImage], walksRight: Bool, sources: [(frame: Int, x: Int, y: Int, width: Int, height: Int)] = []) {
        precondition(!frames.isEmpty, "a person needs a frame")
        self.frames = frames
        self.walksRight = walksRight
        self.sources = sources
    }

    public static func == (a: FootagePerson, b: FootagePerson) -> Bool {
        a.frames == b.frames && a.walksRight == b.walksRight && a.sources.elementsEqual(b.sources) { $0 == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(frames)
        hasher.combine(walksRight)
    }
}

/// What the emulated webcam's picture is made of: a background plate — a still of a real place,
/// seen as a pinhole picture looking straight ahead from the dock, at infinity — and people cut
/// from real footage, which the renderer carries along the simulator's subjects' paths.
///
/// `docksim --make-footage DIR` makes it from Debian's `vtest.avi` (`docs/simulator.md`, "The
/// webcam's picture"); `Footage.testPattern` is a synthetic stand-in when no footage was made.
public struct Footage: Hashable, Sendable {
    /// The background.
    public var plate: FootageImage
    /// The plate's focal length, pixels: a direction (x right, y ahead, z up) shows at
    /// (width/2 + f·x/y, height/2 − f·z/y).
    public var plateFocalPixels: Double
    /// The people, one look each.
    public var people: [FootagePerson]
    /// How far a subject walks between two frames of a person's walk, metres.
    public var strideMeters: Double
    /// Where it came from, one line.
    public var source: String

    /// Creates footage.
    public init(plate: FootageImage, plateFocalPixels: Double, people: [FootagePerson], strideMeters: Double, source: String) {
        precondition(plateFocalPixels > 0 && strideMeters > 0, "footage needs a focal length and a stride")
        self.plate = plate
        self.plateFocalPixels = plateFocalPixels
        self.people = people
        self.strideMeters = strideMeters
        self.source = source
    }

    /// The manifest file's name in a footage directory.
    public static let manifestName = "footage.json"

    /// The files of a footage directory, by name: the manifest's text and the raw planes
    /// (`plate.yuv`, `person-N.yuva`).
    public var files: [String: [UInt8]] {
        var files: [String: [UInt8]] = ["plate.yuv": plate.planarBytes]
        var people: [String] = []
        for (index, person) in self.people.enumerated() {
            let name = "person-\(index + 1).yuva"
            files[name] = person.frames.flatMap(\.planarBytes)
            let frames = person.frames.enumerated().map { frameIndex, frame in
                var entry = "{\"width\": \(frame.width), \"height\": \(frame.height)"
                if frameIndex < person.sources.count {
                    let source = person.sources[frameIndex]
                    entry +=
                        ", \"source_frame\": \(source.frame), \"source_box\": [\(source.x), \(source.y), \(source.width), \(source.height)]"
                }
                return entry + "}"
            }
            people.append(
                "    {\"file\": \"\(name)\", \"walks_right\": \(person.walksRight),\n     \"frames\": [\n       "
                    + frames.joined(separator: ",\n       ") + "]}")
        }
        let manifest = """
            {
              "source": "\(jsonEscaped(source))",
              "plate": {"file": "plate.yuv", "width": \(plate.width), "height": \(plate.height), "focal_px": \(plateFocalPixels)},
              "stride_m": \(strideMeters),
              "people": [
            \(people.joined(separator: ",\n"))
              ]
            }

            """
        files[Self.manifestName] = Array(manifest.utf8)
        return files
    }

    /// Reads a footage directory's files: the manifest's text, and `load` giving each file it
    /// names (nil when missing).
    ///
    /// - Throws: `FootageError` naming the field or file that is wrong.
    public static func read(manifest: String, load: (String) -> [UInt8]?) throws(FootageError) -> Footage {
        do {
            return try parse(manifest: manifest, load: load)
        } catch let error as FootageError {
            throw error
        } catch {
            throw FootageError(message: "\(manifestName): \(error)")
        }
    }

    private static func parse(manifest: String, load: (String) -> [UInt8]?) throws -> Footage {
        let document: JSONDocument
        do {
            document = try JSONReader.document(manifest)
        } catch {
            throw FootageError(message: "\(manifestName): line \(error.line): \(error.message)")
        }
        let top = try document.fields()
        let source = try top.string("source")
        let strideMeters = try top.number("stride_m", in: 0...10, excludingLowerBound: true)
        let plateReader = try top.object("plate")
        let plateFile = try plateReader.string("file")
        let width = try plateReader.integer("width", in: 1...16_384)
        let height = try plateReader.integer("height", in: 1...16_384)
        let focal = try plateReader.number("focal_px", in: 0...1e6, excludingLowerBound: true)
        try plateReader.finish()
        guard let plateBytes = load(plateFile) else { throw FootageError(message: "\(plateFile): missing") }
        guard let plate = FootageImage(planar: plateBytes[...], width: width, height: height, hasAlpha: false) else {
            throw FootageError(message: "\(plateFile): \(plateBytes.count) bytes, not \(width)×\(height) planar 4:4:4")
        }
        var people: [FootagePerson] = []
        for person in try top.optionalArray("people") ?? [] {
            let reader = try person.fields()
            let file = try reader.string("file")
            let walksRight = try (reader.optionalBool("walks_right") ?? true)
            guard let bytes = load(file) else { throw FootageError(message: "\(file): missing") }
            var frames: [FootageImage] = []
            var sources: [(frame: Int, x: Int, y: Int, width: Int, height: Int)] = []
            var offset = 0
            for frameElement in try reader.array("frames") {
                let framePath = frameElement.path
                let frameReader = try frameElement.fields()
                let frameWidth = try frameReader.integer("width", in: 1...4096)
                let frameHeight = try frameReader.integer("height", in: 1...4096)
                if frameReader.value("source_frame") != nil {
                    let number = try frameReader.integer("source_frame", in: 0...10_000_000)
                    let box = (try frameReader.optionalArray("source_box") ?? []).compactMap { element -> Int? in
                        if case .integer(let value) = element.value { Int(exactly: value) } else { nil }
                    }
                    if box.count == 4 { sources.append((number, box[0], box[1], box[2], box[3])) }
                }
                try frameReader.finish()
                let count = frameWidth * frameHeight * 4
                guard offset + count <= bytes.count,
                    let frame = FootageImage(
                        planar: bytes[offset..<(offset + count)], width: frameWidth, height: frameHeight, hasAlpha: true)
                else { throw FootageError(message: "\(file): shorter than its frames (\(framePath))") }
                frames.append(frame)
                offset += count
            }
            guard offset == bytes.count else { throw FootageError(message: "\(file): \(bytes.count - offset) bytes past its frames") }
            guard !frames.isEmpty else { throw FootageError(message: "\(person.path).frames: needs at least one frame") }
            try reader.finish()
            people.append(FootagePerson(frames: frames, walksRight: walksRight, sources: sources))
        }
        try top.finish()
        return Footage(plate: plate, plateFocalPixels: focal, people: people, strideMeters: strideMeters, source: source)
    }
}

/// Footage that cannot be used: what is wrong, naming the manifest's field or the file.
public struct FootageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// Creates an error.
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// `text` with the characters JSON escapes inside a string escaped.
private func jsonEscaped(_ text: String) -> String {
    var escaped = ""
    for character in text.unicodeScalars {
        switch character {
        case "\"": escaped += "\\\""
        case "\\": escaped += "\\\\"
        case let scalar where scalar.value < 0x20:
            escaped += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
        default: escaped.unicodeScalars.append(character)
        }
    }
    return escaped
}

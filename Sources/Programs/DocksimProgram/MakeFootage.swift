import DockOptions
import DockSimulator
import DockSystem
import Glibc

/// `docksim --make-footage DIR [--video FILE] [--quiet]`: the emulated webcam's footage made from
/// a real video (Debian's `vtest.avi` by default), written to DIR for `--footage DIR`. ffmpeg
/// decodes the video twice to raw 4:4:4 frames on a pipe: every 8th frame for the background
/// plate (their per-pixel median), then every frame for the people cut from it
/// (`FootageCutter`; `docs/simulator.md`, "The webcam's picture").
enum MakeFootage {
    static let usage = "usage: docksim --make-footage DIR [--video FILE] [--quiet]"
    static let makeFootage = Option(
        "--make-footage", .file, placeholder: "DIR", help: "make the webcam's footage from a real video into DIR, and exit")
    static let video = Option(
        "--video", .file, placeholder: "FILE", help: "with --make-footage: the video (default: Debian's vtest.avi)")
    /// Debian's `opencv-doc` ships it.
    static let defaultVideo = "/usr/share/doc/opencv-doc/examples/data/vtest.avi"
    /// How many people to cut.
    static let people = 6
    /// The plate's horizontal field of view, as the webcam pans over it: 110°.
    static let plateFieldOfViewDegrees = 110.0
    /// How far a subject walks between two frames of a person's walk: vtest's walkers cross about
    /// 1.3 m a second, at 10 frames a second.
    static let strideMeters = 0.13

    /// Makes the footage when the arguments ask for it; nil when they are another mode's.
    static func runIfAsked(_ arguments: [String]) -> Int32? {
        guard arguments.contains("--make-footage") else { return nil }
        let parsed: ParsedOptions
        do throws(OptionError) {
            parsed = try OptionParser.parse(arguments, options: [makeFootage, video, OptionTable.quiet])
        } catch {
            printError("docksim: \(error.message)\n\(usage)")
            return 64
        }
        if let word = parsed.words.first {
            printError("docksim: unknown argument '\(word)' for --make-footage\n\(usage)")
            return 64
        }
        guard let directory = parsed.text(makeFootage), !directory.isEmpty else {
            printError("docksim: --make-footage needs a directory\n\(usage)")
            return 64
        }
        let source = parsed.text(video) ?? defaultVideo
        let isQuiet = parsed.flag(OptionTable.quiet)
        do {
            try make(from: source, into: directory) { if !isQuiet { printError("docksim: \($0)") } }
            return 0
        } catch {
            printError("docksim: --make-footage: \(error)")
            return 1
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func make(from source: String, into directory: String, log: (String) -> Void) throws {
        guard access(source, R_OK) == 0 else {
            throw Failure(description: "cannot read \(source) (Debian's opencv-doc has vtest.avi; scripts/install-deps installs it)")
        }
        let (width, height) = try size(of: source)
        log("\(source): \(width)x\(height)")
        var sample: [FootageImage] = []
        var frames = 0
        try decode(source, width: width, height: height) { frame, index in
            frames = index + 1
            if index % 8 == 0, sample.count < 255 { sample.append(frame) }
        }
        let plate = FootageCutter.medianPlate(of: sample)
        log("plate: the median of \(sample.count) of \(frames) frames")
        var cutter = FootageCutter(plate: plate)
        try decode(source, width: width, height: height) { frame, index in cutter.add(frame, index: index) }
        let people = cutter.people(count: people)
        guard !people.isEmpty else { throw Failure(description: "found nobody to cut in \(source)") }
        log("people: \(people.count), walks of \(people.map { String($0.frames.count) }.joined(separator: ", ")) frames")
        let focal = Double(width) / 2 / tan(plateFieldOfViewDegrees / 2 * .pi / 180)
        let footage = Footage(
            plate: plate, plateFocalPixels: focal, people: people, strideMeters: strideMeters,
            source: "\(source.split(separator: "/").last.map(String.init) ?? source): plate the median of \(sample.count) frames, "
                + "\(people.count) people cut by difference from it (docksim --make-footage)")
        try makeDirectories(directory)
        for (name, bytes) in footage.files {
            let path = directory + "/" + name
            do {
                try FileContents.write(bytes, toPath: path)
            } catch {
                throw Failure(description: "cannot write \(path): \(error)")
            }
        }
        log("footage written to \(directory)")
    }

    /// The video's width and height, from ffprobe.
    static func size(of source: String) throws -> (Int, Int) {
        let output = try run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", source])
        let numbers = output.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard numbers.count >= 2, numbers[0] > 0, numbers[1] > 0 else {
            throw Failure(description: "ffprobe gave no size for \(source): \(output)")
        }
        return (numbers[0], numbers[1])
    }

    /// Decodes every frame of `source` with ffmpeg to planar 4:4:4 and hands each over in order.
    static func decode(_ source: String, width: Int, height: Int, each: (FootageImage, Int) -> Void) throws {
        let process = try start("ffmpeg", ["-v", "error", "-nostdin", "-i", source, "-f", "rawvideo", "-pix_fmt", "yuv444p", "-"])
        let frameSize = width * height * 3
        var buffer = [UInt8](repeating: 0, count: frameSize)
        var index = 0
        while true {
            var filled = 0
            while filled < frameSize {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(process.output, $0.baseAddress! + filled, frameSize - filled) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                filled += count
            }
            guard filled == frameSize else { break }
            guard let frame = FootageImage(planar: buffer[...], width: width, height: height, hasAlpha: false) else { break }
            each(frame, index)
            index += 1
        }
        let status = process.wait()
        guard status == 0, index > 0 else {
            throw Failure(description: "ffmpeg could not decode \(source) (exit \(status))")
        }
    }

    private static func run(_ name: String, _ arguments: [String]) throws -> String {
        let process = try start(name, arguments)
        let output = process.readToEnd()
        _ = process.wait()
        return String(decoding: output, as: UTF8.self)
    }

    private static func start(_ name: String, _ arguments: [String]) throws -> OutputPipeProcess {
        do {
            return try OutputPipeProcess(name, arguments)
        } catch {
            throw Failure(description: "cannot run \(name): \(error) (scripts/install-deps installs ffmpeg)")
        }
    }

    /// Creates `path` and the directories above it that are missing (mode 0777 less the umask).
    private static func makeDirectories(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, 0o777) != 0, errno != EEXIST {
                throw Failure(description: "cannot create \(prefix): \(String(cString: strerror(errno)))")
            }
        }
    }
}

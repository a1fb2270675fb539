import DockVision
import DockVocabulary
import Foundation
import Glibc
import VisionService

// visionbench: the vision service's detectors measured on still frames, in the CPU time of the
// measuring thread (OpenCV set to one thread), so that a busy machine slows the figures little (BENCHMARKS.md, "The
// vision service's detectors"; scripts/vision-bench runs it). Not installed.
//
//   visionbench speed REPEATS FRAME...      each detector's time a frame, at the frames' own size
//   visionbench quality TRUTH               recall and precision against hand-made truth
//   visionbench output REPEATS FILE FORMAT WIDTHxHEIGHT
//                                           the virtual camera's cost a frame, for a captured frame
//                                           (raw YUYV or NV12, or one JPEG, as FORMAT says): each
//                                           plan's conversion (OutputConverter) and the write's copy
//                                           (v4l2loopback copies each frame written into its ring)
//
// VISIONBENCH_FACE_MODEL=FILE adds YuNet (a 2022mar ONNX file) to both; VISIONBENCH_ONLY=WORD keeps
// only the detectors whose name holds WORD.
//
// TRUTH has one line a box: `IMAGE KIND X Y W H` (KIND face, body, or ignore-face / ignore-body
// for a region where a detection is neither right nor wrong: one that matches no box and lies at
// least half inside such a region is not counted), and `IMAGE none` for a picture with nothing in
// it; IMAGE relative to the TRUTH file's folder or absolute; boxes in the image's pixels.

struct Candidate {
    var name: String
    var kind: SubjectKind
    var make: () throws -> any Detector
}

func candidates() -> [Candidate] {
    var list: [Candidate] = []
    // Faces: Debian's two frontal cascades, at the frame's size and scaled down first.
    for (name, path, scales) in [
        ("lbp-improved", VisionSettings.lbpImprovedCascade, [1.0, 0.75, 0.5]), ("lbp-24", VisionSettings.lbpCascade, [1.0, 0.75, 0.5]),
        ("haar", VisionSettings.haarCascade, [1.0, 0.75, 0.5]),
    ] {
        for scale in scales {
            list.append(
                Candidate(name: "\(name) x\(scale)", kind: .face) {
                    try OpenCVDetector.cascade(
                        path: path, name: name,
                        search: OpenCVDetector.Search(scaleStep: 1.2, minimumNeighbours: 3, minimumSize: 24, inputScale: scale))
                })
        }
    }
    // People: HOG at two pyramid steps, at the frame's size, scaled down and enlarged.
    for (step, scale) in [(1.2, 1.0), (1.2, 0.75), (1.2, 0.5), (1.05, 1.0), (1.2, 1.25), (1.2, 1.5)] {
        list.append(
            Candidate(name: "hog step \(step) x\(scale)", kind: .body) {
                try OpenCVDetector.hog(search: OpenCVDetector.Search(scaleStep: step, minimumNeighbours: 2, stride: 8, inputScale: scale))
            })
    }
    // VISIONBENCH_FACE_MODEL=FILE: YuNet's 2022mar ONNX file as well, through the service's own
    // loader (`faces = yunet`, `face-model = FILE`, its default threshold); no package ships one.
    if let model = ProcessInfo.processInfo.environment["VISIONBENCH_FACE_MODEL"] {
        list.append(Candidate(name: "yunet", kind: .face) { try OpenCVDetector.yunet(path: model) })
    }
    // VISIONBENCH_ONLY=word: only the candidates whose name contains it.
    if let only = ProcessInfo.processInfo.environment["VISIONBENCH_ONLY"] { return list.filter { $0.name.contains(only) } }
    return list
}

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func speed(repeats: Int, frames: [String]) throws {
    let images = try frames.map { path in
        let image = VisionImage()
        try image.load(path: path)
        return image
    }
    print(
        "detector                 ms/frame (median of \(repeats) passes over \(frames.count) frames, \(images[0].width)x\(images[0].height))"
    )
    for candidate in candidates() {
        let detector = try candidate.make()
        _ = try detector.detect(in: images[0])
        var passes: [Double] = []
        for _ in 0..<repeats {
            let start = now()
            for image in images { _ = try detector.detect(in: image) }
            passes.append((now() - start) * 1000 / Double(images.count))
        }
        passes.sort()
        let median = passes[passes.count / 2]
        print(candidate.name.padding(toLength: 24, withPad: " ", startingAt: 0), String(format: "%6.2f", median))
    }
    // Decoding and scaling, and the appearance of one person.
    let image = VisionImage()
    let width = 1280, height = 720
    let yuyv = [UInt8](repeating: 100, count: width * height * 2)
    var start = now()
    for _ in 0..<100 {
        try yuyv.withUnsafeBytes {
            try image.set(
                $0, format: .yuyv, size: FrameSize(width: width, height: height), stride: 0, working: FrameSize(width: 640, height: 360))
        }
    }
    print("YUYV 1280x720 to 640x360    ", String(format: "%6.2f", (now() - start) * 10))
    start = now()
    for _ in 0..<1000 { _ = images[0].appearance(of: PixelBox(x: 100, y: 50, width: 60, height: 150)) }
    print("appearance of one person    ", String(format: "%6.3f", (now() - start)))
}

struct Box {
    var kind: String
    var box: PixelBox
}

/// The share of `box`'s area that lies inside `region`: an ignored region is judged by it, not by
/// overlap, so that a detection of part of a person (a torso in a crowd) inside it is not counted.
func inside(_ box: PixelBox, _ region: PixelBox) -> Double {
    let width = min(box.x + box.width, region.x + region.width) - max(box.x, region.x)
    let height = min(box.y + box.height, region.y + region.height) - max(box.y, region.y)
    return width > 0 && height > 0 ? width * height / (box.width * box.height) : 0
}

func quality(truthPath: String) throws {
    let text = try String(contentsOfFile: truthPath, encoding: .utf8)
    // The truth file's folder, with its slash ("" for a file in the working directory).
    let folder = truthPath.contains("/") ? String(truthPath[...truthPath.lastIndex(of: "/")!]) : ""
    var truth: [(String, [Box])] = []
    for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.trimmingCharacters(in: .whitespaces).isEmpty {
        let words = line.split(separator: " ").map(String.init)
        let path = words[0].hasPrefix("/") ? words[0] : folder + words[0]
        if truth.last?.0 != path { truth.append((path, [])) }
        if words[1] != "none" {
            let numbers = words[2...5].map { Double($0)! }
            truth[truth.count - 1].1.append(
                Box(kind: words[1], box: PixelBox(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])))
        }
    }
    // Recall by size at the working scale, split where the searches part: a face 60 px wide (the
    // improved LBP cascade's 45 px window at 0.75 of it), a person 128 px tall (HOG's window).
    print(
        "detector                 kind  truth  found  right  recall  precision  small: right/truth  large: right/truth",
        "(IoU >= 0.4; frames scaled to 640 wide; small: faces under 60 px wide, people under 128 px tall)")
    for candidate in candidates() {
        let detector = try candidate.make()
        var truths = 0, found = 0, right = 0
        var small = (right: 0, truth: 0), large = (right: 0, truth: 0)
        func isSmall(_ box: PixelBox, scale: Double) -> Bool {
            candidate.kind == .face ? box.width * scale < 60 : box.height * scale < 128
        }
        for (path, boxes) in truth {
            let probe = VisionImage()
            try probe.load(path: path)
            let scale = 640.0 / Double(probe.width)
            let image = VisionImage()
            try image.load(path: path, working: FrameSize(width: 640, height: Int((Double(probe.height) * scale).rounded())))
            let detections = try detector.detect(in: image).map {
                PixelBox(x: $0.box.x / scale, y: $0.box.y / scale, width: $0.box.width / scale, height: $0.box.height / scale)
            }
            let wanted = boxes.filter { $0.kind == candidate.kind.rawValue }.map(\.box)
            let ignored = boxes.filter { $0.kind == "ignore-" + candidate.kind.rawValue }.map(\.box)
            truths += wanted.count
            for box in wanted {
                if isSmall(box, scale: scale) { small.truth += 1 } else { large.truth += 1 }
            }
            var taken = [Bool](repeating: false, count: wanted.count)
            for detection in detections {
                let best = wanted.indices.filter { !taken[$0] }.max { detection.overlap(wanted[$0]) < detection.overlap(wanted[$1]) }
                if let best, detection.overlap(wanted[best]) >= 0.4 {
                    taken[best] = true
                    if isSmall(wanted[best], scale: scale) { small.right += 1 } else { large.right += 1 }
                    found += 1
                    right += 1
                } else if ignored.contains(where: { inside(detection, $0) >= 0.5 }) {
                    continue
                } else {
                    found += 1
                }
            }
        }
        let recall = truths > 0 ? Double(right) / Double(truths) : 0
        let precision = found > 0 ? Double(right) / Double(found) : 0
        print(
            candidate.name.padding(toLength: 24, withPad: " ", startingAt: 0),
            candidate.kind.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0),
            String(format: "%5d  %5d  %5d  %6.2f  %9.2f", truths, found, right, recall, precision),
            String(format: "%10d/%-8d%10d/%d", small.right, small.truth, large.right, large.truth))
    }
}

VisionRunner.setThreads(1)
/// The output's CPU a frame for one captured frame, each plan: the median of REPEATS conversions
/// (and the copy a write makes), in this thread's CPU time.
func output(repeats: Int, file: String, format: String, size: String) throws {
    let formats: [String: PixelFormat] = ["yuyv": .yuyv, "nv12": .nv12, "mjpeg": .mjpeg]
    guard let pixelFormat = formats[format] else { throw BenchError.usage("FORMAT is yuyv, nv12 or mjpeg, not \(format)") }
    let parts = size.split(separator: "x").compactMap { Int($0) }
    guard parts.count == 2 else { throw BenchError.usage("SIZE is WIDTHxHEIGHT, not \(size)") }
    let input = FormatChoice(format: pixelFormat, size: FrameSize(width: parts[0], height: parts[1]))
    let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    let stride = pixelFormat == .mjpeg ? 0 : pixelFormat.minimumStride(width: parts[0])
    let plans: [(name: String, format: OutputFormatChoice, size: FrameSize?, view: OutputView)] = [
        ("passed through", .same, nil, .full), ("as YUYV", .yuyv, nil, .full), ("as NV12", .nv12, nil, .full),
        ("as YUYV 640x360", .yuyv, FrameSize(width: 640, height: 360), .full), ("framed (YUYV, crop 0.5)", .yuyv, nil, .framed),
    ]
    print("output plan for \(format) \(size)          ms a frame (median of \(repeats))   share of a core at 30 fps")
    for plan in plans {
        let outputPlan: OutputPlan
        do {
            outputPlan = try OutputPlan.plan(input: input, stride: stride, format: plan.format, size: plan.size, view: plan.view)
        } catch {
            print(plan.name.padding(toLength: 34, withPad: " ", startingAt: 0), "not possible: \(error)")
            continue
        }
        let converter = OutputConverter(plan: outputPlan)
        let sink = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, outputPlan.frameBytes), alignment: 16)
        defer { sink.deallocate() }
        var times: [Double] = []
        try bytes.withUnsafeBytes { frame in
            for _ in 0..<repeats {
                let start = now()
                let written = try converter.convert(
                    frame, input: input, stride: stride, crop: NormalizedRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5))
                sink.copyMemory(from: written)  // the write's copy into the driver's buffer
                times.append(now() - start)
            }
        }
        let median = times.sorted()[times.count / 2]
        print(
            plan.name.padding(toLength: 34, withPad: " ", startingAt: 0), String(format: "%8.3f", median * 1000),
            String(format: "%27.1f %%", median * 30 * 100))
    }
}

enum BenchError: Error, CustomStringConvertible {
    case usage(String)
    var description: String {
        switch self {
        case .usage(let text): text
        }
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "speed" where arguments.count >= 3: try speed(repeats: Int(arguments[1]) ?? 5, frames: Array(arguments[2...]))
    case "quality" where arguments.count == 2: try quality(truthPath: arguments[1])
    case "output" where arguments.count == 5:
        try output(repeats: Int(arguments[1]) ?? 30, file: arguments[2], format: arguments[3], size: arguments[4])
    default:
        FileHandle.standardError.write(
            Data(
                "usage: visionbench speed REPEATS FRAME... | visionbench quality TRUTH | visionbench output REPEATS FILE FORMAT WIDTHxHEIGHT\n"
                    .utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("visionbench: \(error)\n".utf8))
    exit(1)
}

import DockAPI
import DockJSON
import DockNumbers
import DockOptions
import DockSystem
import DockTracking

/// `dockctl replay`: reads the detection file, runs `MOTReplay`, writes the results and prints a
/// summary. Returns the exit status: 0, 65 when the detections cannot be read or are malformed,
/// 1 when the results cannot be written.
/// With `timesTracker` the summary also gives the seconds `MOTReplay.run` took (the tracker over
/// every frame, without reading or writing files).
func replay(detectionsPath: String, resultPath: String, settings: MOTReplay.Settings, isJSON: Bool, timesTracker: Bool = false) -> Int32 {
    guard let data = try? FileContents.read(atPath: detectionsPath) else {
        printError("dockctl: cannot read '\(detectionsPath)'")
        return 65
    }
    let detections: [MOTRecord]
    do {
        detections = try MOTFormat.parse(String(decoding: data, as: UTF8.self))
    } catch {
        printError("dockctl: \(detectionsPath): \(error)")
        return 65
    }
    let start = ContinuousClock.now
    let results = MOTReplay.run(detections, settings: settings)
    let elapsed = ContinuousClock.now - start
    let seconds = elapsed.secondsValue
    guard (try? FileContents.write(Array(MOTFormat.text(results).utf8), toPath: resultPath)) != nil else {
        printError("dockctl: cannot write '\(resultPath)'")
        return 1
    }
    let frames = settings.lastFrame ?? detections.map(\.frame).max() ?? 0
    let tracks = Set(results.map(\.identifier)).count
    if isJSON {
        var summary: [String: JSONValue] = [
            "frames": .integer(Int64(frames)), "tracks": .integer(Int64(tracks)),
            "boxes": .integer(Int64(results.count)),
        ]
        if timesTracker { summary["tracker_seconds"] = .number(seconds) }
        print(JSONValue.object(summary).serialized)
    } else {
        print(
            "replayed \(frames) frame\(frames == 1 ? "" : "s"): \(tracks) track\(tracks == 1 ? "" : "s"), "
                + "\(results.count) box\(results.count == 1 ? "" : "es") written to \(resultPath)"
                + (timesTracker ? "; tracker \(DecimalText.fixed(seconds * 1e6 / Double(max(frames, 1)), decimals: 1)) µs per frame" : ""))
    }
    return 0
}

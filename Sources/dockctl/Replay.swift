import DockAPI
import DockTracking
import Foundation

/// `dockctl replay`: reads the detection file, runs `MOTReplay`, writes the results and prints a
/// summary. Returns the exit status: 0, 65 when the detections cannot be read or are malformed,
/// 1 when the results cannot be written.
func replay(detectionsPath: String, resultPath: String, settings: MOTReplay.Settings, isJSON: Bool) -> Int32 {
    guard let data = FileManager.default.contents(atPath: detectionsPath) else {
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
    let results = MOTReplay.run(detections, settings: settings)
    guard FileManager.default.createFile(atPath: resultPath, contents: Data(MOTFormat.text(results).utf8)) else {
        printError("dockctl: cannot write '\(resultPath)'")
        return 1
    }
    let frames = settings.lastFrame ?? detections.map(\.frame).max() ?? 0
    let tracks = Set(results.map(\.identifier)).count
    if isJSON {
        print(JSONValue.object(["frames": .integer(Int64(frames)), "tracks": .integer(Int64(tracks)),
                                "boxes": .integer(Int64(results.count))]).serialized)
    } else {
        print("replayed \(frames) frame\(frames == 1 ? "" : "s"): \(tracks) track\(tracks == 1 ? "" : "s"), "
              + "\(results.count) box\(results.count == 1 ? "" : "es") written to \(resultPath)")
    }
    return 0
}

// libFuzzer entry point for dockd-vision's outside inputs: its settings file (`key = value`
// lines read against its option table) and a captured frame's bytes as each pixel format's check
// sees them. Built by `scripts/fuzz vision`, compiled in one module with Sources/Core/DockVision.
//
// Invariants checked on every input:
// - the text as a settings file is accepted, or refused with a message naming the file and a line
//   inside it (or a setting, for what only the whole file can say);
// - settings accepted are in their declared ranges, and the settings file written for them (every
//   key at its value) reads back as the same settings;
// - the bytes as a frame pass or fail each format's check without a trap, and a JPEG passes only
//   with its start and end markers.

import DockOptions

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVision(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    checkFrame(bytes)
    let text = String(decoding: bytes, as: UTF8.self)
    let lineCount = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).count
    let settings: VisionSettings
    do {
        guard case .run(let parsed, _) = try VisionCommand.parse(["--config", "fuzz.conf"], readFile: { _ in text }) else {
            preconditionFailure("a settings file read as something else than a run")
        }
        settings = parsed
    } catch {
        switch error {
        case .configuration(let message) where message.hasPrefix("fuzz.conf:"):
            let number = message.dropFirst("fuzz.conf:".count).prefix { $0.isNumber }
            precondition(Int(number).map { (1...lineCount).contains($0) } == true, "\(message) for \(lineCount) lines")
        case .configuration(let message):
            // Checks of the whole: a detector without its file, nothing to detect, no device.
            precondition(message.contains(":"), message)
        case .usage(let message):
            preconditionFailure("a settings file gave a usage error: \(message)")
        }
        return 0
    }
    precondition((1...30).contains(settings.bodyEvery) && (64...1920).contains(settings.detectWidth), "\(settings)")
    precondition(settings.fovDegrees > 0 && settings.fovDegrees <= 179 && settings.fovDegrees.isFinite, "\(settings)")
    precondition((0.25...2).contains(settings.faceScale) && (0.25...2).contains(settings.bodyScale), "\(settings)")
    // Written back, key by key, and read again: the same settings.
    var lines: [String] = []
    for option in VisionOptions.settings {
        let key = String(option.name.dropFirst(2))
        guard let value = value(of: option, in: settings) else { continue }
        lines.append("\(key) = \(value)")
    }
    let written = lines.joined(separator: "\n")
    guard case .run(let again, _)? = try? VisionCommand.parse(["--config", "w.conf"], readFile: { _ in written }) else {
        preconditionFailure("settings written back do not read: \(written)")
    }
    precondition(again == settings, "settings written back read differently: \(written)")
    return 0
}

/// A setting's value as its file would give it; nil for one whose text a line cannot carry
/// (spaces at either end, a newline, a `#`).
private func value(of option: Option, in settings: VisionSettings) -> String? {
    let text: String
    switch option.name {
    case "--device": text = settings.device
    case "--socket": text = settings.socket
    case "--accessory": text = settings.accessory
    case "--width": text = String(settings.width)
    case "--height": text = String(settings.height)
    case "--fps": text = String(settings.fps)
    case "--format": text = settings.format.rawValue
    case "--detect-width": text = String(settings.detectWidth)
    case "--fov-deg": text = "\(settings.fovDegrees)"
    case "--orientation": text = settings.orientation.rawValue
    case "--mirrored": text = String(settings.isMirrored)
    case "--faces": text = settings.faces.rawValue
    case "--face-model": text = settings.faceModel
    case "--bodies": text = settings.bodies.rawValue
    case "--body-model": text = settings.bodyModel
    case "--body-model-size": text = String(settings.bodyModelSize)
    case "--body-every": text = String(settings.bodyEvery)
    case "--face-scale": text = "\(settings.faceScale)"
    case "--body-scale": text = "\(settings.bodyScale)"
    case "--face-min-px": text = String(settings.faceMinimumPixels)
    case "--appearance": text = String(settings.sendsAppearance)
    case "--tracking": text = String(settings.turnsTrackingOn)
    case "--threads": text = String(settings.threads)
    case "--log-level": text = settings.logLevel
    case "--output": text = settings.output
    case "--output-format": text = settings.outputFormat.rawValue
    case "--output-size": text = settings.outputSize
    case "--output-view": text = settings.outputView.rawValue
    default: preconditionFailure("a setting the fuzzer does not know: \(option.name)")
    }
    let scalars = text.unicodeScalars
    if scalars.contains(where: { $0 == "\n" || $0 == "#" }) { return nil }
    if let first = scalars.first, [" ", "\t", "\r"].contains(first) { return nil }
    if let last = scalars.last, [" ", "\t", "\r"].contains(last) { return nil }
    return text
}

private func checkFrame(_ bytes: UnsafeRawBufferPointer) {
    for format in PixelFormat.allCases {
        do {
            try FrameCheck.check(bytes, format: format, width: 16, height: 8, stride: 0)
            if format == .mjpeg {
                precondition(bytes.count >= 4 && bytes[0] == 0xFF && bytes[1] == 0xD8, "a JPEG passed without its start")
            }
        } catch {
            _ = error.description
        }
    }
}

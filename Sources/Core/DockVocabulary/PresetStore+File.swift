import DockJSON

/// The presets file's text (`presets.json` in dockd's state directory): a JSON object with the
/// format's `version` (1) and `presets`, an array of objects `name`, `yaw` and `pitch` (radians)
/// and, where the accessory had a zoom the host drives, `zoom` (0...1), and where the accessory
/// keeps the pose in a preset memory of its own, `slot` (its number, 0...254), one preset a line
/// (a file without `slot`s — every file before them — reads as poses only):
///
/// ```
/// {
///   "version": 1,
///   "presets": [
///     {"name": "stage", "yaw": 0.5, "pitch": -0.1, "zoom": 0.25, "slot": 0}
///   ]
/// }
/// ```
///
/// Reading is all or nothing: a text that is not JSON, an unknown or missing field, a value out
/// of range, a name given twice — any of these refuses the whole file with its line, never keeps
/// the presets read before it.
extension PresetStore {
    /// The format's version, the file's `version`.
    public static let fileVersion = 1

    /// The store as its file holds it.
    public var fileText: String {
        var lines = ["{", "  \"version\": \(Self.fileVersion),"]
        if presets.isEmpty {
            lines.append("  \"presets\": []")
        } else {
            lines.append("  \"presets\": [")
            for (index, preset) in presets.enumerated() {
                var fields = [
                    "\"name\": \(JSONValue.string(preset.name).serialized)",
                    "\"yaw\": \(JSONValue.number(preset.yawRadians).serialized)",
                    "\"pitch\": \(JSONValue.number(preset.pitchRadians).serialized)",
                ]
                if let zoom = preset.zoomFraction { fields.append("\"zoom\": \(JSONValue.number(zoom).serialized)") }
                if let slot = preset.slot { fields.append("\"slot\": \(slot)") }
                lines.append("    {" + fields.joined(separator: ", ") + "}" + (index == presets.count - 1 ? "" : ","))
            }
            lines.append("  ]")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a presets file's text, whole or not at all.
    ///
    /// - Throws: `PresetFileError` with the line and what is wrong.
    public init(fileText: String) throws(PresetFileError) {
        let document: JSONDocument
        do {
            document = try JSONReader.document(fileText)
        } catch {
            throw PresetFileError(line: error.line, message: error.message)
        }
        var presets: [Preset] = []
        var lines: [Int?] = []
        do throws(JSONFieldError) {
            let file = try document.fields()
            let version = try file.integer("version")
            guard version == Self.fileVersion else {
                throw file.error("version", "must be \(Self.fileVersion) (this dockd's format), got \(version)")
            }
            for element in try file.array("presets") {
                let fields = try element.fields()
                let zoom = try fields.optionalNumber("zoom")
                let slot = try fields.optionalInteger("slot", in: 0...Self.highestSlot)
                presets.append(
                    Preset(
                        name: try fields.string("name"), yawRadians: try fields.number("yaw"), pitchRadians: try fields.number("pitch"),
                        zoomFraction: zoom, slot: slot))
                lines.append(element.line)
                try fields.finish()
            }
            try file.finish()
        } catch {
            throw PresetFileError(line: error.line, message: (error.path.isEmpty ? "" : "\(error.path): ") + error.reason)
        }
        do {
            try self.init(presets)
        } catch {
            // The line of the first preset the store refused.
            let name: String? =
                switch error {
                case .invalidName(let name, _), .invalidPose(let name, _), .duplicateName(let name): name
                case .noSuchPreset, .tooMany: nil
                }
            let index = name.flatMap { name in
                error == .duplicateName(name) ? presets.lastIndex { $0.name == name } : presets.firstIndex { $0.name == name }
            }
            throw PresetFileError(line: index.flatMap { lines[$0] }, message: "\(error)")
        }
    }
}

/// A presets file that cannot be read: the line where it goes wrong (nil when the fault is the
/// whole file's), and what is wrong.
public struct PresetFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line.
    public var line: Int?
    /// What is wrong.
    public var message: String

    /// Creates the error.
    public init(line: Int?, message: String) {
        self.line = line
        self.message = message
    }

    /// `line N: what is wrong`.
    public var description: String { (line.map { "line \($0): " } ?? "") + message }
}

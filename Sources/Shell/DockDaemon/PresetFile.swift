public import DockSockets
import DockSystem
public import DockVocabulary
import Glibc

/// dockd's presets on disk: `presets.json` in its state directory (`simulator-presets.json` for
/// the in-process simulator, so that a simulated dock's presets stay apart from a real one's;
/// `presets-NAME.json` for an accessory of a `[accessory NAME]` section).
/// Read whole at start; replaced whole and atomically at each change (`FileContents.replace`).
public struct PresetFile: Hashable, Sendable {
    /// The directory it is in.
    public let directory: String
    /// The file.
    public let path: String

    /// The presets file in `directory`; an accessory named in a section of the settings keeps
    /// its own (`presets-NAME.json`, `simulator-presets-NAME.json`).
    public init(directory: String, isSimulator: Bool = false, accessory: String? = nil) {
        self.directory = directory
        let file = (isSimulator ? "simulator-presets" : "presets") + (accessory.map { "-" + $0 } ?? "") + ".json"
        path = directory + (directory.hasSuffix("/") ? "" : "/") + file
    }

    /// The presets the file holds; none when there is no file yet.
    ///
    /// - Throws: `PresetFileProblem` when the file cannot be read or is damaged: what is wrong,
    ///   with the line.
    public func load() throws(PresetFileProblem) -> PresetStore {
        let bytes: [UInt8]
        do {
            bytes = try FileContents.read(atPath: path)
        } catch {
            if error.code == ENOENT { return PresetStore() }
            throw PresetFileProblem(path: path, reason: "\(error)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw PresetFileProblem(path: path, reason: "not UTF-8 text")
        }
        do {
            return try PresetStore(fileText: text)
        } catch {
            throw PresetFileProblem(path: path, reason: "\(error)")
        }
    }

    /// Replaces the file with `store`, making the directory (mode 0700) if it is missing.
    ///
    /// - Throws: `SystemError` naming the call that failed; the file is then as it was.
    public func store(_ store: PresetStore) throws(SystemError) {
        try FileContents.makeDirectories(atPath: directory)
        try FileContents.replace(atPath: path, with: Array(store.fileText.utf8))
    }
}

/// A presets file that cannot be read: which, and what is wrong (with the line, for a damaged one).
public struct PresetFileProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What is wrong.
    public var reason: String

    /// `PATH: reason`.
    public var description: String { "\(path): \(reason)" }
}

/// A named pose the dock can go back to: pan (yaw) and tilt (pitch), and the zoom where the
/// accessory had a zoom the host drives when it was saved.
public struct Preset: Hashable, Sendable {
    /// Its name, as `PresetStore.checkName` allows.
    public var name: String
    /// Yaw, radians (dockd's signs: > 0 right).
    public var yawRadians: Double
    /// Pitch, radians (> 0 up).
    public var pitchRadians: Double
    /// The zoom, a fraction of the accessory's range (0 widest, 1 longest); nil when the
    /// accessory had no zoom the host drives.
    public var zoomFraction: Double?
    /// The number of the accessory's own preset memory that holds this pose too (a VISCA
    /// camera's CAM_Memory), recalled by the accessory itself; nil when it is a pose only.
    public var slot: Int?

    /// Creates a preset.
    public init(name: String, yawRadians: Double, pitchRadians: Double, zoomFraction: Double? = nil, slot: Int? = nil) {
        self.name = name
        self.yawRadians = yawRadians
        self.pitchRadians = pitchRadians
        self.zoomFraction = zoomFraction
        self.slot = slot
    }
}

/// The presets dockd keeps, in the order they were first saved: one value, changed only by
/// returning a new one (`saving`, `deleting`), so that the daemon can write the new one to its
/// file first and take it only once it is written — a preset is never half-saved.
public struct PresetStore: Hashable, Sendable {
    /// The presets, in the order they were first saved.
    public private(set) var presets: [Preset] = []

    /// The longest name, in characters (what a person types and a list shows on one line).
    public static let longestName = 32
    /// The most presets dockd keeps.
    public static let mostPresets = 100

    /// An empty store.
    public init() {}

    /// A store of `presets`, each checked: a valid name, given once, finite angles within ±4π, a
    /// zoom within 0...1 and a slot within `slots`, no two presets in one slot.
    ///
    /// - Throws: `PresetError` naming the first preset that is wrong.
    public init(_ presets: [Preset]) throws(PresetError) {
        guard presets.count <= Self.mostPresets else { throw .tooMany }
        var seen = Set<String>()
        var slots: [Int: String] = [:]
        for preset in presets {
            try Self.checkName(preset.name)
            guard seen.insert(preset.name).inserted else { throw .duplicateName(preset.name) }
            try Self.checkPose(preset)
            if let slot = preset.slot {
                if let other = slots[slot] { throw .invalidPose(preset.name, "slot \(slot) is preset '\(other)''s too") }
                slots[slot] = preset.name
            }
        }
        self.presets = presets
    }

    /// The slots (accessory preset memories) that hold one of the presets.
    public var slotsInUse: Set<Int> { Set(presets.compactMap(\.slot)) }

    /// The slot for saving a preset called `name` on an accessory whose memories are `numbers`:
    /// the one it holds already, else the lowest no other preset holds; nil when every one is
    /// taken (the preset is then kept as a pose only).
    public func slot(forSaving name: String, in numbers: ClosedRange<Int>) -> Int? {
        if let own = preset(named: name)?.slot, numbers.contains(own) { return own }
        let taken = Set(presets.filter { $0.name != name }.compactMap(\.slot))
        return numbers.first { !taken.contains($0) }
    }

    /// The preset called `name`; nil when there is none.
    public func preset(named name: String) -> Preset? { presets.first { $0.name == name } }

    /// This store with `preset` saved: replacing one of the same name where it stood, else added
    /// at the end.
    ///
    /// - Throws: `PresetError` for a bad name or pose, or a new name beyond `mostPresets`.
    public func saving(_ preset: Preset) throws(PresetError) -> PresetStore {
        try Self.checkName(preset.name)
        try Self.checkPose(preset)
        var changed = self
        if let slot = preset.slot, let other = presets.first(where: { $0.slot == slot && $0.name != preset.name }) {
            throw .invalidPose(preset.name, "slot \(slot) is preset '\(other.name)''s")
        }
        if let index = presets.firstIndex(where: { $0.name == preset.name }) {
            changed.presets[index] = preset
        } else {
            guard presets.count < Self.mostPresets else { throw .tooMany }
            changed.presets.append(preset)
        }
        return changed
    }

    /// This store without the preset called `name`.
    ///
    /// - Throws: `PresetError.noSuchPreset` when there is none.
    public func deleting(_ name: String) throws(PresetError) -> PresetStore {
        guard let index = presets.firstIndex(where: { $0.name == name }) else { throw .noSuchPreset(name) }
        var changed = self
        changed.presets.remove(at: index)
        return changed
    }

    /// Checks a preset's name: 1 to `longestName` characters of printable text — no control
    /// character (a tab, a newline, an escape), no unassigned code point, no space at either end.
    ///
    /// - Throws: `PresetError.invalidName` saying what is wrong.
    public static func checkName(_ name: String) throws(PresetError) {
        guard !name.isEmpty else { throw .invalidName(name, "must not be empty") }
        guard name.count <= longestName else {
            throw .invalidName(name, "must be at most \(longestName) characters, got \(name.count)")
        }
        for scalar in name.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator:
                throw .invalidName(name, "must be printable text, got U+\(String(scalar.value, radix: 16, uppercase: true))")
            default: break
            }
        }
        guard let first = name.unicodeScalars.first, let last = name.unicodeScalars.last,
            !first.properties.isWhitespace, !last.properties.isWhitespace
        else { throw .invalidName(name, "must not begin or end with a space") }
    }

    /// The highest slot number a preset may hold (a VISCA memory number is one byte, and 0xFF
    /// would end the packet).
    public static let highestSlot = 254

    /// The largest angle a preset may hold, radians (two turns either way, as the settings' limits).
    public static let largestAngle = 4 * Double.pi

    private static func checkPose(_ preset: Preset) throws(PresetError) {
        for (field, value) in [("yaw", preset.yawRadians), ("pitch", preset.pitchRadians)] {
            guard value.isFinite, abs(value) <= largestAngle else {
                throw .invalidPose(preset.name, "\(field) must be a finite angle within ±4π radians, got \(value)")
            }
        }
        if let slot = preset.slot {
            guard (0...highestSlot).contains(slot) else {
                throw .invalidPose(preset.name, "slot must be within 0...\(highestSlot), got \(slot)")
            }
        }
        if let zoom = preset.zoomFraction {
            guard zoom.isFinite, (0...1).contains(zoom) else {
                throw .invalidPose(preset.name, "zoom must be within 0...1, got \(zoom)")
            }
        }
    }
}

/// Why a preset cannot be saved, recalled or deleted, or a store cannot hold what it was given.
public enum PresetError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name is empty, too long or not printable text: the name, and what is wrong.
    case invalidName(String, String)
    /// A pose that is not finite or out of range: the preset's name, and what is wrong.
    case invalidPose(String, String)
    /// Two presets of one name.
    case duplicateName(String)
    /// No preset of this name.
    case noSuchPreset(String)
    /// A new preset beyond `PresetStore.mostPresets`.
    case tooMany

    /// What is wrong, and what to do.
    public var description: String {
        switch self {
        case .invalidName(_, let reason): "a preset's name \(reason)"
        case .invalidPose(let name, let reason): "preset '\(name)': \(reason)"
        case .duplicateName(let name): "preset '\(name)' is given twice"
        case .noSuchPreset(let name): "no preset '\(name)'"
        case .tooMany: "dockd keeps at most \(PresetStore.mostPresets) presets; delete one first"
        }
    }
}

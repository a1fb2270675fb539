import DockLinks

/// One `[accessory NAME]` section of the configuration file: the accessory's name and its lines,
/// applied over the top level's settings when the accessories are made
/// (``Configuration/accessorySettings()``).
public struct AccessorySection: Hashable, Sendable {
    /// One `key = value` line of the section.
    public struct Line: Hashable, Sendable {
        /// The key.
        public var key: String
        /// The value.
        public var value: String
        /// `FILE:LINE`.
        public var location: String
    }

    /// The name clients address the accessory by.
    public var name: String
    /// Where the section starts, `FILE:LINE`.
    public var location: String
    /// Its lines, in order.
    public var lines: [Line] = []
}

/// One accessory's settings, with the name clients address it by.
public struct NamedAccessorySettings: Hashable, Sendable {
    /// The name the unnamed accessory (the settings' top level) goes by.
    public static let defaultName = "default"

    /// The accessory's name: its section's, or ``defaultName`` for the top level.
    public var name: String
    /// Its settings: the top level's, with its section's lines applied.
    public var configuration: Configuration
}

extension Configuration {
    /// The keys that are dockd's own, not an accessory's: a section may not set them.
    static let daemonKeys: Set<String> = ["socket", "state-dir", "log-level"]

    /// The keys that choose which device an accessory is: a section starts with them empty, so
    /// that the top level's device is never claimed by every section at once.
    mutating func clearDeviceChoice() {
        let defaults = Configuration()
        device = defaults.device
        simulator = defaults.simulator
        scenario = defaults.scenario
        visca = defaults.visca
        serialNumber = defaults.serialNumber
    }

    /// Reads a section header, `[accessory NAME]`: a new section, or a named error.
    mutating func startSection(_ header: String, location: String) throws(Error) {
        let words = header.dropFirst().dropLast().split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard header.hasSuffix("]"), words.count == 2, words[0] == "accessory" else {
            throw Error(location: location, message: "expected a section '[accessory NAME]', got '\(header)'")
        }
        let name = String(words[1])
        guard AccessorySection.isValidName(name) else {
            throw Error(
                location: location,
                message: "an accessory's name is letters, digits, '-' and '_' (at most 64), got '\(name)'")
        }
        if let earlier = sections.first(where: { $0.name == name }) {
            throw Error(location: location, message: "accessory '\(name)' is named twice (first at \(earlier.location))")
        }
        sections.append(AccessorySection(name: name, location: location))
    }

    /// Keeps a line of the current section, refusing a key that is not a setting or is dockd's own.
    mutating func addSectionLine(_ key: String, _ value: String, location: String) throws(Error) {
        let section = sections[sections.count - 1].name
        guard key == "rest-after-s" || Self.keys.contains(where: { $0.name == key }) else {
            throw Error(location: location, message: "unknown setting '\(key)' (dockd --help lists them)")
        }
        guard !Self.daemonKeys.contains(key) else {
            throw Error(
                location: location,
                message: "\(key) is dockd's own setting, not accessory '\(section)''s: set it above the first section")
        }
        sections[sections.count - 1].lines.append(AccessorySection.Line(key: key, value: value, location: location))
    }

    /// Every accessory the settings describe: the top level alone when there are no sections;
    /// otherwise one per section, each the top level's settings with its device choice cleared
    /// and its own lines applied, checked as the top level is.
    ///
    /// - Throws: the first section's line or check that fails (its error names the accessory), or
    ///   ``Error`` at a section's header when it claims a device an earlier section claims.
    public func accessorySettings() throws(Error) -> [NamedAccessorySettings] {
        guard !sections.isEmpty else { return [NamedAccessorySettings(name: NamedAccessorySettings.defaultName, configuration: self)] }
        var accessories: [NamedAccessorySettings] = []
        var claims: [(claim: DeviceClaim, name: String)] = []
        for section in sections {
            var settings = self
            settings.sections = []
            settings.clearDeviceChoice()
            do {
                for line in section.lines { try settings.set(line.key, line.value, location: line.location) }
                settings = try settings.validated()
            } catch {
                throw Error(location: error.location, message: "accessory '\(section.name)': \(error.message)")
            }
            if let claim = settings.deviceClaim {
                if let earlier = claims.first(where: { $0.claim.overlaps(claim) }) {
                    throw Error(
                        location: section.location,
                        message: "accessory '\(section.name)' claims \(claim), which accessory '\(earlier.name)' claims too")
                }
                claims.append((claim, section.name))
            }
            accessories.append(NamedAccessorySettings(name: section.name, configuration: settings))
        }
        return accessories
    }

    /// The device the settings take, to find two accessories that would take the same one; nil
    /// for the in-process simulator, which takes none.
    var deviceClaim: DeviceClaim? {
        if simulator || !accessoryProtocol.hasWire { return nil }  // the simulator, a digital crop: no device
        if !visca.isEmpty { return .address(visca) }
        if !device.isEmpty { return .path(device) }
        if accessoryProtocol == .uvc { return .firstWebcam }
        return .usb(vendorID: vendorID, productID: productID, serialNumber: serialNumber)
    }
}

/// The device an accessory's settings take.
enum DeviceClaim: Hashable, Sendable, CustomStringConvertible {
    /// A fixed device path.
    case path(String)
    /// A network camera's address.
    case address(String)
    /// The first webcam found with pan/tilt controls.
    case firstWebcam
    /// A serial dock found by its USB IDs (and serial number; empty: any).
    case usb(vendorID: String, productID: String, serialNumber: String)

    /// Whether one device could be taken by both.
    func overlaps(_ other: DeviceClaim) -> Bool {
        switch (self, other) {
        case (.usb(let vendor, let product, let serial), .usb(let otherVendor, let otherProduct, let otherSerial)):
            vendor == otherVendor && product == otherProduct && (serial.isEmpty || otherSerial.isEmpty || serial == otherSerial)
        default: self == other
        }
    }

    var description: String {
        switch self {
        case .path(let path): "device \(path)"
        case .address(let address): "the camera at \(address)"
        case .firstWebcam: "the first webcam with pan/tilt controls (give each a device)"
        case .usb(let vendor, let product, let serial):
            "the dock with USB IDs \(vendor):\(product)"
                + (serial.isEmpty ? " (any serial number: give each a serial-number)" : " and serial number \(serial)")
        }
    }
}

extension AccessorySection {
    /// Whether `name` may name an accessory: 1 to 64 ASCII letters, digits, `-` and `_`.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.count <= 64
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            }
    }
}

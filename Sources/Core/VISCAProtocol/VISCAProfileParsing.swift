import DockJSON

extension VISCAProfile {
    /// The serial speeds a profile may list.
    public static let supportedBaudRates: Set<Int> = [1200, 2400, 4800, 9600, 14400, 19200, 38400, 57600, 115200]

    /// Parses and validates a profile (the format of `Protocol/visca/*.json`, documented in
    /// `Protocol/visca.md`).
    ///
    /// - Throws: `.invalidProfile` naming the field (`pan.speeds[3].degrees_per_second`) for text
    ///   that is not JSON, a missing or unknown field, a value of the wrong type or out of range,
    ///   or a speed table that `VISCASpeedTable` refuses.
    public static func parse(json: String) throws(VISCAError) -> VISCAProfile {
        let document: ProfileJSON
        do {
            document = ProfileJSON(try JSONReader.parse(json, options: .file))
        } catch {
            throw .invalidProfile(field: "(document)", reason: "not JSON: \(error)")
        }
        var root = try ObjectReader(document, path: "")
        let name = try root.string("name")
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }) else {
            throw .invalidProfile(field: "name", reason: "must be lower-case letters, digits and '-', got '\(name)'")
        }
        let displayName = try root.string("display_name")
        guard !displayName.isEmpty else { throw .invalidProfile(field: "display_name", reason: "must not be empty") }
        let source = try root.string("source")
        guard !source.isEmpty else { throw .invalidProfile(field: "source", reason: "must say where the numbers came from") }
        let address = try root.integer("address", in: 1...7)
        let baudRates = try root.array("baud_rates").enumerated().map { (index, value) throws(VISCAError) -> Int in
            let path = "baud_rates[\(index)]"
            guard case .integer(let rate) = value, let rate = Int(exactly: rate), supportedBaudRates.contains(rate) else {
                throw .invalidProfile(field: path, reason: "must be one of \(supportedBaudRates.sorted()), got \(value)")
            }
            return rate
        }
        guard !baudRates.isEmpty else { throw .invalidProfile(field: "baud_rates", reason: "must list at least one speed") }
        guard Set(baudRates).count == baudRates.count else {
            throw .invalidProfile(field: "baud_rates", reason: "lists a speed twice: \(baudRates)")
        }
        let sockets = try root.integer("sockets", in: 1...15)
        let pan = try axis(root.object("pan"))
        let tilt = try axis(root.object("tilt"))
        var zoom: ClosedRange<UInt16>?
        var zoomMaximumSpeed: UInt8 = 0
        if try !root.isNull("zoom") {
            var object = try root.object("zoom")
            let minimum = try object.integer("minimum", in: 0...0xFFFF)
            let maximum = try object.integer("maximum", in: 0...0xFFFF)
            guard minimum < maximum else {
                throw .invalidProfile(field: "zoom.maximum", reason: "must be above zoom.minimum (\(minimum)), got \(maximum)")
            }
            zoom = UInt16(minimum)...UInt16(maximum)
            zoomMaximumSpeed = UInt8(try object.integer("maximum_speed", in: 0...15))
            try object.finish()
        }
        var quirksObject = try root.object("quirks")
        let quirks = Quirks(
            completionWithoutAck: try quirksObject.bool("completion_without_ack"),
            oneSpeedByteInPositionMoves: try quirksObject.bool("one_speed_byte_in_position_moves"),
            udpWithoutSequenceHeader: try quirksObject.bool("udp_without_sequence_header"),
            completionBeforeArrival: try quirksObject.bool("completion_before_arrival"))
        try quirksObject.finish()
        try root.finish()
        return VISCAProfile(
            name: name, displayName: displayName, source: source, address: UInt8(address), baudRates: baudRates,
            pan: pan, tilt: tilt, zoom: zoom, zoomMaximumSpeed: zoomMaximumSpeed, sockets: sockets, quirks: quirks)
    }

    private static func axis(_ reader: ObjectReader) throws(VISCAError) -> Axis {
        var object = reader
        let path = object.path
        let countsPerDegree = try object.number("counts_per_degree")
        guard countsPerDegree > 0 else {
            throw .invalidProfile(field: path + ".counts_per_degree", reason: "must be above 0, got \(countsPerDegree)")
        }
        let minimum = try object.number("minimum_degrees")
        let maximum = try object.number("maximum_degrees")
        guard minimum <= 0 else {
            throw .invalidProfile(field: path + ".minimum_degrees", reason: "must be at most 0 (home), got \(minimum)")
        }
        guard maximum >= 0, maximum > minimum else {
            throw .invalidProfile(
                field: path + ".maximum_degrees",
                reason: "must be at least 0 (home) and above minimum_degrees, got \(maximum)")
        }
        for (key, degrees) in [("minimum_degrees", minimum), ("maximum_degrees", maximum)] {
            guard Double(Int16.min)...Double(Int16.max) ~= (degrees * countsPerDegree).rounded() else {
                throw .invalidProfile(
                    field: path + "." + key,
                    reason: "\(degrees)° is \(degrees * countsPerDegree) counts, beyond 16 bits")
            }
        }
        var points: [(step: UInt8, degreesPerSecond: Double)] = []
        for (index, value) in try object.array("speeds").enumerated() {
            var point = try ObjectReader(value, path: path + ".speeds[\(index)]")
            points.append(
                (
                    step: UInt8(try point.integer("step", in: 1...254)),
                    degreesPerSecond: try point.number("degrees_per_second")
                ))
            try point.finish()
        }
        let speeds: VISCASpeedTable
        do {
            speeds = try VISCASpeedTable(points: points)
        } catch {
            throw .invalidProfile(field: path + ".speeds", reason: error.description)
        }
        try object.finish()
        return Axis(speeds: speeds, countsPerDegree: countsPerDegree, minimumDegrees: minimum, maximumDegrees: maximum)
    }
}

/// A JSON value, keeping integers apart from fractions and Booleans apart from numbers.
enum ProfileJSON: Hashable, CustomStringConvertible {
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([ProfileJSON])
    case object([String: ProfileJSON])
    case null

    /// The value of a node: whole numbers that fit in 64 bits are integers, however written; a
    /// key given twice was refused by the reader.
    init(_ node: JSONNode) {
        switch node.value {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let value, _): self = node.wholeNumber.map(ProfileJSON.integer) ?? .number(value)
        case .string(let value): self = .string(value)
        case .array(let elements): self = .array(elements.map(ProfileJSON.init))
        case .object(let members):
            self = .object(Dictionary(members.map { ($0.key, ProfileJSON($0.node)) }, uniquingKeysWith: { _, last in last }))
        }
    }

    var description: String {
        switch self {
        case .bool(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array: "an array"
        case .object: "an object"
        case .null: "null"
        }
    }
}

/// Reads the members of one JSON object, naming each by its path in errors, and refuses members
/// nobody read (a misspelt key is an error, not a default).
struct ObjectReader {
    let path: String
    private let members: [String: ProfileJSON]
    private var read: Set<String> = []

    init(_ value: ProfileJSON, path: String) throws(VISCAError) {
        guard case .object(let members) = value else {
            throw .invalidProfile(field: path.isEmpty ? "(document)" : path, reason: "must be an object, got \(value)")
        }
        self.path = path
        self.members = members
    }

    private func field(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    private mutating func member(_ key: String) throws(VISCAError) -> ProfileJSON {
        read.insert(key)
        guard let value = members[key] else { throw .invalidProfile(field: field(key), reason: "is missing") }
        return value
    }

    mutating func string(_ key: String) throws(VISCAError) -> String {
        guard case .string(let value) = try member(key) else {
            throw .invalidProfile(field: field(key), reason: "must be a string")
        }
        return value
    }

    mutating func bool(_ key: String) throws(VISCAError) -> Bool {
        guard case .bool(let value) = try member(key) else {
            throw .invalidProfile(field: field(key), reason: "must be true or false")
        }
        return value
    }

    mutating func integer(_ key: String, in range: ClosedRange<Int>) throws(VISCAError) -> Int {
        let value = try member(key)
        guard case .integer(let integer) = value, let integer = Int(exactly: integer), range.contains(integer) else {
            throw .invalidProfile(field: field(key), reason: "must be a whole number in \(range), got \(value)")
        }
        return integer
    }

    mutating func number(_ key: String) throws(VISCAError) -> Double {
        let value = try member(key)
        switch value {
        case .integer(let integer): return Double(integer)
        case .number(let number) where number.isFinite: return number
        default: throw .invalidProfile(field: field(key), reason: "must be a finite number, got \(value)")
        }
    }

    mutating func array(_ key: String) throws(VISCAError) -> [ProfileJSON] {
        guard case .array(let values) = try member(key) else {
            throw .invalidProfile(field: field(key), reason: "must be an array")
        }
        return values
    }

    mutating func object(_ key: String) throws(VISCAError) -> ObjectReader {
        try ObjectReader(try member(key), path: field(key))
    }

    mutating func isNull(_ key: String) throws(VISCAError) -> Bool {
        try member(key) == .null
    }

    /// Throws for the first member (in key order) that no one read.
    func finish() throws(VISCAError) {
        if let unknown = members.keys.filter({ !read.contains($0) }).sorted().first {
            throw .invalidProfile(field: field(unknown), reason: "is not a profile field")
        }
    }
}

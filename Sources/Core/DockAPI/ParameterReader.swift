public import DockJSON
public import DockVocabulary

/// Typed access to a call's parameters: every parameter must be one the method knows, of its
/// type, and finite; `null` counts as absent.
public struct ParameterReader: Sendable {
    private let parameters: [String: JSONValue]

    /// Checks that only `allowed` parameters are present.
    public init(_ parameters: [String: JSONValue], allowed: Set<String>) throws(ParameterError) {
        try self.init(parameters, allows: { allowed.contains($0) })
    }

    /// Checks that only parameters `allows` accepts are present; the first unknown one in
    /// sorted order is the one named.
    init(_ parameters: [String: JSONValue], allows: (String) -> Bool) throws(ParameterError) {
        // Sorting the names and rebuilding the dictionary without its nulls, for every object
        // of every call, was about 5 % of dockd's CPU while a client sent 30 Track calls a
        // second (perf): now only when a name is unknown, or a value null.
        if parameters.keys.contains(where: { !allows($0) }) {
            for name in parameters.keys.sorted() where !allows(name) {
                throw ParameterError(parameter: name, reason: "unknown parameter")
            }
        }
        self.parameters = parameters.values.contains(.null) ? parameters.filter { $0.value != .null } : parameters
    }

    /// Any parameters, unchecked (for reading one that every method takes).
    init(unchecked parameters: [String: JSONValue]) {
        self.parameters = parameters.values.contains(.null) ? parameters.filter { $0.value != .null } : parameters
    }

    /// A required number.
    public func number(_ name: String) throws(ParameterError) -> Double {
        guard let value = try optionalNumber(name) else { throw ParameterError(parameter: name, reason: "required") }
        return value
    }

    /// An optional number.
    public func optionalNumber(_ name: String) throws(ParameterError) -> Double? {
        guard let value = parameters[name] else { return nil }
        let number: Double
        switch value {
        case .integer(let integer): number = Double(integer)
        case .number(let double): number = double
        default: throw ParameterError(parameter: name, reason: "must be a number, got \(value.typeName)")
        }
        guard number.isFinite else { throw ParameterError(parameter: name, reason: "must be finite") }
        return number
    }

    /// A required Boolean.
    public func bool(_ name: String) throws(ParameterError) -> Bool {
        guard let value = try optionalBool(name) else { throw ParameterError(parameter: name, reason: "required") }
        return value
    }

    /// An optional Boolean.
    public func optionalBool(_ name: String) throws(ParameterError) -> Bool? {
        guard let value = parameters[name] else { return nil }
        guard case .bool(let flag) = value else {
            throw ParameterError(parameter: name, reason: "must be true or false, got \(value.typeName)")
        }
        return flag
    }

    /// An optional string.
    public func optionalString(_ name: String) throws(ParameterError) -> String? {
        guard let value = parameters[name] else { return nil }
        guard case .string(let text) = value else {
            throw ParameterError(parameter: name, reason: "must be a string, got \(value.typeName)")
        }
        return text
    }

    /// A required name from `choices`.
    public func choice(_ name: String, _ choices: [String]) throws(ParameterError) -> String {
        guard let text = try optionalString(name) else { throw ParameterError(parameter: name, reason: "required") }
        guard choices.contains(text) else {
            throw ParameterError(parameter: name, reason: "must be one of \(choices.joined(separator: ", ")), got \"\(text)\"")
        }
        return text
    }

    /// An optional `Range` object (`{"min": ..., "max": ...}`, min at most max).
    public func optionalRange(_ name: String) throws(ParameterError) -> ClosedRange<Double>? {
        guard let value = parameters[name] else { return nil }
        guard case .object(let members) = value else {
            throw ParameterError(parameter: name, reason: "must be an object with min and max, got \(value.typeName)")
        }
        let inner = try ParameterReader(members, allows: { $0 == "min" || $0 == "max" })
        let low: Double, high: Double
        do {
            low = try inner.number("min")
            high = try inner.number("max")
        } catch {
            throw ParameterError(parameter: "\(name).\(error.parameter)", reason: error.reason)
        }
        guard low <= high else { throw ParameterError(parameter: name, reason: "min must not exceed max") }
        return low...high
    }
}

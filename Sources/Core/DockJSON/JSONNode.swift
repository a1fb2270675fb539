/// A JSON value as it stood in its text: members in their order, every number with the text it
/// was written as, and every value with the line it starts on, so that a reader of a file can name
/// the field and the line of a mistake. `JSONReader` makes them.
public struct JSONNode: Hashable, Sendable {
    /// A JSON value.
    public enum Value: Hashable, Sendable {
        case null
        case bool(Bool)
        /// A number: its value as a double and the text it was written as (`12`, `1.2e1`, `NaN`).
        case number(Double, text: String)
        case string(String)
        case array([JSONNode])
        /// Members in the text's order.
        case object([Member])
    }

    /// One member of an object.
    public struct Member: Hashable, Sendable {
        /// The member's name.
        public var key: String
        /// Its value.
        public var node: JSONNode

        /// A member.
        public init(key: String, node: JSONNode) {
            self.key = key
            self.node = node
        }
    }

    /// The value.
    public var value: Value
    /// The 1-based line where the value starts.
    public var line: Int

    /// A node.
    public init(value: Value, line: Int) {
        self.value = value
        self.line = line
    }

    /// What kind of value this is, for error messages ("a number", "an object").
    public var kindName: String {
        switch value {
        case .null: "null"
        case .bool: "a Boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// A number that is whole and fits in 64 bits, however it is written (`12`, `12.0`, `1.2e1`),
    /// as Foundation's decoder reads one; nil for anything else. A whole number written without a
    /// fraction or an exponent is read exactly, even where a double could not hold it.
    public var wholeNumber: Int64? {
        guard case .number(let double, let text) = value else { return nil }
        if !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
            let exact = Int64(text)
        {
            return exact
        }
        guard double.isFinite, double == double.rounded(), abs(double) < 9.2e18 else { return nil }
        return Int64(exactly: double)
    }
}

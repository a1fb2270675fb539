/// A JSON text as a file's reader needs it: its value, and where each value stood — its line, a
/// number's text as written, an object's members in the text's order — so that a mistake is named
/// by its field's path and its line. `JSONReader.document` makes one; its fields are read with
/// `fields()`.
public struct JSONDocument: Sendable {
    /// The value the text holds.
    public let value: JSONValue
    let place: JSONPlace

    init(value: JSONValue, place: JSONPlace) {
        self.value = value
        self.place = place
    }

    /// The line the text's value starts on (1 for a text that starts with it).
    public var line: Int { place.line }

    /// The reader of the document's top-level object, as a file's reader reads: `null` is a value
    /// (a type error where another is expected), and members no one read are refused by
    /// `finish()`, in the text's order.
    ///
    /// - Throws: `JSONFieldError` when the text's value is not an object.
    public func fields() throws(JSONFieldError) -> JSONFields {
        try JSONFields(value, place: place, path: "", nullIsAbsent: false)
    }
}

/// Where one value stood in its text: the line it starts on, a number's text as written (`12`,
/// `1.2e1`, `NaN`), and an object's members in the text's order or an array's elements, each with
/// its own place. Made only for a document; a value read for the API carries none.
final class JSONPlace: Sendable {
    /// The 1-based line where the value starts.
    let line: Int
    /// A number's text as written; nil for anything else.
    let text: String?
    /// An object's members in the text's order (a key given twice, where allowed, twice).
    let members: [(key: String, place: JSONPlace)]
    /// An array's elements.
    let elements: [JSONPlace]

    init(line: Int, text: String? = nil, members: [(key: String, place: JSONPlace)] = [], elements: [JSONPlace] = []) {
        self.line = line
        self.text = text
        self.members = members
        self.elements = elements
    }

    /// The place of the member `key` (the last, where a key was given twice).
    func member(_ key: String) -> JSONPlace? { members.last { $0.key == key }?.place }
}

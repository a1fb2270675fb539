import DockJSON

extension UVCCameraModel {
    /// Reads the members of one object of a model file, naming each by its path in errors, and
    /// refuses members nobody read (a misspelt key is an error, not a default).
    struct ModelFields {
        let path: String
        private let members: [JSONNode.Member]
        private var read: Set<String> = []

        init(_ node: JSONNode, path: String) throws(ParseError) {
            guard case .object(let members) = node.value else {
                throw ParseError(field: path.isEmpty ? "(document)" : path, reason: "must be an object, got \(node.kindName)")
            }
            self.path = path
            self.members = members
        }

        private func field(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

        private mutating func optional(_ key: String) -> JSONNode? {
            read.insert(key)
            return members.first { $0.key == key }?.node
        }

        private mutating func member(_ key: String) throws(ParseError) -> JSONNode {
            guard let node = optional(key) else { throw ParseError(field: field(key), reason: "is missing") }
            return node
        }

        mutating func string(_ key: String) throws(ParseError) -> String {
            let node = try member(key)
            guard case .string(let value) = node.value else {
                throw ParseError(field: field(key), reason: "must be a string, got \(node.kindName)")
            }
            return value
        }

        mutating func bool(_ key: String) throws(ParseError) -> Bool {
            let node = try member(key)
            guard case .bool(let value) = node.value else {
                throw ParseError(field: field(key), reason: "must be true or false, got \(node.kindName)")
            }
            return value
        }

        mutating func optionalBool(_ key: String) throws(ParseError) -> Bool? {
            guard optional(key) != nil else { return nil }
            return try bool(key)
        }

        /// A whole number (`Int64`), however written.
        mutating func integer(_ key: String) throws(ParseError) -> Int64 {
            let node = try member(key)
            guard let value = node.wholeNumber else {
                throw ParseError(field: field(key), reason: "must be a whole number, got \(node.kindName)")
            }
            return value
        }

        /// A finite number.
        mutating func number(_ key: String) throws(ParseError) -> Double {
            let node = try member(key)
            guard case .number(let value, _) = node.value, value.isFinite else {
                throw ParseError(field: field(key), reason: "must be a finite number, got \(node.kindName)")
            }
            return value
        }

        mutating func object(_ key: String) throws(ParseError) -> JSONNode {
            let node = try member(key)
            guard case .object = node.value else {
                throw ParseError(field: field(key), reason: "must be an object, got \(node.kindName)")
            }
            return node
        }

        mutating func array(_ key: String) throws(ParseError) -> [JSONNode] {
            let node = try member(key)
            guard case .array(let elements) = node.value else {
                throw ParseError(field: field(key), reason: "must be an array, got \(node.kindName)")
            }
            return elements
        }

        /// Whether the object has the member (without reading it).
        func has(_ key: String) -> Bool { members.contains { $0.key == key } }

        /// Throws for the first member (in the file's order) that no one read.
        func finish() throws(ParseError) {
            if let unknown = members.first(where: { !read.contains($0.key) }) {
                throw ParseError(field: field(unknown.key), reason: "is not a model field")
            }
        }
    }
}

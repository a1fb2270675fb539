/// What a command line said, by declaration: each option's checked value and the plain words.
public struct ParsedOptions: Hashable, Sendable {
    /// The options given, by name, with their text (empty for a flag); a repeated option keeps its last.
    public private(set) var given: [String: String] = [:]
    /// Every value each option was given, in order (an option that may be repeated: `--eio A --eio B`).
    public private(set) var repeated: [String: [String]] = [:]
    /// The words that are not options or their values, in order.
    public var words: [String] = []

    public init() {}

    mutating func record(_ option: Option, _ text: String) {
        given[option.name] = text
        repeated[option.name, default: []].append(text)
    }

    /// Every value of an option given more than once, in order; empty when not given.
    public func texts(_ option: Option) -> [String] { repeated[option.name] ?? [] }

    /// Whether the option was given.
    public func has(_ option: Option) -> Bool { given[option.name] != nil }

    /// A flag's state (given or not).
    public func flag(_ option: Option) -> Bool { has(option) }

    /// A number option's value, checked at parse time; nil when not given.
    public func number(_ option: Option) -> Double? { given[option.name].flatMap(Double.init) }

    /// A whole-number option's value; nil when not given.
    public func wholeNumber(_ option: Option) -> Int? { given[option.name].flatMap { Int($0) } }

    /// A text, file or choice option's value; nil when not given.
    public func text(_ option: Option) -> String? { given[option.name] }

    /// A choice option's value as the enum whose cases gave the choices; nil when not given.
    public func choice<Choice: RawRepresentable>(_ option: Option, as type: Choice.Type) -> Choice? where Choice.RawValue == String {
        given[option.name].flatMap(Choice.init(rawValue:))
    }
}

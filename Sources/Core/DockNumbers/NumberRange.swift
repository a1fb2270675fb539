/// The numbers a setting accepts: finite, from a lower bound to an upper one, each bound included
/// or not. One value both checks an option's argument and says in its help what it takes, and a
/// settings type's `isValid` can check with the same value.
public struct NumberRange: Hashable, Sendable, CustomStringConvertible {
    public var lowerBound: Double
    public var upperBound: Double
    /// Whether the lower bound itself is refused ("above 0").
    public var excludesLowerBound: Bool
    /// Whether the upper bound itself is refused ("below 1").
    public var excludesUpperBound: Bool

    /// The numbers from `range.lowerBound` to `range.upperBound`, both included.
    public init(_ range: ClosedRange<Double>) {
        self.init(lowerBound: range.lowerBound, upperBound: range.upperBound, excludesLowerBound: false, excludesUpperBound: false)
    }

    /// The numbers between the bounds, each included unless said otherwise.
    public init(lowerBound: Double, upperBound: Double, excludesLowerBound: Bool = false, excludesUpperBound: Bool = false) {
        precondition(lowerBound <= upperBound, "an empty range: \(lowerBound) to \(upperBound)")
        self.lowerBound = lowerBound
        self.upperBound = upperBound
        self.excludesLowerBound = excludesLowerBound
        self.excludesUpperBound = excludesUpperBound
    }

    /// Every finite number.
    public static let finite = NumberRange(lowerBound: -.greatestFiniteMagnitude, upperBound: .greatestFiniteMagnitude)

    /// The numbers above `lower` (not `lower` itself) up to `upper` included.
    public static func above(_ lower: Double, atMost upper: Double) -> NumberRange {
        NumberRange(lowerBound: lower, upperBound: upper, excludesLowerBound: true)
    }

    /// The numbers from `lower` included up to `upper` not included.
    public static func from(_ lower: Double, below upper: Double) -> NumberRange {
        NumberRange(lowerBound: lower, upperBound: upper, excludesUpperBound: true)
    }

    /// Whether `value` is finite and within the range (NaN never is).
    public func contains(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        let aboveLower = excludesLowerBound ? value > lowerBound : value >= lowerBound
        let belowUpper = excludesUpperBound ? value < upperBound : value <= upperBound
        return aboveLower && belowUpper
    }

    /// Whether the whole number `value` is within the range.
    public func contains(_ value: Int) -> Bool { contains(Double(value)) }

    /// The range in words, as help and errors show it: `from 0 to 1`, `above 0, at most 1e6`,
    /// `from 0, below 1`.
    public var description: String {
        if self == .finite { return "(any finite number)" }
        let lower = (excludesLowerBound ? "above " : "from ") + Self.text(lowerBound)
        let upper = (excludesUpperBound ? "below " : excludesLowerBound ? "at most " : "to ") + Self.text(upperBound)
        return lower + (excludesLowerBound || excludesUpperBound ? ", " : " ") + upper
    }

    /// A bound as a person writes it: `1`, `0.55`, `1e6`.
    public static func text(_ bound: Double) -> String {
        if abs(bound) >= 1e5, bound == bound.rounded(), let exponent = Self.powerOfTen(abs(bound)) {
            return (bound < 0 ? "-" : "") + "1e\(exponent)"
        }
        if bound == bound.rounded(), abs(bound) < 1e15 { return String(Int(bound)) }
        return String(bound)
    }

    private static func powerOfTen(_ value: Double) -> Int? {
        var power = 0, scaled = value
        while scaled >= 10, scaled.truncatingRemainder(dividingBy: 10) == 0 {
            scaled /= 10
            power += 1
        }
        return scaled == 1 ? power : nil
    }
}

/// How large the tracker keeps its subject in the picture, by zooming: a camera operator's shot
/// sizes, the group of selected subjects, or a share of the picture's height. `off` leaves the
/// zoom alone (where a client or the lost behaviour put it).
public enum ShotSize: Hashable, Sendable {
    /// The zoom is not the tracker's.
    case off
    /// Head and shoulders: the face a third of the picture's height.
    case head
    /// Half body, from the head to the hips: the face a fifth of the picture's height.
    case half
    /// Full body: the body four fifths of the picture's height.
    case full
    /// The selected subjects together (the primary alone when fewer than two are selected),
    /// their joint box four fifths of the picture's height or width, whichever fills it first.
    case group
    /// The subject's box (its body, else its face) this share of the picture's height, within
    /// `fractionRange`.
    case fraction(Double)

    /// The shares of the picture's height a `fraction` may ask for: below a twentieth a person
    /// is a few pixels of a detector's input; above the whole, the box is cut by the picture.
    public static let fractionRange = 0.05...1.0

    /// The names of the shot sizes that have one, as the API and settings spell them.
    public static let names = ["off", "head", "half", "full", "group"]

    /// The shot size's name as the API spells it (`fraction` for a share).
    public var name: String {
        switch self {
        case .off: "off"
        case .head: "head"
        case .half: "half"
        case .full: "full"
        case .group: "group"
        case .fraction: "fraction"
        }
    }

    /// The share of a `fraction`; nil for a named shot size.
    public var fraction: Double? {
        if case .fraction(let share) = self { share } else { nil }
    }

    /// Whether the tracker zooms for this shot size (all but `off`).
    public var isActive: Bool { self != .off }

    /// Reads a shot size as a setting and `dockctl shot` spell it: `off`, `head`, `half`, `full`,
    /// `group`, or a share of the picture's height (`0.4`).
    ///
    /// - Throws: `ShotSizeError` naming what is wrong.
    public init(setting text: String) throws(ShotSizeError) {
        switch text {
        case "off": self = .off
        case "head": self = .head
        case "half": self = .half
        case "full": self = .full
        case "group": self = .group
        default:
            guard let share = Double(text), share.isFinite, !text.hasPrefix("+") else { throw .unknown(text) }
            self = try Self(name: "fraction", fraction: share)
        }
    }

    /// A shot size from the API's two fields: a name, and the share for `fraction`.
    ///
    /// - Throws: `ShotSizeError`: an unknown name, a `fraction` without its share, a share out of
    ///   `fractionRange`, or a share given with a named size.
    public init(name: String, fraction: Double?) throws(ShotSizeError) {
        switch name {
        case "off", "head", "half", "full", "group":
            guard fraction == nil else { throw .shareWithName(name) }
            self = try Self(setting: name)
        case "fraction":
            guard let fraction else { throw .missingShare }
            guard fraction.isFinite, Self.fractionRange.contains(fraction) else { throw .shareOutOfRange(fraction) }
            self = .fraction(fraction)
        default:
            throw .unknown(name)
        }
    }

    /// The shot size as a setting spells it (the inverse of `init(setting:)`).
    public var setting: String {
        if case .fraction(let share) = self { "\(share)" } else { name }
    }
}

/// A shot size spelled wrongly.
public enum ShotSizeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not one of `off`, `head`, `half`, `full`, `group`, or a number.
    case unknown(String)
    /// A share of the picture's height outside `ShotSize.fractionRange` or not finite.
    case shareOutOfRange(Double)
    /// `fraction` without its share.
    case missingShare
    /// A share given with a named shot size.
    case shareWithName(String)

    /// The API field that is wrong.
    public var field: String {
        switch self {
        case .unknown, .shareWithName: "shot"
        case .shareOutOfRange, .missingShare: "fraction"
        }
    }

    /// What went wrong, and how to say it right.
    public var description: String {
        switch self {
        case .unknown(let text): "expected off, head, half, full, group or a share of the picture's height, got '\(text)'"
        case .shareOutOfRange(let share):
            "a share of the picture's height must be within \(ShotSize.fractionRange.lowerBound)..."
                + "\(ShotSize.fractionRange.upperBound), got \(share)"
        case .missingShare: "shot fraction needs its share of the picture's height (fraction)"
        case .shareWithName(let name): "shot \(name) takes no fraction; use shot fraction with one"
        }
    }
}

import DockTracking

/// A rectangle in normalised image coordinates (DockKit uses `CGRect`).
public struct Rect: Hashable, Sendable {
    /// The left edge, 0...1.
    public var x: Double
    /// The edge at the origin (the bottom in observations and tracked subjects, the top in a
    /// region of interest), 0...1.
    public var y: Double
    /// The width, 0...1.
    public var width: Double
    /// The height, 0...1.
    public var height: Double

    /// Creates a rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The same rectangle as dockd's type (no change of origin).
    var normalized: NormalizedRect { NormalizedRect(x: x, y: y, width: width, height: height) }
}

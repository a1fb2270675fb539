/// Points and boxes in an image, in normalised coordinates: the origin is the top-left corner,
/// x grows to the right and y downwards, and the image spans 0...1 on both axes whatever its
/// resolution.

/// A point in normalised image coordinates.
public struct NormalizedPoint: Hashable, Sendable {
    /// Distance from the left edge, as a fraction of the width.
    public var x: Double
    /// Distance from the top edge, as a fraction of the height.
    public var y: Double

    /// Creates a point.
    @inlinable public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The centre of the image.
    public static let center = NormalizedPoint(x: 0.5, y: 0.5)
}

/// An axis-aligned box in normalised image coordinates, given by its top-left corner and size.
public struct NormalizedRect: Hashable, Sendable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width, a fraction of the image width.
    public var width: Double
    /// Height, a fraction of the image height.
    public var height: Double

    /// Creates a box.
    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The smallest box that holds every point, or nil when there are none.
    public init?(enclosing points: some Sequence<NormalizedPoint>) {
        var minimumX = Double.infinity, minimumY = Double.infinity
        var maximumX = -Double.infinity, maximumY = -Double.infinity
        for point in points {
            minimumX = min(minimumX, point.x)
            minimumY = min(minimumY, point.y)
            maximumX = max(maximumX, point.x)
            maximumY = max(maximumY, point.y)
        }
        guard minimumX <= maximumX, minimumY <= maximumY else { return nil }
        self.init(x: minimumX, y: minimumY, width: maximumX - minimumX, height: maximumY - minimumY)
    }

    /// The whole image.
    public static let fullImage = NormalizedRect(x: 0, y: 0, width: 1, height: 1)

    /// The right edge.
    @inlinable public var maxX: Double { x + width }
    /// The bottom edge.
    @inlinable public var maxY: Double { y + height }
    /// The centre.
    @inlinable public var center: NormalizedPoint { NormalizedPoint(x: x + width / 2, y: y + height / 2) }
    /// Width times height.
    @inlinable public var area: Double { width * height }
    /// The four corners, clockwise from the top left.
    @inlinable public var corners: [NormalizedPoint] {
        [
            NormalizedPoint(x: x, y: y), NormalizedPoint(x: maxX, y: y),
            NormalizedPoint(x: maxX, y: maxY), NormalizedPoint(x: x, y: maxY),
        ]
    }

    /// Whether every coordinate is finite, the size is positive, and the box overlaps the image.
    @inlinable public var isUsable: Bool {
        x.isFinite && y.isFinite && width.isFinite && height.isFinite && width > 0 && height > 0
            && maxX > 0 && maxY > 0 && x < 1 && y < 1
    }

    /// The overlap of two boxes, or nil when they do not overlap.
    @inlinable public func intersection(_ other: NormalizedRect) -> NormalizedRect? {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(maxX, other.maxX), bottom = min(maxY, other.maxY)
        guard right > left, bottom > top else { return nil }
        return NormalizedRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Whether the two boxes share any area: exactly when `intersection` is not nil, without
    /// making it.
    @inlinable public func intersects(_ other: NormalizedRect) -> Bool {
        min(maxX, other.maxX) > max(x, other.x) && min(maxY, other.maxY) > max(y, other.y)
    }

    /// Intersection over union, 0...1.
    @inlinable public func intersectionOverUnion(_ other: NormalizedRect) -> Double {
        guard let overlap = intersection(other) else { return 0 }
        let union = area + other.area - overlap.area
        return union > 0 ? overlap.area / union : 0
    }

    /// Whether `point` lies inside the box (edges included).
    @inlinable public func contains(_ point: NormalizedPoint) -> Bool {
        point.x >= x && point.x <= maxX && point.y >= y && point.y <= maxY
    }
}

public import DockVocabulary

/// A rectangle in normalised image coordinates with **Vision's origin, the bottom left**: x grows
/// to the right and y upwards, both 0...1 across the upright picture, as DockKit's `CGRect`s from
/// Vision are. Every rectangle of this library is one (observations, tracked subjects, the region
/// of interest); see <doc:Coordinates>.
///
/// `dockd` and most detectors outside Apple's put the origin at the top left: that is
/// `NormalizedRect`, and ``init(topLeft:)`` and ``topLeft`` convert between the two.
public struct VisionRect: Hashable, Sendable {
    /// The left edge, 0...1.
    public var x: Double
    /// The bottom edge, 0...1 from the bottom of the picture.
    public var y: Double
    /// The width, 0...1.
    public var width: Double
    /// The height, 0...1.
    public var height: Double

    /// Creates a rectangle from its bottom-left corner and its size.
    ///
    /// - Parameters:
    ///   - x: The left edge, 0...1 from the left of the picture.
    ///   - y: The bottom edge, 0...1 from the bottom of the picture.
    ///   - width: The width, 0...1.
    ///   - height: The height, 0...1.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The same rectangle as a top-left-origin one describes it (dockd's, OpenCV's, MediaPipe's).
    ///
    /// - Parameter topLeft: A rectangle whose `y` is its top edge, from the top of the picture.
    public init(topLeft: NormalizedRect) {
        self.init(x: topLeft.x, y: 1 - topLeft.y - topLeft.height, width: topLeft.width, height: topLeft.height)
    }

    /// The same rectangle with the origin at the top left, as `dockd` takes and reports boxes.
    public var topLeft: NormalizedRect {
        NormalizedRect(x: x, y: 1 - y - height, width: width, height: height)
    }
}

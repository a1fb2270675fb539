import DockAPI
import DockVocabulary

extension DockAccessory {
    /// Where the subject sits in the frame, as DockKit's `DockAccessory.FramingMode`.
    public enum FramingMode: String, CaseIterable, Hashable, Sendable {
        /// dockd chooses.
        case automatic
        /// In the centre.
        case center
        /// In the left third.
        case left
        /// In the right third.
        case right

        /// dockd's framing mode of the same name.
        init(_ mode: DockVocabulary.FramingMode) { self.init(rawValue: mode.rawValue)! }

        /// This mode as dockd's.
        var dockd: DockVocabulary.FramingMode { DockVocabulary.FramingMode(rawValue: rawValue)! }
    }

    /// Chooses where the subject sits in the frame.
    ///
    /// - Parameter mode: Where the followed subject is placed; ``FramingMode/automatic`` lets dockd choose.
    /// - Throws: ``DockClientError`` when dockd cannot be reached or refuses.
    public func setFramingMode(_ mode: FramingMode) async throws(DockClientError) {
        _ = try await call(.setFramingMode(mode.dockd))
    }

    /// Limits framing to a region of the picture: dockd keeps the subject within it. The whole
    /// picture, `VisionRect(x: 0, y: 0, width: 1, height: 1)`, is the default.
    ///
    /// - Parameter region: The region, origin at the bottom left like every ``VisionRect``; dockd
    ///   keeps the part of it that lies within the picture.
    /// - Returns: The region in force: the part of `region` within the picture, as dockd says
    ///   (DockKit's method returns nothing; ignore it as you would there).
    /// - Throws: ``DockClientError`` when dockd cannot be reached or refuses the region (an empty or
    ///   non-finite one).
    @discardableResult
    public func setRegionOfInterest(_ region: VisionRect) async throws(DockClientError) -> VisionRect {
        let reply = try await call(.setRegionOfInterest(region.topLeft))
        guard case .region(let inForce) = reply else { throw .unexpectedReply("SetRegionOfInterest answered \(reply)") }
        return VisionRect(topLeft: inForce)
    }
}

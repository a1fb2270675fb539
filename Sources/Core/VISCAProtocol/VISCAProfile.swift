#if canImport(Glibc)
    import Glibc
#endif

/// A camera model's description, as data (Protocol/visca/*.json).
///
/// Everything dockd must know about a VISCA camera that the protocol does not say: its address,
/// the serial speeds to try, each axis's speed table, counts per degree and range, its zoom, its
/// socket count and the ways it departs from Sony's manuals. `Protocol/visca.md` documents the
/// fields; each built-in profile names its source.
public struct VISCAProfile: Hashable, Sendable {
    /// One axis (pan or tilt) of a model.
    public struct Axis: Hashable, Sendable {
        /// Speed step → speed.
        public var speeds: VISCASpeedTable
        /// Position counts per degree (`0Y0Y0Y0Y` in absolute moves and the position inquiry).
        public var countsPerDegree: Double
        /// The lowest angle the axis reaches, degrees (≤ 0; left of or below home).
        public var minimumDegrees: Double
        /// The highest angle the axis reaches, degrees (≥ 0; right of or above home).
        public var maximumDegrees: Double

        /// Creates an axis. `parse(json:)` checks what this does not: that the range holds home
        /// and its counts fit 16 bits.
        public init(speeds: VISCASpeedTable, countsPerDegree: Double, minimumDegrees: Double, maximumDegrees: Double) {
            self.speeds = speeds
            self.countsPerDegree = countsPerDegree
            self.minimumDegrees = minimumDegrees
            self.maximumDegrees = maximumDegrees
        }

        /// The lowest position in counts.
        public var minimumCount: Int16 { count(degrees: minimumDegrees) }
        /// The highest position in counts.
        public var maximumCount: Int16 { count(degrees: maximumDegrees) }
        /// The lowest angle, radians.
        public var minimumRadians: Double { minimumDegrees * .pi / 180 }
        /// The highest angle, radians.
        public var maximumRadians: Double { maximumDegrees * .pi / 180 }

        /// The position in counts nearest `radians`, held inside the axis's range.
        public func count(radians: Double) -> Int16 {
            count(degrees: radians.isNaN ? 0 : radians * 180 / .pi)
        }

        /// The angle of a position in counts, radians.
        public func radians(count: Int16) -> Double {
            Double(count) / countsPerDegree * .pi / 180
        }

        private func count(degrees: Double) -> Int16 {
            let clamped = min(max(degrees, minimumDegrees), maximumDegrees)
            return Int16(clamping: Int((clamped * countsPerDegree).rounded()))
        }
    }

    /// One point of the zoom's magnification table.
    public struct ZoomPoint: Hashable, Sendable {
        /// The zoom position, in the profile's counts.
        public var position: UInt16
        /// How many times the picture is magnified there (≥ 1; a field of view whose half-angle's
        /// tangent is the widest one's over it).
        public var magnification: Double

        /// Creates a point.
        public init(position: UInt16, magnification: Double) {
            self.position = position
            self.magnification = magnification
        }
    }

    /// How a model departs from what Sony's manuals describe. Each is false on a camera that
    /// behaves as the manuals say.
    public struct Quirks: Hashable, Sendable {
        /// The camera may answer a command with Completion alone, without the ACK first (seen in
        /// production code). A host must take a Completion on a socket it has not seen ACKed as
        /// the end of its oldest unacknowledged command; a simulated camera with this quirk sends
        /// no ACK.
        public var completionWithoutAck: Bool
        /// Absolute and relative moves carry one speed, `VV`, for both axes, and `WW` must be
        /// `00` (Sony SRG-X400). A host sends the slower axis's step as `VV`.
        public var oneSpeedByteInPositionMoves: Bool
        /// Over UDP the camera takes bare VISCA packets, without Sony's 8-byte header and its
        /// sequence numbers (obs-ptz's `quirk_visca_udp_no_seq`; PTZOptics on UDP 1259).
        public var udpWithoutSequenceHeader: Bool
        /// Completion of a move may come before the camera has stopped ("applied" is not
        /// "settled"): a host learns that a move has ended from the polled pose, not from the
        /// Completion.
        public var completionBeforeArrival: Bool

        /// Creates quirks; by default none.
        public init(
            completionWithoutAck: Bool = false, oneSpeedByteInPositionMoves: Bool = false,
            udpWithoutSequenceHeader: Bool = false, completionBeforeArrival: Bool = false
        ) {
            self.completionWithoutAck = completionWithoutAck
            self.oneSpeedByteInPositionMoves = oneSpeedByteInPositionMoves
            self.udpWithoutSequenceHeader = udpWithoutSequenceHeader
            self.completionBeforeArrival = completionBeforeArrival
        }
    }

    /// The profile's name, as `--profile` takes it: lower case letters, digits and `-`
    /// ("generic", "telycam-tlc-700" …).
    public var name: String
    /// The model as a person reads it.
    public var displayName: String
    /// Where the numbers came from (manuals and their pages).
    public var source: String
    /// The camera's VISCA address (1...7); 1 for a single camera, and always 1 over IP.
    public var address: UInt8
    /// Serial speeds in the order to probe them with the version inquiry, e.g. [9600, 115200, 38400].
    public var baudRates: [Int]
    /// The pan axis.
    public var pan: Axis
    /// The tilt axis.
    public var tilt: Axis
    /// The zoom positions (`zoomDirect`, the zoom position inquiry); nil: no zoom.
    public var zoom: ClosedRange<UInt16>?
    /// The fastest variable zoom speed `p` of `zoomTele`/`zoomWide` (7 on most models).
    public var zoomMaximumSpeed: UInt8
    /// How long the zoom takes from the wide end to the tele end at its fastest (a zoom direct
    /// runs at this pace); zero without zoom.
    public var zoomFullTravel: Duration
    /// How many times the picture is magnified at zoom positions: points in rising position order,
    /// the first at the wide end (1×); between two points the magnification grows geometrically
    /// (a zoom lens's focal length is close to exponential in its position). Empty: not known.
    public var zoomMagnification: [ZoomPoint]
    /// Where the zoom's figures come from (manual and page, or what was assumed).
    public var zoomSource: String
    /// How many preset memories the camera keeps (CAM_Memory Set/Recall/Reset, numbered from 0);
    /// 0: dockd uses none, and keeps its presets as poses only.
    public var presetMemories: Int
    /// Where the count of preset memories comes from; empty with none.
    public var presetMemorySource: String
    /// Command sockets (2 on every manual seen): a command sent while all are busy gets buffer full.
    public var sockets: Int
    /// How the model departs from the manuals.
    public var quirks: Quirks

    /// Creates a profile. `parse(json:)` validates every field; this does not.
    public init(
        name: String, displayName: String, source: String, address: UInt8 = 1, baudRates: [Int] = [9600, 115200, 38400],
        pan: Axis, tilt: Axis, zoom: ClosedRange<UInt16>?, zoomMaximumSpeed: UInt8 = 7,
        zoomFullTravel: Duration = .seconds(3), zoomMagnification: [ZoomPoint] = [], zoomSource: String = "",
        presetMemories: Int = 0, presetMemorySource: String = "", sockets: Int = 2, quirks: Quirks = Quirks()
    ) {
        self.presetMemories = presetMemories
        self.presetMemorySource = presetMemorySource
        self.name = name
        self.displayName = displayName
        self.source = source
        self.address = address
        self.baudRates = baudRates
        self.pan = pan
        self.tilt = tilt
        self.zoom = zoom
        self.zoomMaximumSpeed = zoomMaximumSpeed
        self.zoomFullTravel = zoom == nil ? .zero : zoomFullTravel
        self.zoomMagnification = zoomMagnification
        self.zoomSource = zoomSource
        self.sockets = sockets
        self.quirks = quirks
    }

    /// The zoom position nearest `fraction` of the zoom's range (0 the wide end, 1 the tele end;
    /// held inside it); nil without zoom or for a fraction that is not finite.
    public func zoomPosition(fraction: Double) -> UInt16? {
        guard let zoom, fraction.isFinite else { return nil }
        let low = Double(zoom.lowerBound), span = Double(zoom.upperBound) - low
        return UInt16((low + min(max(fraction, 0), 1) * span).rounded())
    }

    /// The fraction of the zoom's range a position is at (0...1); nil without zoom.
    public func zoomFraction(position: UInt16) -> Double? {
        guard let zoom else { return nil }
        let low = Double(zoom.lowerBound), span = Double(zoom.upperBound) - low
        return min(max((Double(position) - low) / span, 0), 1)
    }

    /// How many times the picture is magnified at a zoom position, from `zoomMagnification`
    /// (geometric between its points, the end points' beyond them); nil when the table is empty.
    public func magnification(atZoomPosition position: UInt16) -> Double? {
        guard let first = zoomMagnification.first else { return nil }
        guard position > first.position else { return first.magnification }
        for (earlier, later) in zip(zoomMagnification, zoomMagnification.dropFirst()) where position <= later.position {
            let share = Double(position - earlier.position) / Double(later.position - earlier.position)
            return earlier.magnification * pow(later.magnification / earlier.magnification, share)
        }
        return zoomMagnification.last?.magnification
    }

    /// The profiles of `Protocol/visca/`, embedded in the binary by `scripts/embed-visca-profiles`,
    /// sorted by name.
    public static var builtIn: [VISCAProfile] { builtInProfiles }

    /// The built-in profile called `name`.
    public static func named(_ name: String) -> VISCAProfile? {
        builtInProfiles.first { $0.name == name }
    }

    private static let builtInProfiles: [VISCAProfile] = builtInFiles.map { file in
        do {
            return try parse(json: file.json)
        } catch {
            preconditionFailure("built-in VISCA profile \(file.name) does not parse: \(error)")
        }
    }
}

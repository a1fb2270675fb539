public import VISCAProtocol

extension VISCACamera {
    /// How a simulated camera's bytes travel, which decides how `receive` reads a chunk and how
    /// each reply is wrapped.
    public enum Transport: Hashable, Sendable {
        /// A byte stream (RS-232, a pseudo-terminal, or raw VISCA over TCP): chunks are runs of
        /// bytes in any cutting, replies are bare packets; address set works and a packet for
        /// another address is passed on round the ring (back to the host).
        case serial
        /// Sony's VISCA over IP on UDP: a chunk is one datagram with the 8-byte header; replies
        /// carry the sequence number of the message they answer; `RESET` and resends are handled
        /// as Sony's manual says (a resend of a message already carried out is answered
        /// `ERROR 0F 01`). The address is 1.
        case sonyIP
        /// VISCA packets in UDP datagrams without a header (PTZOptics on port 1259): a chunk is
        /// one datagram, each reply one datagram. The address is 1.
        case rawIP
    }

    /// Everything that makes one simulated camera different from another.
    public struct Configuration: Hashable, Sendable {
        /// The model: speed tables, ranges, counts per degree, zoom, sockets, quirks.
        public var profile: VISCAProfile
        /// How its bytes travel.
        public var transport: Transport
        /// What it answers the version inquiry with.
        public var version: VISCAVersion
        /// Pan acceleration, rad/s².
        public var panAccelerationRadiansPerSecondSquared: Double
        /// Tilt acceleration, rad/s².
        public var tiltAccelerationRadiansPerSecondSquared: Double
        /// Standard deviation of the position the camera reports, radians.
        public var encoderNoiseRadians: Double
        /// How long the zoom takes from one end to the other at its fastest speed (the profile's
        /// `full_travel_seconds` unless told otherwise).
        public var zoomFullTravel: Duration
        /// The speed a preset recall (CAM_Memory Recall) turns at, as a share of each axis's
        /// fastest step: the camera's own preset speed, which no command of dockd's sets.
        public var presetSpeedFraction: Double

        /// Creates a configuration. The version defaults to the simulator's own: vendor 0, model
        /// 0, ROM 1.00, the profile's socket count.
        public init(
            profile: VISCAProfile, transport: Transport, version: VISCAVersion? = nil,
            panAccelerationRadiansPerSecondSquared: Double = 8, tiltAccelerationRadiansPerSecondSquared: Double = 8,
            encoderNoiseRadians: Double = 0, zoomFullTravel: Duration? = nil, presetSpeedFraction: Double = 0.5
        ) {
            self.presetSpeedFraction = presetSpeedFraction
            self.profile = profile
            self.transport = transport
            self.version =
                version
                ?? VISCAVersion(vendor: 0, model: 0, romVersion: 0x0100, maximumSocket: UInt8(clamping: profile.sockets))
            self.panAccelerationRadiansPerSecondSquared = panAccelerationRadiansPerSecondSquared
            self.tiltAccelerationRadiansPerSecondSquared = tiltAccelerationRadiansPerSecondSquared
            self.encoderNoiseRadians = encoderNoiseRadians
            self.zoomFullTravel = zoomFullTravel ?? profile.zoomFullTravel
        }
    }

    /// Faults a test or scenario injects into a running camera (unplugging is
    /// `setUnplugged(_:now:)`, since it changes the camera's state).
    public struct Faults: Hashable, Sendable {
        /// The camera has hung: it takes nothing in and sends nothing out, and its motors keep
        /// doing what they were doing (a drive goes on — VISCA has no failsafe).
        public var isUnresponsive: Bool
        /// Every reply leaves this much later than it would (an overloaded or slow camera).
        public var replyDelay: Duration
        /// The share of replies lost on the way, 0...1, drawn from the camera's seeded random
        /// source (the command is still carried out).
        public var replyLossFraction: Double

        /// No faults.
        public init(isUnresponsive: Bool = false, replyDelay: Duration = .zero, replyLossFraction: Double = 0) {
            self.isUnresponsive = isUnresponsive
            self.replyDelay = replyDelay
            self.replyLossFraction = replyLossFraction
        }
    }
}

public import DockProtocol

/// Maps the accessory's clock to the host's. Each acknowledged command is a round trip: the
/// accessory's time in the `ack` lies between the host's send and receive times, so the offset is
/// estimated at their midpoint, keeping the estimate from the shortest round trip (whose error is
/// at most half of it) and letting a fresher one replace it after a while, to follow drift.
public struct ClockMapping: Sendable {
    /// Accessory time minus host time, when known.
    public private(set) var offset: Duration?
    /// The round trip of the estimate in use.
    public private(set) var roundTrip: Duration = .seconds(3600)
    private var estimatedAt: Duration = .zero

    /// How long an estimate is kept before a slower round trip may replace it.
    public static let freshness = Duration.seconds(10)

    /// Creates a mapping with no estimate.
    public init() {}

    /// Notes a round trip: sent at `sentAt`, answered with `accessoryTime`, received at `receivedAt`.
    public mutating func observe(sentAt: Duration, receivedAt: Duration, accessoryTime: AccessoryTimestamp) {
        guard receivedAt >= sentAt else { return }
        let trip = receivedAt - sentAt
        guard offset == nil || trip <= roundTrip || receivedAt - estimatedAt > Self.freshness else { return }
        let midpoint = sentAt + trip / 2
        offset = accessoryTime.sinceStart - midpoint
        roundTrip = trip
        estimatedAt = receivedAt
    }

    /// Notes a one-way arrival (telemetry) when no round trip is known yet: a rough first estimate.
    public mutating func observeArrival(accessoryTime: AccessoryTimestamp, receivedAt: Duration) {
        guard offset == nil else { return }
        offset = accessoryTime.sinceStart - receivedAt
        roundTrip = .seconds(1)
        estimatedAt = receivedAt
    }

    /// The host time of an accessory time, when an estimate exists.
    public func hostTime(of accessoryTime: AccessoryTimestamp) -> Duration? {
        offset.map { accessoryTime.sinceStart - $0 }
    }

    /// Forgets the estimate (the accessory's clock restarted).
    public mutating func reset() {
        offset = nil
        roundTrip = .seconds(3600)
    }
}

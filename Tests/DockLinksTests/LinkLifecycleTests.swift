import DockProtocol
import Testing

@testable import DockLinks

/// The lifecycle every link embeds, as transcripts: each turn's actions, the state after it.
@Suite struct LinkLifecycleTests {
    static let info = AccessoryInfo(
        protocolVersion: 1, features: [], telemetryRateHertz: 50, failsafeTimeout: .milliseconds(500),
        yaw: AxisLimits(
            minimum: Angle(microradians: -1_000_000), maximum: Angle(microradians: 1_000_000),
            maximumSpeed: AngularRate(microradiansPerSecond: 1_000_000),
            maximumAcceleration: AngularAcceleration(microradiansPerSecondSquared: 1_000_000)),
        pitch: AxisLimits(
            minimum: Angle(microradians: -500_000), maximum: Angle(microradians: 500_000),
            maximumSpeed: AngularRate(microradiansPerSecond: 1_000_000),
            maximumAcceleration: AngularAcceleration(microradiansPerSecondSquared: 1_000_000)),
        model: "Test", firmwareVersion: "1", serialNumber: "S1")

    static func lifecycle() -> LinkLifecycle { LinkLifecycle(initialBackoff: .milliseconds(250), maximumBackoff: .seconds(1)) }

    @Test func aLinkConnectsHandshakesAndAttaches() {
        var lifecycle = Self.lifecycle()
        #expect(lifecycle.start() == [.openTransport])
        #expect(lifecycle.state == .connecting)
        #expect(lifecycle.start() == [], "an attempt is under way")
        lifecycle.transportOpened()
        #expect(lifecycle.state == .handshaking)
        lifecycle.described(Self.info)
        #expect(lifecycle.info == Self.info)
        #expect(lifecycle.state == .handshaking, "described is not attached")
        #expect(lifecycle.attached(isDocked: false) == [.emit(.attached(Self.info, isDocked: false))])
        #expect(lifecycle.state == .ready(isDocked: false))
        #expect(lifecycle.isReady)
        #expect(lifecycle.dockChanged(isDocked: false) == [], "no change, no news")
        #expect(lifecycle.dockChanged(isDocked: true) == [.emit(.docked)])
        #expect(lifecycle.dockChanged(isDocked: false) == [.emit(.undocked)])
    }

    @Test func aLostPortIsRetriedWithBackoffAndTheInfoKept() {
        var lifecycle = Self.lifecycle()
        _ = lifecycle.start()
        lifecycle.transportOpened()
        _ = lifecycle.attached(Self.info, isDocked: true)
        #expect(lifecycle.transportClosed(now: .seconds(1)) == [.closeTransport, .emit(.disconnected)])
        #expect(lifecycle.state == .disconnected)
        #expect(lifecycle.disconnectCount == 1)
        #expect(lifecycle.info == Self.info, "kept while disconnected, for status")
        #expect(lifecycle.reconnectAt == .milliseconds(1250))
        #expect(lifecycle.transportClosed(now: .seconds(1)) == [], "already closed: nothing, not counted")
        #expect(lifecycle.disconnectCount == 1)
        #expect(lifecycle.reconnectIfDue(now: .milliseconds(1249)) == [])
        #expect(lifecycle.reconnectIfDue(now: .milliseconds(1250)) == [.openTransport])
        #expect(lifecycle.state == .connecting)
        #expect(
            lifecycle.transportFailed(reason: "gone", now: .seconds(2))
                == [.emit(.connectFailed(reason: "gone", retryAfter: .milliseconds(500)))], "the wait doubles")
        #expect(lifecycle.state == .disconnected)
        #expect(lifecycle.transportFailed(reason: "gone", now: .seconds(2)) == [], "not connecting: nothing")
        #expect(lifecycle.deviceAppeared() == [.openTransport], "a device appeared: at once")
        #expect(lifecycle.reconnectAt == nil)
        #expect(lifecycle.deviceAppeared() == [], "already connecting")
        #expect(lifecycle.transportClosed(now: .seconds(3)) == [.closeTransport], "never up: no disconnected")
        #expect(lifecycle.reconnectAt == .seconds(3) + .milliseconds(250), "the device appeared: the first wait again")
        lifecycle.transportOpened()
        #expect(lifecycle.info == nil, "a new handshake forgets the last")
    }

    @Test func aFailedHandshakeClosesThePortAndSaysSo() {
        var lifecycle = Self.lifecycle()
        _ = lifecycle.start()
        lifecycle.transportOpened()
        #expect(lifecycle.transportClosed(.handshakeFailed, now: .seconds(1)) == [.closeTransport, .emit(.handshakeFailed)])
        #expect(lifecycle.state == .disconnected)
        #expect(lifecycle.disconnectCount == 1)
    }

    @Test func anIncompatibleAccessoryIdlesUntilThePortCloses() {
        var lifecycle = Self.lifecycle()
        _ = lifecycle.start()
        lifecycle.transportOpened()
        lifecycle.refuseAccessory()
        #expect(lifecycle.state == .incompatible)
        #expect(lifecycle.start() == [])
        #expect(lifecycle.reconnectIfDue(now: .seconds(10)) == [])
        #expect(lifecycle.transportClosed(now: .seconds(10)) == [.closeTransport, .emit(.disconnected)])
    }

    @Test func aResetAccessoryIsHandshakenAgainOnTheOpenPort() {
        var lifecycle = Self.lifecycle()
        _ = lifecycle.start()
        lifecycle.transportOpened()
        _ = lifecycle.attached(Self.info, isDocked: true)
        lifecycle.handshakeRestarted()
        #expect(lifecycle.state == .handshaking)
        #expect(lifecycle.info == nil)
        #expect(lifecycle.disconnectCount == 0, "the port stayed open")
    }

    @Test func aStallIsSaidOnceAndItsEndOnce() {
        var lifecycle = Self.lifecycle()
        #expect(lifecycle.telemetryArrived() == [], "nothing had stalled")
        #expect(lifecycle.telemetryStalled() == [.emit(.telemetryStalled)])
        #expect(lifecycle.telemetryStalled() == [], "once")
        #expect(lifecycle.isTelemetryStalled)
        #expect(lifecycle.telemetryArrived() == [.emit(.telemetryResumed)])
        #expect(lifecycle.telemetryArrived() == [])
        _ = lifecycle.telemetryStalled()
        _ = lifecycle.start()
        _ = lifecycle.transportClosed(now: .seconds(1))
        #expect(!lifecycle.isTelemetryStalled, "a closed port has no stall")
    }

    @Test func theCountersCount() {
        var lifecycle = Self.lifecycle()
        lifecycle.countBadFrame()
        lifecycle.countBadFrame()
        lifecycle.countRefusal()
        #expect(lifecycle.badFrameCount == 2)
        #expect(lifecycle.refusalCount == 1)
    }
}

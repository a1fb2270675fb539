import Testing

@testable import DockCore

/// The one reconnect rule both links use.
@Suite struct ReconnectBackoffTests {
    @Test func theWaitDoublesToItsMaximumAndStartsAfreshOnReset() {
        var retry = ReconnectBackoff(initial: .milliseconds(250), maximum: .seconds(1))
        #expect(retry.schedule(now: .zero) == .milliseconds(250))
        #expect(!retry.takeIfDue(now: .milliseconds(249)))
        #expect(retry.takeIfDue(now: .milliseconds(250)))
        #expect(retry.reconnectAt == nil, "taken")
        #expect(retry.schedule(now: .seconds(1)) == .milliseconds(500))
        #expect(retry.schedule(now: .seconds(2)) == .seconds(1))
        #expect(retry.schedule(now: .seconds(3)) == .seconds(1), "no longer than the maximum")
        retry.attempting()
        #expect(!retry.takeIfDue(now: .seconds(100)), "an attempt under way is not due again")
        retry.reset()
        #expect(retry.schedule(now: .seconds(10)) == .milliseconds(250))
    }
}

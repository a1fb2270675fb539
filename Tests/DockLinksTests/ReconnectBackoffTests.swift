import Testing

@testable import DockLinks

/// The one reconnect rule both links use.
@Suite struct ReconnectBackoffTests {
    @Test func theWaitDoublesToItsMaximumAndStartsAfreshOnReset() {
        var retry = ReconnectBackoff(initial: .milliseconds(250), maximum: .seconds(1))
        var waits: [Duration] = []
        waits.append(retry.schedule(now: .zero))
        let early = retry.takeIfDue(now: .milliseconds(249))
        let due = retry.takeIfDue(now: .milliseconds(250))
        #expect(!early && due)
        #expect(retry.reconnectAt == nil, "taken")
        for second in 1...3 { waits.append(retry.schedule(now: .seconds(second))) }
        #expect(waits == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(1)], "doubling, at most the maximum")
        retry.attempting()
        let again = retry.takeIfDue(now: .seconds(100))
        #expect(!again, "an attempt under way is not due again")
        retry.reset()
        let first = retry.schedule(now: .seconds(10))
        #expect(first == .milliseconds(250))
    }
}

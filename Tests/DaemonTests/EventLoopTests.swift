import DockSockets
import DockSystem
import Testing

/// The loop's timers and watches, on both loops.
@Suite struct EventLoopTests {
    @Test func timersRunInDeadlineOrderTiesInScheduleOrderAndCancelledOnesNot() {
        let loop = VirtualEventLoop(start: .zero)
        var ran: [String] = []
        loop.schedule(at: .milliseconds(20)) { ran.append("b") }
        loop.schedule(at: .milliseconds(10)) { ran.append("a") }
        loop.schedule(at: .milliseconds(20)) { ran.append("c") }
        let cancelled = loop.schedule(at: .milliseconds(15)) { ran.append("x") }
        loop.cancel(cancelled)
        loop.execute { ran.append("now") }
        loop.advance(to: .milliseconds(30))
        #expect(ran == ["now", "a", "b", "c"])
        #expect(loop.now == .milliseconds(30))
    }

    @Test func aTimerWithLeewayWaitsForAWakeUpWithinItAndRunsWithIt() {
        let loop = VirtualEventLoop(start: .zero)
        var ran: [(String, Duration)] = []
        loop.schedule(at: .milliseconds(10), leeway: .milliseconds(10)) { ran.append(("step", loop.now)) }
        loop.schedule(at: .milliseconds(14)) { ran.append(("tick", loop.now)) }
        #expect(loop.nextDeadline == .milliseconds(14), "the wake-up is the tick's")
        loop.advance(to: .milliseconds(14))
        #expect(ran.map(\.0) == ["step", "tick"] && ran.allSatisfy { $0.1 == .milliseconds(14) }, "\(ran)")
        // Alone, it runs at its deadline plus the leeway.
        loop.schedule(at: .milliseconds(20), leeway: .milliseconds(10)) { ran.append(("step", loop.now)) }
        loop.advance(to: .milliseconds(40))
        #expect(ran.last?.1 == .milliseconds(30))
    }

    @Test(.timeLimit(.minutes(1))) func epollServesADescriptorAndATimerThenStops() throws {
        let loop = try EpollLoop()
        let (left, right) = try UnixSocket.pair()
        defer {
            left.close()
            right.close()
        }
        var events: [String] = []
        // Each step waits for the one before it (a timer writes, the read schedules the timer
        // that stops), so the order is the loop's and not how soon a loaded machine runs it.
        loop.watch(right, for: .readable) { readiness in
            if case .bytes(let bytes)? = try? right.read() { events.append("read \(bytes)") }
            #expect(readiness.contains(.readable))
            loop.schedule(at: loop.now + .milliseconds(5), leeway: .milliseconds(5)) {
                events.append("timer")
                loop.stop()
            }
        }
        let start = loop.now
        loop.schedule(at: start + .milliseconds(5)) { _ = try? left.write([7]) }
        loop.run()
        #expect(events == ["read [7]", "timer"])
        #expect(loop.now - start >= .milliseconds(10))
        loop.unwatch(right)
    }
}

import TestSupport
import Testing

/// `.onAThreadOfItsOwn` runs a test on a thread of its own, and leaves it there across an
/// `await`; `.onTheComputingThread` on the computing tests' one thread, `.onTheProcessThreads` on one of
/// the process tests' two; a test without any of them runs on the cooperative pool.
@Suite struct OwnThreadTraitTests {
    @Suite(.onAThreadOfItsOwn) struct OnItsOwn {
        @Test func aSynchronousTestRunsOnItsOwnThread() {
            #expect(isOnAThreadOfItsOwn())
        }

        @Test func anAsynchronousTestStaysThereAcrossAnAwait() async throws {
            try await Task.sleep(for: .milliseconds(1))
            #expect(isOnAThreadOfItsOwn())
        }
    }

    @Suite(.onTheComputingThread) struct OnTheComputingThread {
        @Test func aComputingTestRunsOffThePool() {
            #expect(isOnAThreadOfItsOwn())
        }
    }

    @Suite(.onTheProcessThreads) struct OnTheProcessThreads {
        @Test func aProcessTestRunsOffThePool() {
            #expect(isOnAThreadOfItsOwn())
        }
    }

    @Test func withoutItATestRunsOnThePool() {
        #expect(!isOnAThreadOfItsOwn())
    }
}

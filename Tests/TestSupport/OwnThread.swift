// Swift Testing has no static library: a release build with the runtime linked in
// (scripts/build-release, which builds every target) compiles this file to nothing.
#if canImport(Testing)
    import Foundation
    import Synchronization
    public import Testing

    /// A trait that runs each test of a suite on a thread of its own instead of the cooperative
    /// pool's. The pool has a thread per core — two here — and `swift test` runs every suite at once
    /// on it, so a test that awaits (a client's reply, a stream's next event) waits after each
    /// `await` for a thread of the pool to be free again: behind computing tests and tests blocked on
    /// a child process's pipe, that was a minute and more on a loaded machine, and a 60 s time limit
    /// passed while the test itself had run for well under a second. On a thread of its own the test
    /// resumes as soon as what it awaited has come.
    public struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
        public var isRecursive: Bool { true }

        public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
            testCase == nil ? nil : self
        }

        public func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            let executor = DedicatedThreadExecutor()
            defer { executor.shutDown() }
            try await withTaskExecutorPreference(executor) { try await function() }
        }
    }

    /// A trait that runs each test of a suite on one of two threads that every such test shares, in
    /// turn: for tests that compute for seconds in virtual time (a closed loop over a scenario). On
    /// the cooperative pool two of them held both its threads for as long as they ran, and every
    /// other test waited; here they queue for their own threads and leave the pool to the rest. Two,
    /// not one: with a dozen closed-loop suites queued on one thread, `swift test` took as long as
    /// their sum (201 s on two idle cores at a1dc8c4 + motion; 107 s on two threads). What they
    /// compute is in virtual time, so sharing the cores changes no figure of theirs; the real-time
    /// tests beside them wait on events with deadlines, as they do beside scripts/flake-check's hog.
    public struct ComputingThreadTrait: TestTrait, SuiteTrait, TestScoping {
        public var isRecursive: Bool { true }

        /// The two threads, started at their first use.
        static let executor = DedicatedThreadExecutor(threads: 2)

        public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
            testCase == nil ? nil : self
        }

        public func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            try await withTaskExecutorPreference(Self.executor) { try await function() }
        }
    }

    /// A trait that runs each test of a suite on one of two threads that every such test shares: for
    /// tests that block for seconds waiting on child processes (dockd, docksim) through their pipes
    /// and sockets. Two at a time, as the cooperative pool ran them before, so that the real-time
    /// processes they start share the cores as they did; but off the pool, which they held while
    /// they waited, and with it the start of every other test and the wake-up of every `Task.sleep`.
    /// A test here takes no `.timeLimit`: Swift Testing starts its clock when it starts the test, and
    /// so counts the time the test queues for one of the two threads (minutes beside a CPU hog); each
    /// wait inside these tests has a deadline of its own instead.
    public struct ProcessThreadsTrait: TestTrait, SuiteTrait, TestScoping {
        public var isRecursive: Bool { true }

        /// The two threads, started at their first use.
        static let executor = DedicatedThreadExecutor(threads: 2)

        public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
            testCase == nil ? nil : self
        }

        public func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            try await withTaskExecutorPreference(Self.executor) { try await function() }
        }
    }

    extension Trait where Self == ProcessThreadsTrait {
        /// Each test of the suite on one of the two threads of the process tests (``ProcessThreadsTrait``).
        public static var onTheProcessThreads: Self { ProcessThreadsTrait() }
    }

    extension Trait where Self == OwnThreadTrait {
        /// Each test of the suite on a thread of its own, not the cooperative pool's (``OwnThreadTrait``).
        public static var onAThreadOfItsOwn: Self { OwnThreadTrait() }
    }

    extension Trait where Self == ComputingThreadTrait {
        /// Each test of the suite on one of the two threads of the computing tests, in turn (``ComputingThreadTrait``).
        public static var onTheComputingThread: Self { ComputingThreadTrait() }
    }

    /// Whether the caller runs on a thread of ``OwnThreadTrait``, ``ComputingThreadTrait`` or
    /// ``ProcessThreadsTrait``.
    public func isOnAThreadOfItsOwn() -> Bool {
        Thread.current.threadDictionary[DedicatedThreadExecutor.threadMark] as? Bool == true
    }

    /// A task executor with threads of its own (one unless told), which run the jobs given to it in
    /// the order given.
    final class DedicatedThreadExecutor: TaskExecutor, Sendable {
        /// Its threads' mark, which ``isOnAThreadOfItsOwn()`` looks for.
        static let threadMark = "dockd test thread"

        private let queue = Mutex<(jobs: [UnownedJob], isShutDown: Bool)>(([], false))
        private let waiting = DispatchSemaphore(value: 0)
        private let threadCount: Int

        init(threads: Int = 1) {
            threadCount = threads
            for _ in 0..<threads {
                Thread { [self] in
                    Thread.current.threadDictionary[Self.threadMark] = true
                    while true {
                        waiting.wait()
                        let next = queue.withLock { queue -> (job: UnownedJob?, isShutDown: Bool) in
                            queue.jobs.isEmpty ? (nil, queue.isShutDown) : (queue.jobs.removeFirst(), false)
                        }
                        if let job = next.job {
                            job.runSynchronously(on: asUnownedTaskExecutor())
                        } else if next.isShutDown {
                            return
                        }
                    }
                }.start()
            }
        }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.withLock { $0.jobs.append(job) }
            waiting.signal()
        }

        /// Ends the threads once the jobs given before are done.
        func shutDown() {
            queue.withLock { $0.isShutDown = true }
            for _ in 0..<threadCount { waiting.signal() }
        }
    }
#endif

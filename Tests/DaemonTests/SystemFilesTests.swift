import CLinux
import DockSockets
import DockSystem
import Glibc
import Synchronization
import Testing

/// The few things the programs took from Foundation, on the C library instead: whole files, the
/// environment, standard error, a thread.
@Suite struct SystemFilesTests {
    /// A new empty directory of the test's own.
    static func temporaryDirectory() -> String {
        var template = Array("/tmp/dockd-files-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    @Test func aFileIsWrittenAndReadBackWhole() throws {
        let directory = Self.temporaryDirectory()
        let path = "\(directory)/file"
        defer {
            unlink(path)
            rmdir(directory)
        }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try FileContents.write(bytes, toPath: path)
        #expect(try FileContents.read(atPath: path) == bytes, "longer than one read's 64 KiB")
        try FileContents.write([1, 2], toPath: path)
        #expect(try FileContents.read(atPath: path) == [1, 2], "written again: truncated, not overlaid")
        try FileContents.write([], toPath: path)
        #expect(try FileContents.read(atPath: path) == [])
        #expect(FileContents.exists(atPath: path) && FileContents.exists(atPath: directory))
    }

    @Test func whatCannotBeReadOrWrittenIsANamedError() throws {
        let directory = Self.temporaryDirectory()
        defer { rmdir(directory) }
        let missing = "\(directory)/missing"
        #expect(throws: SystemError("open", missing, code: ENOENT)) { try FileContents.read(atPath: missing) }
        #expect(throws: SystemError("read", directory, code: EISDIR)) { try FileContents.read(atPath: directory) }
        #expect(throws: SystemError("open", "\(missing)/file", code: ENOENT)) { try FileContents.write([1], toPath: "\(missing)/file") }
        #expect(!FileContents.exists(atPath: missing))
    }

    @Test func theEnvironmentIsEveryNameWithItsValue() {
        setenv("DOCKD_TEST_ENVIRONMENT", "a=b", 1)
        defer { unsetenv("DOCKD_TEST_ENVIRONMENT") }
        let environment = ProcessEnvironment.current()
        #expect(environment["DOCKD_TEST_ENVIRONMENT"] == "a=b", "split at the first '='")
        #expect(environment["PATH"] == String(cString: getenv("PATH")))
        #expect(environment["DOCKD_TEST_NOT_SET"] == nil)
    }

    @Test func aThreadRunsItsBodyUnderItsName() async throws {
        let seen = Mutex<String?>(nil)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            do {
                try DetachedThread.start(name: "a name longer than fifteen bytes") {
                    var name = [CChar](repeating: 0, count: 32)
                    pthread_getname_np(pthread_self(), &name, name.count)
                    let text = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    seen.withLock { $0 = text }
                    done.resume()
                }
            } catch {
                Issue.record("\(error)")
                done.resume()
            }
        }
        #expect(seen.withLock { $0 } == "a name longer t", "the kernel keeps 15 bytes")
    }
}

import Foundation
import Glibc
import TestSupport
import Testing

/// `dockctl zoom` against dockd on the emulated Pelco-D head with a lens (`docksim --zoom-seconds`),
/// as a user would: the zoom is listed, and driven by time — wide first, against the end (the
/// lens's position is not known before), then tele for its share, then the stop.
@Suite(.serialized, .onTheProcessThreads) struct PelcoDZoomProcessTests {
    @Test func aHeadWithALensZoomsByTime() throws {
        let base = "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/pelco-zoom-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let link = base + ".tty", socket = base + ".sock"
        let docksim = try ChildProcess("docksim", ["--protocol", "pelco-d", "--zoom-seconds", "1", "--pty", link, "--trace"])
        defer { docksim.signal(SIGKILL) }
        #expect(docksim.waitForErrorLine(containing: "Pelco-D head on", timeoutSeconds: 30) != nil, "\(docksim.errorLines)")
        let dockd = try ChildProcess(
            "dockd",
            [
                "--config", "", "--protocol", "pelco-d", "--device", link, "--socket", socket, "--pelco-d-zoom-seconds", "1",
                "--wake-on-attach=false",
            ])
        defer {
            if dockd.process.isRunning { dockd.signal(SIGKILL) }
            unlink(socket)
        }
        #expect(dockd.waitForErrorLine(containing: "attached", timeoutSeconds: 30) != nil, "\(dockd.errorLines)")
        let status = try TrueStatusTests.status(socket)
        let can = try #require(status.split(separator: "\n").first { $0.hasPrefix("can:") })
        #expect(can.contains("zoom"), "\(status)")
        let zoom = try ChildProcess.run("dockctl", ["--socket", socket, "zoom", "0.5"])
        #expect(zoom.status == 0 && zoom.output.contains("zoom 0.5"), "\(zoom)")
        let wide = docksim.waitForErrorLine(containing: "<- FF 01 00 40 00 00 41", timeoutSeconds: 30)
        #expect(wide != nil, "wide first: \(docksim.errorLines.suffix(5))")
        let tele = docksim.waitForErrorLine(containing: "<- FF 01 00 20 00 00 21", timeoutSeconds: 30)
        #expect(tele != nil, "then tele: \(docksim.errorLines.suffix(5))")
        let stop = docksim.waitForErrorLine(containing: "<- FF 01 00 00 00 00 01", timeoutSeconds: 30)
        #expect(stop != nil, "then the stop: \(docksim.errorLines.suffix(5))")
        // How long each leg held, by docksim's clock (printed, not asserted: real processes on a
        // shared machine; the legs' lengths are asserted in virtual time, PelcoDZoomTests).
        func time(_ line: String?) -> Double? {
            line.flatMap { $0.split(separator: " ").first { $0.hasPrefix("t=") } }.flatMap { Double($0.dropFirst(2)) }
        }
        if let wide = time(wide), let tele = time(tele), let stop = time(stop) {
            print("Pelco-D zoom to 0.5 (lens 1 s end to end): wide for \(tele - wide) s, then tele for \(stop - tele) s")
        }
    }
}

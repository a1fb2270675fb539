import DockSimulator
import DockSockets
import DockSystem
import Foundation
import Glibc
import TestSupport
import Testing

@testable import DocksimProgram

/// `docksim --protocol pelco-d --pty PATH`: the emulated Pelco-D head, parsed and served.
@Suite(.serialized) struct PelcoDServeTests {
    @Test func aHeadIsParsedWithItsAddressAndQueries() throws {
        guard
            case .run(let options) = try Options.parse([
                "--protocol", "pelco-d", "--pty", "/tmp/head", "--address", "7", "--position-queries",
            ])
        else {
            Issue.record("expected options")
            return
        }
        #expect(options.endpoint == .pty("/tmp/head"))
        #expect(options.pelcoDHead == PelcoDHead.Configuration(address: 7, answersPositionQueries: true))
        guard case .run(let plain) = try Options.parse(["--protocol", "pelco-d", "--pty", "/tmp/head"]) else { return }
        #expect(plain.pelcoDHead == PelcoDHead.Configuration(), "the generic head: address 1, no queries")
        #expect(plain.viscaProfile == nil)
        guard case .run(let lens) = try Options.parse(["--protocol", "pelco-d", "--pty", "/tmp/head", "--zoom-seconds", "2.5"]) else {
            return
        }
        #expect(lens.pelcoDHead == PelcoDHead.Configuration(zoomFullTravel: .milliseconds(2500)), "a head with a lens")
    }

    @Test(arguments: [
        (["--protocol", "pelco-d", "--udp", "127.0.0.1:9000"], "--protocol pelco-d serves the head on --pty PATH"),
        (["--protocol", "pelco-d", "--pty", "/tmp/head", "--address", "0"], "--address needs a whole number from 1 to 255, got '0'"),
        (["--protocol", "pelco-d", "--pty", "/tmp/head", "--address", "300"], "--address needs a whole number from 1 to 255, got '300'"),
        (
            ["--pty", "/tmp/dock", "--address", "2"],
            "--address, --position-queries and --zoom-seconds describe a Pelco-D head: add --protocol pelco-d"
        ),
        (
            ["--protocol", "visca", "--pty", "/tmp/dock", "--position-queries"],
            "--address, --position-queries and --zoom-seconds describe a Pelco-D head: add --protocol pelco-d"
        ),
        (
            ["--protocol", "visca", "--pty", "/tmp/dock", "--zoom-seconds", "2"],
            "--address, --position-queries and --zoom-seconds describe a Pelco-D head: add --protocol pelco-d"
        ),
        (
            ["--protocol", "pelco-d", "--pty", "/tmp/head", "--zoom-seconds", "0"],
            "--zoom-seconds needs a number of seconds above 0 and at most 60, got '0'"
        ),
    ])
    func aHeadMisconfiguredIsAUsageError(arguments: [String], message: String) {
        #expect(throws: Options.UsageError(message: message)) { try Options.parse(arguments) }
    }

    /// A frame made here from the protocol's definition.
    static func frame(_ command2: UInt8, _ data1: UInt8, _ data2: UInt8) -> [UInt8] {
        let body: [UInt8] = [0x01, 0x00, command2, data1, data2]
        return [0xFF] + body + [UInt8(body.map(Int.init).reduce(0, +) % 256)]
    }

    @Test func theHeadOnAPseudoTerminalTurnsAndSaysWhereItIs() throws {
        let link = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/pelco-d-head-\(getpid())"
        let docksim = try ChildProcess("docksim", ["--protocol", "pelco-d", "--position-queries", "--pty", link])
        let announced = try #require(docksim.waitForErrorLine(containing: "Pelco-D head on"))
        #expect(announced.contains(link))
        let descriptor = open(link, O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(descriptor >= 0)
        let port = FileDescriptor(rawValue: descriptor)
        try port.makeRaw()
        try port.setNonBlocking()
        defer { port.close() }
        /// Asks the pan and reads the answer, hundredths of a degree.
        func pan() throws -> Int {
            try port.write(Self.frame(0x51, 0, 0))
            var answer: [UInt8] = []
            while answer.count < 7 {
                guard try !Poll.waitForReading([port], timeout: .seconds(30)).isEmpty, case .bytes(let bytes) = try port.read() else {
                    break
                }
                answer += bytes
            }
            try #require(answer.count == 7 && answer[3] == 0x59, "an answer: \(answer)")
            #expect(answer[6] == UInt8(answer[1...5].map(Int.init).reduce(0, +) % 256), "its checksum")
            return Int(answer[4]) << 8 | Int(answer[5])
        }
        #expect(try pan() == 0, "at home")
        try port.write(Self.frame(0x02, 0x3F, 0))  // right at 60 °/s
        let started = MonotonicClock.now()
        var moved = 0
        // Until it is past 10°, however slowly the answers come (a minute for a head that never turns).
        while MonotonicClock.now() - started < .seconds(60), moved < 1000 { moved = try pan() }
        #expect(moved >= 1000 && moved < 18_000, "turned right past 10°: \(moved)")
        try port.write(Self.frame(0, 0, 0))
        docksim.signal(SIGTERM)
        let result = try docksim.finish()
        #expect(result.status == 0)
        #expect(access(link, F_OK) != 0, "the link is removed at exit")
    }
}

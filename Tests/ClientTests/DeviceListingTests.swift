import Foundation
import Glibc
import TestSupport
import Testing

/// `dockd --list-devices` lists what the chosen protocol can use, quietly, and `dockd --help`
/// says what the README and the manual pages say.
@Suite(.onTheProcessThreads) struct DeviceListingTests {
    @Test func eachProtocolListsOnlyWhatItCanUse() throws {
        for accessoryProtocol in ["dock-serial", "visca", "pelco-d", "uvc"] {
            let run = try ChildProcess.run("dockd", ["--config", "", "--socket", "", "--protocol", accessoryProtocol, "--list-devices"])
            #expect(run.status == 0, "\(accessoryProtocol): \(run.error)")
            let lines = run.output.split(separator: "\n")
            #expect(!lines.isEmpty)
            for line in lines {
                #expect(!line.contains("not USB") || accessoryProtocol == "uvc", "\(accessoryProtocol): \(line)")
                #expect(!line.contains("/dev/console") && !line.contains("/dev/ptmx"), "\(accessoryProtocol): \(line)")
                #expect(line.range(of: #"/dev/tty[0-9]"#, options: .regularExpression) == nil, "no virtual console: \(line)")
                if accessoryProtocol == "uvc" { #expect(!line.contains("/dev/tty"), "a webcam is no tty: \(line)") }
            }
        }
    }

    @Test func dockdsHelpDescribesTheDeviceForEveryProtocol() throws {
        let help = try ChildProcess.run("dockd", ["--help"]).output
        let device = try #require(help.split(separator: "\n").first { $0.hasPrefix("  --device ") })
        for word in ["dock", "VISCA", "Pelco-D", "/dev/videoN"] { #expect(device.contains(word), "\(device)") }
        #expect(!help.contains("Protocol/"), "no source-tree path in the installed program's help")
        #expect(help.contains("sony-evi-d100") && help.contains("obsbot-tiny"), "the built-in profiles and models by name")
    }
}

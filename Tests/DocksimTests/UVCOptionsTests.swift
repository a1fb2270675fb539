import Testing

@testable import DocksimProgram

/// `docksim --protocol uvc --v4l2 PATH` with a scenario: the webcam in the room.
@Suite struct UVCOptionsTests {
    @Test func aWebcamInTheRoomIsParsed() throws {
        let parsed = try Options.parse([
            "--protocol", "uvc", "--v4l2", "/tmp/video", "--model", "obsbot-tiny",
            "--scenario", "crossing.json", "--camera", "unix:/tmp/dockd.sock",
        ])
        guard case .run(let options) = parsed else {
            Issue.record("expected options, got \(parsed)")
            return
        }
        #expect(options.endpoint == .v4l2("/tmp/video"))
        #expect(options.uvcModel == "obsbot-tiny")
        #expect(options.viscaProfile == nil)
        guard case .run(let plain) = try Options.parse(["--protocol", "uvc", "--v4l2", "/tmp/video", "--scenario", "x.json"]) else {
            return
        }
        #expect(plain.uvcModel == "generic", "the generic model by default")
    }

    @Test(arguments: [
        (["--v4l2", "/tmp/video", "--scenario", "x.json"], "--v4l2 serves a UVC webcam: add --protocol uvc"),
        (["--protocol", "uvc", "--pty", "/tmp/dock", "--scenario", "x.json"], "--protocol uvc serves the webcam on --v4l2 PATH"),
        (["--pty", "/tmp/dock", "--model", "obsbot-tiny"], "--model names a UVC webcam's model: add --protocol uvc --v4l2 PATH"),
        (["--protocol", "uvc", "--v4l2", "/tmp/video", "--pty", "/tmp/dock"], "give one of --pty, --udp, --udp-raw, --tcp and --v4l2"),
    ])
    func aWebcamMisconfiguredIsAUsageError(arguments: [String], message: String) {
        #expect(throws: Options.UsageError(message: message)) { try Options.parse(arguments) }
    }

    @Test func withoutAScenarioOrACameraAppTheWebcamIsAlone() {
        // UVCServe takes these (the camera on its own, with --eio); with a scenario it leaves them.
        #expect(UVCServe.runIfAsked(["--protocol", "uvc", "--v4l2", "/tmp/video", "--scenario", "x.json"]) == nil)
        #expect(UVCServe.runIfAsked(["--protocol", "uvc", "--v4l2", "/tmp/video", "--camera", "unix:/tmp/s"]) == nil)
        #expect(UVCServe.runIfAsked(["--protocol", "uvc", "--bogus"]) == 64, "its own usage error")
    }
}

import Testing

@testable import DocksimProgram

/// docksim emulates accessories at the other end of a wire; a digital pan-tilt-zoom has none, so
/// `--protocol digital` is not among its choices and is refused by name.
@Suite struct DigitalOptionTests {
    @Test func theDigitalProtocolIsNoChoiceOfDocksims() throws {
        #expect(throws: Options.UsageError(message: "--protocol needs one of dock-serial, visca, uvc, pelco-d, got 'digital'")) {
            try Options.parse(["--protocol", "digital", "--pty", "/tmp/none"])
        }
    }
}

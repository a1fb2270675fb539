import DockLinks
import Testing
import VISCAProtocol

/// The VISCA session's preset memories on the wire: Memory Set and Recall for a profile that
/// counts them, refused by name for numbers past the count and on a profile without them.
@Suite struct VISCAPresetMemorySessionTests {
    typealias Line = VISCASessionTests.Line

    @Test func aProfileWithMemoriesStoresAndRecallsThemAndSaysSo() throws {
        var line = Line(profile: VISCAProfile.named("sony-evi-d100")!)
        line.attach()
        #expect(line.session.capabilities.contains(.presetMemory))
        #expect(line.session.presetNumbers == 0...5)
        line.answersPolls = false
        _ = line.takeWritten()
        let storeSent = line.send(.storePreset(number: 5))
        let store = try #require(storeSent)
        #expect(line.takeWritten() == ["81 01 04 3F 01 05 FF"])
        line.answer("90 41 FF", "90 51 FF")
        #expect(line.events.suffix(2) == [.answered(store, .accepted), .answered(store, .ended)])
        let recallSent = line.send(.recallPreset(number: 0))
        let recall = try #require(recallSent)
        // The recall moves the camera's zoom too: the zoom is asked for at once.
        #expect(line.takeWritten() == ["81 01 04 3F 02 00 FF", "81 09 04 47 FF"])
        // A memory the camera does not hold: not executable, a refusal naming the recall.
        line.answer("90 60 41 FF")
        #expect(
            line.events.last == .answered(recall, .refused(CommandRefusal(reason: .outOfRange, detail: 0x41, command: .recallPreset))),
            "\(line.events.suffix(3))")
    }

    @Test func numbersPastTheMemoriesAndAProfileWithoutThemAreRefusedWithoutAByte() throws {
        var line = Line(profile: VISCAProfile.named("sony-evi-d100")!)
        line.attach()
        line.answersPolls = false
        _ = line.takeWritten()
        let pastSent = line.send(.storePreset(number: 6))
        let past = try #require(pastSent)
        #expect(line.events.last == .answered(past, .refused(CommandRefusal(reason: .outOfRange, command: .storePreset))))
        let negativeSent = line.send(.recallPreset(number: -1))
        let negative = try #require(negativeSent)
        #expect(line.events.last == .answered(negative, .refused(CommandRefusal(reason: .outOfRange, command: .recallPreset))))
        #expect(line.takeWritten().isEmpty)

        var generic = Line()
        generic.attach()
        generic.answersPolls = false
        _ = generic.takeWritten()
        #expect(!generic.session.capabilities.contains(.presetMemory) && generic.session.presetNumbers == nil)
        let noneSent = generic.send(.storePreset(number: 0))
        let none = try #require(noneSent)
        #expect(generic.events.last == .answered(none, .refused(CommandRefusal(reason: .unsupported, command: .storePreset))))
        #expect(generic.takeWritten().isEmpty)
    }
}

import DockProtocol
import Foundation
import Testing

/// `Protocol/dock-serial.md` says what the code does: its example bytes, names and sizes.
@Suite struct SpecificationTests {
    static let specification: String = {
        let url = Vectors.protocolDirectory.appendingPathComponent("dock-serial.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    @Test func theWorkedExampleShowsTheEncodersBytes() throws {
        #expect(!Self.specification.isEmpty, "Protocol/dock-serial.md is readable")
        let compactSpecification = Self.specification.filter { !$0.isWhitespace }
        for step in ExampleSession.steps {
            let bytes = try FrameEncoder.encode(step.frame)
            let hex = bytes.map { String(format: "%02x", $0) }.joined()
            #expect(compactSpecification.contains(hex), "the specification shows \(step.frame)")
        }
    }

    @Test func everyNameOfTheCodeIsSpecified() {
        var names: [String] = MessageType.allCases.map(\.name)
        names += Refusal.Reason.allCases.map(\.name)
        names += FaultReport.Code.allCases.map(\.name)
        names += TelemetryFlags.named.map(\.name)
        names += AccessoryFeatures.named.map(\.name)
        names += IndicatorState.Pattern.allCases.map(\.name)
        names += [
            FrameError.oversize, .truncated(byteCount: 0), .checksumMismatch(computed: 0, received: 0),
            .unknownType(code: 0, sequence: 0),
            .wrongPayloadLength(type: .hello, sequence: 0, byteCount: 0),
            .valueOutOfRange(type: .hello, sequence: 0, field: ""),
        ].map(\.name)
        for name in names {
            #expect(Self.specification.contains("`\(name)`"), "`\(name)` is in dock-serial.md")
        }
    }

    @Test func typeCodesAndSizesMatchTheSpecification() {
        for type in MessageType.allCases {
            let code = "`0x" + String(format: "%02X", type.rawValue) + "` | `\(type.name)`"
            #expect(Self.specification.contains(code), "the message table lists \(code)")
        }
        #expect(WireLimits.maximumPayloadCount == 240 && Self.specification.contains("**240 bytes**"))
        #expect(WireLimits.maximumBodyCount == 247 && Self.specification.contains("**247 bytes**"))
        #expect(WireLimits.maximumEncodedCount == 248 && Self.specification.contains("**248 bytes**"))
        #expect(Self.specification.contains("**0xE3069283**"))
    }
}

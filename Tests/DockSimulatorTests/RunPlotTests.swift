import Foundation
import FoundationXML
import Testing

@testable import DockSimulator

/// The SVG drawn from a report, on a synthetic run.
@Suite struct RunPlotTests {
    /// The elements of an SVG document, as XMLParser reads them.
    final class Elements: NSObject, XMLParserDelegate {
        struct Element {
            var name: String
            var attributes: [String: String]
            var text = ""
        }
        var all: [Element] = []
        private var open: [Int] = []

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            open.append(all.count)
            all.append(Element(name: name, attributes: attributes))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if let index = open.last { all[index].text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            open.removeLast()
        }

        func named(_ name: String, class className: String? = nil) -> [Element] {
            all.filter { $0.name == name && (className == nil || $0.attributes["class"] == className) }
        }
    }

    /// Parses `svg`, recording an issue when it is not well-formed XML.
    static func parse(_ svg: String, sourceLocation: SourceLocation = #_sourceLocation) -> Elements {
        let parser = XMLParser(data: Data(svg.utf8))
        let elements = Elements()
        parser.delegate = elements
        let isWellFormed = parser.parse()
        #expect(isWellFormed, "well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")", sourceLocation: sourceLocation)
        return elements
    }

    @Test func theSVGIsWellFormedWithTitleToleranceFaultsAndPrimaryBands() throws {
        let svg = RunPlot(report: RunReportTests.syntheticReport()).svg
        let elements = Self.parse(svg)
        #expect(elements.all.first?.name == "svg")
        #expect(elements.all.first?.attributes["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(elements.named("title").first?.text == "walk <&> back · seed 5")
        #expect(elements.named("text").contains { $0.text == "walk <&> back · seed 5" }, "the title is drawn")
        #expect(elements.named("text").contains { $0.text.contains("primary ID switches 1") })

        let tolerance = try #require(elements.named("line", class: "tolerance").first)
        #expect(tolerance.attributes["stroke-dasharray"] != nil, "the tolerance line is dashed")
        #expect(tolerance.attributes["y1"] == tolerance.attributes["y2"])
        #expect(elements.named("text").contains { $0.text == "tolerance 0.100" })

        let spans = elements.named("rect", class: "fault")
        #expect(spans.count == 2)
        #expect(elements.named("text", class: "fault-label").map(\.text) == ["unplug", "reboot"])
        let unplug = try #require(spans.first)
        let spanWidth = try #require(Double(unplug.attributes["width"] ?? ""))
        #expect(spanWidth > 50, "the unplug spans a second of the axis: \(spanWidth)")
        #expect(Double(spans[1].attributes["width"] ?? "") == 2, "an instant fault is still visible")

        #expect(elements.named("polyline", class: "framing-error").count == 2, "the error line breaks while the primary is away")
        #expect(elements.named("rect", class: "primary").count == 3, "3, then 3 again after the gap, then 7")
        #expect(elements.named("text", class: "primary-label").map(\.text) == ["3", "3", "7"])
        // Ticks and labels on both axes.
        #expect(elements.named("text").contains { $0.text == "time (s)" })
        #expect(elements.named("text").contains { $0.text == "framing error (image units)" })
        for tick in ["0", "2", "4", "6", "8", "10"] { #expect(elements.named("text").contains { $0.text == tick }, "time tick \(tick)") }
        #expect(elements.named("text").contains { $0.text == "0.15" }, "error ticks")

        #expect(RunPlot(report: RunReportTests.syntheticReport()).svg == svg, "the same report gives the same bytes")
    }

    @Test func withoutTheTrackerThereIsNoPrimaryPanel() {
        let elements = Self.parse(RunPlot(report: RunReportTests.syntheticReport(withTracker: false)).svg)
        #expect(elements.named("rect", class: "primary").isEmpty)
        #expect(!elements.named("text").contains { $0.text == "primary ID" })
        #expect(elements.named("text").contains { $0.text.contains("no tracker followed") })
    }

    @Test func anEmptyReportStillDrawsAWellFormedPlot() {
        let elements = Self.parse(RunPlot(report: RunReport(scenarioName: "\u{1}", seed: 0, toleranceFraction: 0.1)).svg)
        #expect(elements.named("polyline").isEmpty)
        #expect(elements.named("text").contains { $0.text.contains("no frame with the primary subject") })
    }

    @Test func numbersHaveAFixedFormat() {
        #expect(RunPlot.number(0.1, 3) == "0.100")
        #expect(RunPlot.number(-0.0001, 2) == "0.00")
        #expect(RunPlot.number(-1.25, 1) == "-1.3")
        #expect(RunPlot.number(12.04, 0) == "12")
        #expect(RunPlot.number(1e20, 1) == "100000000000000000.0", "huge values are bounded, not a crash")
        #expect(RunPlot.number(.nan, 1) == "0")
        for (maximum, ticks, step, count, decimals) in [
            (16.0, 8, 2.0, 8, 0), (0.3, 5, 0.1, 3, 1), (0.15, 5, 0.05, 3, 2),
            (59.9, 8, 10, 6, 0), (0.001, 5, 0.0002, 5, 4),
        ] {
            let axis = RunPlot.axis(upTo: maximum, ticks: ticks)
            #expect(
                abs(axis.step - step) < 1e-12 && axis.count == count && axis.decimals == decimals,
                "axis up to \(maximum): \(axis)")
            #expect(axis.end >= maximum * (1 - 1e-9))
        }
    }
}

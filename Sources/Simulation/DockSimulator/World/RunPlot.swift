#if canImport(Glibc)
    import Glibc
#endif

/// A picture of a run as an SVG document, drawn from its report: the framing error over time with
/// the tolerance as a dashed line, the tracker's primary subject ID as coloured bands on a second
/// panel and the true person behind it on a third (only when the report has the tracker's
/// output), and the faults as shaded spans labelled
/// with their kind. Pure and deterministic: the same report gives the same bytes (every number is
/// written with a fixed number of decimals), so it can be compared in tests.
public struct RunPlot: Sendable {
    /// The report drawn.
    public let report: RunReport

    /// Prepares a plot of `report`.
    public init(report: RunReport) {
        self.report = report
    }

    // MARK: Layout, in SVG user units (pixels)

    private let width = 960.0
    private let left = 78.0
    private let right = 24.0
    private let titleHeight = 64.0
    private let errorPanelHeight = 260.0
    private let panelGap = 18.0
    private let primaryPanelHeight = 44.0
    private let axisHeight = 48.0

    private var hasTrackerPanel: Bool { report.primaryIDSwitches != nil }
    private var plotWidth: Double { width - left - right }
    private var errorTop: Double { titleHeight }
    private var errorBottom: Double { errorTop + errorPanelHeight }
    private var primaryTop: Double { errorBottom + panelGap }
    private var primaryBottom: Double { primaryTop + primaryPanelHeight }
    private var personTop: Double { primaryBottom + panelGap }
    private var personBottom: Double { personTop + primaryPanelHeight }
    private var hasPersonPanel: Bool { report.primaryPersonSwitches != nil }
    private var plotBottom: Double { hasPersonPanel ? personBottom : hasTrackerPanel ? primaryBottom : errorBottom }
    private var height: Double { plotBottom + axisHeight }

    /// Colours of primary subject IDs, chosen by ID (colour-blind friendly, after Okabe and Ito).
    static let palette = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000"]

    /// The whole document.
    public var svg: String {
        let timeAxis = Self.axis(upTo: max(timeEnd, 1e-9), ticks: 8)
        let errorAxis = Self.axis(upTo: max(errorCeiling, 1e-9), ticks: 5)
        var out: [String] = []
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        out.append(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.number(width, 0))\" "
                + "height=\"\(Self.number(height, 0))\" viewBox=\"0 0 \(Self.number(width, 0)) \(Self.number(height, 0))\" "
                + "font-family=\"sans-serif\" font-size=\"12\">")
        out.append("<title>\(Self.escaped(titleText))</title>")
        out.append("<rect x=\"0\" y=\"0\" width=\"\(Self.number(width, 0))\" height=\"\(Self.number(height, 0))\" fill=\"#ffffff\"/>")
        out.append(text(titleText, x: left, y: 24, size: 16, weight: "bold"))
        out.append(text(summaryText, x: left, y: 44, size: 12, fill: "#444444"))
        out += faultSpans(timeAxis: timeAxis)
        out += timeAxis.ticks.dropFirst().dropLast().map { tick in
            line(x(tick, timeAxis), errorTop, x(tick, timeAxis), errorBottom, stroke: "#eeeeee")
        }
        out += errorPanel(timeAxis: timeAxis, errorAxis: errorAxis)
        if hasTrackerPanel {
            out += bandPanel(
                timeAxis: timeAxis, top: primaryTop, bottom: primaryBottom, label: "primary ID",
                values: report.frames.map(\.trackerPrimary), className: "primary",
                empty: "the tracker had no primary subject")
        }
        if hasPersonPanel {
            out += bandPanel(
                timeAxis: timeAxis, top: personTop, bottom: personBottom, label: "true person",
                values: report.frames.map(\.truePerson), className: "person",
                empty: "the primary never showed a person clearly")
        }
        out += timeTicks(timeAxis)
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    private var titleText: String { "\(report.scenarioName) · seed \(report.seed)" }

    private var summaryText: String {
        var parts: [String] = []
        if let share = report.inToleranceShare, let statistics = report.framingStatistics {
            parts.append(
                "in tolerance \(Self.number(share * 100, 1)) % of \(report.framingErrors.count) frames, "
                    + "RMS framing error \(Self.number(statistics.rms, 3))")
        } else {
            parts.append("no frame with the primary subject in the room")
        }
        parts.append(report.primaryIDSwitches.map { "primary ID switches \($0)" } ?? "no tracker followed")
        if let switches = report.primaryPersonSwitches { parts.append("person switches \(switches)") }
        if let still = report.stillness {
            parts.append(
                "still: \(Self.number(still.commandReversalsPerSecond, 2)) reversals/s, "
                    + "jitter \(Self.number(still.jitterRMSDegrees, 2))° RMS")
        }
        parts.append("\(report.faults.count) fault\(report.faults.count == 1 ? "" : "s")")
        return parts.joined(separator: " · ")
    }

    /// The end of the time axis: the last frame or the last fault end, seconds.
    private var timeEnd: Double {
        max(report.frames.last?.captureSeconds ?? 0, report.faults.map(\.endSeconds).max() ?? 0)
    }

    /// The top of the error axis: the largest error, and room above the tolerance line.
    private var errorCeiling: Double {
        min(1, max(report.framingErrors.max() ?? 0, report.toleranceFraction * 1.5))
    }

    // MARK: Panels

    private func faultSpans(timeAxis: Axis) -> [String] {
        var out: [String] = []
        for (index, fault) in report.faults.enumerated() {
            let start = x(fault.startSeconds, timeAxis), end = x(fault.endSeconds, timeAxis)
            let spanWidth = max(2, end - start)
            out.append(
                "<rect class=\"fault\" x=\"\(Self.number(start, 1))\" y=\"\(Self.number(errorTop, 1))\" "
                    + "width=\"\(Self.number(spanWidth, 1))\" height=\"\(Self.number(plotBottom - errorTop, 1))\" "
                    + "fill=\"#d62728\" fill-opacity=\"0.15\"/>")
            // Staggered in three rows, so that neighbouring faults keep readable labels.
            let labelY = errorTop + 14 + Double(index % 3) * 14
            out.append(text(fault.kind, x: start + 3, y: labelY, size: 11, fill: "#a01010", className: "fault-label"))
        }
        return out
    }

    private func errorPanel(timeAxis: Axis, errorAxis: Axis) -> [String] {
        var out = frame(top: errorTop, bottom: errorBottom)
        for tick in errorAxis.ticks {
            let tickY = y(tick, errorAxis)
            out.append(line(left - 5, tickY, left, tickY, stroke: "#000000"))
            if tick > 0 { out.append(line(left, tickY, left + plotWidth, tickY, stroke: "#e5e5e5")) }
            out.append(text(Self.number(tick, errorAxis.decimals), x: left - 8, y: tickY + 4, anchor: "end"))
        }
        let middle = (errorTop + errorBottom) / 2
        out.append(
            "<text x=\"18\" y=\"\(Self.number(middle, 1))\" text-anchor=\"middle\" "
                + "transform=\"rotate(-90 18 \(Self.number(middle, 1)))\">framing error (image units)</text>")
        // The error, one polyline per run of frames with the primary subject in the room.
        var run: [String] = []
        func flush() {
            if run.count > 1 {
                out.append(
                    "<polyline class=\"framing-error\" fill=\"none\" stroke=\"#1f4e9c\" stroke-width=\"1.2\" "
                        + "points=\"\(run.joined(separator: " "))\"/>")
            } else if let point = run.first {
                let coordinates = point.split(separator: ",")
                out.append("<circle class=\"framing-error\" cx=\"\(coordinates[0])\" cy=\"\(coordinates[1])\" r=\"1.2\" fill=\"#1f4e9c\"/>")
            }
            run.removeAll()
        }
        for frame in report.frames {
            guard let error = frame.framingError else {
                flush()
                continue
            }
            run.append("\(Self.number(x(frame.captureSeconds, timeAxis), 1)),\(Self.number(y(min(error, errorAxis.end), errorAxis), 1))")
        }
        flush()
        let toleranceY = y(report.toleranceFraction, errorAxis)
        out.append(
            "<line class=\"tolerance\" x1=\"\(Self.number(left, 1))\" y1=\"\(Self.number(toleranceY, 1))\" "
                + "x2=\"\(Self.number(left + plotWidth, 1))\" y2=\"\(Self.number(toleranceY, 1))\" "
                + "stroke=\"#2a9d2a\" stroke-width=\"1.2\" stroke-dasharray=\"6 4\"/>")
        out.append(
            text(
                "tolerance \(Self.number(report.toleranceFraction, 3))", x: left + plotWidth - 4, y: toleranceY - 5,
                size: 11, fill: "#2a7d2a", anchor: "end"))
        return out
    }

    /// A panel of coloured bands, one per run of frames with the same value (a primary ID, or the
    /// scenario subject behind it), coloured by value.
    private func bandPanel(
        timeAxis: Axis, top: Double, bottom: Double, label: String, values: [Int?], className: String,
        empty: String
    ) -> [String] {
        var out = frame(top: top, bottom: bottom)
        let middle = (top + bottom) / 2
        out.append(text(label, x: left - 8, y: middle + 4, anchor: "end"))
        // One band per run of frames with the same value; a frame lasts until the next one.
        var runs: [(identifier: Int, start: Double, end: Double)] = []
        for (index, frame) in report.frames.enumerated() {
            guard let identifier = values[index] else { continue }
            let next = index + 1 < report.frames.count ? report.frames[index + 1].captureSeconds : frame.captureSeconds
            if let last = runs.last, last.identifier == identifier, abs(last.end - frame.captureSeconds) < 1e-9 {
                runs[runs.count - 1].end = next
            } else {
                runs.append((identifier, frame.captureSeconds, next))
            }
        }
        for run in runs {
            let start = x(run.start, timeAxis), end = x(run.end, timeAxis)
            let colour = Self.palette[run.identifier % Self.palette.count]
            out.append(
                "<rect class=\"\(className)\" x=\"\(Self.number(start, 1))\" y=\"\(Self.number(top + 6, 1))\" "
                    + "width=\"\(Self.number(max(1, end - start), 1))\" height=\"\(Self.number(primaryPanelHeight - 12, 1))\" "
                    + "fill=\"\(colour)\" fill-opacity=\"0.8\"/>")
            if end - start >= 28 {
                out.append(
                    text(
                        "\(run.identifier)", x: (start + end) / 2, y: middle + 4, fill: "#ffffff", anchor: "middle",
                        className: "\(className)-label"))
            }
        }
        if runs.isEmpty {
            out.append(text(empty, x: left + 8, y: middle + 4, fill: "#666666"))
        }
        return out
    }

    private func timeTicks(_ timeAxis: Axis) -> [String] {
        var out: [String] = []
        for tick in timeAxis.ticks {
            let tickX = x(tick, timeAxis)
            out.append(line(tickX, plotBottom, tickX, plotBottom + 5, stroke: "#000000"))
            out.append(text(Self.number(tick, timeAxis.decimals), x: tickX, y: plotBottom + 19, anchor: "middle"))
        }
        out.append(text("time (s)", x: left + plotWidth / 2, y: plotBottom + 38, anchor: "middle"))
        return out
    }

    /// A panel's box.
    private func frame(top: Double, bottom: Double) -> [String] {
        [
            "<rect x=\"\(Self.number(left, 1))\" y=\"\(Self.number(top, 1))\" width=\"\(Self.number(plotWidth, 1))\" "
                + "height=\"\(Self.number(bottom - top, 1))\" fill=\"none\" stroke=\"#000000\"/>"
        ]
    }

    // MARK: Scales and elements

    private func x(_ seconds: Double, _ axis: Axis) -> Double { left + plotWidth * min(max(seconds / axis.end, 0), 1) }

    private func y(_ value: Double, _ axis: Axis) -> Double {
        errorBottom - errorPanelHeight * min(max(value / axis.end, 0), 1)
    }

    private func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String) -> String {
        "<line x1=\"\(Self.number(x1, 1))\" y1=\"\(Self.number(y1, 1))\" x2=\"\(Self.number(x2, 1))\" "
            + "y2=\"\(Self.number(y2, 1))\" stroke=\"\(stroke)\"/>"
    }

    private func text(
        _ content: String, x: Double, y: Double, size: Int = 12, weight: String? = nil, fill: String = "#000000",
        anchor: String = "start", className: String? = nil
    ) -> String {
        var attributes = "x=\"\(Self.number(x, 1))\" y=\"\(Self.number(y, 1))\""
        if size != 12 { attributes += " font-size=\"\(size)\"" }
        if let weight { attributes += " font-weight=\"\(weight)\"" }
        if fill != "#000000" { attributes += " fill=\"\(fill)\"" }
        if anchor != "start" { attributes += " text-anchor=\"\(anchor)\"" }
        if let className { attributes += " class=\"\(className)\"" }
        return "<text \(attributes)>\(Self.escaped(content))</text>"
    }

    /// An axis from zero: `count` steps of `step`, and its ticks.
    struct Axis: Equatable {
        var step: Double
        var count: Int
        /// Decimals that show every tick exactly.
        var decimals: Int
        var end: Double { Double(count) * step }
        var ticks: [Double] { (0...count).map { Double($0) * step } }
    }

    /// An axis from zero to at least `maximum` (> 0) with about `ticks` intervals of 1, 2 or 5
    /// times a power of ten.
    static func axis(upTo maximum: Double, ticks: Int) -> Axis {
        let rough = maximum / Double(ticks)
        let exponent = Int(floor(log10(rough)))
        let magnitude = pow(10, Double(exponent))
        let multiples: [Double] = [1, 2, 5, 10]
        let multiple = multiples.first { $0 * magnitude >= rough * (1 - 1e-9) } ?? 10
        let step = multiple * magnitude
        let count = Int((maximum / step * (1 - 1e-9)).rounded(.up))
        let decimals = max(0, -exponent + (multiple == 10 ? -1 : 0))
        return Axis(step: step, count: max(1, count), decimals: decimals)
    }

    /// `value` with exactly `decimals` digits after the point (no exponent, no "-0"); magnitudes
    /// beyond 10¹⁸ / 10^decimals are written as that bound.
    static func number(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64(min(abs(value) * scale, 1e18).rounded())
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(scaled) }
        let divisor = Int64(scale)
        let fraction = String(scaled % divisor)
        return sign + String(scaled / divisor) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    /// Text with XML's special characters escaped, and the control characters XML does not allow
    /// replaced by U+FFFD.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n": result += " "
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

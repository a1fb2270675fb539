import Foundation

/// The soak's samples drawn as one SVG: four panels over the same time axis — RSS, descriptors,
/// threads and the loop's lateness (p99 and maximum) — with the errors in the title. Written by
/// hand: a polyline per series on a scale from the series' own range.
enum SoakPlot {
    static let width = 760.0
    static let panelHeight = 130.0
    static let left = 70.0, right = 20.0, top = 56.0, gap = 34.0

    /// One panel: a title, the series (name, colour, values) and where the y axis starts.
    struct Panel {
        var title: String
        var series: [(name: String, colour: String, values: [Double])]
        var floor: Double = 0
    }

    static func svg(_ samples: [SoakSample], title: String, subtitle: String) -> String {
        let panels = [
            Panel(title: "dockd RSS (MiB)", series: [("VmRSS", "#1f77b4", samples.map(\.residentMebibytes))]),
            Panel(title: "open file descriptors", series: [("fds", "#2ca02c", samples.map { Double($0.descriptors) })]),
            Panel(title: "threads", series: [("threads", "#9467bd", samples.map { Double($0.threads) })]),
            Panel(
                title: "30 Hz loop lateness (ms, over dockd's last 1024 ticks)",
                series: [
                    ("p99", "#ff7f0e", samples.map { $0.latenessP99Microseconds / 1000 }),
                    ("maximum", "#d62728", samples.map { $0.latenessMaximumMicroseconds / 1000 }),
                ]),
        ]
        let height = top + Double(panels.count) * (panelHeight + gap) + 10
        let times = samples.map { $0.seconds / 60 }
        let lastMinute = max(times.last ?? 1, 1e-9)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="18" font-size="14" font-weight="bold">\(escaped(title))</text>
            <text x="\(left)" y="34" fill="#444">\(escaped(subtitle))</text>

            """
        let plotWidth = width - left - right
        for (index, panel) in panels.enumerated() {
            let y0 = top + Double(index) * (panelHeight + gap) + 16
            let values = panel.series.flatMap(\.values).filter(\.isFinite)
            let high = niceCeiling(max(values.max() ?? 1, panel.floor + 1e-9))
            let low = panel.floor
            func y(_ value: Double) -> Double { y0 + panelHeight - (value - low) / (high - low) * panelHeight }
            func x(_ minute: Double) -> Double { left + minute / lastMinute * plotWidth }
            svg += "<text x=\"\(left)\" y=\"\(format(y0 - 6))\" font-weight=\"bold\">\(escaped(panel.title))</text>\n"
            svg +=
                "<rect x=\"\(left)\" y=\"\(format(y0))\" width=\"\(format(plotWidth))\" height=\"\(panelHeight)\" fill=\"none\" stroke=\"#999\"/>\n"
            for fraction in [0.0, 0.5, 1.0] {
                let value = low + fraction * (high - low)
                svg += "<text x=\"\(left - 6)\" y=\"\(format(y(value) + 4))\" text-anchor=\"end\">\(label(value))</text>\n"
                if fraction == 0.5 {
                    svg +=
                        "<line x1=\"\(left)\" y1=\"\(format(y(value)))\" x2=\"\(format(left + plotWidth))\" y2=\"\(format(y(value)))\" stroke=\"#ddd\"/>\n"
                }
            }
            for (number, series) in panel.series.enumerated() {
                let points = zip(times, series.values).filter { $0.1.isFinite }.map { "\(format(x($0.0))),\(format(y($0.1)))" }
                svg +=
                    "<polyline fill=\"none\" stroke=\"\(series.colour)\" stroke-width=\"1.5\" points=\"\(points.joined(separator: " "))\"/>\n"
                if panel.series.count > 1 {
                    svg +=
                        "<text x=\"\(format(left + plotWidth - 130 + Double(number) * 40))\" y=\"\(format(y0 - 6))\" fill=\"\(series.colour)\">\(series.name)</text>\n"
                }
            }
        }
        let axisY = top + Double(panels.count) * (panelHeight + gap) - gap + 16 + 14
        for fraction in [0.0, 0.25, 0.5, 0.75, 1.0] {
            svg +=
                "<text x=\"\(format(left + fraction * plotWidth))\" y=\"\(format(axisY))\" text-anchor=\"middle\">\(label(fraction * lastMinute, places: lastMinute < 4 ? 2 : 1)) min</text>\n"
        }
        return svg + "</svg>\n"
    }

    /// The next of 1, 2, 5 × 10ⁿ at or above `value`.
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 0 else { return 1 }
        let magnitude = pow(10, floor(log10(value)))
        for step in [1.0, 2, 5, 10] where step * magnitude >= value { return step * magnitude }
        return 10 * magnitude
    }

    static func label(_ value: Double, places: Int = 1) -> String {
        value == value.rounded() ? String(Int(value)) : decimal(value, places: places)
    }

    static func format(_ value: Double) -> String { String((value * 10).rounded() / 10) }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
            of: ">", with: "&gt;")
    }
}

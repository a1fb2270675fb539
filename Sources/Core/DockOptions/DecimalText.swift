/// Numbers written with a fixed count of decimals, as C's `%.Nf` writes them, for what the
/// programs print (the standard library has no such formatting, and Foundation's
/// `String(format:)` would link ICU's tens of megabytes into every program).
public enum DecimalText {
    /// `value` with exactly `decimals` digits after the point (0 to 9): `fixed(2.25, decimals: 1)`
    /// is "2.3", `fixed(-0.04, decimals: 1)` is "0.0" (no "-0"). A value whose scaled magnitude
    /// passes 10¹⁸, or that is not finite, is written as the standard library writes it.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        let places = min(max(decimals, 0), 9)
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * Double(scale)).rounded()
        guard value.isFinite, scaled < 1e18 else { return "\(value)" }
        let units = Int64(scaled)
        let sign = value < 0 && units != 0 ? "-" : ""
        guard places > 0 else { return sign + String(units) }
        let fraction = String(units % scale)
        return sign + String(units / scale) + "." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}

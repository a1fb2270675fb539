extension Duration {
    /// The duration in seconds, as a floating-point number: its whole seconds plus the
    /// attoseconds left over, the same as from `components` to the bit (and trapping as it does
    /// where the seconds overflow 64 bits). One split of the 128-bit `attoseconds`, inlined:
    /// `components` is a call the optimiser does not inline, and read as `.seconds` and
    /// `.attoseconds` it was called twice (48 ns a read against 11; 4 % of the tracker's time).
    /// Every part of dockd reads a duration's seconds through this one property.
    @inlinable public var secondsValue: Double {
        let (seconds, attoseconds) = self.attoseconds.quotientAndRemainder(dividingBy: 1_000_000_000_000_000_000)
        return Double(Int64(seconds)) + Double(Int64(attoseconds)) / 1e18
    }

    /// A duration from seconds, to the nearest nanosecond, or nil when `seconds` is not finite
    /// or not within a billion seconds (about 31 years) of zero. Every part of dockd makes a
    /// duration from seconds through this one function.
    @inlinable public static func fromSeconds(_ seconds: Double) -> Duration? {
        guard seconds.isFinite, abs(seconds) < 1e9 else { return nil }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}

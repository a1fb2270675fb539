import DockOptions
import Testing

/// `DecimalText.fixed`, the programs' `%.Nf` without Foundation.
@Suite struct DecimalTextTests {
    @Test(arguments: [
        (2.25, 1, "2.3"), (2.24, 1, "2.2"), (0, 1, "0.0"), (-0.04, 1, "0.0"), (-0.05, 1, "-0.1"), (-12.345, 2, "-12.35"),
        (1.5, 0, "2"), (0.000_001, 6, "0.000001"), (12_345.678_901_2, 6, "12345.678901"), (7, 3, "7.000"),
        (99.96, 1, "100.0"), (3, -2, "3"), (1.234_567_890_12, 12, "1.234567890"),
    ])
    func writesExactlyThatManyDecimals(value: Double, decimals: Int, expected: String) {
        #expect(DecimalText.fixed(value, decimals: decimals) == expected)
    }

    @Test func whatDoesNotFitIsWrittenAsTheStandardLibraryWritesIt() {
        #expect(DecimalText.fixed(.nan, decimals: 1) == "nan")
        #expect(DecimalText.fixed(-.infinity, decimals: 2) == "-inf")
        #expect(DecimalText.fixed(1e18, decimals: 1) == "1e+18")
        #expect(DecimalText.fixed(1e17, decimals: 0) == "100000000000000000")
    }
}

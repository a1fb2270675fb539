import DockSimulator
import Testing

@testable import DockTracking

/// The 4 × 4 inverses the filter's gating and fusion use: `invertSymmetric4` (LDLᵀ) on the
/// innovation covariances, `invert4` (Gauss–Jordan) where that finds a matrix not positive
/// definite.
@Suite struct CovarianceInverseTests {
    func inverse(_ matrix: [Double], _ invert: (UnsafePointer<Double>, UnsafeMutablePointer<Double>) -> Bool) -> [Double]? {
        var result = [Double](repeating: .nan, count: 16)
        let isInvertible = matrix.withUnsafeBufferPointer { a in
            result.withUnsafeMutableBufferPointer { invert(a.baseAddress!, $0.baseAddress!) }
        }
        return isInvertible ? result : nil
    }

    func product(_ a: [Double], _ b: [Double]) -> [Double] {
        var result = [Double](repeating: 0, count: 16)
        for row in 0..<4 {
            for column in 0..<4 {
                for k in 0..<4 { result[row * 4 + column] += a[row * 4 + k] * b[k * 4 + column] }
            }
        }
        return result
    }

    /// Random covariances B Bᵀ + εI, from well to badly scaled (entries from 10⁻⁶ to 10²,
    /// correlations up to nearly 1): the inverse times the matrix is the identity, it is
    /// Gauss–Jordan's within rounding, and it is worked out from the lower triangle alone.
    @Test func aCovariancesInverseIsItsInverse() throws {
        var random = SimulationRandom(seed: 11)
        for trial in 0..<2000 {
            let scale = [1e-6, 1e-3, 1, 1e2][trial % 4]
            let b = (0..<16).map { _ in random.gaussian(standardDeviation: 1) }
            let transposed = (0..<16).map { index in b[index % 4 * 4 + index / 4] }
            var a = product(b, transposed)
            for index in 0..<16 { a[index] *= scale }
            for index in stride(from: 0, to: 16, by: 5) { a[index] += scale * 1e-3 }
            let symmetric = try #require(inverse(a, invertSymmetric4), "trial \(trial)")
            // Only the lower triangle is read: what lies above the diagonal changes nothing.
            var scrambled = a
            for row in 0..<4 { for column in (row + 1)..<4 { scrambled[row * 4 + column] = .nan } }
            #expect(inverse(scrambled, invertSymmetric4) == symmetric, "trial \(trial)")
            let general = try #require(inverse(a, invert4), "trial \(trial)")
            let identity = product(a, symmetric)
            for index in 0..<16 {
                #expect(abs(identity[index] - (index % 5 == 0 ? 1 : 0)) < 1e-7, "trial \(trial) [\(index)]: \(identity[index])")
                let size = max(abs(symmetric[index]), abs(general[index]), 1e-300)
                #expect(abs(symmetric[index] - general[index]) <= 1e-6 * size + 1e-9 * abs(symmetric[0]))
            }
        }
    }

    /// A symmetric matrix that is not positive definite is not LDLᵀ's, but is inverted by
    /// Gauss–Jordan all the same; a singular or non-finite one by neither.
    @Test func otherMatricesFallBackOrFail() throws {
        let indefinite: [Double] = [1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 4]
        #expect(inverse(indefinite, invertSymmetric4) == nil)
        let fallback = try #require(inverse(indefinite, invertCovariance4))
        #expect(fallback == [1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.25])
        var singular: [Double] = [2, 1, 0, 0, 1, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0]
        #expect(inverse(singular, invertCovariance4) == nil)
        singular[15] = .nan
        #expect(inverse(singular, invertCovariance4) == nil)
        // A pivot no larger than 10⁻³⁰⁰ is refused by both, as `invert4` always did.
        let tiny: [Double] = [1e-301, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        #expect(inverse(tiny, invertSymmetric4) == nil)
        #expect(inverse(tiny, invertCovariance4) == nil)
        // The array form says the same.
        #expect(invertCovariance4(InlineArray<16, Double>(repeating: 0)) == nil)
        var diagonal = InlineArray<16, Double>(repeating: 0)
        for index in stride(from: 0, to: 16, by: 5) { diagonal[index] = 4 }
        let inverted = try #require(invertCovariance4(diagonal))
        for index in 0..<16 { #expect(inverted[index] == (index % 5 == 0 ? 0.25 : 0)) }
    }
}

import Testing

@testable import MotionFusionCore

/// VectorCheck's two contracts. Geometry: a direction exactly for finite, non-zero vectors of any
/// magnitude, checked on the 3-4-12 triangle (length 13, so every expected value is a known
/// fraction) scaled from near underflow to the edge of overflow, in Double and Float. Sensor
/// readings: a direction only where the squared length is a normal number, the same bits there.
@Suite("VectorCheck")
struct VectorCheckTests {
    static func check<S: FusionScalar>(_: S.Type, scales: [S]) {
        let expected = SIMD3<S>(3, 4, 12) / 13
        for s in scales {
            let v = SIMD3<S>(3, 4, 12) * s
            guard VectorCheck.isFinite(v), v != .zero else { continue }  // the scale itself overflowed or underflowed
            // The components of v are exact multiples of s only where no rounding happened; the
            // direction must still be within a few ulp of (3, 4, 12)/13.
            #expect(VectorCheck.hasDirection(v), "scale \(s)")
            guard let d = VectorCheck.direction(v) else {
                Issue.record("no direction at scale \(s)")
                continue
            }
            let error = VectorCheck.largestMagnitude(d - expected)
            #expect(error <= 4 * S.ulpOfOne, "scale \(s): direction off by \(error)")
            let length = VectorCheck.length(v)
            #expect(abs(length / (13 * s) - 1) <= 4 * S.ulpOfOne, "scale \(s): length \(length)")
        }
    }

    /// Ordinary, huge (squared length overflows) and tiny (squared length underflows) vectors.
    @Test func directionAndLengthAtEveryMagnitude() {
        let scales: [Double] = [1, 1e-3, 1e3, 1e150, 1e154, 1e300, 1e307, 1e-150, 1e-160, 1e-300]
        Self.check(Double.self, scales: scales)
        let floatScales: [Float] = [1, 1e-3, 1e3, 1e18, 1e19, 1e30, 1e37, 1e-18, 1e-20, 1e-37]
        Self.check(Float.self, scales: floatScales)
    }

    /// A vector whose squared length overflows and the ordinary one along it agree.
    @Test func scaledPathAgreesWithTheCommonPath() throws {
        let v = SIMD3<Double>(-2, 7, 0.5)
        let common = try #require(VectorCheck.direction(v))
        for s in [1e200, 1e-200, 1e300] {
            let scaled = try #require(VectorCheck.direction(v * s))
            #expect(VectorCheck.largestMagnitude(scaled - common) <= 4 * Double.ulpOfOne)
        }
        // 7e308 is beyond the largest Double: that vector is not finite and has no direction.
        #expect(VectorCheck.direction(v * 1e308) == nil)
    }

    /// No direction for zero or a non-finite component; the length says which.
    @Test func zeroAndNonFiniteVectors() {
        let bad: [SIMD3<Double>] = [
            .zero, SIMD3(-0.0, 0, -0.0), SIMD3(.nan, 1, 0), SIMD3(1, .infinity, 0), SIMD3(-.infinity, 0, 0),
            SIMD3(.nan, .infinity, 1),
        ]
        for v in bad {
            #expect(VectorCheck.direction(v) == nil, "\(v)")
            #expect(!VectorCheck.hasDirection(v), "\(v)")
        }
        #expect(VectorCheck.length(SIMD3<Double>.zero) == 0)
        #expect(VectorCheck.length(SIMD3<Double>(1, .infinity, 0)) == .infinity)
        #expect(VectorCheck.length(SIMD3<Double>(.nan, 1, 0)).isNaN)
        #expect(VectorCheck.length(SIMD3<Double>(.nan, .infinity, 0)).isNaN)
        #expect(!VectorCheck.isFinite(SIMD3<Double>(0, 0, .nan)))
        #expect(VectorCheck.isFinite(SIMD3<Double>(0, -Double.greatestFiniteMagnitude, Double.leastNonzeroMagnitude)))
        #expect(VectorCheck.largestMagnitude(SIMD3<Double>(-5, 2, 4)) == 5)
        // The smallest subnormal has a direction.
        let tiny = SIMD3<Double>(0, -Double.leastNonzeroMagnitude, 0)
        #expect(VectorCheck.direction(tiny) == SIMD3(0, -1, 0))
        #expect(VectorCheck.length(tiny) == Double.leastNonzeroMagnitude)
    }

    /// `isFinite` against each component's own `isFinite`, for every combination of special and
    /// extreme values in the three components (9³ vectors), in Double and Float.
    static func checkFiniteness<S: FusionScalar>(_: S.Type) {
        let values: [S] = [
            0, -0.0, S.greatestFiniteMagnitude, -S.greatestFiniteMagnitude, S.leastNonzeroMagnitude, 1, .infinity,
            -S.infinity, .nan,
        ]
        #expect(values[1].sign == .minus)  // -0 is among them
        var finite = 0
        for x in values {
            for y in values {
                for z in values {
                    let expected = x.isFinite && y.isFinite && z.isFinite
                    #expect(VectorCheck.isFinite(SIMD3(x, y, z)) == expected, "\(S.self) (\(x), \(y), \(z))")
                    if expected { finite += 1 }
                }
            }
        }
        #expect(finite == 216)  // 6 of the 9 values are finite
    }

    @Test func finitenessAgreesWithTheComponents() {
        Self.checkFiniteness(Double.self)
        Self.checkFiniteness(Float.self)
    }

    /// Readings: usable exactly where |v|² is a normal number, and then the geometric direction's bits.
    @Test func readingsAreUsableWhereTheSquaredLengthIsNormal() {
        let usable: [SIMD3<Double>] = [SIMD3(0, 0, 9.81), SIMD3(1e-150, 0, 0), SIMD3(0, -1e150, 1), SIMD3(3, 4, 12)]
        for v in usable {
            #expect(VectorCheck.isUsableReading(v))
            #expect(VectorCheck.readingDirection(v) == VectorCheck.direction(v), "\(v)")
        }
        // Physically zero (the squared length underflows) or beyond any sensor (it overflows):
        // geometry still has a direction, a reading has none.
        let unusable: [SIMD3<Double>] = [SIMD3(repeating: 1e-170), SIMD3(0, 0, 1e-300), SIMD3(1e200, 0, 0)]
        for v in unusable {
            #expect(!VectorCheck.isUsableReading(v) && VectorCheck.readingDirection(v) == nil, "\(v)")
            #expect(VectorCheck.direction(v) != nil, "\(v)")
        }
        for v in [SIMD3<Double>.zero, SIMD3(.nan, 0, 1), SIMD3(0, .infinity, 0)] {
            #expect(!VectorCheck.isUsableReading(v) && VectorCheck.readingDirection(v) == nil)
        }
        let f = SIMD3<Float>(0, 0, 1e-20)
        #expect(VectorCheck.readingDirection(f) == nil && VectorCheck.direction(f) == SIMD3(0, 0, 1))
    }
}

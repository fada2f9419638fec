import Foundation
import Testing

@testable import MotionFusionCore

/// The one first-order gain and low-pass step: the gain against the C library's `expm1` (an
/// independent implementation) and against values known in closed form, the low-pass state against
/// the recursion written out.
@Suite("FirstOrder")
struct FirstOrderTests {
    /// Units in the last place between `a` and `b`, measured at `b`.
    static func ulps(_ a: Double, _ b: Double) -> Double { abs(a - b) / b.ulp }

    /// Over x from 10⁻¹² to 40 (both branches, and both sides of the switch at 1/16) the gain is
    /// within 2 ulp of −expm1(−x) from libm; `1 − exp(−x)` would lose about log₁₀(1/x) digits.
    @Test func gainMatchesLibmExpm1() {
        var worst = 0.0
        var x = 1e-12
        while x < 40 {
            let expected = -Foundation.expm1(-x)
            worst = max(worst, Self.ulps(FirstOrder.gain(x), expected))
            x *= 1.01
        }
        for x in [(0.0625).nextDown, 0.0625, (0.0625).nextUp, 0.03, 0.05, 0.07] {
            worst = max(worst, Self.ulps(FirstOrder.gain(x), -Foundation.expm1(-x)))
        }
        #expect(worst <= 2, "largest difference \(worst) ulp")
        // Float: within 2 ulp of the Double result rounded to Float.
        var worstFloat: Float = 0
        var xf: Float = 1e-7
        while xf < 20 {
            let expected = Float(-Foundation.expm1(-Double(xf)))
            worstFloat = max(worstFloat, abs(FirstOrder.gain(xf) - expected) / expected.ulp)
            xf *= 1.01
        }
        #expect(worstFloat <= 2, "Float: largest difference \(worstFloat) ulp")
    }

    /// Closed forms: k(ln 2) = 1/2, k(ln 4) = 3/4, k(0) = 0, k(∞) = 1; a step of τ·ln 2 halves the
    /// distance to the input.
    @Test func gainClosedForms() {
        #expect(abs(FirstOrder.gain(log(2.0)) - 0.5) <= 0.5.ulp)
        #expect(abs(FirstOrder.gain(log(4.0)) - 0.75) <= 0.75.ulp)
        #expect(FirstOrder.gain(0.0) == 0)
        #expect(FirstOrder.gain(Double.infinity) == 1)
        // Small x: k ≈ x − x²/2 + x³/6.
        let x = 1e-6
        #expect(abs(FirstOrder.gain(x) - (x - x * x / 2 + x * x * x / 6)) <= 1e-22)
        #expect(abs(FirstOrder.gain(dt: 0.5 * log(2.0), timeConstant: 0.5) - 0.5) <= 0.5.ulp)
    }

    /// A time constant that is not positive passes the input unfiltered (gain 1).
    @Test func nonPositiveTimeConstantPassesInput() {
        for tau in [0.0, -0.0, -1.0, Double.nan, -Double.infinity] {
            #expect(FirstOrder.gain(dt: 0.01, timeConstant: tau) == 1)
        }
        #expect(FirstOrder.gain(dt: 0.01, timeConstant: Double.infinity) == 0)
    }

    /// `step` is y + (x − y)·k, for scalars and vectors alike.
    @Test func stepIsTheRecursion() {
        var y = 2.0
        FirstOrder.step(&y, toward: 6, gain: 0.25)
        #expect(y == 3)
        var v = SIMD2<Double>(0, 4)
        FirstOrder.step(&v, toward: SIMD2(8, 0), gain: 0.5)
        #expect(v == SIMD2(4, 2))
    }

    /// The first sample seeds the low-pass (deviation 0); the next ones move it by the gain, and the
    /// deviation is |x − low-pass|² = (1 − g)² |x − previous|².
    @Test func lowPassSeedsThenFollowsByTheGain() {
        var lowPass = FirstOrderLowPass<Double>()
        let x0 = SIMD3<Double>(0.5, -1, 2)
        let first = lowPass.squaredDeviation(x0, gain: 0.25)
        #expect(first == 0 && lowPass.value == x0)
        let x1 = SIMD3<Double>(1.5, -1, 0)
        let d = lowPass.squaredDeviation(x1, gain: 0.25)
        // value = x0 + (x1 − x0)/4 = (0.75, −1, 1.5); x1 − value = (0.75, 0, −1.5).
        #expect(lowPass.value == SIMD3(0.75, -1, 1.5))
        #expect(abs(d - (0.75 * 0.75 + 1.5 * 1.5)) < 1e-15)
        var seeded = FirstOrderLowPass<Double>()
        seeded.seed(x1)
        #expect(seeded.seeded && seeded.value == x1)
        seeded.reset()
        #expect(!seeded.seeded && seeded.value == .zero)
    }
}

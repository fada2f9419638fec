import MotionFusion
import Testing

/// The `SIMD3` members that 0.5 made public (`lengthOfVector`, `dotProduct`, `crossProduct`) are
/// deprecated, not removed: a client's code still compiles and gets the same values.
@Suite("Deprecated SIMD3 members")
struct DeprecatedVectorMembersTests {
    /// Reached through a protocol whose requirement is not deprecated, so calling it does not warn
    /// (the suite builds with warnings as errors in CI) while the deprecated members are still used
    /// exactly as a client would use them.
    private protocol OldNames {
        func values(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> (Double, Double, SIMD3<Double>)
    }

    private struct Client: OldNames {
        @available(*, deprecated)
        func values(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> (Double, Double, SIMD3<Double>) {
            (a.lengthOfVector, a.dotProduct(b), a.crossProduct(b))
        }
    }

    @Test func oldNamesStillCompileAndAgree() {
        let old: any OldNames = Client()
        let (length, dot, cross) = old.values(SIMD3(3, 4, 12), SIMD3(-1, 2, 0.5))
        #expect(length == 13)
        #expect(dot == 11)  // −3 + 8 + 6
        // (3, 4, 12) × (−1, 2, 0.5) = (4·0.5 − 12·2, 12·(−1) − 3·0.5, 3·2 − 4·(−1)).
        let expected = SIMD3<Double>(-22, -13.5, 10)
        #expect(cross == expected)
        let (_, _, z) = old.values(SIMD3(1, 0, 0), SIMD3(0, 1, 0))
        #expect(z == SIMD3(0, 0, 1))
    }
}

import Testing

@testable import MotionFusionCore

/// The lanes' own mask reductions against the standard library's `all(_:)` and `any(_:)`: every
/// mask of every width (2¹⁶ of `SIMD16`), in the `Float` and the `Double` lane types.
struct FusionLanesTests {
    /// The masks whose lane `i` is bit `i` of `bits`, for every `bits` below 2^width, and the lanes'
    /// reductions of each compared with the standard library's.
    static func mismatches<Lanes: FusionLanes>(_: Lanes.Type) -> [Int] {
        let width = Lanes.scalarCount
        var wrong: [Int] = []
        for bits in 0..<(1 << width) {
            var values = Lanes()
            for i in 0..<width { values[i] = (bits >> i) & 1 == 1 ? 1 : 0 }
            let mask = Lanes.laneEqual(values, Lanes(repeating: 1))
            if Lanes.allLanes(mask) != all(mask) || Lanes.anyLane(mask) != any(mask) { wrong.append(bits) }
            // The mask is what was meant (so that the comparison above is not of two constants).
            if any(mask) != (bits != 0) || all(mask) != (bits == (1 << width) - 1) { wrong.append(-bits - 1) }
        }
        return wrong
    }

    @Test func maskReductionsAreTheStandardLibrarys() {
        #expect(Self.mismatches(SIMD2<Float>.self).isEmpty)
        #expect(Self.mismatches(SIMD4<Float>.self).isEmpty)
        #expect(Self.mismatches(SIMD8<Float>.self).isEmpty)
        #expect(Self.mismatches(SIMD16<Float>.self).isEmpty)
        #expect(Self.mismatches(SIMD2<Double>.self).isEmpty)
        #expect(Self.mismatches(SIMD4<Double>.self).isEmpty)
        #expect(Self.mismatches(SIMD8<Double>.self).isEmpty)
        #expect(Self.mismatches(SIMD16<Double>.self).isEmpty)
    }
}

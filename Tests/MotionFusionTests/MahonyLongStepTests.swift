import Foundation
import MotionFusion
import Testing
import RealModule

/// One absurdly long step must not disable Mahony's filter for good: with a large integral gain
/// (ki = 1e10, a valid value) one step of 1e300 s made the bias NaN and left the attitude stuck
/// (found while bounding Madgwick's filter). Steps longer than 1 s are integrated as 1 s, and an
/// integral step that overflows is skipped.
struct MahonyLongStepTests {
    @Test(arguments: [300.0, 1e300], [1e-2, 1e10])
    func recoversFromOneLongStep(longStep: Double, ki: Double) {
        var filter = MahonyFilter<Double>(settings: .init(ki: ki))
        var random = SplitMix64(seed: 9)
        func update(_ dt: Double) {
            filter.update(
                gyroscope: 0.002 * random.gaussianVector(), accelerometer: SIMD3(0, 0, 9.81) + 0.02 * random.gaussianVector(),
                magnetometer: SIMD3(20, 5, -40) + 0.2 * random.gaussianVector(), dt: dt)
        }
        for _ in 0..<100 { update(0.01) }
        update(longStep)
        for _ in 0..<30_000 { update(0.01) }
        let q = filter.quaternion
        #expect(q.isFinite && filter.gyroscopeBias.x.isFinite)
        let up = q.inverseAct(on: filter.frame.up(Double.self))
        let inclination = Double.acos(min(1, up.z / up.length))
        #expect(inclination < Double.pi / 180, "inclination \(inclination * 180 / .pi)°")
        #expect(filter.gyroscopeBias.length <= 0.1 + 1e-12, "bias \(filter.gyroscopeBias)")
    }
}

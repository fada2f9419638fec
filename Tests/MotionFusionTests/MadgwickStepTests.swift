import MotionFusion
import RealModule
import Testing

/// The fast Madgwick step's bookkeeping, checked against closed forms: the objective error it
/// reports, and what it does with absurd but finite input.
struct MadgwickStepTests {
    /// Level attitude (identity, NWU), the accelerometer tilted by θ about x, the magnetometer turned
    /// by ψ about z: the objective is f = (predicted up − â, predicted field − m̂), with
    /// |f_up| = 2 sin(θ/2) and, since the reference field is taken from the measurement itself,
    /// |f_field| = 2 cos(dip) sin(ψ/2).
    @Test(arguments: [false, true])
    func objectiveErrorIsTheObjectivesLength(magnetic: Bool) {
        let theta = 0.3, psi = 0.5, dip = 1.1
        var filter = MadgwickFilter<Double>(settings: .init(frame: .nwu))
        filter.reset(to: .identity)
        let acc = SIMD3(0, 9.81 * Double.sin(theta), 9.81 * Double.cos(theta))
        let field = 48 * SIMD3(Double.cos(dip) * Double.cos(psi), Double.cos(dip) * Double.sin(psi), -Double.sin(dip))
        filter.update(gyroscope: .zero, accelerometer: acc, magnetometer: magnetic ? field : nil, dt: 0.01)
        let up = 2 * Double.sin(theta / 2)
        let north = 2 * Double.cos(dip) * Double.sin(psi / 2)
        let expected = magnetic ? (up * up + north * north).squareRoot() : up
        #expect(abs(filter.objectiveError - expected) < 1e-12, "\(filter.objectiveError) vs \(expected)")
        #expect(filter.usedAccelerometer && filter.usedMagnetometer == magnetic)
    }

    /// A finite but absurd magnetometer (beyond 4e9 in Float) is skipped like a missing one; an
    /// absurd time step gives no NaN.
    @Test func absurdFiniteInputGivesNoNaN() {
        var filter = MadgwickFilter<Float>(settings: .init(zeta: 0.01))
        filter.update(gyroscope: .zero, accelerometer: SIMD3(0, 0, 9.81), magnetometer: SIMD3(20, 0, -40), dt: 0.01)
        filter.update(
            gyroscope: SIMD3(0.1, 0, 0), accelerometer: SIMD3(0.5, 0, 9.8), magnetometer: SIMD3(1e18, 3e18, -1e18),
            dt: 0.01)
        #expect(filter.usedAccelerometer && !filter.usedMagnetometer)
        #expect(filter.objectiveError.isFinite)
        for dt: Float in [1e10, 1e30, 3e38] {
            filter.update(gyroscope: SIMD3(0.1, 0, 0), accelerometer: SIMD3(0.5, 0, 9.8), magnetometer: SIMD3(20, 0, -40), dt: dt)
            let q = filter.quaternion
            #expect(q.components.x.isFinite && q.components.y.isFinite && q.components.z.isFinite && q.components.w.isFinite)
            #expect(abs(q.length - 1) < 1e-5)
            #expect(filter.gyroscopeBias.x.isFinite && filter.gyroscopeBias.y.isFinite && filter.gyroscopeBias.z.isFinite)
        }
    }
}

/// Regressions found by fuzzing (scripts/fuzz).
struct FuzzRegressionTests {
    /// Found by FuzzFilters: a finite gyroscope so large that |ω| Δt overflows Float made the
    /// complementary filter's rotation NaN. Such a rotation is not integrated: the step equals the
    /// same step with the gyroscope at zero, and the attitude stays a unit quaternion.
    @Test func complementaryFilterDoesNotIntegrateARotationBeyondFloat() {
        let start = Quaternion<Float>(w: -0.47548857, x: 0.10047595, y: 0.4487685, z: 0.749948).normalized()
        let accelerometer = SIMD3<Float>(5.459276754552108e-19, 5.459276754552108e-19, 5.459278822503639e-19)
        let magnetometer = SIMD3<Float>(5.594802026112796e-19, 0.7470570206642151, Float(bitPattern: 0x0000_3F3F))  // a subnormal
        var absurd = ComplementaryFilter<Float>()
        absurd.reset(to: start)
        absurd.update(
            gyroscope: SIMD3(3.3961513649220713e+38, 3.3961513649220713e+38, 3.3912706058750486e+38),
            accelerometer: accelerometer, magnetometer: magnetometer, dt: 0.7470589876174927)
        var still = ComplementaryFilter<Float>()
        still.reset(to: start)
        still.update(gyroscope: .zero, accelerometer: accelerometer, magnetometer: magnetometer, dt: 0.7470589876174927)
        #expect(absurd.quaternion.isFinite && abs(absurd.quaternion.length - 1) < 1e-6)
        #expect(absurd.quaternion == still.quaternion)
    }

    /// Nearly opposite vectors whose cross product's squared length is subnormal in Float: the
    /// shortest-arc rotation must still be a unit quaternion that takes one to the other.
    @Test func shortestArcBetweenNearlyOppositeFloatVectors() throws {
        let from = SIMD3<Float>(-6.6e-23, 4e-30, -1)
        let q = try Quaternion.rotation(from: from, to: SIMD3(0, 0, 1))
        #expect(abs(q.length - 1) < 1e-6, "length \(q.length)")
        let turned = q.act(on: from)
        #expect(abs(turned.z - 1) < 1e-6 && abs(turned.x) < 1e-6 && abs(turned.y) < 1e-6)
    }

    /// The fuzzer's input: a Mahony filter initialized from an accelerometer pointing almost exactly
    /// down (and an absurd but finite gyroscope sample) must report a unit attitude.
    @Test func mahonyInitializedUpsideDownHasAUnitAttitude() {
        var filter = MahonyFilter<Float>()
        filter.update(
            gyroscope: SIMD3(8.796_129_7e12, 7.746_321_3e31, -249_992_992),
            accelerometer: SIMD3(-2.842_240_4e-14, Float(bitPattern: 121), -431_595_520),  // 1.695571e-43 (subnormal)
            magnetometer: SIMD3(-431_602_144, 1.767_842_1e12, 2.567_297e29), dt: 1.210_845_4e-32)
        #expect(filter.isInitialized)
        #expect(abs(filter.quaternion.length - 1) < 1e-5, "length \(filter.quaternion.length)")
    }

    /// The fuzzer's second input: an accelerometer pointing down with a subnormal sideways component
    /// made sin(half)/|axis| overflow and the initial attitude NaN.
    @Test func initializingFromASubnormalTiltGivesNoNaN() throws {
        let q = try Quaternion.rotation(from: SIMD3<Float>(0, 2.350_988_7e-38, -128.694_1), to: SIMD3(0, 0, 1))
        #expect(q.components.x.isFinite && q.components.y.isFinite && q.components.z.isFinite && q.components.w.isFinite)
        #expect(abs(q.length - 1) < 1e-6)
        var filter = MahonyFilter<Float>()
        filter.update(
            gyroscope: SIMD3(Float(bitPattern: 65613), 0, 0),  // 9.19434e-41 (subnormal)
            accelerometer: SIMD3(0, 2.350_988_7e-38, -128.694_1),
            magnetometer: SIMD3(0, 4.303_041e21, 1.881_399_7e-20), dt: 5.127_393e34)
        #expect(filter.isInitialized)
        #expect(!filter.quaternion.w.isNaN && abs(filter.quaternion.length - 1) < 1e-5)
    }
}

import Foundation
import MotionFusion
import Testing
import RealModule

/// One absurdly long step must not disable Madgwick's filter for good: with bias compensation on
/// (ζ > 0), a step of 300 s once drove the bias estimate to −1.8 rad/s, and the inclination was
/// still 117° off after 300 s at rest; a step of 1e300 s overflowed the state.
struct MadgwickLongStepTests {
    /// The angle between the filter's predicted up direction (in the sensor frame) and the
    /// accelerometer's.
    static func inclinationError<S: FusionScalar>(_ filter: MadgwickFilter<S>, accelerometer: SIMD3<S>) -> Double {
        let q = Quaternion<Double>(filter.quaternion)
        let predicted = q.inverseAct(on: filter.frame.up(Double.self))
        let measured = SIMD3<Double>(accelerometer)
        let cosine = (predicted * measured).sum() / (predicted.length * measured.length)
        return Double.acos(max(-1, min(1, cosine)))
    }

    /// At rest and level, with sensor noise (0.002 rad/s, 0.02 m/s², 0.2 µT, so that the
    /// objective's gradient points somewhere, as in every real recording): one second, one update
    /// with `dt`, then 300 s at 100 Hz. Returns the final inclination error against the true up
    /// direction, the bias estimate, and whether every attitude on the way was finite.
    static func recovery<S: FusionScalar>(
        _: S.Type, longStep: S, magnetometer: Bool
    ) -> (inclination: Double, bias: SIMD3<Double>, finite: Bool) {
        var filter = MadgwickFilter<S>(settings: .init(zeta: 0.015))
        var random = SplitMix64(seed: 5)
        func update(_ dt: S) {
            let gyroscope = SIMD3<S>(0.002 * random.gaussianVector())
            let accelerometer = SIMD3<S>(SIMD3(0, 0, 9.81) + 0.02 * random.gaussianVector())
            let field = SIMD3<S>(SIMD3(20, 5, -40) + 0.2 * random.gaussianVector())
            filter.update(gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: magnetometer ? field : nil, dt: dt)
        }
        for _ in 0..<100 { update(0.01) }
        update(longStep)
        var finite = true
        for _ in 0..<30_000 {
            update(0.01)
            let q = filter.quaternion.components
            finite = finite && q.x.isFinite && q.y.isFinite && q.z.isFinite && q.w.isFinite
        }
        return (inclinationError(filter, accelerometer: SIMD3(0, 0, 1)), SIMD3<Double>(filter.gyroscopeBias), finite)
    }

    @Test(arguments: [300.0, 1e300], [false, true])
    func recoversFromOneLongStepInDouble(longStep: Double, magnetometer: Bool) {
        let result = Self.recovery(Double.self, longStep: longStep, magnetometer: magnetometer)
        #expect(result.finite)
        #expect(result.inclination < Double.pi / 180, "inclination \(result.inclination * 180 / .pi)°")
        #expect(result.bias.length < 0.01, "bias \(result.bias) rad/s")
    }

    @Test(arguments: [Float(300), 1e30, 3e38], [false, true])
    func recoversFromOneLongStepInFloat(longStep: Float, magnetometer: Bool) {
        let result = Self.recovery(Float.self, longStep: longStep, magnetometer: magnetometer)
        #expect(result.finite)
        #expect(result.inclination < Double.pi / 180, "inclination \(result.inclination * 180 / .pi)°")
        #expect(result.bias.length < 0.01, "bias \(result.bias) rad/s")
    }

    /// Settings encoded before `maximumBias` existed still decode, with its default.
    @Test func settingsWithoutTheBiasBoundDecode() throws {
        var object = try JSONSerialization.jsonObject(
            with: JSONEncoder().encode(MadgwickFilter<Double>.Settings(beta: 0.2, zeta: 0.015, maximumBias: 0.5))) as! [String: Any]
        #expect(object["maximumBias"] as? Double == 0.5)
        object["maximumBias"] = nil
        let settings = try JSONDecoder().decode(
            MadgwickFilter<Double>.Settings.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(settings == MadgwickFilter<Double>.Settings(beta: 0.2, zeta: 0.015, maximumBias: 0.1))
    }
}

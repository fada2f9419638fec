import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// The stream around the filters: outputs, flags, batch versus streaming, hostile input.
@Suite("Fusion stream")
struct FusionStreamTests {
    static let g = 9.80665

    /// A synthetic recording: a smooth rotation, with gravity and an ENU field. Gyroscope sample k is
    /// the (constant) rate over the step from t[k−1] to t[k], as the filters integrate it.
    static func recording(count: Int = 2000, dt: Double = 0.01) -> (
        t: [Double], gyro: [SIMD3<Double>], acc: [SIMD3<Double>], mag: [SIMD3<Double>]
    ) {
        var q = Quaternion<Double>(angle: 0.3, axis: SIMD3(1, 0.5, 0))
        var t: [Double] = [], gyro: [SIMD3<Double>] = [], acc: [SIMD3<Double>] = [], mag: [SIMD3<Double>] = []
        let field = SIMD3<Double>(0, 20, -45)  // ENU: north and down
        for k in 0..<count {
            let time = Double(k) * dt
            let w = SIMD3(0.8 * sin(time), 0.5 * cos(0.7 * time), 1.2 * sin(0.3 * time))
            if k > 0 { q = (q * Quaternion(rotationVector: w * dt)).normalized() }
            t.append(time)
            gyro.append(w)
            acc.append(q.inverseAct(on: SIMD3(0, 0, g)))
            mag.append(q.inverseAct(on: field))
        }
        return (t, gyro, acc, mag)
    }

    @Test func restOutputsFollowTheDocumentedSigns() {
        // The complementary filter is exact on noise-free data (Madgwick's normalized gradient makes
        // it wander by up to β·Δt even at the true attitude, as its equations say).
        var stream = FusionStream(filter: ComplementaryFilter<Double>())
        var out = stream.update(timestamp: 0, gyroscope: .zero, accelerometer: SIMD3(0, 0, Self.g),
            magnetometer: SIMD3(0, 20, -45))
        for k in 1...10 {
            out = stream.update(timestamp: Double(k) * 0.01, gyroscope: .zero,
                accelerometer: SIMD3(0, 0, Self.g), magnetometer: SIMD3(0, 20, -45))
        }
        // Lying flat, face up, aligned with ENU: identity, gravity (0, 0, −g), no linear acceleration.
        #expect(out.quaternion.angle(to: .identity) < 1e-12)
        #expect((out.gravity - SIMD3(0, 0, -Self.g)).length < 1e-10)
        #expect(out.linearAcceleration.length < 1e-10)
        #expect(out.flags.contains(.accelerometerUsed) && out.flags.contains(.magnetometerUsed))
        // Pushed up at 1 m/s²: the specific force grows, the linear acceleration points up.
        out = stream.update(timestamp: 0.2, gyroscope: .zero, accelerometer: SIMD3(0, 0, Self.g + 1),
            magnetometer: SIMD3(0, 20, -45))
        #expect((out.linearAcceleration - SIMD3(0, 0, 1)).length < 1e-6)
        #expect((out.earthLinearAcceleration - SIMD3(0, 0, 1)).length < 1e-6)
    }

    @Test func initializationFromFirstSampleInEachFrame() {
        let tilt = Quaternion<Double>(angle: 0.4, axis: SIMD3(1, -1, 0.3))  // sensor → ENU
        let acc = tilt.inverseAct(on: SIMD3(0, 0, Self.g))
        let mag = tilt.inverseAct(on: SIMD3(0, 20, -45))
        for frame in EarthFrame.allCases {
            var filter = MadgwickFilter<Double>(settings: .init(frame: frame))
            let initialized = filter.initialize(accelerometer: acc, magnetometer: mag)
            #expect(initialized)
            let expected = frame.fromNWU(Double.self) * EarthFrame.enu.fromNWU(Double.self).conjugate * tilt
            #expect(filter.quaternion.angle(to: expected) < 1e-12, "\(frame)")
            // Up and north land where the frame says.
            #expect((filter.quaternion.act(on: acc / Self.g) - frame.up(Double.self)).length < 1e-12)
            let m = filter.quaternion.act(on: mag)
            let horizontal = m - frame.up(Double.self) * m.dot(frame.up(Double.self))
            #expect((horizontal / horizontal.length - frame.north(Double.self)).length < 1e-12)
        }
        var sixD = MahonyFilter<Double>()
        let sixDInitialized = sixD.initialize(accelerometer: acc, magnetometer: nil)
        #expect(sixDInitialized)
        #expect((sixD.quaternion.act(on: acc / Self.g) - SIMD3(0, 0, 1)).length < 1e-12)
        let fromZero = sixD.initialize(accelerometer: .zero, magnetometer: nil)
        let fromNaN = sixD.initialize(accelerometer: SIMD3(.nan, 0, 1), magnetometer: nil)
        #expect(!fromZero && !fromNaN)
    }

    @Test func batchEqualsStreamingForEveryFilter() throws {
        let r = Self.recording()
        func check<F: AttitudeFilter>(_ filter: F) throws where F.Scalar == Double {
            var a = FusionStream(filter: filter, biasEstimator: GyroscopeBiasEstimator())
            var b = a
            let batch = try a.process(timestamps: r.t, gyroscope: r.gyro, accelerometer: r.acc, magnetometer: r.mag)
            for i in r.t.indices {
                let single = b.update(timestamp: r.t[i], gyroscope: r.gyro[i], accelerometer: r.acc[i],
                    magnetometer: r.mag[i])
                #expect(single == batch[i])
            }
        }
        try check(MadgwickFilter<Double>())
        try check(MahonyFilter<Double>())
        try check(ComplementaryFilter<Double>())
        var stream = FusionStream(filter: MadgwickFilter<Double>())
        #expect(throws: FusionError.lengthMismatch(expected: 2000, found: 1999, what: "accelerometer")) {
            try stream.process(timestamps: r.t, gyroscope: r.gyro, accelerometer: Array(r.acc.dropLast()))
        }
    }

    @Test func filtersTrackASyntheticRotation() throws {
        let r = Self.recording()
        // The truth again, for scoring.
        var q = Quaternion<Double>(angle: 0.3, axis: SIMD3(1, 0.5, 0))
        var truth: [Quaternion<Double>] = []
        for k in r.t.indices {
            if k > 0 { q = (q * Quaternion(rotationVector: r.gyro[k] * 0.01)).normalized() }
            truth.append(q)
        }
        func worst<F: AttitudeFilter>(_ filter: F) throws -> Double where F.Scalar == Double {
            var stream = FusionStream(filter: filter)
            let out = try stream.process(timestamps: r.t, gyroscope: r.gyro, accelerometer: r.acc, magnetometer: r.mag)
            return zip(out, truth).map { $0.quaternion.angle(to: $1) }.max()!
        }
        // Noise-free data. The complementary filter integrates exactly and corrects after predicting,
        // so it is exact. Madgwick and Mahony, as published (and as `ahrs` runs them), compare the
        // measurement of sample k with the attitude of sample k − 1: they lag by about one step of
        // rotation, |ω|·Δt ≤ 1.5 rad/s · 0.01 s here. Without corrections, their explicit Euler
        // integration alone stays within 2e-4 rad.
        let lag = 1.5 * 0.01
        #expect(try worst(MadgwickFilter<Double>()) < 1.5 * lag)
        #expect(try worst(MahonyFilter<Double>()) < 1.5 * lag)
        #expect(try worst(MahonyFilter<Double>(settings: .init(kp: 0, ki: 0))) < 2e-4)
        #expect(try worst(ComplementaryFilter<Double>()) < 1e-9)
    }

    @Test func hostileInputNeverGivesNaN() throws {
        let values: [Double] = [.nan, .infinity, -.infinity, 0, 1e308, -1e308, Double.leastNormalMagnitude / 1024, 9.81, -3]
        var random = TestRandom(seed: 99)
        func pick() -> Double { values[Int(random.next() % UInt64(values.count))] }
        func vector() -> SIMD3<Double> { SIMD3(pick(), pick(), pick()) }
        var streams = (
            FusionStream(filter: MadgwickFilter<Double>(settings: .init(zeta: 0.01)), biasEstimator: GyroscopeBiasEstimator()),
            FusionStream(filter: MahonyFilter<Double>(), biasEstimator: GyroscopeBiasEstimator()),
            FusionStream(filter: ComplementaryFilter<Double>(), biasEstimator: GyroscopeBiasEstimator()),
            FusionStream(filter: MadgwickFilter<Float>(), biasEstimator: GyroscopeBiasEstimator())
        )
        var t = 0.0
        for k in 0..<20_000 {
            // Timestamps that repeat, go back, jump or are not numbers.
            switch k % 7 {
            case 0: t += 0.01
            case 1: t += 0
            case 2: t -= 0.5
            case 3: t += 3600
            case 4: t = k % 3 == 0 ? .nan : t + 0.01
            default: t = (t.isFinite ? t : 0) + 0.01
            }
            let gyro = k % 3 == 0 ? vector() : SIMD3(0.1, -0.2, 0.3)
            let acc = k % 4 == 0 ? vector() : SIMD3(0, 0, 9.81)
            let mag = k % 5 == 0 ? (k % 2 == 0 ? nil : vector()) : SIMD3(0, 20, -45)
            let outputs = [
                streams.0.update(timestamp: t, gyroscope: gyro, accelerometer: acc, magnetometer: mag).quaternion,
                streams.1.update(timestamp: t, gyroscope: gyro, accelerometer: acc, magnetometer: mag).quaternion,
                streams.2.update(timestamp: t, gyroscope: gyro, accelerometer: acc, magnetometer: mag).quaternion,
                Quaternion<Double>(streams.3.update(timestamp: t, gyroscope: SIMD3<Float>(gyro),
                    accelerometer: SIMD3<Float>(acc), magnetometer: mag.map(SIMD3<Float>.init)).quaternion),
            ]
            for q in outputs {
                #expect(q.isFinite && abs(q.length - 1) < 1e-6, "step \(k): \(q)")
                if !q.isFinite { return }
            }
            #expect(VectorCheck.isFinite(streams.0.filter.gyroscopeBias))
            #expect(VectorCheck.isFinite(streams.1.filter.gyroscopeBias))
        }
    }

    @Test func saturationAndNotInitializedFlags() {
        var stream = FusionStream(
            filter: MadgwickFilter<Double>(),
            settings: .init(gyroscopeRange: 34.9, accelerometerRange: 16 * 9.80665))
        var out = stream.update(timestamp: 0, gyroscope: .zero, accelerometer: .zero)
        #expect(out.flags.contains(.notInitialized))
        #expect(out.quaternion == .identity)
        out = stream.update(timestamp: 0.01, gyroscope: .zero, accelerometer: SIMD3(0, 0, 9.8))
        #expect(!out.flags.contains(.notInitialized))
        out = stream.update(timestamp: 0.02, gyroscope: SIMD3(40, 0, 0), accelerometer: SIMD3(0, 0, 200))
        #expect(out.flags.contains(.gyroscopeSaturated))
        #expect(out.flags.contains(.accelerometerSaturated))
        #expect(!out.flags.contains(.accelerometerUsed))
    }
}

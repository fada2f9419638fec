import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// The physics of ``MotionScenario/Segment/run(seconds:running:)`` as ``MotionScenario/Running``
/// documents it, on noiseless runs sampled so that steps, strides and loops are whole numbers of
/// samples: foot strikes, zero net rotation per stride, loops about the vertical, a specific force
/// averaging 1 g up, and the accelerometer's clipping.
@Suite("Running scenario")
struct RunningScenarioTests {
    static let degree = Double.pi / 180
    static let g = 9.80665
    static let up = SIMD3<Double>(0, 0, 1)

    /// Noiseless, unbiased, unclipped samples of one run segment.
    static func samples(_ running: MotionScenario.Running, seconds: Double, rate: Double) throws -> [MotionScenario.Sample] {
        var settings = MotionScenario.Settings()
        settings.sampleRate = rate
        settings.gyroscopeBias = .zero
        settings.gyroscopeNoise = 0
        settings.accelerometerNoise = 0
        settings.magnetometerNoise = 0
        settings.initialAttitude = try #require(MotionScenario.named("running")).settings.initialAttitude
        return Array(try MotionScenario([.run(seconds: seconds, running: running)], settings: settings).samples())
    }

    /// Straight, no sway, no swing: the specific force is a half-sine of 2.8 g for π / 5.6 (56.1 %)
    /// of each step, 0 g in the flight, 1 g on average, along the vertical; the device does not turn.
    @Test func eachStepIsAStancePulseThenAFreeFall() throws {
        var running = MotionScenario.Running()
        running.forwardSway = 0
        running.lateralSway = 0
        running.swingAmplitude = 0
        running.turnRate = 0
        // 1000 samples per step, ten steps.
        let samples = try Self.samples(running, seconds: 3.71, rate: 2700)
        let start = samples[0].truth
        let steps = samples.prefix(10_000)
        var largest = 0.0
        var total = 0.0
        var flight = 0
        for s in steps {
            #expect(s.truth.angle(to: start) < 1e-12)
            let force = s.truth.act(on: s.accelerometer)
            #expect(abs(force.x) < 1e-9 && abs(force.y) < 1e-9)
            largest = max(largest, force.z)
            total += force.z
            if abs(force.z) < 1e-9 { flight += 1 }
        }
        #expect(abs(largest - 2.8 * Self.g) < 1e-4 * Self.g, "\(largest / Self.g) g")
        #expect(abs(total / Double(steps.count) - Self.g) < 1e-3 * Self.g, "\(total / Double(steps.count) / Self.g) g")
        // π / 5.6 of each step is stance: 561 samples of 1000 (the first, at the strike, reads 0).
        #expect(flight == 10 * (1000 - 560), "\(flight)")
    }

    /// The swing turns the device by 0 over each stride, and the runner turns 36°/s: after one stride
    /// (20/27 s) the device is the start turned 26.7° about the vertical, after one loop (10 s) it is
    /// back at the start, and after two turning stretches and two straight ones (70 s, each straight
    /// easing out and in over 1 s) it has turned 2 × 31 × 36° = 2232° (72°).
    @Test func strideAndLoopsTurnTheDeviceAboutTheVerticalOnly() throws {
        // 200 samples per stride.
        let samples = try Self.samples(MotionScenario.Running(), seconds: 70, rate: 270)
        let start = samples[0].truth
        func turned(_ degrees: Double) -> Quaternion<Double> { Quaternion(angle: degrees * Self.degree, axis: Self.up) * start }
        // The integration's own error: 1e-8, 1e-7 and 6e-7 rad.
        #expect(samples[200].truth.angle(to: turned(36 * 20 / 27)) < 5e-6, "\(samples[200].truth)")
        #expect(samples[2700].truth.angle(to: start) < 5e-6, "\(samples[2700].truth)")
        #expect(samples[18_900].truth.angle(to: turned(2232)) < 5e-6, "\(samples[18_900].truth)")
        // Mid-stride the arm is at the end of its swing: 25° from mid-swing, about a horizontal axis.
        let quarter = samples[50].truth * (Quaternion(angle: 36 * 5 / 27 * Self.degree, axis: Self.up) * start).conjugate
        #expect(abs(quarter.angle / Self.degree - 25) < 1e-4, "\(quarter.angle / Self.degree)°")
        #expect(abs(quarter.axis.z) < 1e-6, "\(quarter.axis)")
    }

    /// Over 20 s (two loops, 27 strides) everything periodic averages out: the specific force in ENU
    /// averages 1 g up — the runner neither rises nor sinks, the hand stays with the body and the
    /// centripetal acceleration turns full circles. Sway, swing, arm and turn all included.
    @Test func theSpecificForceAveragesOneGUp() throws {
        let samples = try Self.samples(MotionScenario.Running(), seconds: 20, rate: 270)
        var mean = SIMD3<Double>.zero
        let whole = samples.dropLast()
        for s in whole { mean += s.truth.act(on: s.accelerometer) / Double(whole.count) }
        // Sampling's error: 0.0002 g.
        #expect((mean - SIMD3(0, 0, Self.g)).length < 0.001 * Self.g, "\(mean)")
    }

    /// With a full scale every axis reads at most ±full scale, and the reading is the unclipped
    /// one (same seed) clamped; the other sensors are unchanged.
    @Test func theAccelerometerClipsAtItsFullScale() throws {
        var clipped = try #require(MotionScenario.named("running", seed: 5))
        clipped.segments = [.run(seconds: 10)]
        let fullScale = try #require(clipped.settings.accelerometerFullScale)
        #expect(fullScale == 2 * Self.g)
        var unclipped = clipped
        unclipped.settings.accelerometerFullScale = nil
        var saturated = 0
        for (a, b) in zip(try clipped.samples(), try unclipped.samples()) {
            #expect(a.gyroscope == b.gyroscope && a.magnetometer == b.magnetometer && a.truth == b.truth)
            let limit = SIMD3(repeating: fullScale)
            #expect(a.accelerometer == b.accelerometer.clamped(lowerBound: -limit, upperBound: limit))
            if a.accelerometer != b.accelerometer { saturated += 1 }
        }
        #expect(saturated > 100, "\(saturated) of 1001 samples")
    }
}

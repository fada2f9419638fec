import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// What the library does with settings outside their valid ranges given directly (without
/// `validate()`): each value is moved into its range when the settings are set — beyond a closed
/// end to that end, NaN or beyond an open end to the default — so a filter with such settings runs
/// exactly as one given the moved values, never on the absurd ones (`biasLimit` −1 once gave a
/// 112° error).
@Suite("Settings clamp")
struct SettingsClampTests {
    static let recording: IMURecording = {
        var settings = SyntheticMotion.Settings()
        settings.duration = 30
        settings.seed = 12
        return try! SyntheticMotion.generate(settings)  // valid settings: cannot throw
    }()

    /// The attitudes of a filter over the recording (9D, through a stream).
    static func run<F: AttitudeFilter>(_ filter: F, biasEstimator: GyroscopeBiasEstimator<Double>? = nil) -> [Quaternion<Double>]
    where F.Scalar == Double {
        recording.fuse(filter, biasEstimator: biasEstimator).map(\.quaternion)
    }

    /// The same in Float, compared exactly too.
    static func runFloat(_ filter: InertialFrameFilter<Float>) -> [Quaternion<Float>] {
        var filter = filter
        var out: [Quaternion<Float>] = []
        for i in 0..<recording.count {
            let dt = i == 0 ? 0 : recording.timestamps[i] - recording.timestamps[i - 1]
            filter.update(
                gyroscope: SIMD3<Float>(recording.gyroscope[i]), accelerometer: SIMD3<Float>(recording.accelerometer[i]),
                magnetometer: SIMD3<Float>(recording.magnetometer![i]), dt: Float(dt))
            out.append(filter.quaternion)
        }
        return out
    }

    typealias Inertial = InertialFrameFilter<Double>.Settings

    /// Pairs (settings outside the ranges, the settings they must behave as).
    static let inertialCases: [(String, Inertial, Inertial)] = {
        func with(_ change: (inout Inertial) -> Void) -> Inertial {
            var s = Inertial()
            change(&s)
            return s
        }
        return [
            ("biasLimit -1", with { $0.biasLimit = -1 }, Inertial()),
            ("biasLimit 0", with { $0.biasLimit = 0 }, Inertial()),
            ("accelerometerTimeConstant 0", with { $0.accelerometerTimeConstant = 0 }, Inertial()),
            ("accelerometerTimeConstant +∞", with { $0.accelerometerTimeConstant = .infinity }, Inertial()),
            ("restTimeConstant NaN", with { $0.restTimeConstant = .nan }, Inertial()),
            ("rejectionGainFactor 0", with { $0.rejectionGainFactor = 0 }, with { $0.rejectionGainFactor = 1 }),
            ("gyroscopeScaleUncertainty -1", with { $0.gyroscopeScaleUncertainty = -1 }, with { $0.gyroscopeScaleUncertainty = 0 }),
            ("gyroscopeScaleUncertainty 0.5", with { $0.gyroscopeScaleUncertainty = 0.5 }, with { $0.gyroscopeScaleUncertainty = 0.1 }),
            ("correctionInterval -1", with { $0.correctionInterval = -1 }, with { $0.correctionInterval = 0 }),
        ]
    }()

    @Test func inertialFilterRunsOnTheClampedSettings() {
        for (what, bad, expected) in Self.inertialCases {
            #expect(Self.run(InertialFrameFilter(settings: bad)) == Self.run(InertialFrameFilter(settings: expected)), "\(what)")
            #expect(InertialFrameFilter(settings: bad).settings == expected, "\(what)")
        }
    }

    @Test func inertialFilterInFloatRunsOnTheClampedSettings() {
        var bad = InertialFrameFilter<Float>.Settings()
        bad.gyroscopeScaleUncertainty = 0.5
        bad.biasLimit = -1
        var expected = InertialFrameFilter<Float>.Settings()
        expected.gyroscopeScaleUncertainty = 0.1
        #expect(Self.runFloat(InertialFrameFilter(settings: bad)) == Self.runFloat(InertialFrameFilter(settings: expected)))
    }

    /// Setting the settings of a running filter clamps as the initializer does.
    @Test func settingsSetLaterAreClampedToo() {
        var inertial = InertialFrameFilter<Double>()
        inertial.settings.biasLimit = -1
        inertial.settings.rejectionGainFactor = 0.5
        #expect(inertial.settings.biasLimit == Inertial().biasLimit)
        #expect(inertial.settings.rejectionGainFactor == 1)
        var madgwick = MadgwickFilter<Double>()
        madgwick.settings.beta = -1
        #expect(madgwick.settings.beta == 0)
        var mahony = MahonyFilter<Double>()
        mahony.settings = .init(kp: .nan)
        #expect(mahony.settings.kp == 1)
        var complementary = ComplementaryFilter<Double>()
        complementary.settings.magnetometerTimeConstant = -2
        #expect(complementary.settings.magnetometerTimeConstant == .infinity)
        var streams = MadgwickStreams<SIMD4<Double>>(streamCount: 3)
        streams.settings.zeta = -1
        #expect(streams.settings.zeta == 0)
    }

    @Test func otherFiltersRunOnTheClampedSettings() {
        #expect(Self.run(MadgwickFilter(settings: .init(beta: -1))) == Self.run(MadgwickFilter(settings: .init(beta: 0))))
        #expect(Self.run(MadgwickFilter(settings: .init(zeta: .nan))) == Self.run(MadgwickFilter<Double>()))
        #expect(Self.run(MahonyFilter(settings: .init(kp: -1))) == Self.run(MahonyFilter(settings: .init(kp: 0))))
        #expect(Self.run(MahonyFilter(settings: .init(ki: .infinity))) == Self.run(MahonyFilter<Double>()))
        // The complementary filter's negative or NaN time constant turns the correction off, as
        // it always did (FilterDerivationTests): it becomes +∞.
        #expect(
            Self.run(ComplementaryFilter(settings: .init(accelerometerTimeConstant: -1)))
                == Self.run(ComplementaryFilter(settings: .init(accelerometerTimeConstant: .infinity))))
        #expect(
            Self.run(ComplementaryFilter(settings: .init(magnetometerTimeConstant: .nan)))
                == Self.run(ComplementaryFilter(settings: .init(magnetometerTimeConstant: .infinity))))
    }

    @Test func biasEstimatorRunsOnTheClampedSettings() {
        let filter = MahonyFilter<Double>(settings: .init(ki: 0))
        let bad = GyroscopeBiasEstimator<Double>(settings: .init(lowPassTimeConstant: -1, maximumBias: .nan))
        #expect(Self.run(filter, biasEstimator: bad) == Self.run(filter, biasEstimator: GyroscopeBiasEstimator()))
        var later = GyroscopeBiasEstimator<Double>()
        later.settings.minimumDuration = -1
        #expect(later.settings.minimumDuration == 0)
    }

    @Test func streamAndClockRunOnTheClampedSettings() throws {
        var stream = FusionStream(
            filter: MadgwickFilter<Double>(), settings: .init(gravityMagnitude: .nan, gyroscopeRange: -1, accelerometerRange: .nan))
        #expect(stream.settings == .init())
        let output = stream.update(timestamp: 0, gyroscope: .zero, accelerometer: SIMD3(0, 0, 9.81))
        #expect(output.gravity.z == -9.80665)
        stream.settings.accelerometerRange = 0
        #expect(stream.settings.accelerometerRange == nil)

        // A gap before any regular step uses the nominal period; an invalid one is the default.
        var clock = SampleClock(maximumGap: -1, nominalPeriod: -1)
        #expect(clock.maximumGap == 1 && clock.nominalPeriod == 0.01)
        _ = clock.step(to: 0)
        let gap = clock.step(to: 5)
        #expect(gap.event == .gap && gap.dt == 0.01)
        clock.nominalPeriod = .nan
        #expect(clock.nominalPeriod == 0.01)
        let decoded = try JSONDecoder().decode(
            SampleClock.self, from: Data(#"{"maximumGap": -1, "nominalPeriod": 0, "counts": [0, 0, 0, 0]}"#.utf8))
        #expect(decoded.maximumGap == 1 && decoded.nominalPeriod == 0.01)
        #expect(throws: SettingsError.self) { try SampleClock.validate(maximumGap: -1, nominalPeriod: 0.01) }
    }
}

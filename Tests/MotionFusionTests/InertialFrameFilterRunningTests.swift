import Testing
import RealModule

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// The in-motion gyroscope bias estimate of ``InertialFrameFilter`` on the `running` scenario: a
/// phone in the hand of someone running in loops, its ±2 g accelerometer saturating at every foot
/// strike. Accelerometer errors seen while the device turns about the vertical look like gyroscope
/// drift; before d191577 the estimate ran away on such recordings (`motion fuse` of this scenario
/// with f6d0e71's defaults: bias errors of 4.8, 3.1 and 6.5°/s, more than 2°/s from 10 s on).
/// Every number is checked against the scenario's truth: its gyroscope bias setting and its true
/// attitude.
@Suite("Inertial frame filter while running")
struct InertialFrameFilterRunningTests {
    static let degree = Double.pi / 180
    /// τ_a, the accelerometer time constant: the fast start has converged after it.
    static let settled = 4.0

    /// The filter run over the scenario: the largest bias error per axis after ``settled`` while
    /// running, the error at the end, and the inclination error's RMS over the run, degrees.
    struct Errors {
        var largestBias = SIMD3<Double>.zero
        var finalBias = SIMD3<Double>.zero
        var inclinationRMS = 0.0
    }

    static func errors(
        _ recording: IMURecording, truthBias: SIMD3<Double>, runEnd: Double,
        settings: InertialFrameFilter<Double>.Settings = .init()
    ) -> Errors {
        var filter = InertialFrameFilter<Double>(settings: settings)
        var errors = Errors()
        var squares = 0.0
        var count = 0
        let up = SIMD3<Double>(0, 0, 1)
        for i in 0..<recording.count {
            let t = recording.timestamps[i]
            filter.update(
                gyroscope: recording.gyroscope[i], accelerometer: recording.accelerometer[i],
                magnetometer: recording.magnetometer![i], dt: i == 0 ? 0 : t - recording.timestamps[i - 1])
            let error = (filter.gyroscopeBias - truthBias) / degree
            errors.finalBias = error
            guard t < runEnd else { continue }
            if t >= settled {
                errors.largestBias = pointwiseMax(errors.largestBias, SIMD3(abs(error.x), abs(error.y), abs(error.z)))
            }
            // The angle between the estimated and the true vertical, seen in the device frame.
            let estimated = filter.quaternion.inverseAct(on: up)
            let truth = recording.truth![i].inverseAct(on: up)
            let angle = Double.atan2(y: estimated.cross(truth).length, x: estimated.dot(truth))
            squares += (angle / degree) * (angle / degree)
            count += 1
        }
        errors.inclinationRMS = (squares / Double(count)).squareRoot()
        return errors
    }

    static func scenario() throws -> (recording: IMURecording, bias: SIMD3<Double>, runEnd: Double, fullScale: Double) {
        let scenario = try #require(MotionScenario.named("running"))
        let run = try #require(scenario.schedule.first { $0.segment.name == "run" })
        let fullScale = try #require(scenario.settings.accelerometerFullScale)
        return (try scenario.generate(), scenario.settings.gyroscopeBias, run.end, fullScale)
    }

    /// With the defaults the estimate drifts while running, but less than half as far as the filter
    /// of 0.5.0 (f6d0e71: 3.82, 1.63 and 6.24°/s at most): measured at most 1.77, 0.73 and
    /// 2.65°/s, the truth being (0.5, −0.3, −0.5)°/s. Much of what remains is the turns' 0.19 g
    /// centripetal acceleration, a real acceleration that turns with the runner: the low-pass in
    /// the inertial frame keeps part of it as a tilt that turns too, which reads as bias, and the
    /// norm of the specific force barely shows it. The inclination error's RMS over the run is
    /// 5.6° (measured), and the final 5 s of rest bring the estimate back (measured: within
    /// 0.11, 0.09 and 0.22°/s).
    @Test func theBiasEstimateDoesNotRunAwayWhileRunning() throws {
        let (recording, bias, runEnd, _) = try Self.scenario()
        let errors = Self.errors(recording, truthBias: bias, runEnd: runEnd)
        for axis in 0..<3 {
            #expect(errors.largestBias[axis] < 3, "axis \(axis): \(errors.largestBias) °/s")
            #expect(abs(errors.finalBias[axis]) < 0.3, "axis \(axis) after the rest: \(errors.finalBias) °/s")
        }
        #expect(errors.largestBias.max() < 0.5 * 6.24, "\(errors.largestBias) °/s")
        #expect(errors.inclinationRMS < 7, "\(errors.inclinationRMS)°")
    }

    /// The scenario is the hard case: the accelerometer saturates on 16.9 % of the samples (the
    /// phones in the Inria trials: 7–21 %), and the same filter trusting its motion measurements as
    /// before d191577 (biasMotionSigma 0.05°/s, no heading uncertainty) drifts further than the
    /// defaults (measured: 3.95°/s at most against the defaults' 2.65°/s).
    @Test func theScenarioIsTheHardCase() throws {
        let (recording, bias, runEnd, fullScale) = try Self.scenario()
        let clipped = recording.accelerometer.count(where: { a in max(abs(a.x), abs(a.y), abs(a.z)) >= fullScale })
        let share = Double(clipped) / Double(recording.count)
        #expect(share > 0.07 && share < 0.21, "\(share)")

        var trusting = InertialFrameFilter<Double>.Settings()
        trusting.biasMotionSigma = 0.05 * Self.degree
        trusting.magneticHeadingUncertainty = 0
        let tight = Self.errors(recording, truthBias: bias, runEnd: runEnd, settings: trusting)
        let defaults = Self.errors(recording, truthBias: bias, runEnd: runEnd)
        let worst = (tight: tight.largestBias.max(), defaults: defaults.largestBias.max())
        #expect(worst.tight > 3, "\(tight.largestBias) °/s")
        #expect(worst.tight > 1.3 * worst.defaults, "\(tight.largestBias) against \(defaults.largestBias) °/s")
    }
}

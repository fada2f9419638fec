import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Accelerometer and gyroscope calibration against synthetic recordings whose true calibration is
/// known: static-segment detection, the accelerometer's bias, sensitivity and misalignment from
/// static orientations, and the gyroscope's bias and scale.
@Suite("Inertial calibration")
struct InertialCalibrationTests {
    static let g = 9.80665

    // MARK: - Synthetic recordings

    /// The inverse of a general 3 × 3 matrix (adjugate / determinant).
    static func inverse(_ m: RotationMatrix<Double>) -> RotationMatrix<Double> {
        let c0 = m.column1.cross(m.column2)
        let c1 = m.column2.cross(m.column0)
        let c2 = m.column0.cross(m.column1)
        let det = m.column0.dot(c0)
        return RotationMatrix(rows: c0 / det, c1 / det, c2 / det)
    }

    /// A random true accelerometer calibration: sensitivities 0.95–1.05, upper-triangular
    /// misalignment off-diagonals within ±0.02 (or none), bias within ±0.3 m/s² per axis.
    static func randomTruth(
        _ rng: inout TestRandom, misaligned: Bool
    ) -> InertialCalibration {
        let s = SIMD3(
            Double.random(in: 0.95...1.05, using: &rng), Double.random(in: 0.95...1.05, using: &rng),
            Double.random(in: 0.95...1.05, using: &rng))
        let off = misaligned
            ? SIMD3(
                Double.random(in: -0.02...0.02, using: &rng), Double.random(in: -0.02...0.02, using: &rng),
                Double.random(in: -0.02...0.02, using: &rng))
            : .zero
        let m = RotationMatrix<Double>(rows: SIMD3(1, off.x, off.y), SIMD3(0, 1, off.z), SIMD3(0, 0, 1))
        let b = SIMD3(
            Double.random(in: -0.3...0.3, using: &rng), Double.random(in: -0.3...0.3, using: &rng),
            Double.random(in: -0.3...0.3, using: &rng))
        return InertialCalibration(bias: b, sensitivity: s, misalignment: m)
    }

    /// A 100 Hz recording that rests in each orientation for `rest` seconds, with 1.5 s of motion
    /// (a smooth rotation to the next orientation plus a horizontal shake) between rests.
    /// Orientations are sensor → earth; the accelerometer reads `u = K⁻¹ c + b + noise` for the true
    /// specific force `c`; the gyroscope reads the true rate + `gyroBias` + noise (no scale error).
    static func staticRecording(
        orientations: [Quaternion<Double>], truth: InertialCalibration, rng: inout TestRandom,
        rest: Double = 2, move: Double = 1.5, accelerometerNoise: Double = 0.01,
        gyroBias: SIMD3<Double> = SIMD3(0.01, -0.02, 0.015), gyroNoise: Double = 0.002
    ) -> IMURecording {
        let k = RotationMatrix<Double>(
            columns: truth.misalignment.column0 * truth.sensitivity.x,
            truth.misalignment.column1 * truth.sensitivity.y, truth.misalignment.column2 * truth.sensitivity.z)
        let kInverse = inverse(k)
        var recording = IMURecording()
        let rate = 100.0
        var sample = 0
        func add(_ force: SIMD3<Double>, _ omega: SIMD3<Double>, rng: inout TestRandom) {
            recording.timestamps.append(Double(sample) / rate)
            recording.accelerometer.append(kInverse * force + truth.bias + accelerometerNoise * rng.gaussianVector())
            recording.gyroscope.append(omega + gyroBias + gyroNoise * rng.gaussianVector())
            sample += 1
        }
        let up = SIMD3<Double>(0, 0, g)
        for (index, q) in orientations.enumerated() {
            for _ in 0..<Int(rest * rate) { add(q.inverseAct(on: up), .zero, rng: &rng) }
            guard index + 1 < orientations.count else { break }
            // Body-frame rotation vector from this orientation to the next, with a smoothstep profile.
            let phi = (q.conjugate * orientations[index + 1]).rotationVector
            let steps = Int(move * rate)
            for step in 0..<steps {
                let tau = Double(step) / Double(steps)
                let sigma = tau * tau * (3 - 2 * tau)
                let sigmaDot = 6 * tau * (1 - tau) / move
                let attitude = q * Quaternion(rotationVector: phi * sigma)
                let phase = 2 * Double.pi * 3 * tau * move
                let shake = SIMD3(cos(phase), sin(phase), 0) * 2.0
                add(attitude.inverseAct(on: up + shake), phi * sigmaDot, rng: &rng)
            }
        }
        return recording
    }

    /// `count` random orientations.
    static func randomOrientations(_ count: Int, _ rng: inout TestRandom) -> [Quaternion<Double>] {
        (0..<count).map { _ in rng.rotation() }
    }

    /// The orientation in which gravity (up) is seen along `direction` in the sensor frame, turned
    /// about the vertical by `yaw`.
    static func orientation(up direction: SIMD3<Double>, yaw: Double) -> Quaternion<Double> {
        Quaternion(angle: yaw, axis: SIMD3(0, 0, 1)) * (try! Quaternion.rotation(from: direction, to: SIMD3(0, 0, 1)))
    }

    /// The six faces (each axis up and down), each tilted by up to 3° and turned about the vertical.
    static func sixFaces(_ rng: inout TestRandom) -> [Quaternion<Double>] {
        let faces: [SIMD3<Double>] = [
            SIMD3(1, 0, 0), SIMD3(-1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, -1, 0), SIMD3(0, 0, 1), SIMD3(0, 0, -1),
        ]
        return faces.map { face in
            let tilted = face + 0.05 * rng.gaussianVector()
            return orientation(up: tilted, yaw: Double.random(in: -Double.pi...Double.pi, using: &rng))
        }
    }

    struct Errors: CustomStringConvertible {
        var sensitivity = 0.0  // largest relative error
        var misalignment = 0.0  // largest absolute error of an element
        var bias = 0.0  // largest error as a fraction of g
        var description: String {
            String(format: "sensitivity %.2e, misalignment %.2e, bias %.2e g", sensitivity, misalignment, bias)
        }
    }

    static func errors(_ found: InertialCalibration, _ truth: InertialCalibration, gravity: Double = g) -> Errors {
        var e = Errors()
        for axis in 0..<3 {
            e.sensitivity = max(e.sensitivity, abs(found.sensitivity[axis] / truth.sensitivity[axis] - 1))
            e.bias = max(e.bias, abs(found.bias[axis] - truth.bias[axis]) / gravity)
        }
        e.misalignment = found.misalignment.maximumDifference(to: truth.misalignment)
        return e
    }

    // MARK: - Static segments

    /// Rests of 3 s, 2.5 s, 1.2 s (too short) and 3 s separated by an abrupt shake: the detector
    /// finds three segments, each the rest minus half a window at both ends, to the sample.
    @Test func detectsRestsWithTheirBoundaries() throws {
        var rng = TestRandom(seed: 11)
        let rests: [Range<Int>] = [0..<300, 500..<750, 900..<1020, 1100..<1401]
        let gravity = SIMD3<Double>(0.3, -0.2, 9.8)
        let bias = SIMD3<Double>(0.01, -0.02, 0.005)
        var recording = IMURecording()
        for k in 0..<1401 {
            let t = Double(k) * 0.01
            let resting = rests.contains { $0.contains(k) }
            let phase = 2 * Double.pi * 2 * t
            let shake = resting ? SIMD3<Double>.zero : 3 * SIMD3(cos(phase), sin(phase), 0)
            let spin = resting ? SIMD3<Double>.zero : SIMD3(0.5 * sin(phase), 0, 1)
            recording.timestamps.append(t)
            recording.accelerometer.append(gravity + shake + 0.01 * rng.gaussianVector())
            recording.gyroscope.append(bias + spin + 0.002 * rng.gaussianVector())
        }
        let segments = try StaticSegmentDetector().segments(in: recording)
        #expect(segments.map(\.startIndex) == [25, 525, 1125])
        #expect(segments.map(\.endIndex) == [275, 725, 1376])
        #expect(segments.map(\.sampleCount) == [250, 200, 251])
        for (segment, expected) in zip(segments, [2.49, 1.99, 2.5]) {
            #expect(abs(segment.duration - expected) < 1e-9)
            // Means within 5 standard errors of the truth.
            let n = Double(segment.sampleCount)
            #expect(magnitudes(segment.meanAccelerometer - gravity).max() < 5 * 0.01 / n.squareRoot())
            #expect(magnitudes(segment.meanGyroscope! - bias).max() < 5 * 0.002 / n.squareRoot())
            #expect(magnitudes(segment.accelerometerStandardDeviation / 0.01 - 1).max() < 0.3)
        }
        // Without the gyroscope the accelerometer alone finds the same rests.
        let accelerometerOnly = try StaticSegmentDetector().segments(
            timestamps: recording.timestamps, accelerometer: recording.accelerometer)
        #expect(accelerometerOnly.map(\.indices) == segments.map(\.indices))
        #expect(accelerometerOnly.allSatisfy { $0.meanGyroscope == nil })
        // A steady rotation (smooth gyroscope, still accelerometer) is not rest.
        var turning = recording
        turning.gyroscope = turning.gyroscope.map { $0 + SIMD3(0, 0, 1) }
        #expect(try StaticSegmentDetector().segments(in: turning).isEmpty)
        #expect(throws: CalibrationError.estimation(.countMismatch(expected: 1401, found: 3))) {
            try StaticSegmentDetector().segments(
                timestamps: recording.timestamps, accelerometer: recording.accelerometer,
                gyroscope: Array(recording.gyroscope.prefix(3)))
        }
    }

    /// A 6 s rest at 100 Hz, made awkward.
    static func longRest(_ rng: inout TestRandom) -> IMURecording {
        var recording = IMURecording()
        for k in 0...600 {
            recording.timestamps.append(Double(k) * 0.01)
            recording.accelerometer.append(SIMD3(0, 0, 9.81) + 0.01 * rng.gaussianVector())
            recording.gyroscope.append(0.002 * rng.gaussianVector())
        }
        return recording
    }

    /// Repeated timestamps add samples but no time; NaN samples are skipped without ending the
    /// segment; a jump in time longer than `maximumGap` or a step backward splits it.
    @Test func handlesRepeatedTimestampsNaNAndJumps() throws {
        var rng = TestRandom(seed: 12)
        let detector = StaticSegmentDetector()
        let plain = try detector.segments(in: Self.longRest(&rng))
        #expect(plain.count == 1)
        #expect(abs(plain[0].duration - 5.5) < 1e-9)
        #expect(plain[0].sampleCount == 551)

        // Every 10th sample logged twice with the same timestamp.
        var repeated = Self.longRest(&rng)
        for k in stride(from: 590, through: 10, by: -10) {
            repeated.timestamps.insert(repeated.timestamps[k], at: k)
            repeated.accelerometer.insert(repeated.accelerometer[k], at: k)
            repeated.gyroscope.insert(repeated.gyroscope[k], at: k)
        }
        let withRepeats = try detector.segments(in: repeated)
        #expect(withRepeats.count == 1)
        #expect(abs(withRepeats[0].duration - 5.5) < 1e-9)
        #expect(withRepeats[0].sampleCount > 551)

        // NaN and infinite samples inside the rest.
        var holes = Self.longRest(&rng)
        holes.accelerometer[200] = SIMD3(.nan, 0, 9.81)
        holes.gyroscope[300] = SIMD3(0, .infinity, 0)
        holes.timestamps[400] = .nan
        let withHoles = try detector.segments(in: holes)
        #expect(withHoles.count == 1)
        #expect(withHoles[0].indices == plain[0].indices)
        #expect(withHoles[0].sampleCount == 548)
        #expect(VectorCheck.isFinite(withHoles[0].meanAccelerometer))
        #expect(VectorCheck.isFinite(withHoles[0].meanGyroscope!))

        // A 0.5 s jump at t = 3: two rests, each losing half a window at the break.
        var jump = Self.longRest(&rng)
        for k in 300...600 { jump.timestamps[k] += 0.5 }
        let split = try detector.segments(in: jump)
        #expect(split.map(\.indices) == [25..<275, 325..<576])
        #expect(abs(split[1].startTime - 3.75) < 1e-9)

        // The clock steps back by 2 s at sample 300: again two rests.
        var backward = Self.longRest(&rng)
        for k in 300...600 { backward.timestamps[k] -= 2 }
        #expect(try detector.segments(in: backward).map(\.indices) == [25..<275, 325..<576])

        // The same rest in Unix time.
        var unix = Self.longRest(&rng)
        unix.timestamps = unix.timestamps.map { $0 + 1_767_225_600 }
        #expect(try detector.segments(in: unix).map(\.indices) == plain.map(\.indices))

        // Timestamps too coarse to time a window: rows at t ≈ 1e18 s, where Doubles are 128 s
        // apart, share a timestamp; no segment (the tolerance of 8 ulp, 1024 s, made one of 1.5 s).
        var coarse = Self.longRest(&rng)
        coarse.timestamps = coarse.timestamps.map { $0 + 1e18 }
        #expect(Set(coarse.timestamps).count < 3)
        #expect(try detector.segments(in: coarse).isEmpty)
    }

    // MARK: - Accelerometer

    /// Twelve random orientations, full model: bias, sensitivity and misalignment to 0.1 %.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func accelerometerFullModelRecoversTruth(seed: UInt64) throws {
        var rng = TestRandom(seed: seed)
        let truth = Self.randomTruth(&rng, misaligned: true)
        let recording = Self.staticRecording(
            orientations: Self.randomOrientations(12, &rng), truth: truth, rng: &rng)
        let result = try AccelerometerCalibrator.calibrate(recording)
        #expect(result.segments.count == 12)
        #expect(result.model == .full)
        #expect(result.estimatesMisalignment)
        #expect(result.note == nil)
        let e = Self.errors(result.calibration, truth)
        print("accelerometer full model, seed \(seed): \(e); residual \(result.residual) m/s², "
              + "condition \(result.conditionNumber), iterations \(result.iterations)")
        #expect(e.sensitivity <= 1e-3)
        #expect(e.misalignment <= 1e-3)
        #expect(e.bias <= 1e-3)
        // The residual is at the level of the noise of a segment mean, far below the raw noise.
        #expect(result.residual < 0.005)
        #expect(result.calibration.residual == result.residual)
        // The calibration makes every static reading g long, and is upper triangular.
        for segment in result.segments {
            let c = result.calibration.apply(segment.meanAccelerometer)
            #expect(abs((c * c).sum().squareRoot() - Self.g) < 0.01)
        }
        let m = result.calibration.misalignment
        #expect(m[1, 0] == 0 && m[2, 0] == 0 && m[2, 1] == 0)
        #expect(m[0, 0] == 1 && m[1, 1] == 1 && m[2, 2] == 1)
    }

    /// The linear fit alone on noise-free readings is exact, and Gauss–Newton keeps it.
    @Test func accelerometerExactOnNoiseFreeReadings() throws {
        var rng = TestRandom(seed: 21)
        let truth = Self.randomTruth(&rng, misaligned: true)
        let k = RotationMatrix<Double>(
            columns: truth.misalignment.column0 * truth.sensitivity.x,
            truth.misalignment.column1 * truth.sensitivity.y, truth.misalignment.column2 * truth.sensitivity.z)
        let readings = Self.randomOrientations(10, &rng).map {
            Self.inverse(k) * $0.inverseAct(on: SIMD3(0, 0, Self.g)) + truth.bias
        }
        let result = try AccelerometerCalibrator.calibrate(staticReadings: readings, gravity: Self.g)
        let e = Self.errors(result.calibration, truth)
        #expect(e.sensitivity < 1e-12 && e.misalignment < 1e-12 && e.bias < 1e-12)
        #expect(result.residual < 1e-12)
        #expect(result.matrix.maximumDifference(to: k) < 1e-12)
    }

    /// Six faces (a box's sides): bias and sensitivity only, misalignment the identity.
    @Test(arguments: [UInt64(31), 32, 33])
    func accelerometerSixOrientationsBiasAndScale(seed: UInt64) throws {
        var rng = TestRandom(seed: seed)
        let truth = Self.randomTruth(&rng, misaligned: false)
        let recording = Self.staticRecording(orientations: Self.sixFaces(&rng), truth: truth, rng: &rng)
        let result = try AccelerometerCalibrator.calibrate(recording)
        #expect(result.segments.count == 6)
        #expect(result.model == .biasAndSensitivity)
        #expect(!result.estimatesMisalignment)
        #expect(result.note?.contains("misalignment not estimated") == true)
        #expect(result.calibration.misalignment == .identity)
        let e = Self.errors(result.calibration, truth)
        print("accelerometer six faces, seed \(seed): \(e); condition \(result.conditionNumber)")
        #expect(e.sensitivity <= 1e-3)
        #expect(e.bias <= 1e-3)
        // Forcing the full model with six orientations is refused.
        var full = AccelerometerCalibrator.Settings()
        full.model = .full
        #expect(throws: CalibrationError.tooFewSamples(needed: 9, found: 6)) {
            try AccelerometerCalibrator.calibrate(recording, settings: full)
        }
    }

    /// Twelve segments but only the six faces (each twice): the misalignment is not determined, so
    /// the automatic model falls back to bias and sensitivity and says why; forcing the full model
    /// is refused.
    @Test func accelerometerRepeatedFacesFallBack() throws {
        var rng = TestRandom(seed: 41)
        let truth = Self.randomTruth(&rng, misaligned: false)
        let faces = Self.sixFaces(&rng)
        let recording = Self.staticRecording(orientations: faces + faces, truth: truth, rng: &rng)
        let result = try AccelerometerCalibrator.calibrate(recording)
        #expect(result.segments.count == 12)
        #expect(result.model == .biasAndSensitivity)
        #expect(result.note?.contains("condition number") == true)
        print("six faces twice: \(result.note ?? "")")
        let e = Self.errors(result.calibration, truth)
        #expect(e.sensitivity <= 1e-3 && e.bias <= 1e-3)
        var full = AccelerometerCalibrator.Settings()
        full.model = .full
        #expect(throws: CalibrationError.self) { try AccelerometerCalibrator.calibrate(recording, settings: full) }
    }

    /// All orientations within 10° of the z axis up: `.underdetermined`, with a reason.
    @Test func accelerometerOrientationsNearOneAxisAreUnderdetermined() throws {
        var rng = TestRandom(seed: 51)
        let truth = Self.randomTruth(&rng, misaligned: true)
        let orientations = (0..<12).map { _ in
            let direction = SIMD3<Double>(0, 0, 1) + 0.17 * SIMD3(rng.gaussian(), rng.gaussian(), 0) / 2
            return Self.orientation(up: direction, yaw: Double.random(in: -Double.pi...Double.pi, using: &rng))
        }
        let recording = Self.staticRecording(orientations: orientations, truth: truth, rng: &rng)
        do {
            let result = try AccelerometerCalibrator.calibrate(recording)
            Issue.record("expected underdetermined, got \(result.calibration)")
        } catch {
            guard case .underdetermined(let reason) = error else {
                Issue.record("expected underdetermined, got \(error)")
                return
            }
            #expect(reason.contains("do not cover enough directions"))
            print("near one axis: \(error)")
        }
    }

    /// Five orientations: `.tooFewSamples`.
    @Test func accelerometerFiveOrientationsAreTooFew() throws {
        var rng = TestRandom(seed: 61)
        let truth = Self.randomTruth(&rng, misaligned: false)
        let recording = Self.staticRecording(
            orientations: Array(Self.sixFaces(&rng).prefix(5)), truth: truth, rng: &rng)
        #expect(throws: CalibrationError.tooFewSamples(needed: 6, found: 5)) {
            try AccelerometerCalibrator.calibrate(recording)
        }
    }

    /// NaN samples in a recording are skipped by the detector (the calibration is unaffected); a
    /// non-finite static reading given directly is `.nonFiniteSample`.
    @Test func accelerometerNaNSamples() throws {
        var rng = TestRandom(seed: 71)
        let truth = Self.randomTruth(&rng, misaligned: true)
        var recording = Self.staticRecording(
            orientations: Self.randomOrientations(12, &rng), truth: truth, rng: &rng)
        // One sample in a hundred loses a component, at rest and in motion.
        for k in stride(from: 37, to: recording.count, by: 100) {
            if k % 200 == 37 {
                recording.accelerometer[k].y = .nan
            } else {
                recording.gyroscope[k].x = .infinity
            }
        }
        let result = try AccelerometerCalibrator.calibrate(recording)
        #expect(result.segments.count == 12)
        #expect(result.segments.allSatisfy { VectorCheck.isFinite($0.meanAccelerometer) })
        let e = Self.errors(result.calibration, truth)
        #expect(e.sensitivity <= 1e-3 && e.misalignment <= 1e-3 && e.bias <= 1e-3)

        var readings = result.staticReadings
        readings[3].z = .nan
        #expect(throws: CalibrationError.nonFiniteSample(index: 3)) {
            try AccelerometerCalibrator.calibrate(staticReadings: readings, gravity: Self.g)
        }
        #expect(throws: CalibrationError.self) {
            try AccelerometerCalibrator.calibrate(staticReadings: result.staticReadings, gravity: .nan)
        }
    }

    /// Readings in g: the same calibration, with the bias in g.
    @Test func accelerometerInputInG() throws {
        var rng = TestRandom(seed: 81)
        let truth = Self.randomTruth(&rng, misaligned: true)
        let recording = Self.staticRecording(
            orientations: Self.randomOrientations(12, &rng), truth: truth, rng: &rng)
        let inMetres = try AccelerometerCalibrator.calibrate(recording)
        let inG = try AccelerometerCalibrator.calibrate(
            timestamps: recording.timestamps, accelerometer: recording.accelerometer.map { $0 / Self.g },
            gyroscope: recording.gyroscope, unit: .standardGravity)
        #expect(inG.segments.map(\.indices) == inMetres.segments.map(\.indices))
        #expect(abs(inG.gravity - 1) < 1e-15)
        #expect(magnitudes(inG.calibration.bias * Self.g - inMetres.calibration.bias).max() < 1e-9)
        #expect(magnitudes(inG.calibration.sensitivity - inMetres.calibration.sensitivity).max() < 1e-9)
        #expect(inG.calibration.misalignment.maximumDifference(to: inMetres.calibration.misalignment) < 1e-9)
        var truthInG = truth
        truthInG.bias /= Self.g
        let e = Self.errors(inG.calibration, truthInG, gravity: 1)
        #expect(e.sensitivity <= 1e-3 && e.misalignment <= 1e-3 && e.bias <= 1e-3)
        // Forcing bias and sensitivity on the same data: no note, misalignment the identity.
        var diagonal = AccelerometerCalibrator.Settings()
        diagonal.model = .biasAndSensitivity
        let forced = try AccelerometerCalibrator.calibrate(recording, settings: diagonal)
        #expect(forced.model == .biasAndSensitivity && forced.note == nil)
        #expect(forced.calibration.misalignment == .identity)
        // A different local gravity scales the sensitivities.
        let local = try AccelerometerCalibrator.calibrate(
            recording, settings: AccelerometerCalibrator.Settings(gravity: Self.g * 1.001))
        #expect(magnitudes(local.calibration.sensitivity / inMetres.calibration.sensitivity - 1.001).max() < 1e-9)
    }

    // MARK: - Gyroscope

    /// A flat sensor: rests around a smooth rotation of `angle` about z (raised-cosine rate), with
    /// the gyroscope reading `scale ⊙ ω + bias + noise`.
    static func turntableRecording(
        _ rng: inout TestRandom, angle: Double, scale: SIMD3<Double>, bias: SIMD3<Double>,
        noise: Double, rests: [Double] = [3, 3], turn: Double = 4
    ) -> IMURecording {
        var recording = IMURecording()
        let rate = 100.0
        var t = 0.0
        func add(_ omega: SIMD3<Double>, rng: inout TestRandom) {
            recording.timestamps.append(t)
            recording.gyroscope.append(scale * omega + bias + noise * rng.gaussianVector())
            recording.accelerometer.append(SIMD3(0, 0, Self.g) + 0.01 * rng.gaussianVector())
            t += 1 / rate
        }
        for (index, restDuration) in rests.enumerated() {
            for _ in 0..<Int(restDuration * rate) { add(.zero, rng: &rng) }
            guard index + 1 < rests.count else { break }
            let steps = Int(turn * rate)
            for step in 0..<steps {
                let phase = 2 * Double.pi * Double(step) / Double(steps)
                add(SIMD3(0, 0, angle / turn * (1 - cos(phase))), rng: &rng)
            }
        }
        return recording
    }

    /// The bias is the mean over the rests, within the noise divided by √n.
    @Test func gyroscopeBiasFromRests() throws {
        var rng = TestRandom(seed: 91)
        let bias = SIMD3<Double>(0.012, -0.034, 0.021)
        let noise = 0.005
        let truth = Self.randomTruth(&rng, misaligned: false)
        let recording = Self.staticRecording(
            orientations: Self.randomOrientations(8, &rng), truth: truth, rng: &rng, gyroBias: bias,
            gyroNoise: noise)
        let result = try GyroscopeCalibrator.calibrate(recording)
        #expect(result.segments.count == 8)
        let n = Double(result.segments.map(\.sampleCount).reduce(0, +))
        let standardError = noise / n.squareRoot()
        let error = magnitudes(result.calibration.bias - bias)
        print("gyroscope bias error \(error) rad/s; σ/√n = \(standardError)")
        #expect(error.max() < 4 * standardError)
        #expect(magnitudes(result.biasStandardError / standardError - 1).max() < 0.2)
        #expect(result.calibration.sensitivity == SIMD3(1, 1, 1))
        #expect(result.rotation == nil)
        #expect(result.calibration.residual < noise)
    }

    /// Without noise the procedure is exact: no error from the integration or the bias.
    @Test func gyroscopeScaleIsExactWithoutNoise() throws {
        var rng = TestRandom(seed: 100)
        let recording = Self.turntableRecording(
            &rng, angle: 2 * .pi, scale: SIMD3(1, 1, 1.02), bias: SIMD3(0.01, -0.02, 0.015), noise: 0)
        let result = try GyroscopeCalibrator.calibrate(recording, knownRotation: .init(angle: 2 * .pi))
        #expect(abs(result.calibration.sensitivity.z * 1.02 - 1) < 1e-12)
        #expect(magnitudes(result.calibration.bias - SIMD3(0.01, -0.02, 0.015)).max() < 1e-15)
    }

    /// A 360° turn about z read 2 % high: the z sensitivity is 1/1.02 to 0.1 %.
    @Test(arguments: [UInt64(101), 102, 103])
    func gyroscopeScaleFromKnownRotation(seed: UInt64) throws {
        var rng = TestRandom(seed: seed)
        let bias = SIMD3<Double>(0.01, -0.02, 0.015)
        let recording = Self.turntableRecording(
            &rng, angle: 2 * .pi, scale: SIMD3(1, 1, 1.02), bias: bias, noise: 0.005)
        let result = try GyroscopeCalibrator.calibrate(
            recording, knownRotation: .init(angle: 2 * .pi))
        #expect(result.segments.count == 2)
        let rotation = try #require(result.rotation)
        #expect(rotation.axis == .z)
        let s = result.calibration.sensitivity
        print("gyroscope scale, seed \(seed): sensitivity z \(s.z), relative error \(s.z * 1.02 - 1)")
        #expect(abs(s.z * 1.02 - 1) <= 1e-3)
        #expect(s.x == 1 && s.y == 1)
        #expect(magnitudes(result.calibration.bias - bias).max() < 0.001)
        // The motion integrated lies between the two rests and covers the whole turn.
        #expect(rotation.startIndex < 300 && rotation.endIndex > 700)
        #expect(rotation.startIndex >= result.segments[0].startIndex)
        #expect(rotation.endIndex <= result.segments[1].endIndex)

        // Naming the axis, giving the interval, or giving the gyroscope in deg/s: the same.
        let named = try GyroscopeCalibrator.calibrate(
            recording, knownRotation: .init(angle: 2 * .pi, axis: .z, interval: 2.5...7.5))
        #expect(abs(named.calibration.sensitivity.z * 1.02 - 1) <= 1e-3)
        let degrees = try GyroscopeCalibrator.calibrate(
            timestamps: recording.timestamps, gyroscope: recording.gyroscope.map { $0 * 180 / .pi },
            accelerometer: recording.accelerometer, unit: .degreesPerSecond,
            knownRotation: .init(angle: 2 * .pi))
        #expect(abs(degrees.calibration.sensitivity.z - s.z) < 1e-9)
        #expect(magnitudes(degrees.calibration.bias * .pi / 180 - result.calibration.bias).max() < 1e-12)
    }

    /// A turn about a tilted axis (5° off z) is still measured on z, and the tilt is accounted for.
    @Test func gyroscopeScaleWithTiltedTurntable() throws {
        var rng = TestRandom(seed: 111)
        let scale = SIMD3<Double>(1, 1, 0.985)
        var recording = Self.turntableRecording(
            &rng, angle: 2 * .pi, scale: SIMD3(1, 1, 1), bias: .zero, noise: 0.002)
        let tilt = RotationMatrix(Quaternion<Double>(angle: 5 * .pi / 180, axis: SIMD3(1, 1, 0)))
        recording.gyroscope = recording.gyroscope.map { scale * (tilt * $0) + SIMD3(0.003, 0.001, -0.002) }
        let result = try GyroscopeCalibrator.calibrate(recording, knownRotation: .init(angle: 2 * .pi))
        #expect(abs(result.calibration.sensitivity.z * 0.985 - 1) <= 1e-3)
    }

    /// Misuse: a wrong angle, no rotation, too few rests.
    @Test func gyroscopeRejectsImpossibleRotations() throws {
        var rng = TestRandom(seed: 121)
        let recording = Self.turntableRecording(
            &rng, angle: 2 * .pi, scale: SIMD3(1, 1, 1), bias: .zero, noise: 0.002)
        #expect {
            try GyroscopeCalibrator.calibrate(recording, knownRotation: .init(angle: .pi))
        } throws: { error in
            print("half the angle: \(error)")
            return "\(error)".contains("far from the known angle")
        }
        #expect {
            try GyroscopeCalibrator.calibrate(recording, knownRotation: .init(angle: 2 * .pi, axis: .x))
        } throws: { error in
            print("wrong axis: \(error)")
            // Each axis's angle in degrees (a `SIMD3<Double>(…)` debug text before).
            let text = "\(error)"
            return text.contains("mostly about another axis than x (integrated x ") && text.contains("°, z ")
                && !text.contains("SIMD3")
        }
        #expect(throws: CalibrationError.self) {
            try GyroscopeCalibrator.calibrate(recording, knownRotation: .init(angle: 2 * .pi, axis: .x))
        }
        #expect(throws: CalibrationError.self) {
            try GyroscopeCalibrator.calibrate(recording, knownRotation: .init(angle: 2 * .pi, interval: 100...200))
        }
        var moving = recording
        moving.accelerometer = moving.accelerometer.enumerated().map { k, a in a + SIMD3(sin(Double(k)), 0, 0) }
        #expect(throws: CalibrationError.tooFewSamples(needed: 1, found: 0)) {
            try GyroscopeCalibrator.calibrate(moving)
        }
        // A jump in time during the turn cannot be integrated.
        var jumping = recording
        for k in 500..<jumping.count { jumping.timestamps[k] += 0.3 }
        #expect(throws: CalibrationError.self) {
            try GyroscopeCalibrator.calibrate(jumping, knownRotation: .init(angle: 2 * .pi))
        }
    }
}

/// Per-component absolute values.
private func magnitudes(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(abs(v.x), abs(v.y), abs(v.z)) }

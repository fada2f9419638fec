import MotionFusionCore
/// Gyroscope calibration from a recording: the bias from the static segments and, when the
/// recording contains a rotation by a known angle, the sensitivity of the axis it was about.
///
/// ## Bias
///
/// The static segments are found by a ``StaticSegmentDetector`` (accelerometer and gyroscope). The
/// bias is the duration-weighted mean of the segments' mean rates: a segment of `T` seconds counts
/// `T` times. The gyroscope is assumed still at rest: the earth's rotation (7.3e-5 rad/s) is part
/// of the bias found this way.
///
/// ## Sensitivity from a known rotation
///
/// Given a ``KnownRotation`` — "between two rests the sensor turned by this angle", for example one
/// full turn on a turntable — the calibrator takes the motion between two consecutive static
/// segments (the one whose integrated rotation is largest, or the samples in
/// ``KnownRotation/interval`` when given), integrates the bias-corrected rate `u − b` over it with
/// the trapezoidal rule on the timestamps, giving the measured rotation `θ` (rad, per axis), and sets
/// the sensitivity `s_d` of the rotation's axis `d` (the axis with the largest `|θ_d|`, or the
/// one named in ``KnownRotation/axis``) so that the calibrated rotation has the known angle:
/// `|(…, s_d θ_d, …)| = angle`, the other axes counted with sensitivity 1. Including the other
/// axes corrects for a sensor mounted slightly tilted on the turntable. The named axis must carry
/// most of the measured rotation (its axis within 45° of the sensor axis), and the sensitivity
/// found must lie within ``Settings/maximumSensitivityError`` of 1; otherwise the rotation was not
/// what was said (wrong angle, axis or unit) and the calibrator throws
/// ``CalibrationError/underdetermined(reason:)``.
///
/// Assumptions: the rotation is about one fixed axis (then the integrated rate is exactly the
/// rotation vector; for rotations about changing axes it is not), close to the named sensor axis;
/// the bias is constant over the recording; the angle's sign does not matter (either direction of
/// rotation). The other two sensitivities stay 1 and the misalignment the identity.
///
/// ## Bad input
///
/// Non-finite samples are skipped (by the detector, and in the integration). Repeated timestamps add
/// nothing to the integral. A step backward in time, or a forward jump larger than the detector's
/// ``StaticSegmentDetector/maximumGap`` inside the known rotation, makes the rotation impossible to
/// integrate: ``CalibrationError/underdetermined(reason:)``.
public enum GyroscopeCalibrator {
    /// A sensor axis.
    public enum Axis: Int, Sendable, Hashable, Codable, CaseIterable {
        /// The x axis.
        case x = 0
        /// The y axis.
        case y = 1
        /// The z axis.
        case z = 2
    }

    /// A rotation by a known angle that the recording contains, between two rests.
    public struct KnownRotation: Sendable, Hashable, Codable {
        /// The angle turned, rad (its magnitude counts; 2π for a full turn).
        public var angle: Double
        /// The sensor axis the rotation was about; nil for the axis with the largest measured
        /// rotation.
        public var axis: Axis?
        /// The time span to integrate over, s (all samples with a timestamp in it); nil for the
        /// motion between two consecutive static segments with the largest measured rotation.
        public var interval: ClosedRange<Double>?

        /// A known rotation.
        ///
        /// - Parameters:
        ///   - angle: the angle turned, rad.
        ///   - axis: the sensor axis it was about, or nil to take the dominant one.
        ///   - interval: when it happened, s, or nil to find it between rests.
        public init(angle: Double, axis: Axis? = nil, interval: ClosedRange<Double>? = nil) {
            self.angle = angle
            self.axis = axis
            self.interval = interval
        }
    }

    /// How the calibration is found.
    public struct Settings: Sendable, Hashable, Codable {
        /// Finds the static segments; its thresholds are in m/s² and rad/s whatever the input's
        /// unit, and its ``StaticSegmentDetector/maximumGap`` also bounds the steps inside the known
        /// rotation.
        public var detector: StaticSegmentDetector
        /// The largest relative departure of the fitted sensitivity from 1 that is accepted (a
        /// larger one means the rotation was not the angle said, or the unit is wrong). Default 0.25.
        public var maximumSensitivityError: Double

        /// Settings; every default is stated on its property.
        public init(detector: StaticSegmentDetector = StaticSegmentDetector(), maximumSensitivityError: Double = 0.25) {
            self.detector = detector
            self.maximumSensitivityError = maximumSensitivityError
        }
    }

    /// What the known rotation measured.
    public struct RotationMeasurement: Sendable, Hashable {
        /// The axis whose sensitivity was set.
        public var axis: Axis
        /// The first sample integrated.
        public var startIndex: Int
        /// One past the last sample integrated.
        public var endIndex: Int
        /// The timestamps of the first and last samples integrated, s.
        public var startTime: Double
        /// The timestamp of the last sample integrated, s.
        public var endTime: Double
        /// The integral of the bias-corrected raw rate `u − b`, per axis, in the input's unit × s.
        public var integratedRotation: SIMD3<Double>
        /// The sensitivity found for ``axis``.
        public var sensitivity: Double
    }

    /// A calibration with the diagnostics of its fit.
    public struct Result: Sendable, Hashable {
        /// The calibration, in the input's unit. Its ``InertialCalibration/residual`` is the RMS
        /// distance of the segments' mean rates from the bias.
        public var calibration: InertialCalibration
        /// The static segments the bias was averaged over.
        public var segments: [StaticSegment]
        /// The standard error of the bias per axis, from the spread of the gyroscope within the
        /// segments (white noise assumed), in the input's unit.
        public var biasStandardError: SIMD3<Double>
        /// The known rotation's measurement; nil when no rotation was given.
        public var rotation: RotationMeasurement?
    }

    /// Calibrates from a recording (gyroscope in rad/s, accelerometer in m/s²).
    ///
    /// - Parameters:
    ///   - recording: a recording with at least one static segment (two around a known rotation).
    ///   - knownRotation: a rotation by a known angle in the recording, or nil for the bias alone.
    ///   - settings: detector and checks.
    /// - Returns: the calibration in rad/s and its diagnostics.
    /// - Throws: ``CalibrationError/tooFewSamples(needed:found:)`` when there is no static segment
    ///   (or fewer than two around a known rotation without an interval);
    ///   ``CalibrationError/underdetermined(reason:)`` when the known rotation cannot be measured;
    ///   ``CalibrationError/estimation(_:)`` when the arrays differ in length;
    ///   ``CalibrationError/outOfRange(reason:)`` when the result is outside the ranges a
    ///   calibration file accepts (see ``InertialCalibration``; the bias compared in rad/s).
    public static func calibrate(
        _ recording: IMURecording, knownRotation: KnownRotation? = nil, settings: Settings = Settings()
    ) throws(CalibrationError) -> Result {
        try calibrate(
            timestamps: recording.timestamps, gyroscope: recording.gyroscope,
            accelerometer: recording.accelerometer, knownRotation: knownRotation, settings: settings)
    }

    /// Calibrates from raw arrays, the gyroscope in a given unit.
    ///
    /// - Parameters:
    ///   - timestamps: sample times, s.
    ///   - gyroscope: the raw gyroscope readings, in `unit`.
    ///   - accelerometer: the accelerometer readings, m/s² (for the detector).
    ///   - unit: the gyroscope's unit: the detector's thresholds are converted to it, and the bias is
    ///     in it. The known angle stays in radians.
    ///   - knownRotation: a rotation by a known angle in the recording, or nil for the bias alone.
    ///   - settings: detector and checks.
    /// - Throws: as ``calibrate(_:knownRotation:settings:)``.
    public static func calibrate(
        timestamps: [Double], gyroscope: [SIMD3<Double>], accelerometer: [SIMD3<Double>],
        unit: GyroscopeUnit = .radiansPerSecond, knownRotation: KnownRotation? = nil,
        settings: Settings = Settings()
    ) throws(CalibrationError) -> Result {
        let n = timestamps.count
        guard gyroscope.count == n else { throw .estimation(.countMismatch(expected: n, found: gyroscope.count)) }
        let toUnit = 1 / unit.toRadiansPerSecond
        let detector = settings.detector.rescaled(accelerometerScale: 1, gyroscopeScale: toUnit)
        let segments = try detector.segments(timestamps: timestamps, accelerometer: accelerometer, gyroscope: gyroscope)
        guard !segments.isEmpty else { throw .tooFewSamples(needed: 1, found: 0) }

        // Duration-weighted mean of the segments' means, and its standard error.
        // (Equal weights in the degenerate case of segments without duration.)
        let totalDuration = segments.reduce(0) { $0 + $1.duration }
        let weights = totalDuration > 0
            ? segments.map { $0.duration / totalDuration }
            : [Double](repeating: 1 / Double(segments.count), count: segments.count)
        var bias = SIMD3<Double>.zero
        for (segment, w) in zip(segments, weights) { bias += w * segment.meanGyroscope! }
        var variance = SIMD3<Double>.zero
        var spread = 0.0
        for (segment, w) in zip(segments, weights) {
            let sd = segment.gyroscopeStandardDeviation!
            variance += w * w * sd * sd / Double(segment.sampleCount)
            let d = segment.meanGyroscope! - bias
            spread += (d * d).sum()
        }
        let residual = (spread / Double(segments.count)).squareRoot()
        var calibration = InertialCalibration(bias: bias, residual: residual)
        var measurement: RotationMeasurement? = nil

        if let known = knownRotation {
            let angle = abs(known.angle) * toUnit
            guard angle.isFinite, angle > 0 else {
                throw .underdetermined(reason: "the known rotation angle must be finite and non-zero, got \(known.angle) rad")
            }
            // The candidate spans: the given interval, or every motion between consecutive rests.
            var spans: [Range<Int>] = []
            if let interval = known.interval {
                let inside = timestamps.indices.filter { interval.contains(timestamps[$0]) }
                guard let first = inside.first, let last = inside.last else {
                    throw .underdetermined(reason: "no sample lies in the known rotation's interval \(interval)")
                }
                spans = [first..<(last + 1)]
            } else {
                guard segments.count >= 2 else { throw .tooFewSamples(needed: 2, found: segments.count) }
                for k in 1..<segments.count {
                    spans.append((segments[k - 1].endIndex - 1)..<(segments[k].startIndex + 1))
                }
            }
            var best: (span: Range<Int>, rotation: SIMD3<Double>)? = nil
            var firstError: CalibrationError? = nil
            for span in spans {
                do {
                    let rotation = try integrate(
                        timestamps: timestamps, gyroscope: gyroscope, bias: bias, span: span,
                        maximumGap: detector.maximumGap)
                    if best == nil || (rotation * rotation).sum() > (best!.rotation * best!.rotation).sum() {
                        best = (span, rotation)
                    }
                } catch {
                    if firstError == nil { firstError = error }
                }
            }
            guard let best else { throw firstError ?? .underdetermined(reason: "no motion to integrate") }
            let theta = best.rotation
            let magnitude = SIMD3(abs(theta.x), abs(theta.y), abs(theta.z))
            let axis = known.axis ?? (magnitude.x >= magnitude.y
                ? (magnitude.x >= magnitude.z ? .x : .z) : (magnitude.y >= magnitude.z ? .y : .z))
            let d = axis.rawValue
            var offAxis = 0.0
            for i in 0..<3 where i != d { offAxis += theta[i] * theta[i] }
            let onAxis = angle * angle - offAxis
            guard magnitude[d] * magnitude[d] >= (theta * theta).sum() / 2 else {
                // Each axis's integrated angle in degrees, to 0.1°.
                let degrees = (0..<3).map { ((theta[$0] / toUnit * 180 / .pi) * 10).rounded() / 10 }
                throw .underdetermined(
                    reason: "the measured rotation is mostly about another axis than \(axis) "
                        + "(integrated x \(degrees[0])°, y \(degrees[1])°, z \(degrees[2])°); "
                        + "name the rotation's axis, or leave it out")
            }
            guard magnitude[d] > 0, onAxis > 0 else {
                throw .underdetermined(
                    reason: "the rotation measured about the other axes exceeds the known angle; "
                        + "was the rotation about the \(axis) axis?")
            }
            let sensitivity = onAxis.squareRoot() / magnitude[d]
            guard abs(sensitivity - 1) <= settings.maximumSensitivityError else {
                let measured = (theta * theta).sum().squareRoot() / toUnit * 180 / .pi
                throw .underdetermined(
                    reason: "the measured rotation (\(measured)°) is far from the known angle "
                        + "(\(abs(known.angle) * 180 / .pi)°): sensitivity \(sensitivity); check the angle and the unit")
            }
            calibration.sensitivity[d] = sensitivity
            measurement = RotationMeasurement(
                axis: axis, startIndex: best.span.lowerBound, endIndex: best.span.upperBound,
                startTime: timestamps[best.span.lowerBound], endTime: timestamps[best.span.upperBound - 1],
                integratedRotation: theta, sensitivity: sensitivity)
        }
        // The ranges a calibration file accepts, with the bias in rad/s.
        if let (_, reason) = calibration.invalidField(biasScale: unit.toRadiansPerSecond) {
            throw .outOfRange(reason: reason)
        }
        return Result(
            calibration: calibration, segments: segments,
            biasStandardError: SIMD3(variance.x.squareRoot(), variance.y.squareRoot(), variance.z.squareRoot()),
            rotation: measurement)
    }

    /// The trapezoidal integral of `u − b` over the finite samples of `span`.
    static func integrate(
        timestamps: [Double], gyroscope: [SIMD3<Double>], bias: SIMD3<Double>, span: Range<Int>,
        maximumGap: Double
    ) throws(CalibrationError) -> SIMD3<Double> {
        var total = SIMD3<Double>.zero
        var previous: (time: Double, rate: SIMD3<Double>)? = nil
        for i in span where timestamps[i].isFinite && VectorCheck.isFinite(gyroscope[i]) {
            let rate = gyroscope[i] - bias
            if let previous {
                let dt = timestamps[i] - previous.time
                guard dt >= 0 else {
                    throw .underdetermined(reason: "the timestamps go backward at sample \(i), inside the known rotation")
                }
                guard dt <= maximumGap else {
                    throw .underdetermined(
                        reason: "the timestamps jump by \(dt) s at sample \(i), inside the known rotation")
                }
                total += (previous.rate + rate) * (dt / 2)
            }
            previous = (timestamps[i], rate)
        }
        guard previous != nil else { throw .underdetermined(reason: "no finite sample inside the known rotation") }
        return total
    }
}

import MotionFusion

/// One of `motion tune`'s recordings in memory: the samples `motion fuse` would fuse (one per
/// gyroscope reading, read by the same ``RecordingReader`` with the same units) and, row by row, the
/// truth they are scored against, as `motion evaluate` pairs a `motion fuse` output with its truth.
///
/// The truth's quaternions are normalized once here (each row's error then needs the estimate's
/// normalization only); a row counts when its `movement` (or `score`) column says so and its
/// quaternion is usable (finite, not zero: ``OrientationErrors/isUsable(_:)``), as in
/// `motion evaluate`.
///
/// The magnetometer's online calibration (`motion fuse`'s default) depends on the magnetometer's
/// readings alone, not on the filter, so it runs here, once per recording, not once per candidate:
/// each reading is kept as the calibration makes it where ``FusionStream`` would let the filter see it
/// (``FusionStream/filterMayUse(_:)``: before the first accepted fit, only a field of an earth
/// field's strength), and each sample says whether the calibration changed majorly there (the stream then
/// tells its filter, ``AttitudeFilter/magnetometerCalibrationChanged()``). ``TuneSearch`` replays
/// both, so a candidate's attitude is `motion fuse`'s bit for bit (a test holds it to that).
struct TuneRecording<Scalar: FusionScalar>: Sendable {
    /// One sample as the candidates replay it.
    struct Sample: Sendable {
        var timestamp: Double
        var gyroscope: SIMD3<Scalar>
        /// NaN where the sample has no accelerometer reading (fused as `motion fuse` fuses it).
        var accelerometer: SIMD3<Scalar>
        /// The magnetometer reading as the filter sees it (after the online calibration); nil where
        /// the filter gets none (no reading, `--no-magnetometer`, or withheld by the calibration).
        var field: SIMD3<Scalar>?
        /// Whether the online calibration changed majorly at this sample.
        var calibrationChanged: Bool
        /// The truth, normalized, where the row counts; nil where it does not.
        var truth: Quaternion<Double>?
    }

    let name: String
    var samples: [Sample] = []
    /// Whether any sample has a magnetometer reading.
    var hasMagnetometer = false
    /// The number of rows that count.
    var scoredCount = 0

    var count: Int { samples.count }

    /// Reads `input` (its samples) and `truthPath` (its quaternions and movement), row by row.
    ///
    /// - Throws: ``CommandFailure`` for a file that cannot be read, truth and estimate rows that do
    ///   not pair up (with both counts), a recording without a usable accelerometer reading, or one
    ///   with no row to score.
    init(
        input: RecordingReader.Input, truth truthPath: String, units: InputUnits, useMagnetometer: Bool,
        learnsMagnetometer: Bool
    ) throws {
        name = input.paths.joined(separator: ", ")
        let reader = try units.open(input, useMagnetometer: useMagnetometer)
        let rows = try QuaternionRows(truthPath, movement: true, flags: false)
        var accelerometerSeen = AccelerometerPresence()
        var learner = OnlineMagnetometerCalibrator<Scalar>()
        do {
            while let sample = try reader.next() {
                accelerometerSeen.see(sample.accelerometer)
                guard let g = sample.gyroscope else { continue }
                guard let row = try rows.next() else {
                    var extra = 1
                    while let more = try reader.next() { if more.gyroscope != nil { extra += 1 } }
                    throw CommandFailure(
                        "\(name) has \(count + extra) samples to fuse, \(truthPath) has \(count) truth rows")
                }
                var field: SIMD3<Scalar>?
                var changed = false
                if let m = sample.magnetometer {
                    hasMagnetometer = true
                    let raw = SIMD3<Scalar>(m)
                    field = raw
                    if learnsMagnetometer {
                        let before = learner.majorChanges
                        let calibrated = learner.update(raw)
                        changed = learner.majorChanges != before
                        let sees = learner.calibration != nil
                            || OnlineMagnetometerCalibrator<Scalar>.hasEarthFieldStrength(calibrated)
                        field = sees ? calibrated : nil
                    }
                }
                let counts = (row.movement ?? true) && OrientationErrors.isUsable(row.quaternion)
                samples.append(
                    Sample(
                        timestamp: sample.timestamp, gyroscope: SIMD3<Scalar>(g),
                        accelerometer: SIMD3<Scalar>(sample.accelerometer ?? SIMD3(repeating: .nan)), field: field,
                        calibrationChanged: changed, truth: counts ? row.quaternion.normalized() : nil))
                if counts { scoredCount += 1 }
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("\(error)")
        }
        var extraTruth = 0
        while try rows.next() != nil { extraTruth += 1 }
        if extraTruth > 0 {
            throw CommandFailure(
                "\(name) has \(count) samples to fuse, \(truthPath) has \(count + extraTruth) truth rows")
        }
        try accelerometerSeen.check(input.paths, written: "nothing tuned")
        warnAboutSkipped(by: reader)
        guard scoredCount > 0 else {
            throw CommandFailure("\(truthPath): no row to score (no movement = 1 row with a usable quaternion)")
        }
    }
}

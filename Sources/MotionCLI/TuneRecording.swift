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
/// each reading is kept as the calibration makes it, with whether ``FusionStream`` would let the
/// filter see it (``FusionStream/filterMayUse(_:)``: before the first accepted fit, only a field of
/// an earth field's strength) and whether the calibration changed majorly there (the stream then
/// tells its filter, ``AttitudeFilter/magnetometerCalibrationChanged()``). ``TuneSearch`` replays
/// both, so a candidate's attitude is `motion fuse`'s bit for bit (a test holds it to that).
struct TuneRecording<Scalar: FusionScalar>: Sendable {
    let name: String
    var timestamps: [Double] = []
    var gyroscope: [SIMD3<Scalar>] = []
    /// NaN where the sample has no accelerometer reading (fused as `motion fuse` fuses it).
    var accelerometer: [SIMD3<Scalar>] = []
    /// The magnetometer as the filter sees it (after the online calibration), or nil when no sample
    /// has a reading (or with `--no-magnetometer`); `seesField` false where the filter gets none,
    /// `calibrationChanged` true where the online calibration changed majorly.
    var magnetometer: [SIMD3<Scalar>]?
    var seesField: [Bool] = []
    var calibrationChanged: [Bool] = []
    /// The truth, normalized; `scored` false where the row does not count.
    var truth: [Quaternion<Double>] = []
    var scored: [Bool] = []
    /// The number of rows that count.
    var scoredCount = 0

    var count: Int { timestamps.count }

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
        var anyMagnetometer = false
        var magnetometer: [SIMD3<Scalar>] = []
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
                timestamps.append(sample.timestamp)
                gyroscope.append(SIMD3<Scalar>(g))
                accelerometer.append(SIMD3<Scalar>(sample.accelerometer ?? SIMD3(repeating: .nan)))
                if let m = sample.magnetometer {
                    anyMagnetometer = true
                    var field = SIMD3<Scalar>(m)
                    var sees = true
                    var changed = false
                    if learnsMagnetometer {
                        let before = learner.majorChanges
                        field = learner.update(field)
                        changed = learner.majorChanges != before
                        sees = learner.calibration != nil
                            || OnlineMagnetometerCalibrator<Scalar>.hasEarthFieldStrength(field)
                    }
                    magnetometer.append(field)
                    seesField.append(sees)
                    calibrationChanged.append(changed)
                } else {
                    magnetometer.append(SIMD3(repeating: .nan))
                    seesField.append(false)
                    calibrationChanged.append(false)
                }
                let counts = (row.movement ?? true) && OrientationErrors.isUsable(row.quaternion)
                truth.append(counts ? row.quaternion.normalized() : .identity)
                scored.append(counts)
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
        self.magnetometer = anyMagnetometer ? magnetometer : nil
    }
}

import MotionFusionCore

extension IMURecording {
    /// The bytes one sample takes in memory at most (time, three sensors, a reference attitude and
    /// its scored flag), counting an array's growth by doubling: twice that.
    public static let bytesPerSample = 2 * (8 + 3 * MemoryLayout<SIMD3<Double>>.stride + MemoryLayout<Quaternion<Double>>.stride + 1)

    /// Reads a recording into memory through ``RecordingReader`` (one sample per gyroscope
    /// reading, whatever the layout: single-rate, multi-rate, gzip, standard input), with, when
    /// the header has them, a reference attitude `qw,qx,qy,qz` (scalar first, sensor → earth;
    /// `nan` where unknown) and a `movement` column (1 = scored) taken from each sample's
    /// gyroscope row (the layout of the BROAD trials).
    ///
    /// A sample without an accelerometer reading (``RecordingReader``: none yet, or the latest
    /// too old) has a NaN accelerometer; in a recording with a magnetometer, a sample without a
    /// magnetometer reading has a NaN magnetometer (the filters then go without it for that step).
    ///
    /// - Parameters:
    ///   - path: the CSV file (`-`: standard input).
    ///   - timeUnit: the unit of `t`; nil for the header's, else seconds.
    ///   - gyroscopeUnit: the unit of `gx,gy,gz`; nil for the header's, else rad/s.
    ///   - accelerometerUnit: the unit of `ax,ay,az`; nil for the header's, else m/s².
    ///   - magnetometerUnit: the unit of `mx,my,mz`; nil for the header's, else µT.
    ///   - checksUnits: true (the default) checks the units against the data
    ///     (``RecordingUnitCheck``); false reads data that are really that strange.
    ///   - maximumSamples: the most samples read into memory (about ``bytesPerSample`` bytes
    ///     each); a recording with more is refused at the first sample beyond, before it is held
    ///     (``CSVError/tooManySamples(line:limit:)``), so that a recording too large for the memory
    ///     ends in an error, not an out-of-memory kill.
    /// - Throws: ``RecordingFileError`` naming the file, line and column (see ``RecordingReader``).
    public static func read(
        path: String, timeUnit: TimeUnit? = nil, gyroscopeUnit: GyroscopeUnit? = nil,
        accelerometerUnit: AccelerometerUnit? = nil, magnetometerUnit: MagnetometerUnit? = nil, checksUnits: Bool = true,
        maximumSamples: Int = .max
    ) throws(RecordingFileError) -> IMURecording {
        let reader = try RecordingReader(
            .file(path),
            units: RecordingReader.GivenUnits(
                time: timeUnit, gyroscope: gyroscopeUnit, accelerometer: accelerometerUnit, magnetometer: magnetometerUnit),
            checksUnits: checksUnits, extraColumns: RecordingColumns.truth + [RecordingColumns.movement])
        var recording = IMURecording()
        let hasMagnetometer = reader.sensors.contains(.magnetometer)
        let truthColumns = (0..<4).filter { reader.hasExtraColumn($0) }
        let hasTruth = truthColumns.count == 4
        if !truthColumns.isEmpty && !hasTruth {
            let missing = RecordingColumns.truth[(0..<4).first { !reader.hasExtraColumn($0) }!]
            throw RecordingFileError(path: path, error: .missingColumn(line: reader.headerLine, name: missing, found: reader.header))
        }
        let hasMovement = reader.hasExtraColumn(4)
        if hasMagnetometer { recording.magnetometer = [] }
        if hasTruth { recording.truth = [] }
        if hasMovement { recording.scored = [] }
        let none = SIMD3<Double>(repeating: .nan)
        while let sample = try reader.next() {
            guard recording.count < maximumSamples else {
                throw RecordingFileError(
                    path: path, error: .tooManySamples(line: reader.location?.line ?? 0, limit: maximumSamples))
            }
            recording.timestamps.append(sample.timestamp)
            recording.gyroscope.append(sample.gyroscope ?? none)
            recording.accelerometer.append(sample.accelerometer ?? none)
            if hasMagnetometer { recording.magnetometer!.append(sample.magnetometer ?? none) }
            if hasTruth {
                recording.truth!.append(
                    Quaternion(
                        w: reader.extraValue(0), x: reader.extraValue(1), y: reader.extraValue(2), z: reader.extraValue(3)))
            }
            if hasMovement { recording.scored!.append(reader.extraValue(4) == 1) }
        }
        recording.partialLastLine = reader.partialLastLines.first?.line
        return recording
    }
}

import MotionFusionCore

extension IMURecording {
    /// Reads a CSV recording: `t,gx,gy,gz,ax,ay,az`, optionally `mx,my,mz`, a reference attitude
    /// `qw,qx,qy,qz` (scalar first, sensor → earth; `nan` where unknown) and a `movement` column
    /// (1 = scored), in any order (the layout of the BROAD trials). Units are converted as
    /// ``IMUCSVReader`` converts them: from the header's units (`gx (deg/s)`), else the ones given,
    /// else s, rad/s, m/s² and µT.
    ///
    /// - Parameters:
    ///   - path: the CSV file.
    ///   - gyroscopeUnit: the unit of `gx,gy,gz`; nil for the header's, else rad/s.
    ///   - accelerometerUnit: the unit of `ax,ay,az`; nil for the header's, else m/s².
    ///   - magnetometerUnit: the unit of `mx,my,mz`; nil for the header's, else µT.
    ///   - checksUnits: true (the default) checks the units against the data
    ///     (``RecordingUnitCheck``, as ``IMUCSVReader`` does); false reads data that are really that
    ///     strange.
    /// - Throws: ``CSVError`` naming line and column, including a header unit that is unknown,
    ///   differs between the axes of one sensor, or contradicts a unit given here, and
    ///   ``CSVError/implausibleUnit(line:column:name:mismatch:source:)`` for data that contradict
    ///   their units.
    public static func read(
        path: String, gyroscopeUnit: GyroscopeUnit? = nil, accelerometerUnit: AccelerometerUnit? = nil,
        magnetometerUnit: MagnetometerUnit? = nil, checksUnits: Bool = true
    ) throws(CSVError) -> IMURecording {
        let reader = try CSVReader(path: path)
        var names = RecordingColumns.inertial
        let hasMagnetometer = try reader.column(named: RecordingColumns.magnetometer[0]) != nil
        let hasTruth = try reader.column(named: RecordingColumns.truth[0]) != nil
        let hasMovement = try reader.column(named: RecordingColumns.movement) != nil
        if hasMagnetometer { names += RecordingColumns.magnetometer }
        if hasTruth { names += RecordingColumns.truth }
        if hasMovement { names.append(RecordingColumns.movement) }
        let columns = try names.map { name throws(CSVError) in try reader.requiredColumn(named: name) }
        var recording = IMURecording()
        if hasMagnetometer { recording.magnetometer = [] }
        if hasTruth { recording.truth = [] }
        if hasMovement { recording.scored = [] }
        let time: TimeUnit = try reader.unit(ofColumns: [columns[0]], given: nil)
        let gyroscopeIn = try reader.unit(ofColumns: Array(columns[1...3]), given: gyroscopeUnit)
        let accelerometerIn = try reader.unit(ofColumns: Array(columns[4...6]), given: accelerometerUnit)
        let magnetometerIn: MagnetometerUnit? =
            hasMagnetometer ? try reader.unit(ofColumns: Array(columns[7...9]), given: magnetometerUnit) : nil
        let g = gyroscopeIn.toRadiansPerSecond
        let a = accelerometerIn.toMetersPerSecondSquared
        let m = magnetometerIn?.toMicrotesla ?? 1
        var check =
            checksUnits
            ? RecordingUnitCheck(
                time: time, gyroscope: gyroscopeIn, accelerometer: accelerometerIn, magnetometer: magnetometerIn)
            : nil
        func verdict(final: Bool) throws(CSVError) {
            guard let mismatch = check?.mismatch(final: final) else { return }
            let index: Int
            let given: Bool
            switch mismatch.quantity {
            case .time: (index, given) = (0, false)
            case .gyroscope: (index, given) = (1, gyroscopeUnit != nil)
            case .accelerometer: (index, given) = (4, accelerometerUnit != nil)
            case .magnetometer: (index, given) = (7, magnetometerUnit != nil)
            }
            let column = columns[index]
            throw .implausibleUnit(
                line: reader.lineNumber, column: column + 1, name: reader.header[column], mismatch: mismatch,
                source: reader.unitSource(ofColumn: column, given: given))
        }
        var v: [Double] = []
        while try reader.nextRow(columns: columns, into: &v) {
            if check != nil {
                let t = time.seconds(v[0])
                check!.add(timestamp: t)
                check!.add(accelerometer: SIMD3(v[4], v[5], v[6]) * a, at: t)
                check!.add(gyroscope: SIMD3(v[1], v[2], v[3]) * g, at: t)
                if hasMagnetometer { check!.add(magnetometer: SIMD3(v[7], v[8], v[9]) * m) }
                try verdict(final: false)
            }
            recording.timestamps.append(time.seconds(v[0]))
            recording.gyroscope.append(SIMD3(v[1], v[2], v[3]) * g)
            recording.accelerometer.append(SIMD3(v[4], v[5], v[6]) * a)
            var i = 7
            if hasMagnetometer {
                recording.magnetometer!.append(SIMD3(v[7], v[8], v[9]) * m)
                i = 10
            }
            if hasTruth {
                recording.truth!.append(Quaternion(w: v[i], x: v[i + 1], y: v[i + 2], z: v[i + 3]))
                i += 4
            }
            if hasMovement { recording.scored!.append(v[i] == 1) }
        }
        try verdict(final: true)
        recording.partialLastLine = reader.partialLastLine
        return recording
    }
}

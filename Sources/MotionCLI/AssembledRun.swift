import MotionFusion

/// A `motion fuse` run on readings with separate timestamps: a ``SampleAssembler`` makes the
/// samples (this run's own for the sensors' files, a ``MultiRateRecording``'s for one CSV), each
/// fused and written as it is made (memory stays flat).
struct AssembledRun<F: AttitudeFilter> {
    var assembler = SampleAssembler()
    var stream: FusionStream<F>
    let writer: FusionCSVWriter?
    let stopAfter: FuseCommand.Stage
    let progress = Progress(label: "fuse")
    /// Samples made (output rows).
    private(set) var rows = 0
    private(set) var lastW = F.Scalar.zero

    init(stream: FusionStream<F>, writer: FusionCSVWriter?, stopAfter: FuseCommand.Stage) {
        self.stream = stream
        self.writer = writer
        self.stopAfter = stopAfter
    }

    /// Takes one reading and fuses the samples it completes.
    mutating func add(_ reading: SensorReading) {
        assembler.add(reading)
        drain()
    }

    /// Reports progress now and then.
    func report(bytes: Int, of total: Int?) {
        progress.report(rows: rows, bytes: bytes, of: total)
    }

    /// The end of the input: the samples still held are made and fused, and the output finished.
    mutating func finish() throws {
        assembler.finish()
        drain()
        try writer?.finish()
        progress.finish(rows: rows)
    }

    /// Fuses every sample ready.
    private mutating func drain() {
        while let sample = assembler.next() { fuse(sample) }
    }

    /// Fuses and writes one sample made by an assembler (this one's, or a
    /// ``MultiRateRecording``'s). A sample without accelerometer reading (none yet, or the latest
    /// older than the assembler's age limit) is fused with a NaN accelerometer, as a row of `nan`
    /// accelerometer cells would be: the gyroscope is integrated, there is no tilt correction and
    /// the row's flags lack accelerometerUsed (linear acceleration 0).
    mutating func fuse(_ sample: SensorSample) {
        rows += 1
        guard stopAfter != .parse, let g = sample.gyroscope else { return }
        let a = sample.accelerometer ?? SIMD3(repeating: .nan)
        let result = stream.update(
            timestamp: sample.timestamp, gyroscope: SIMD3<F.Scalar>(g), accelerometer: SIMD3<F.Scalar>(a),
            magnetometer: sample.magnetometer.map(SIMD3<F.Scalar>.init))
        writer?.write(result)
        lastW = result.quaternion.w
    }
}

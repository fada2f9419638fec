extension MultiStreamSamples {
    /// Samples from recordings, one stream each: `dt` comes from the timestamps by a default
    /// ``SampleClock``, as in ``FusionStream`` (0 for the first sample, which initializes a filter,
    /// and for a repeated, backward or non-finite timestamp; the typical period for a jump longer
    /// than ``SampleClock/maximumGap``). The magnetometer channel is present when every recording
    /// has one.
    ///
    /// - Precondition: at least one recording.
    public init(recordings: [IMURecording]) {
        precondition(!recordings.isEmpty, "need at least one recording")
        let steps = recordings.map(\.count).max() ?? 0
        let magnetic = recordings.allSatisfy { $0.magnetometer != nil }
        self.init(streamCount: recordings.count, stepCount: steps, hasMagnetometer: magnetic)
        for (s, recording) in recordings.enumerated() {
            setLength(recording.count, ofStream: s)
            var clock = SampleClock()
            for t in 0..<recording.count {
                let dt = clock.step(to: recording.timestamps[t]).dt
                set(
                    stream: s, step: t, gyroscope: SIMD3(recording.gyroscope[t]),
                    accelerometer: SIMD3(recording.accelerometer[t]),
                    magnetometer: magnetic ? recording.magnetometer.map { SIMD3($0[t]) } : nil,
                    dt: Scalar(dt))
            }
        }
    }
}

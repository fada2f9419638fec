import MotionFusion

/// The device motion of a recording, sample by sample, as `device-motion` writes it and `events`
/// finds its events in: a sample with a gyroscope reading and an accelerometer reading goes through
/// `processor`, in the order read, from the first sample whose accelerometer reading can stand for
/// gravity (``AccelerometerPresence``); others give nothing, as with `--live`. Memory stays flat
/// however long the recording.
///
/// A read error, or a recording without a usable accelerometer reading, calls `abandon` (the
/// output's) and throws the ``CommandFailure`` that says so (`written` says what became of the
/// output). Otherwise what the reader passed over is reported on standard error; finishing the
/// output is the caller's.
func forEachDeviceMotion(
    in reader: RecordingReader, of input: RecordingReader.Input,
    through processor: inout DeviceMotionProcessor<InertialFrameFilter<Double>>,
    abandon: () -> Void, written: String,
    _ body: (_ motion: DeviceMotion, _ timestamp: Double) -> Void
) throws {
    var accelerometer = AccelerometerPresence()
    do throws(RecordingFileError) {
        while let sample = try reader.next() {
            accelerometer.see(sample.accelerometer)
            guard let w = sample.gyroscope, let a = sample.accelerometer, accelerometer.seen else { continue }
            let motion = processor.update(
                timestamp: sample.timestamp, gyroscope: w, accelerometer: a, magnetometer: sample.magnetometer)
            body(motion, sample.timestamp)
        }
    } catch {
        abandon()
        throw CommandFailure("\(error)")
    }
    do {
        try accelerometer.check(input.paths, written: written)
    } catch {
        abandon()
        throw error
    }
    warnAboutSkipped(by: reader)
}

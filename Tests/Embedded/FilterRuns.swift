// The Swift side of scripts/embedded: runs MotionFusionCore's filters, in Float, over the sample
// arrays that the C driver (driver.c) hands in. Built twice from this one file: in Embedded Swift for
// the Cortex-M4F firmware and as ordinary Swift for the host, so that both compute the same thing.
//
// Samples are interleaved, nine floats each: gyroscope (rad/s), accelerometer (m/s²), magnetometer
// (µT). Three entry points per filter:
//   *_run    updates over all samples and writes the last quaternion (w, x, y, z) to `q`;
//   *_read   the same, reading the quaternion after every update (as an application does) into `q`;
//   *_trace  writes every output quaternion to `out`, four floats per sample.
import MotionFusionCore

@inline(__always)
func loop<F: AttitudeFilter>(
    _ filter: inout F, _ samples: UnsafePointer<Float>, _ count: Int32, _ dt: Float,
    _ afterUpdate: (Int, inout F) -> Void  // inout: no copy of the filter per sample
) where F.Scalar == Float {
    var s = samples
    for i in 0..<Int(count) {
        filter.update(
            gyroscope: SIMD3(s[0], s[1], s[2]), accelerometer: SIMD3(s[3], s[4], s[5]),
            magnetometer: SIMD3(s[6], s[7], s[8]), dt: dt)
        afterUpdate(i, &filter)
        s += 9
    }
}

@inline(__always)
func store(_ q: Quaternion<Float>, _ out: UnsafeMutablePointer<Float>) {
    out[0] = q.w
    out[1] = q.x
    out[2] = q.y
    out[3] = q.z
}

@inline(__always)
func run<F: AttitudeFilter>(
    _ filter: F, _ samples: UnsafePointer<Float>, _ count: Int32, _ dt: Float, _ q: UnsafeMutablePointer<Float>
) where F.Scalar == Float {
    var f = filter
    loop(&f, samples, count, dt) { _, _ in }
    store(f.quaternion, q)
}

@inline(__always)
func read<F: AttitudeFilter>(
    _ filter: F, _ samples: UnsafePointer<Float>, _ count: Int32, _ dt: Float, _ q: UnsafeMutablePointer<Float>
) where F.Scalar == Float {
    var f = filter
    loop(&f, samples, count, dt) { _, f in store(f.quaternion, q) }
}

@inline(__always)
func trace<F: AttitudeFilter>(
    _ filter: F, _ samples: UnsafePointer<Float>, _ count: Int32, _ dt: Float, _ out: UnsafeMutablePointer<Float>
) where F.Scalar == Float {
    var f = filter
    loop(&f, samples, count, dt) { i, f in store(f.quaternion, out + 4 * i) }
}

@_cdecl("mf_default_run")
public func defaultRun(_ s: UnsafePointer<Float>, _ n: Int32, _ dt: Float, _ q: UnsafeMutablePointer<Float>) {
    run(InertialFrameFilter<Float>(), s, n, dt, q)
}

@_cdecl("mf_default_read")
public func defaultRead(_ s: UnsafePointer<Float>, _ n: Int32, _ dt: Float, _ q: UnsafeMutablePointer<Float>) {
    read(InertialFrameFilter<Float>(), s, n, dt, q)
}

@_cdecl("mf_default_trace")
public func defaultTrace(_ s: UnsafePointer<Float>, _ n: Int32, _ dt: Float, _ out: UnsafeMutablePointer<Float>) {
    trace(InertialFrameFilter<Float>(), s, n, dt, out)
}

@_cdecl("mf_madgwick_run")
public func madgwickRun(_ s: UnsafePointer<Float>, _ n: Int32, _ dt: Float, _ q: UnsafeMutablePointer<Float>) {
    run(MadgwickFilter<Float>(), s, n, dt, q)
}

@_cdecl("mf_madgwick_read")
public func madgwickRead(_ s: UnsafePointer<Float>, _ n: Int32, _ dt: Float, _ q: UnsafeMutablePointer<Float>) {
    read(MadgwickFilter<Float>(), s, n, dt, q)
}

@_cdecl("mf_madgwick_trace")
public func madgwickTrace(_ s: UnsafePointer<Float>, _ n: Int32, _ dt: Float, _ out: UnsafeMutablePointer<Float>) {
    trace(MadgwickFilter<Float>(), s, n, dt, out)
}

@_cdecl("mf_complementary_run")
public func complementaryRun(_ s: UnsafePointer<Float>, _ n: Int32, _ dt: Float, _ q: UnsafeMutablePointer<Float>) {
    run(ComplementaryFilter<Float>(), s, n, dt, q)
}

@_cdecl("mf_complementary_read")
public func complementaryRead(_ s: UnsafePointer<Float>, _ n: Int32, _ dt: Float, _ q: UnsafeMutablePointer<Float>) {
    read(ComplementaryFilter<Float>(), s, n, dt, q)
}

@_cdecl("mf_complementary_trace")
public func complementaryTrace(_ s: UnsafePointer<Float>, _ n: Int32, _ dt: Float, _ out: UnsafeMutablePointer<Float>) {
    trace(ComplementaryFilter<Float>(), s, n, dt, out)
}

/// The default filter behind the online magnetometer calibration, as `FusionStream` runs the two
/// (its clock, in Double, left out): every reading goes through the calibrator, which learns from
/// it; a field outside the earth's 15–80 µT is withheld from the filter until a fit is accepted,
/// and a major change of the fit tells the filter.
struct CalibratedDefault: AttitudeFilter {
    var filter = InertialFrameFilter<Float>()
    var calibrator = OnlineMagnetometerCalibrator<Float>()

    var frame: EarthFrame { filter.frame }
    // Always inlined: an out-of-line getter copies the whole value (the calibrator's 3 KB) per read.
    @inline(__always) var quaternion: Quaternion<Float> { filter.quaternion }
    var gyroscopeBias: SIMD3<Float> { filter.gyroscopeBias }
    var isRestDetected: Bool { filter.isRestDetected }
    var isInitialized: Bool { filter.isInitialized }
    mutating func reset(to attitude: Quaternion<Float>) { filter.reset(to: attitude) }
    mutating func initialize(accelerometer: SIMD3<Float>, magnetometer: SIMD3<Float>?) -> Bool {
        filter.initialize(accelerometer: accelerometer, magnetometer: magnetometer)
    }

    @inline(__always)
    mutating func update(gyroscope: SIMD3<Float>, accelerometer: SIMD3<Float>, magnetometer: SIMD3<Float>?, dt: Float) {
        var field: SIMD3<Float>?
        if let raw = magnetometer {
            let changes = calibrator.majorChanges
            let m = calibrator.update(raw)
            if calibrator.majorChanges != changes { filter.magnetometerCalibrationChanged() }
            let earthLike = OnlineMagnetometerCalibrator<Float>.hasEarthFieldStrength(m)
            field = calibrator.calibration != nil || earthLike ? m : nil
        }
        filter.update(gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: field, dt: dt)
    }
}

@_cdecl("mf_calibrated_run")
public func calibratedRun(_ s: UnsafePointer<Float>, _ n: Int32, _ dt: Float, _ q: UnsafeMutablePointer<Float>) {
    run(CalibratedDefault(), s, n, dt, q)
}

@_cdecl("mf_calibrated_read")
public func calibratedRead(_ s: UnsafePointer<Float>, _ n: Int32, _ dt: Float, _ q: UnsafeMutablePointer<Float>) {
    read(CalibratedDefault(), s, n, dt, q)
}

@_cdecl("mf_calibrated_trace")
public func calibratedTrace(_ s: UnsafePointer<Float>, _ n: Int32, _ dt: Float, _ out: UnsafeMutablePointer<Float>) {
    trace(CalibratedDefault(), s, n, dt, out)
}

// The step detector (StepDetector), from the accelerometer alone, at t = i · dt (Double timestamps,
// as an application keeps them). `run` and `read` time it on the samples as they are (BROAD's hand
// movements: the detector's common path, peaks tested and refused); `read` also reads the count and
// the cadence after every update. `trace` adds a jolt along gravity every 0.55 s (0.1 s long, up to
// 30 % of |a|) so that there are steps, and writes per sample the count, the last step's time, the
// cadence (0 when not walking) and whether walking, for the comparison with the host.
@inline(__always)
func steps(
    _ s: UnsafePointer<Float>, _ n: Int32, _ dt: Float, _ out: UnsafeMutablePointer<Float>, _ mode: Int
) {
    var detector = StepDetector<Float>()
    var p = s
    var last: Double = 0
    for i in 0..<Int(n) {
        var a = SIMD3(p[3], p[4], p[5])
        if mode == 2 {
            let phase = i % 157
            if phase < 28 { a *= 1 + 0.3 * (1 - Float(abs(phase - 14)) / 14) }
        }
        if detector.update(timestamp: Double(i) * Double(dt), acceleration: a) > 0 {
            last = detector.newStepTimes[detector.newStepTimes.count - 1]
        }
        if mode == 1 {
            out[0] = Float(detector.stepCount)
            out[1] = Float(detector.cadence ?? 0)
        } else if mode == 2 {
            let o = out + 4 * i
            o[0] = Float(detector.stepCount)
            o[1] = Float(last)
            o[2] = Float(detector.cadence ?? 0)
            o[3] = detector.isWalking ? 1 : 0
        }
        p += 9
    }
    if mode != 2 {
        out[0] = Float(detector.stepCount)
        out[1] = Float(last)
        out[2] = Float(detector.cadence ?? 0)
        out[3] = detector.isWalking ? 1 : 0
    }
}

@_cdecl("mf_steps_run")
public func stepsRun(_ s: UnsafePointer<Float>, _ n: Int32, _ dt: Float, _ q: UnsafeMutablePointer<Float>) {
    steps(s, n, dt, q, 0)
}

@_cdecl("mf_steps_read")
public func stepsRead(_ s: UnsafePointer<Float>, _ n: Int32, _ dt: Float, _ q: UnsafeMutablePointer<Float>) {
    steps(s, n, dt, q, 1)
}

@_cdecl("mf_steps_trace")
public func stepsTrace(_ s: UnsafePointer<Float>, _ n: Int32, _ dt: Float, _ out: UnsafeMutablePointer<Float>) {
    steps(s, n, dt, out, 2)
}

// The activity classifier (ActivityClassifier, with its step detector), as `steps` runs the step
// detector: `run` and `read` on the samples as they are, `read` also reading the activity and its
// confidence after every update; `trace` with the same jolts, writing per sample the step count,
// the activity, its confidence and the activity's start time.
@inline(__always)
func activity(
    _ s: UnsafePointer<Float>, _ n: Int32, _ dt: Float, _ out: UnsafeMutablePointer<Float>, _ mode: Int
) {
    var classifier = ActivityClassifier<Float>()
    var p = s
    for i in 0..<Int(n) {
        var a = SIMD3(p[3], p[4], p[5])
        if mode == 2 {
            let phase = i % 157
            if phase < 28 { a *= 1 + 0.3 * (1 - Float(abs(phase - 14)) / 14) }
        }
        classifier.update(timestamp: Double(i) * Double(dt), acceleration: a)
        if mode == 1 {
            out[0] = Float(classifier.current.kind.rawValue)
            out[1] = Float(classifier.current.confidence.rawValue)
        } else if mode == 2 {
            let o = out + 4 * i
            o[0] = Float(classifier.steps.stepCount)
            o[1] = Float(classifier.current.kind.rawValue)
            o[2] = Float(classifier.current.confidence.rawValue)
            o[3] = Float(classifier.current.startTime)
        }
        p += 9
    }
    if mode != 2 {
        out[0] = Float(classifier.steps.stepCount)
        out[1] = Float(classifier.current.kind.rawValue)
        out[2] = Float(classifier.current.confidence.rawValue)
        out[3] = Float(classifier.current.startTime)
    }
}

@_cdecl("mf_activity_run")
public func activityRun(_ s: UnsafePointer<Float>, _ n: Int32, _ dt: Float, _ q: UnsafeMutablePointer<Float>) {
    activity(s, n, dt, q, 0)
}

@_cdecl("mf_activity_read")
public func activityRead(_ s: UnsafePointer<Float>, _ n: Int32, _ dt: Float, _ q: UnsafeMutablePointer<Float>) {
    activity(s, n, dt, q, 1)
}

@_cdecl("mf_activity_trace")
public func activityTrace(_ s: UnsafePointer<Float>, _ n: Int32, _ dt: Float, _ out: UnsafeMutablePointer<Float>) {
    activity(s, n, dt, out, 2)
}

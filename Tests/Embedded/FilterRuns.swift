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

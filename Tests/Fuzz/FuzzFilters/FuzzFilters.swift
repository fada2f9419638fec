// libFuzzer target: every filter's update (and the fusion stream) on arbitrary floats and time
// steps. The input is read as a sequence of Float samples (gyroscope, accelerometer, magnetometer,
// Δt or timestamp); whatever they are — NaN, infinity, zero, subnormal, huge — the attitude must stay
// a unit quaternion without NaN once the filter is initialized.
import FuzzDriver
import MotionFusion

@inline(__always)
func check<S: FusionScalar>(_ q: Quaternion<S>, _ what: String) {
    let c = q.components
    precondition(c.x.isFinite && c.y.isFinite && c.z.isFinite && c.w.isFinite, "\(what): non-finite attitude \(q)")
    precondition(abs(q.length - 1) < 1e-3, "\(what): attitude of length \(q.length)")
}

func run<F: AttitudeFilter>(_ prototype: F, _ values: [Float], _ what: String) where F.Scalar == Float {
    var filter = prototype
    var stream = FusionStream(filter: prototype)
    var i = 0
    var time = 0.0
    while i + 10 <= values.count {
        let g = SIMD3(values[i], values[i + 1], values[i + 2])
        let a = SIMD3(values[i + 3], values[i + 4], values[i + 5])
        let m = SIMD3(values[i + 6], values[i + 7], values[i + 8])
        let dt = values[i + 9]
        let magnetometer: SIMD3<Float>? = Int(values[i].bitPattern & 3) == 0 ? nil : m
        filter.update(gyroscope: g, accelerometer: a, magnetometer: magnetometer, dt: dt)
        if filter.isInitialized { check(filter.quaternion, what) }
        time += Double(dt)  // may repeat, go backwards, jump or be NaN: the stream's clock copes
        let output = stream.update(timestamp: time, gyroscope: g, accelerometer: a, magnetometer: magnetometer)
        check(output.quaternion, what + " stream")
        i += 10
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFilters(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let count = size / 4
    var values = [Float](repeating: 0, count: count)
    UnsafeRawPointer(data).withMemoryRebound(to: UInt8.self, capacity: size) { bytes in
        for k in 0..<count {
            let bits = UInt32(bytes[4 * k]) | UInt32(bytes[4 * k + 1]) << 8 | UInt32(bytes[4 * k + 2]) << 16 | UInt32(bytes[4 * k + 3]) << 24
            values[k] = Float(bitPattern: bits)
        }
    }
    run(InertialFrameFilter<Float>(), values, "inertial")
    run(MadgwickFilter<Float>(settings: .init(zeta: 0.01)), values, "madgwick")
    run(MahonyFilter<Float>(), values, "mahony")
    run(ComplementaryFilter<Float>(), values, "complementary")
    return 0
}

@_cdecl("FuzzFilters_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzFilters)
}

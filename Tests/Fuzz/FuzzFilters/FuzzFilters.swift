// libFuzzer target: every filter's update (and the fusion stream) on arbitrary floats and time
// steps, in Float and in Double. The input is read once as a sequence of Float values and once as a
// sequence of Double values (gyroscope, accelerometer, magnetometer, Δt or timestamp); whatever they
// are — NaN, infinity, zero, subnormal, huge — the attitude must stay a unit quaternion without NaN
// once the filter is initialized: |‖q‖ − 1| ≤ 64 ulp (7.6e-6 in Float, 1.4e-14 in Double).
import FuzzDriver
import MotionFusion

@inline(__always)
func check<S: FusionScalar>(_ q: Quaternion<S>, _ what: @autoclosure () -> String) {
    let c = q.components
    precondition(c.x.isFinite && c.y.isFinite && c.z.isFinite && c.w.isFinite, "\(what()): non-finite attitude \(q)")
    precondition(abs(q.length - 1) <= 64 * S.ulpOfOne, "\(what()): attitude of length \(q.length)")
}

func run<F: AttitudeFilter>(_ prototype: F, _ values: [F.Scalar], _ what: String) {
    var filter = prototype
    var stream = FusionStream(filter: prototype)
    var i = 0
    var time = 0.0
    while i + 10 <= values.count {
        let g = SIMD3(values[i], values[i + 1], values[i + 2])
        let a = SIMD3(values[i + 3], values[i + 4], values[i + 5])
        let m = SIMD3(values[i + 6], values[i + 7], values[i + 8])
        let dt = values[i + 9]
        let magnetometer: SIMD3<F.Scalar>? = values[i].significandBitPattern & 3 == 0 ? nil : m
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
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let floats = (0..<size / 4).map { k in Float(bitPattern: bytes.loadUnaligned(fromByteOffset: 4 * k, as: UInt32.self)) }
    run(InertialFrameFilter<Float>(), floats, "inertial Float")
    run(MadgwickFilter<Float>(settings: .init(zeta: 0.01)), floats, "madgwick Float")
    run(MahonyFilter<Float>(), floats, "mahony Float")
    run(ComplementaryFilter<Float>(), floats, "complementary Float")
    let doubles = (0..<size / 8).map { k in Double(bitPattern: bytes.loadUnaligned(fromByteOffset: 8 * k, as: UInt64.self)) }
    run(InertialFrameFilter<Double>(), doubles, "inertial Double")
    run(MadgwickFilter<Double>(settings: .init(zeta: 0.01)), doubles, "madgwick Double")
    run(MahonyFilter<Double>(), doubles, "mahony Double")
    run(ComplementaryFilter<Double>(), doubles, "complementary Double")
    return 0
}

@_cdecl("FuzzFilters_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzFilters)
}

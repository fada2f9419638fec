// libFuzzer target: the settings and calibration decoders. The input is decoded as JSON into every
// filter's Settings and into both calibration types, and it also edits each type's default JSON
// (every 10 bytes: a field, an element of it, and any finite value or a true/false or a frame name),
// so that the decoders, `validate()` and the clamps see every field with absurd values. Whatever
// decodes must give a filter (settings are clamped into their ranges) whose attitude stays finite
// and of unit length over a hundred samples, whether `validate()` accepts the settings or not; a
// calibration that decodes (its ranges are checked then) must map a finite sample to a finite one.
// Anything else is a typed error.
// Built and run by scripts/fuzz.
import Foundation
import FuzzDriver
import MotionFusion

func run<F: AttitudeFilter>(_ filter: inout F) where F.Scalar == Double {
    for k in 0..<100 {
        let turn = Double(k) * 0.01
        filter.update(
            gyroscope: SIMD3(0.3, -0.2, 0.5), accelerometer: SIMD3(sin(turn), 0.2, 9.8),
            magnetometer: k % 2 == 0 ? SIMD3(20, 3 * cos(turn), -45) : nil, dt: 0.01)
        let q = filter.quaternion
        precondition(q.isFinite && abs(q.lengthSquared - 1) < 1e-6, "attitude \(q) at step \(k)")
    }
}

func decodeAndRun<F: AttitudeFilter, S: Decodable>(
    _ data: Data, _ make: (S) -> F, validate: (S) throws -> Void
) where F.Scalar == Double {
    guard let settings = try? JSONDecoder().decode(S.self, from: data) else { return }
    _ = try? validate(settings)  // refused or not: the filter clamps what it is given
    var filter = make(settings)
    run(&filter)
}

/// The JSON of `defaults` with fields replaced as `bytes` say (see the file's comment).
func edited<S: Encodable>(_ defaults: S, _ bytes: UnsafeBufferPointer<UInt8>) -> Data {
    guard var object = (try? JSONSerialization.jsonObject(with: JSONEncoder().encode(defaults))) as? [String: Any] else {
        preconditionFailure("settings do not encode to an object")
    }
    let keys = object.keys.sorted()
    var i = 0
    while i + 10 <= bytes.count, !keys.isEmpty {
        let key = keys[Int(bytes[i]) % keys.count]
        var bits: UInt64 = 0
        for k in 0..<8 { bits |= UInt64(bytes[i + 2 + k]) << (8 * k) }
        let value = Double(bitPattern: bits)
        let pick = Int(bytes[i + 1])
        i += 10
        guard value.isFinite else { continue }  // JSON has no NaN or infinity
        switch object[key] {
        case is Bool: object[key] = bits & 1 == 1
        case is String: object[key] = ["enu", "nwu", "ned", "up", ""][pick % 5]
        case let array as [Any]:
            // A vector, or a matrix as rows: replace one number.
            var rows = array
            if var row = rows[pick % rows.count] as? [Any] {
                row[(pick / 3) % row.count] = value
                rows[pick % rows.count] = row
            } else {
                rows[pick % rows.count] = value
            }
            object[key] = rows
        default: object[key] = value
        }
    }
    return (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSettings(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = Data(UnsafeBufferPointer(start: bytes, count: size))
    let input = UnsafeBufferPointer(start: bytes, count: size)
    decodeAndRun(edited(InertialFrameFilter<Double>.Settings(), input), { (s: InertialFrameFilter<Double>.Settings) in InertialFrameFilter(settings: s) }, validate: { try $0.validate() })
    decodeAndRun(edited(MadgwickFilter<Double>.Settings(zeta: 0.015), input), { (s: MadgwickFilter<Double>.Settings) in MadgwickFilter(settings: s) }, validate: { try $0.validate() })
    decodeAndRun(edited(MahonyFilter<Double>.Settings(), input), { (s: MahonyFilter<Double>.Settings) in MahonyFilter(settings: s) }, validate: { try $0.validate() })
    decodeAndRun(edited(ComplementaryFilter<Double>.Settings(), input), { (s: ComplementaryFilter<Double>.Settings) in ComplementaryFilter(settings: s) }, validate: { try $0.validate() })
    for calibration in [edited(MagnetometerCalibration(), input), edited(InertialCalibration(), input)] {
        check(calibration)
    }
    decodeAndRun(data, { (s: InertialFrameFilter<Double>.Settings) in InertialFrameFilter(settings: s) }, validate: { try $0.validate() })
    decodeAndRun(data, { (s: MadgwickFilter<Double>.Settings) in MadgwickFilter(settings: s) }, validate: { try $0.validate() })
    decodeAndRun(data, { (s: MahonyFilter<Double>.Settings) in MahonyFilter(settings: s) }, validate: { try $0.validate() })
    decodeAndRun(data, { (s: ComplementaryFilter<Double>.Settings) in ComplementaryFilter(settings: s) }, validate: { try $0.validate() })
    check(data)
    return 0
}

/// A calibration that decodes maps a finite sample to a finite one.
func check(_ data: Data) {
    let sample = SIMD3<Double>(12, -30, 41)
    if let magnetometer = try? JSONDecoder().decode(MagnetometerCalibration.self, from: data) {
        let m = magnetometer.apply(sample)
        precondition(m.x.isFinite && m.y.isFinite && m.z.isFinite, "magnetometer calibration gave \(m)")
    }
    if let inertial = try? JSONDecoder().decode(InertialCalibration.self, from: data) {
        let v = inertial.apply(sample)
        precondition(v.x.isFinite && v.y.isFinite && v.z.isFinite, "inertial calibration gave \(v)")
    }
}

@_cdecl("FuzzSettings_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzSettings)
}

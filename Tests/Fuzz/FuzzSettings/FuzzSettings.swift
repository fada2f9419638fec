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

/// The JSON text of a type's defaults, split once into its fields so that each input's edits (see
/// the file's comment) replace one value's text: no encoding, parsing or serializing of the
/// defaults per input (they took most of the target's time before). Fields are in key order, as
/// JSONEncoder writes them with `.sortedKeys`; a field's kind is told by its JSON text, so a 0 or 1
/// stays a number.
struct Template {
    enum Kind { case bool, string, number, vector, matrix }
    struct Field {
        var key: String
        var kind: Kind
        var text: String  // the value's JSON text
        var rows: [[String]]  // a vector's numbers (one row) or a matrix's rows; else empty
    }
    var fields: [Field]

    /// The template of `defaults`, whose unedited text must decode to `S` again.
    init<S: Codable>(_ defaults: S) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(defaults), let text = String(data: data, encoding: .utf8),
            text.first == "{", text.last == "}"
        else { preconditionFailure("\(S.self) does not encode to a JSON object") }
        fields = []
        for member in Template.split(text.dropFirst().dropLast()) {
            guard let colon = member.firstIndex(of: ":"), member.first == "\"" else {
                preconditionFailure("\(S.self): unexpected member \(member)")
            }
            let key = String(member[member.index(after: member.startIndex)..<member.index(before: colon)])
            let value = String(member[member.index(after: colon)...])
            var field = Field(key: key, kind: .number, text: value, rows: [])
            if value == "true" || value == "false" {
                field.kind = .bool
            } else if value.first == "\"" {
                field.kind = .string
            } else if value.first == "[" {
                let elements = Template.split(value.dropFirst().dropLast())
                if elements.first?.first == "[" {
                    field.kind = .matrix
                    field.rows = elements.map { Template.split($0.dropFirst().dropLast()).map(String.init) }
                } else {
                    field.kind = .vector
                    field.rows = [elements.map(String.init)]
                }
                precondition(
                    !field.rows.isEmpty && field.rows.allSatisfy { !$0.isEmpty }, "\(S.self).\(key) is an empty list")
                precondition(Template.joined(field) == value, "\(S.self).\(key): the list does not join back")
            }
            fields.append(field)
        }
        precondition(!fields.isEmpty, "\(S.self) has no fields")
        // Unedited, the template is the defaults exactly: what it writes decodes and encodes back
        // to the same text (else every edited input could be refused without anyone noticing).
        let decoded = try? JSONDecoder().decode(S.self, from: Data(self.text(fields).utf8))
        precondition(
            decoded.flatMap { try? encoder.encode($0) } == data, "\(S.self): the unedited template does not decode back")
    }

    /// The comma-separated parts of a JSON object's or array's inside, split at depth 0.
    static func split(_ text: Substring) -> [Substring] {
        var parts: [Substring] = []
        var depth = 0
        var inString = false
        var escaped = false
        var start = text.startIndex
        for index in text.indices {
            let c = text[index]
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                continue
            }
            switch c {
            case "\"": inString = true
            case "[", "{": depth += 1
            case "]", "}": depth -= 1
            case "," where depth == 0:
                parts.append(text[start..<index])
                start = text.index(after: index)
            default: break
            }
        }
        if start < text.endIndex { parts.append(text[start...]) }
        return parts
    }

    /// A vector's or matrix's JSON text from its rows.
    static func joined(_ field: Field) -> String {
        field.kind == .matrix
            ? "[" + field.rows.map { "[" + $0.joined(separator: ",") + "]" }.joined(separator: ",") + "]"
            : "[" + field.rows[0].joined(separator: ",") + "]"
    }

    func text(_ fields: [Field]) -> String {
        "{" + fields.map { "\"\($0.key)\":\($0.text)" }.joined(separator: ",") + "}"
    }

    /// The defaults' JSON with fields replaced as `bytes` say.
    func edited(_ bytes: UnsafeBufferPointer<UInt8>) -> Data {
        var fields = self.fields
        var i = 0
        while i + 10 <= bytes.count {
            let f = Int(bytes[i]) % fields.count
            var bits: UInt64 = 0
            for k in 0..<8 { bits |= UInt64(bytes[i + 2 + k]) << (8 * k) }
            let value = Double(bitPattern: bits)
            let pick = Int(bytes[i + 1])
            i += 10
            guard value.isFinite else { continue }  // JSON has no NaN or infinity
            switch fields[f].kind {
            case .bool: fields[f].text = bits & 1 == 1 ? "true" : "false"
            case .string: fields[f].text = ["\"enu\"", "\"nwu\"", "\"ned\"", "\"up\"", "\"\""][pick % 5]
            case .vector:
                fields[f].rows[0][pick % fields[f].rows[0].count] = "\(value)"
                fields[f].text = Template.joined(fields[f])
            case .matrix:
                let r = pick % fields[f].rows.count
                fields[f].rows[r][(pick / 3) % fields[f].rows[r].count] = "\(value)"
                fields[f].text = Template.joined(fields[f])
            case .number: fields[f].text = "\(value)"
            }
        }
        return Data(text(fields).utf8)
    }
}

let inertialTemplate = Template(InertialFrameFilter<Double>.Settings())
let madgwickTemplate = Template(MadgwickFilter<Double>.Settings(zeta: 0.015))
let mahonyTemplate = Template(MahonyFilter<Double>.Settings())
let complementaryTemplate = Template(ComplementaryFilter<Double>.Settings())
let magnetometerCalibrationTemplate = Template(MagnetometerCalibration())
let inertialCalibrationTemplate = Template(InertialCalibration())

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSettings(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = Data(UnsafeBufferPointer(start: bytes, count: size))
    let input = UnsafeBufferPointer(start: bytes, count: size)
    decodeAndRun(inertialTemplate.edited(input), { (s: InertialFrameFilter<Double>.Settings) in InertialFrameFilter(settings: s) }, validate: { try $0.validate() })
    decodeAndRun(madgwickTemplate.edited(input), { (s: MadgwickFilter<Double>.Settings) in MadgwickFilter(settings: s) }, validate: { try $0.validate() })
    decodeAndRun(mahonyTemplate.edited(input), { (s: MahonyFilter<Double>.Settings) in MahonyFilter(settings: s) }, validate: { try $0.validate() })
    decodeAndRun(complementaryTemplate.edited(input), { (s: ComplementaryFilter<Double>.Settings) in ComplementaryFilter(settings: s) }, validate: { try $0.validate() })
    for calibration in [magnetometerCalibrationTemplate.edited(input), inertialCalibrationTemplate.edited(input)] {
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
    // The templates are globals, made when first used: make them here, so that one that fails its
    // checks stops the run before libFuzzer saves an unrelated input as the crash.
    _ = (inertialTemplate, madgwickTemplate, mahonyTemplate, complementaryTemplate)
    _ = (magnetometerCalibrationTemplate, inertialCalibrationTemplate)
    return runFuzzer(argc, argv, fuzzSettings)
}

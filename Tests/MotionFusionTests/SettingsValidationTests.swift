import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Every numeric setting of every settings type has a valid range in one table per type; the
/// defaults are in range, each field's documentation states its range, and `validate()` refuses a
/// value outside it naming the field. A new numeric field without a range fails these tests.
@Suite("Settings validation")
struct SettingsValidationTests {
    /// A settings type under test: its table, its check, and what it needs for JSON and the source.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        /// The file that declares the type's fields (for the documentation check).
        let source: String
        /// Numeric fields of the type that are state, not settings (SampleClock's).
        let state: Set<String>
        /// The table's names, in order.
        let ruleNames: [String]
        /// The table's ranges, and whether the field is optional.
        let ranges: [String: Range]
        /// The names of the default value's numeric fields (plain or optional), from `Mirror`.
        let numericFields: [String]
        /// Validates the defaults.
        let validateDefaults: @Sendable () throws -> Void
        /// Decodes the defaults with `key` set to `value` in their JSON, then validates.
        let validateWith: @Sendable (_ key: String, _ value: Double) throws -> Void

        struct Range: Sendable {
            let range: ValidRange
            let optional: Bool
        }

        var testDescription: String { name }

        init<T: Codable & RangedSettings & Sendable & SendableMetatype, S: FusionScalar>(
            _ name: String, _: T.Type, scalar: S.Type, source: String, state: Set<String> = [],
            validate: @escaping @Sendable (T) throws -> Void,
            validateWith: (@Sendable (_ key: String, _ value: Double) throws -> Void)? = nil
        ) {
            self.name = name
            self.source = source
            self.state = state
            let defaults = T.defaults
            let children = Mirror(reflecting: defaults).children
            ruleNames = T.rules.map(\.name)
            var ranges: [String: Range] = [:]
            for rule in T.rules {
                let optional = children.first { $0.label == rule.name }.map { !($0.value is S) } ?? false
                ranges[rule.name] = Range(range: rule.range, optional: optional)
            }
            self.ranges = ranges
            numericFields = children.compactMap { child in child.value is S || child.value is S? ? child.label : nil }
            validateDefaults = { try validate(defaults) }
            self.validateWith = validateWith ?? { key, value in
                var object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(defaults)) as! [String: Any]
                object[key] = value
                let settings = try JSONDecoder().decode(T.self, from: JSONSerialization.data(withJSONObject: object))
                try validate(settings)
            }
        }
    }

    static let cases: [Case] = [
        Case("InertialFrameFilter<Double>", InertialFrameFilter<Double>.Settings.self, scalar: Double.self,
             source: "InertialFrame/InertialFrameFilter+Settings.swift") { try $0.validate() },
        Case("InertialFrameFilter<Float>", InertialFrameFilter<Float>.Settings.self, scalar: Float.self,
             source: "InertialFrame/InertialFrameFilter+Settings.swift") { try $0.validate() },
        Case("MadgwickFilter<Double>", MadgwickFilter<Double>.Settings.self, scalar: Double.self,
             source: "MadgwickFilter.swift") { try $0.validate() },
        Case("MadgwickFilter<Float>", MadgwickFilter<Float>.Settings.self, scalar: Float.self,
             source: "MadgwickFilter.swift") { try $0.validate() },
        Case("MahonyFilter<Double>", MahonyFilter<Double>.Settings.self, scalar: Double.self,
             source: "MahonyFilter.swift") { try $0.validate() },
        Case("MahonyFilter<Float>", MahonyFilter<Float>.Settings.self, scalar: Float.self,
             source: "MahonyFilter.swift") { try $0.validate() },
        Case("ComplementaryFilter<Double>", ComplementaryFilter<Double>.Settings.self, scalar: Double.self,
             source: "ComplementaryFilter.swift") { try $0.validate() },
        Case("ComplementaryFilter<Float>", ComplementaryFilter<Float>.Settings.self, scalar: Float.self,
             source: "ComplementaryFilter.swift") { try $0.validate() },
        Case("GyroscopeBiasEstimator<Double>", GyroscopeBiasEstimator<Double>.Settings.self, scalar: Double.self,
             source: "GyroscopeBiasEstimator.swift") { try $0.validate() },
        Case("GyroscopeBiasEstimator<Float>", GyroscopeBiasEstimator<Float>.Settings.self, scalar: Float.self,
             source: "GyroscopeBiasEstimator.swift") { try $0.validate() },
        Case("FusionStream<Double>", FusionStream<MahonyFilter<Double>>.Settings.self, scalar: Double.self,
             source: "FusionStream.swift") { try $0.validate() },
        Case("FusionStream<Float>", FusionStream<MahonyFilter<Float>>.Settings.self, scalar: Float.self,
             source: "FusionStream.swift") { try $0.validate() },
        // The clock replaces invalid values as it is made (and decoded); its check takes the numbers.
        Case("SampleClock", SampleClock.self, scalar: Double.self, source: "SampleClock.swift",
             state: ["last", "typical"],
             validate: { try SampleClock.validate(maximumGap: $0.maximumGap, nominalPeriod: $0.nominalPeriod) },
             validateWith: { key, value in
                 try SampleClock.validate(
                     maximumGap: key == "maximumGap" ? value : 1, nominalPeriod: key == "nominalPeriod" ? value : 0.01)
             }),
    ]

    @Test(arguments: cases)
    func defaultsAreValid(_ c: Case) throws {
        try c.validateDefaults()
    }

    /// The table lists every numeric field (a new field without a range fails here), in order.
    @Test(arguments: cases)
    func tableCoversEveryNumericField(_ c: Case) {
        let fields = c.numericFields.filter { !c.state.contains($0) }
        #expect(!fields.isEmpty)
        #expect(c.ruleNames == fields)
    }

    /// Values just outside each end of each range, set through the JSON key of the table's name
    /// (so that a name paired with the wrong field fails too): `validate()` names that field.
    @Test(arguments: cases)
    func eachFieldOutsideItsRangeIsRefusedByName(_ c: Case) throws {
        for (name, entry) in c.ranges {
            let range = entry.range
            var bad: [Double] = []
            if range.lower.isFinite { bad.append(range.lowerClosed ? range.lower - 1 : range.lower) }
            if range.upper.isFinite { bad.append(range.upperClosed ? range.upper + 1 : range.upper) }
            #expect(!bad.isEmpty, "\(c.name).\(name)")
            for value in bad {
                #expect("\(c.name).\(name) = \(value)") {
                    try c.validateWith(name, value)
                } throws: { error in
                    guard case .outOfRange(let setting, let reported, let text)? = error as? SettingsError else { return false }
                    // (A Float setting reports the Float nearest to the value.)
                    return setting == name && abs(reported - value) <= 1e-6 * max(1, abs(value)) && text == range.description
                }
            }
            // A value inside passes: the lower end when closed, else just above it.
            let inside = range.lowerClosed ? range.lower : range.lower + 0.5
            #expect(throws: Never.self, "\(c.name).\(name) = \(inside)") { try c.validateWith(name, inside) }
        }
    }

    /// Each field's documentation ends its description with "Valid range: <the table's range>."
    @Test(arguments: cases)
    func documentationStatesEachRange(_ c: Case) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/MotionFusionCore/Filters/\(c.source)")
        let lines = try String(contentsOf: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        for (name, entry) in c.ranges {
            let (range, optional) = (entry.range, entry.optional)
            guard let declaration = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("public var \(name):") })
            else {
                Issue.record("\(c.name): no declaration of \(name) in \(c.source)")
                continue
            }
            var doc: [String] = []
            var i = declaration - 1
            while i >= 0, lines[i].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                doc.insert(lines[i].trimmingCharacters(in: .whitespaces).dropFirst(3).trimmingCharacters(in: .whitespaces), at: 0)
                i -= 1
            }
            let text = doc.joined(separator: " ")
            let expected = "Valid range: " + (optional ? "nil, or " : "") + range.description + "."
            #expect(text.hasSuffix(expected), "\(c.name).\(name): documentation ends \"…\(text.suffix(60))\", expected \"\(expected)\"")
        }
    }

    @Test func rangesInWords() {
        #expect(ValidRange.positive.description == "> 0, finite")
        #expect(ValidRange.nonNegative.description == "≥ 0, finite")
        #expect(ValidRange.atLeast(1).description == "≥ 1, finite")
        #expect(ValidRange.nonNegativeOrInfinity.description == "≥ 0, +∞ allowed")
        #expect(ValidRange.positiveOrInfinity.description == "> 0, +∞ allowed")
        #expect(ValidRange.closed(0, 0.1).description == "in [0, 0.1]")
    }

    @Test func rangesContainAndClamp() {
        let p = ValidRange.positive
        #expect(!p.contains(0.0) && p.contains(1e-300) && !p.contains(Double.infinity) && !p.contains(Double.nan))
        #expect(p.clamp(-1.0, fallback: 3) == 3 && p.clamp(0.0, fallback: 3) == 3 && p.clamp(Double.infinity, fallback: 3) == 3)
        let q = ValidRange.nonNegativeOrInfinity
        #expect(q.contains(Double.infinity) && q.contains(0.0) && !q.contains(-0.5))
        #expect(q.clamp(-1.0, fallback: 2) == 0 && q.clamp(Double.nan, fallback: 2) == 2)
        let c = ValidRange.closed(0, 0.1)
        // Compared in the value's own type: Float(0.1) is in [0, 0.1] although it exceeds 0.1 as a Double.
        #expect(c.contains(Float(0.1)) && !c.contains(Float(0.1).nextUp))
        #expect(c.clamp(Float(0.5), fallback: 0.003) == Float(0.1) && c.clamp(Float(-1), fallback: 0.003) == 0)
        #expect(ValidRange.atLeast(1).clamp(0.0, fallback: 2) == 1)
    }

    @Test func errorTextNamesSettingValueAndRange() {
        var settings = InertialFrameFilter<Double>.Settings()
        settings.biasLimit = -1
        #expect(throws: SettingsError.outOfRange(setting: "biasLimit", value: -1, range: "> 0, finite")) { try settings.validate() }
        let error = SettingsError.outOfRange(setting: "biasLimit", value: -1, range: "> 0, finite")
        #expect(error.description == "biasLimit = -1.0 is outside its range (> 0, finite)")
        #expect(error.localizedDescription == error.description)
        // A Float setting prints as the Float it was.
        var float = MadgwickFilter<Float>.Settings()
        float.beta = -0.1
        #expect(throws: SettingsError.self) { try float.validate() }
        do {
            try float.validate()
        } catch {
            #expect(error.description == "beta = -0.1 is outside its range (≥ 0, finite)")
        }
        var nan = ComplementaryFilter<Double>.Settings()
        nan.magnetometerTimeConstant = .nan
        #expect {
            try nan.validate()
        } throws: { error in
            (error as? SettingsError)?.description == "magnetometerTimeConstant = nan is outside its range (≥ 0, +∞ allowed)"
        }
    }
}

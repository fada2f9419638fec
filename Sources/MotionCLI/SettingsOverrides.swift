import ArgumentParser
import Foundation
import MotionFusion

/// `--set name=value` for any filter's `Settings`: the settings are encoded to a JSON object, the
/// named fields replaced, and the object decoded again, so every field is reachable by its Swift
/// name and a misspelt name or a wrong type is an error that lists the valid names, not a silent
/// no-op. The result is then validated: a value outside its setting's range (`biasLimit=-1`) is
/// refused with the setting, the value and the range, as the flags' own checks refuse theirs.
enum SettingsOverrides {
    static func apply<Settings: OverridableSettings>(
        _ overrides: [String], to settings: Settings, filter: String
    ) throws(SettingsOverrideError) -> Settings {
        guard !overrides.isEmpty else {
            // The flags' values alone: refused outside their settings' ranges, as overrides are.
            do throws(SettingsError) {
                try settings.validate()
            } catch {
                throw SettingsOverrideError(description: "\(error)")
            }
            return settings
        }
        func fail(_ text: String) -> SettingsOverrideError { SettingsOverrideError(description: "--set: \(text)") }
        // Non-finite numbers travel as strings, so that a setting whose range includes ∞ (Madgwick's
        // maximumBias, the complementary filter's time constants: "off") can be set to inf.
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        var object: [String: Any]
        do {
            let data = try encoder.encode(settings)
            guard let decoded = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw fail("internal: the \(filter) settings did not encode to an object")
            }
            object = decoded
        } catch let error as SettingsOverrideError {
            throw error
        } catch {
            throw fail("internal: the \(filter) settings did not encode: \(error)")
        }
        let switches = Set(Mirror(reflecting: settings).children.compactMap { $0.value is Bool ? $0.label : nil })
        for item in overrides {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw fail("expected name=value, got '\(item)'") }
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            let text = parts[1].trimmingCharacters(in: .whitespaces)
            // A nested settings object (the activity classifier's `steps`) is reached as
            // `steps.minimumPeak`.
            let path = name.split(separator: ".", maxSplits: 1).map(String.init)
            var container = object
            var key = name
            var nested: String?
            if path.count == 2, let inner = object[path[0]] as? [String: Any] {
                container = inner
                key = path[1]
                nested = path[0]
            }
            guard let current = container[key], !(current is [String: Any]) else {
                let known = object.keys.sorted().flatMap { key -> [String] in
                    guard let inner = object[key] as? [String: Any] else { return [key] }
                    return inner.keys.sorted().map { key + "." + $0 }
                }.joined(separator: ", ")
                throw fail("the \(filter) filter has no setting '\(name)'; its settings: \(known)")
            }
            let numeric = current is NSNumber || ["inf", "-inf", "nan"].contains(current as? String)
            if nested == nil && switches.contains(name) {
                guard let value = Bool(text) else { throw fail("\(name): expected true or false, got '\(text)'") }
                container[key] = value
            } else if numeric {
                switch text.lowercased() {
                case "inf", "+inf", "infinity", "+infinity": container[key] = "inf"
                case "-inf", "-infinity": container[key] = "-inf"
                default:
                    guard let value = Double(text), value.isFinite else {
                        throw fail("\(name): expected a number (or inf), got '\(text)'")
                    }
                    container[key] = value
                }
            } else {
                container[key] = text
            }
            if let nested { object[nested] = container } else { object = container }
            // Decoded one override at a time, so that a value the type refuses is named.
            do {
                _ = try decoder.decode(Settings.self, from: JSONSerialization.data(withJSONObject: object))
            } catch {
                if let value = Double(text), value.isFinite, !Float(value).isFinite {
                    throw fail("\(name)=\(text) is beyond Float's range (the run computes in Float)")
                }
                throw fail("\(name)=\(text) is not a valid value for the \(filter) filter\(Self.reason(error))")
            }
        }
        let result: Settings
        do {
            let edited = try JSONSerialization.data(withJSONObject: object)
            result = try decoder.decode(Settings.self, from: edited)
        } catch {
            throw fail("the \(filter) settings do not decode: \(error)")
        }
        do throws(SettingsError) {
            try result.validate()
        } catch {
            throw fail("\(error)")
        }
        return result
    }

    /// A decoding error's own words, without Foundation's dump of the coding path.
    static func reason(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
            .keyNotFound(_, let context):
            let text = context.debugDescription
            return text.isEmpty ? "" : ": \(text)"
        default:
            return ""
        }
    }
}

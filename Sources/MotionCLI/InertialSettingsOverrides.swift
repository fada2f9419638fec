import ArgumentParser
import Foundation
import MotionFusion

/// `--set name=value` for `InertialFrameFilter.Settings`: the settings are encoded to a JSON object,
/// the named fields replaced, and the object decoded again, so every field is reachable by its Swift
/// name and a misspelt name or a wrong type is an error, not a silent no-op. The result is then
/// validated: a value outside its setting's range (`biasLimit=-1`) is refused with the setting, the
/// value and the range, as the flags' own checks refuse theirs.
enum InertialSettingsOverrides {
    static func apply<S: FusionScalar>(
        _ overrides: [String], to settings: InertialFrameFilter<S>.Settings
    ) throws -> InertialFrameFilter<S>.Settings {
        guard !overrides.isEmpty else { return settings }
        let data = try JSONEncoder().encode(settings)
        guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ValidationError("internal: settings did not encode to an object")
        }
        let switches = Set(Mirror(reflecting: settings).children.compactMap { $0.value is Bool ? $0.label : nil })
        for item in overrides {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw ValidationError("--set expects name=value, got '\(item)'") }
            let (name, text) = (parts[0].trimmingCharacters(in: .whitespaces), parts[1].trimmingCharacters(in: .whitespaces))
            guard let current = object[name] else {
                let known = object.keys.sorted().joined(separator: ", ")
                throw ValidationError("--set: unknown setting '\(name)'; known: \(known)")
            }
            if current is String {
                object[name] = text
            } else if switches.contains(name) {
                guard let value = Bool(text) else { throw ValidationError("--set \(name): expected true or false, got '\(text)'") }
                object[name] = value
            } else {
                guard let value = Double(text), value.isFinite else {
                    throw ValidationError("--set \(name): expected a finite number, got '\(text)'")
                }
                object[name] = value
            }
        }
        let edited = try JSONSerialization.data(withJSONObject: object)
        let result: InertialFrameFilter<S>.Settings
        do {
            result = try JSONDecoder().decode(InertialFrameFilter<S>.Settings.self, from: edited)
        } catch {
            throw ValidationError("--set: the settings do not decode: \(error)")
        }
        do throws(SettingsError) {
            try result.validate()
        } catch {
            throw ValidationError("--set: \(error)")
        }
        return result
    }
}

import ArgumentParser
import Foundation
import MotionFusion

/// A filter's settings type that `--set name=value` can edit: `Codable` (the fields by their Swift
/// names) and with ranges to check the result against.
protocol OverridableSettings: Codable {
    func validate() throws(SettingsError)
}

extension InertialFrameFilter.Settings: OverridableSettings {}
extension MadgwickFilter.Settings: OverridableSettings {}
extension MahonyFilter.Settings: OverridableSettings {}
extension ComplementaryFilter.Settings: OverridableSettings {}

/// Why `--set` was refused. Thrown from `run()`, so the command prints the message alone (an
/// ArgumentParser `ValidationError` would add the whole usage text after it).
struct SettingsOverrideError: Error, CustomStringConvertible, Equatable {
    var description: String
}

/// `--set name=value` for any filter's `Settings`: the settings are encoded to a JSON object, the
/// named fields replaced, and the object decoded again, so every field is reachable by its Swift
/// name and a misspelt name or a wrong type is an error that lists the valid names, not a silent
/// no-op. The result is then validated: a value outside its setting's range (`biasLimit=-1`) is
/// refused with the setting, the value and the range, as the flags' own checks refuse theirs.
enum SettingsOverrides {
    static func apply<Settings: OverridableSettings>(
        _ overrides: [String], to settings: Settings, filter: String
    ) throws(SettingsOverrideError) -> Settings {
        guard !overrides.isEmpty else { return settings }
        func fail(_ text: String) -> SettingsOverrideError { SettingsOverrideError(description: "--set: \(text)") }
        var object: [String: Any]
        do {
            let data = try JSONEncoder().encode(settings)
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
            guard let current = object[name] else {
                let known = object.keys.sorted().joined(separator: ", ")
                throw fail("the \(filter) filter has no setting '\(name)'; its settings: \(known)")
            }
            if current is String {
                object[name] = text
            } else if switches.contains(name) {
                guard let value = Bool(text) else { throw fail("\(name): expected true or false, got '\(text)'") }
                object[name] = value
            } else {
                guard let value = Double(text), value.isFinite else {
                    throw fail("\(name): expected a finite number, got '\(text)'")
                }
                object[name] = value
            }
        }
        let result: Settings
        do {
            let edited = try JSONSerialization.data(withJSONObject: object)
            result = try JSONDecoder().decode(Settings.self, from: edited)
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
}

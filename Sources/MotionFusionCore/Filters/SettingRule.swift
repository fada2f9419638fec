/// One numeric setting of the settings type `Root`: its name (the Swift property name, also its
/// JSON key), its valid range, and how to read and clamp it. Optional settings (nil allowed) read
/// as nil when absent; absent is always valid.
struct SettingRule<Root> {
    let name: String
    let range: ValidRange
    /// The value as a `Double` (exact for `Float`), or nil for an absent optional.
    let value: (Root) -> Double?
    /// Whether the setting of the first argument is in its range.
    let isValid: (Root) -> Bool
    /// Moves the setting of the first argument into its range; the second argument supplies the
    /// defaults.
    let clamp: (inout Root, Root) -> Void

    /// A rule for a plain field. `invalidBecomes`, when given, replaces every value outside the
    /// range instead of the clamp of ``ValidRange/clamp(_:fallback:)`` (for a field whose invalid
    /// values had a documented meaning before it had a range).
    /// The field is read by `get` and written by `set` (closures rather than a key path, which
    /// Embedded Swift lacks).
    init<V: BinaryFloatingPoint>(
        _ name: String, _ get: @escaping (Root) -> V, _ set: @escaping (inout Root, V) -> Void,
        _ range: ValidRange, invalidBecomes: V? = nil
    ) {
        self.name = name
        self.range = range
        value = { Double(get($0)) }
        isValid = { range.contains(get($0)) }
        clamp = { settings, defaults in
            set(&settings, invalidBecomes ?? range.clamp(get(settings), fallback: get(defaults)))
        }
    }

    init<V: BinaryFloatingPoint>(
        _ name: String, _ get: @escaping (Root) -> V?, _ set: @escaping (inout Root, V?) -> Void,
        _ range: ValidRange
    ) {
        self.name = name
        self.range = range
        value = { settings in get(settings).map { Double($0) } }
        isValid = { settings in get(settings).map { range.contains($0) } ?? true }
        let nan = V.nan
        clamp = { settings, defaults in
            guard let v = get(settings), !range.contains(v) else { return }
            let fallback = get(defaults)
            if v.isNaN {
                set(&settings, fallback)
            } else if let fallback {
                set(&settings, range.clamp(v, fallback: fallback))
            } else {
                // No default value: a closed end where there is one, else absent.
                let end = range.clamp(v, fallback: nan)
                set(&settings, end.isNaN ? nil : end)
            }
        }
    }
}

/// Why `--set` was refused. Thrown from `run()`, so the command prints the message alone (an
/// ArgumentParser `ValidationError` would add the whole usage text after it).
struct SettingsOverrideError: Error, CustomStringConvertible, Equatable {
    var description: String
}

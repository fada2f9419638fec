import ArgumentParser
import Foundation

/// Finds an option or flag given more than once where the command takes it once: ArgumentParser
/// keeps the last of `--beta 1 --beta 2` and says nothing, so a script that adds an option to a
/// line that already has it would run with a value its author may not mean.
///
/// Options that a command takes several times (`--calibration`, `--set`, bench's `--filter` and
/// `--streams`) are listed in ``repeatable``; a test compares that list with what ArgumentParser
/// reports as repeating (`--experimental-dump-help`). `-o` and `--output` are one option, and so
/// are a flag and its `--no-` form and an option's other names (``sameOption``; the test checks
/// these against the dump too). Nothing after `--` is looked at, and a command line asking for help
/// is left to the parser.
enum RepeatedOptions {
    /// For each command path (`fuse`, `calibrate gyroscope`), the long names it takes more than once.
    static let repeatable: [String: Set<String>] = [
        "fuse": ["calibration", "set"],
        "device-motion": ["calibration"],
        "bench": ["filter", "streams"],
        "steps": ["set"],
        "activity": ["set"],
        "tune": ["set", "truth"],
    ]

    /// Long names that name the same option as another (a flag's `--no-` form, a second name),
    /// each to the name counted.
    static let sameOption: [String: String] = ["no-rest-bias": "rest-bias", "no-heading": "6d"]

    /// What to say of the first option given twice in `arguments` (the command line without the
    /// executable), unless the command takes it several times; nil when there is none.
    static func firstRepeated(in arguments: [String]) -> String? {
        var command: [String] = []
        var type: ParsableCommand.Type = MotionCommand.self
        var k = 0
        while k < arguments.count,
            let sub = type.configuration.subcommands.first(where: { $0._commandName == arguments[k] })
        {
            command.append(arguments[k])
            type = sub
            k += 1
        }
        let allowed = repeatable[command.joined(separator: " ")] ?? []
        let rest = arguments[k...].prefix { $0 != "--" }
        if rest.contains(where: { ["-h", "--help", "--help-hidden"].contains($0) }) { return nil }
        var seen: [String: String] = [:]
        for argument in arguments[k...] {
            if argument == "--" { break }
            let name: String
            if argument == "-o" {
                name = "output"
            } else if argument.hasPrefix("--"), argument.count > 2 {
                let spelled = String(argument.dropFirst(2).prefix { $0 != "=" })
                name = sameOption[spelled] ?? spelled
            } else {
                continue
            }
            guard !allowed.contains(name) else { continue }
            if let first = seen[name] {
                let same = first == argument ? "twice" : "twice (\(first) and \(argument))"
                let path = (["motion"] + command).joined(separator: " ")
                return "Error: --\(name) is given \(same): give it once (only the last would count)\n"
                    + "  See '\(path) --help' for more information."
            }
            seen[name] = argument
        }
        return nil
    }
}

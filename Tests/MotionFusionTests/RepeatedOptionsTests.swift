import Foundation
import Testing

@testable import MotionCLI

/// An option given twice where it counts once is refused (ArgumentParser keeps the last and says
/// nothing), and the list of options that may be repeated is ArgumentParser's own.
@Suite("Repeated options")
struct RepeatedOptionsTests {
    /// The command paths and, for each, the long names ArgumentParser reports as repeating, and the
    /// groups of long names that are one option (several names; a flag `X` beside `no-X`), from
    /// `motion --experimental-dump-help` (the built tool's own description of its arguments).
    static func dumpedOptions() throws -> (repeating: [String: Set<String>], groups: [[String]]) {
        let folder = try Folder()
        defer { folder.remove() }
        let result = try StandardOutputTests.run(["--experimental-dump-help"], in: folder)
        try #require(result.status == 0, "\(result.error)")
        let root = try #require(try JSONSerialization.jsonObject(with: result.output) as? [String: Any])
        var found: [String: Set<String>] = [:]
        var groups: [[String]] = []
        func visit(_ command: [String: Any], path: [String]) {
            let arguments = command["arguments"] as? [[String: Any]] ?? []
            let longNames = arguments.map { ($0["names"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "long" }.compactMap { $0["name"] as? String } }
            groups += longNames.filter { $0.count > 1 }
            // A flag beside its `no-` form (`.prefixedNo`); an option `--magnetometer FILE` beside a
            // flag `--no-magnetometer` is two options.
            let flags = Set(zip(arguments, longNames).filter { $0.0["kind"] as? String == "flag" }.flatMap { $0.1 })
            groups += flags.filter { flags.contains("no-" + $0) }.map { [$0, "no-" + $0] }
            let repeating = arguments.filter { ($0["isRepeating"] as? Bool) == true && ($0["kind"] as? String) != "positional" }
            let names = repeating.flatMap { ($0["names"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "long" } }
            let long = Set(names.compactMap { $0["name"] as? String })
            if !path.isEmpty { found[path.joined(separator: " ")] = long }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                visit(sub, path: path + [sub["commandName"] as? String ?? "?"])
            }
        }
        visit(try #require(root["command"] as? [String: Any]), path: [])
        return (found, groups)
    }

    @Test func theRepeatableListIsWhatArgumentParserRepeats() throws {
        let (reported, groups) = try Self.dumpedOptions()
        #expect(reported.count >= 12, "every command, the calibrate subcommands too: \(reported.keys.sorted())")
        for (path, names) in reported {
            #expect(RepeatedOptions.repeatable[path] ?? [] == names, "motion \(path)")
        }
        for path in RepeatedOptions.repeatable.keys { #expect(reported[path] != nil, "motion \(path) exists") }
        // Every group of names for one option is counted as one.
        #expect(groups.count >= 2, "\(groups)")
        for group in groups {
            let counted = Set(group.map { RepeatedOptions.sameOption[$0] ?? $0 })
            #expect(counted.count == 1, "\(group) counted as \(counted)")
        }
    }

    @Test func anOptionGivenTwiceIsFound() {
        let cases: [([String], String?)] = [
            (["fuse", "a.csv", "-o", "b.csv", "--beta", "1", "--beta=2"], "--beta is given twice (--beta and --beta=2)"),
            (["fuse", "a.csv", "-o", "b.csv", "--output", "c.csv"], "--output is given twice (-o and --output)"),
            (["fuse", "a.csv", "-o", "b.csv", "--rest-bias", "--no-rest-bias"], "--rest-bias is given twice"),
            (["calibrate", "gyroscope", "a.csv", "--axis", "z", "--axis", "x"], "--axis is given twice:"),
            (["fuse", "a.csv", "-o", "b.csv", "--calibration", "g.json", "--calibration", "m.json", "--set", "x=1", "--set", "y=2"], nil),
            (["bench", "--filter", "vqf", "--filter", "madgwick", "--streams", "1", "--streams", "8"], nil),
            (["device-motion", "a.csv", "-o", "b.csv", "--calibration", "g.json", "--calibration", "m.json"], nil),
            (["fuse", "-o", "b.csv", "--", "--beta"], nil),
            (["fuse", "-", "-o", "-", "--beta", "1"], nil),
            (["evaluate", "a.csv", "t.csv", "--6d", "--no-heading"], "--6d is given twice (--6d and --no-heading)"),
            (["fuse", "a.csv", "-o", "b.csv", "--beta", "1", "--beta", "2", "--help"], nil),
        ]
        for (arguments, expected) in cases {
            let message = RepeatedOptions.firstRepeated(in: arguments)
            if let expected {
                #expect(message?.contains(expected) == true, "\(arguments): \(message ?? "nil")")
            } else {
                #expect(message == nil, "\(arguments)")
            }
        }
    }

    /// Through the tool: status 64, the message, and no output written.
    @Test func theToolRefusesItBeforeReading() throws {
        let folder = try Folder()
        defer { folder.remove() }
        _ = try folder.write("rec.csv", CommandOutputSafetyTests.recording)
        let result = try StandardOutputTests.run(["fuse", "rec.csv", "-o", "out.csv", "--beta", "0.1", "--beta", "0.2"], in: folder)
        #expect(result.status == 64)
        #expect(result.error.contains("--beta is given twice: give it once") && result.error.contains("motion fuse --help"))
        #expect(folder.names == ["rec.csv"])
    }
}

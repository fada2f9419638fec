import ArgumentParser
import Foundation
import Testing
import MotionFusionCore

@testable import MotionCLI

/// The help texts: one screen each, line continuations rather than literal backslashes (a `\\` at a
/// line's end in a Swift multi-line string is a backslash in the text), and the options hidden from
/// `--help` still parsed, listed by `--help-hidden` and described in the DocC article.
@Suite("Help texts")
struct HelpTextTests {
    /// `motion` and every subcommand under it, depth first (`calibrate`'s own subcommands too).
    static let commands: [any ParsableCommand.Type] = {
        func walk(_ command: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
            [command] + command.configuration.subcommands.flatMap(walk)
        }
        return walk(MotionCommand.self)
    }()

    static func help(_ command: any ParsableCommand.Type, includeHidden: Bool = false, columns: Int = 80) -> String {
        command == MotionCommand.self
            ? MotionCommand.helpMessage(includeHidden: includeHidden, columns: columns)
            : MotionCommand.helpMessage(for: command, includeHidden: includeHidden, columns: columns)
    }

    /// The rows the help takes on a terminal `columns` wide, as `motion CMD --help` prints it (with
    /// `print`'s newline): a line wider than the terminal (a long USAGE line) takes several.
    static func rows(_ help: String, columns: Int = 80) -> Int {
        (help + "\n").split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .reduce(0) { $0 + max(1, ($1.count + columns - 1) / columns) }
    }

    /// The long names of the options a help text lists (`--beta` from "  --beta <beta>   …").
    static func options(_ help: String) -> Set<String> {
        Set(help.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  --") || line.hasPrefix("  -") else { return nil }
            let words = line.split(separator: " ")
            return words.first { $0.hasPrefix("--") }.map { String($0.split(separator: "/")[0]).trimmingCharacters(in: [","]) }
        })
    }

    static let article: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let url = root.appendingPathComponent("Sources/MotionFusion/MotionFusion.docc/CommandLineTool.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    @Test func everyHelpFitsOneScreen() {
        // motion, its fourteen subcommands and calibrate's three.
        #expect(Self.commands.count == 18)
        for command in Self.commands {
            let help = Self.help(command)
            let name = command.configuration.commandName ?? "\(command)"
            #expect(Self.rows(help) <= 50, "motion \(name) --help takes \(Self.rows(help)) rows:\n\(help)")
        }
    }

    @Test func noBackslashesInTheHelp() {
        for command in Self.commands {
            let help = Self.help(command, includeHidden: true)
            #expect(!help.contains("\\"), "\(help)")
        }
        let evaluate = MotionCommand.helpMessage(for: EvaluateCommand.self, columns: 1000)
        for text in ["--6d", "--no-heading", "zero or not finite", "flags column"] {
            #expect(evaluate.contains(text), "\(text)")
        }
    }

    /// An option hidden from `--help` is named in the command's help (with `--help-hidden`), listed
    /// by `--help-hidden` and described in the article the help points to.
    @Test func hiddenOptionsAreNamedAndDocumented() {
        #expect(Self.article.contains("# The motion Command-Line Tool"))
        var hiddenSomewhere = Set<String>()
        for command in Self.commands {
            let help = Self.help(command, columns: 1000)
            // --stop-after: for measuring the stages (scripts/measure_io), hidden before this change.
            let hidden = Self.options(Self.help(command, includeHidden: true, columns: 1000))
                .subtracting(Self.options(help)).subtracting(["--stop-after"])
            hiddenSomewhere.formUnion(hidden)
            guard !hidden.isEmpty else { continue }
            #expect(help.contains("--help-hidden") && help.contains("The motion Command-Line Tool"), "\(help)")
            for option in hidden.sorted() {
                #expect(help.contains(option) || help.contains("time constants"), "\(option) not named in:\n\(help)")
                #expect(Self.article.contains("`\(option)"), "\(option) not in CommandLineTool.md")
            }
        }
        #expect(
            hiddenSomewhere == [
                "--beta", "--zeta", "--kp", "--ki", "--maximum-bias", "--accelerometer-time-constant",
                "--magnetometer-time-constant", "--time-unit", "--gyro-unit", "--accel-unit", "--mag-unit",
                "--trust-units", "--jobs",
            ])
    }

    /// The options hidden from `motion fuse --help` still parse and set what they set.
    @Test func fuseHiddenOptionsStillParse() throws {
        let madgwick = try FuseCommand.parse([
            "in.csv", "-o", "out.csv", "--filter", "madgwick", "--beta", "0.05", "--zeta", "0.01",
            "--gyro-unit", "deg/s", "--time-unit", "ms", "--accel-unit", "g", "--mag-unit", "nT", "--trust-units",
        ])
        #expect(madgwick.beta == 0.05 && madgwick.zeta == 0.01)
        #expect(madgwick.units.gyroUnit == .degreesPerSecond && madgwick.units.accelUnit == .standardGravity)
        #expect(madgwick.units.timeUnit != nil && madgwick.units.magUnit != nil && madgwick.units.trustUnits)
        let mahony = try FuseCommand.parse([
            "in.csv", "-o", "out.csv", "--filter", "mahony", "--kp", "2", "--ki", "0.02", "--maximum-bias", "0.2",
        ])
        #expect(mahony.kp == 2 && mahony.ki == 0.02 && mahony.maximumBias == 0.2)
        let inertial = try FuseCommand.parse([
            "in.csv", "-o", "out.csv", "--accelerometer-time-constant", "3", "--magnetometer-time-constant", "20",
        ])
        #expect(inertial.accelerometerTimeConstant == 3 && inertial.magnetometerTimeConstant == 20)
        // Still refused with another filter, as before.
        #expect(throws: (any Error).self) { try FuseCommand.parse(["in.csv", "-o", "out.csv", "--beta", "0.05"]) }
        let events = try EventsCommand.parse(["in.csv", "-o", "out.csv", "--gyro-unit", "deg/s"])
        #expect(events.units.gyroUnit == .degreesPerSecond)
        let deviceMotion = try DeviceMotionCommand.parse(["in.csv", "-o", "out.csv", "--accel-unit", "g"])
        #expect(deviceMotion.units.accelUnit == .standardGravity)
        // Hidden: not listed by --help, listed by --help-hidden.
        let help = MotionCommand.helpMessage(for: FuseCommand.self, columns: 1000)
        let hidden = MotionCommand.helpMessage(for: FuseCommand.self, includeHidden: true, columns: 1000)
        for option in ["--beta <beta>", "--gyro-unit <gyro-unit>", "--trust-units "] {
            #expect(!help.contains(option) && hidden.contains(option), "\(option)")
        }
    }
}

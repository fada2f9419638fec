import ArgumentParser
import Foundation
import MotionFusion

/// The `motion` command-line tool.
@main
struct MotionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "motion",
        abstract: "Fuse gyroscope, accelerometer and magnetometer data into attitude.",
        discussion: """
            MotionFusion's command-line tool. Quaternions are scalar first (w, x, y, z) and map \
            sensor-frame vectors to the earth frame; units are rad/s, m/s², µT and seconds. Every \
            command in detail: the DocC article "The motion Command-Line Tool" \
            (Sources/MotionFusion/MotionFusion.docc/CommandLineTool.md).
            """,
        version: MotionFusionVersion.string,
        subcommands: [FuseCommand.self, BenchCommand.self, EventsCommand.self, StepsCommand.self, ActivityCommand.self, SimulateCommand.self, RecordCommand.self, DeviceMotionCommand.self, EvaluateCommand.self, TuneCommand.self, CalibrateCommand.self, DeclinationCommand.self, VersionCommand.self, DemoCommand.self]
    )

    /// Runs the command; an interrupted run (SIGINT, SIGTERM, SIGHUP) first removes its temporary
    /// output files (``TemporaryFileCleanup``). An option given twice where it counts once is
    /// refused first (``RepeatedOptions``).
    static func main() {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) { TemporaryFileCleanup.enable() }
        if let message = RepeatedOptions.firstRepeated(in: Array(CommandLine.arguments.dropFirst())) {
            FileHandle.standardError.write(Data((message + "\n").utf8))
            exit(withError: ExitCode.validationFailure)
        }
        main(nil)
    }
}

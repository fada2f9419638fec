import ArgumentParser
import Foundation
import MotionFusion

/// `motion simulate`: a scripted synthetic recording in the `motion fuse` input format.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Write a scripted synthetic recording (with its truth) in the `motion fuse` input format.",
        discussion: """
            SCENARIO is one of \(MotionScenario.names.joined(separator: ", ")) (see MotionScenario.named). \\
            Output columns: t,gx,gy,gz,ax,ay,az,mx,my,mz,qw,qx,qy,qz — seconds, rad/s, m/s² (specific \\
            force), µT, and the true attitude device → ENU (scalar first). --schedule writes the \\
            gestures' times as start,end,segment.
            """)

    @Argument(help: "The scenario: \(MotionScenario.names.joined(separator: ", ")).")
    var scenario: String

    @Option(name: .shortAndLong, help: "The output CSV file.")
    var output: String

    @Option(help: "Samples per second.")
    var rate: Double = 100

    @Option(help: "The random seed.")
    var seed: UInt64 = 1

    @Option(help: "Also write the gestures' start and end times to this CSV file.")
    var schedule: String?

    func validate() throws {
        guard MotionScenario.names.contains(scenario) else {
            throw ValidationError("unknown scenario '\(scenario)'; choose one of \(MotionScenario.names.joined(separator: ", "))")
        }
        guard rate > 0, rate <= 100_000, rate.isFinite else { throw ValidationError("--rate must be in (0, 100000]") }
    }

    func run() throws {
        var script = MotionScenario.named(scenario, seed: seed)!
        script.settings.sampleRate = rate
        let recording = script.generate()
        var text = "t,gx,gy,gz,ax,ay,az,mx,my,mz,qw,qx,qy,qz\n"
        text.reserveCapacity(recording.count * 200)
        for i in 0..<recording.count {
            let (g, a, m, q) = (
                recording.gyroscope[i], recording.accelerometer[i], recording.magnetometer![i], recording.truth![i]
            )
            text += "\(recording.timestamps[i]),\(g.x),\(g.y),\(g.z),\(a.x),\(a.y),\(a.z),\(m.x),\(m.y),\(m.z),"
            text += "\(q.w),\(q.x),\(q.y),\(q.z)\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        if let schedule {
            var rows = "start,end,segment\n"
            for s in script.schedule { rows += "\(s.start),\(s.end),\(s.segment.name)\n" }
            try Data(rows.utf8).write(to: URL(fileURLWithPath: schedule), options: .atomic)
        }
    }
}

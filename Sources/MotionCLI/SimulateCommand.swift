import ArgumentParser
import Foundation
import MotionFusion

/// `motion simulate`: a scripted synthetic recording in the `motion fuse` input format.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Write a scripted synthetic recording (with its truth) in the `motion fuse` input format.",
        discussion: """
            SCENARIO is one of \(MotionScenario.names.joined(separator: ", ")). Output columns: \
            t,gx,gy,gz,ax,ay,az,mx,my,mz,qw,qx,qy,qz — seconds, rad/s, m/s² (specific force), µT, \
            and the true attitude device → ENU (scalar first). --schedule writes the gestures' times \
            as start,end,segment. Details: the DocC article "The motion Command-Line Tool", section \
            "Simulated recordings".

            \(outputFileRules)
            """)

    @Argument(help: "The scenario: \(MotionScenario.names.joined(separator: ", ")).")
    var scenario: String

    @Option(name: .shortAndLong, help: "The output CSV file (- for standard output).")
    var output: String

    @Option(help: "Samples per second, from 0.001 to 100000.")
    var rate: Double = 100

    @Option(help: "The random seed.")
    var seed: UInt64 = 1

    @Option(help: "Also write the gestures' start and end times to this CSV file.")
    var schedule: String?

    func validate() throws {
        guard MotionScenario.names.contains(scenario) else {
            throw ValidationError("unknown scenario '\(scenario)'; choose one of \(MotionScenario.names.joined(separator: ", "))")
        }
        guard rate >= 0.001, rate <= Double(Self.maximumRate) else {
            throw ValidationError("--rate is \(rate); it must be from 0.001 to \(Self.maximumRate) samples per second")
        }
    }

    /// The highest --rate, samples per second (the lowest, 0.001, is the library's).
    static let maximumRate = 100_000

    func run() throws {
        // Both outputs are checked and opened before either is written.
        let file = try OutputFile(path: output)
        let scheduleFile = try schedule.map { path throws in
            if Self.sameFile(path, output) {
                throw CommandFailure("cannot write \(path): -o names the same file (\(output))")
            }
            let opened = try OutputFile(path: path)
            // Also by another name for the same place: `-o - --schedule /dev/stdout`.
            if opened.isSameDestination(as: file) {
                opened.abandon()
                throw CommandFailure("cannot write \(path): -o \(output) writes to the same place")
            }
            return opened
        }
        guard var script = MotionScenario.named(scenario, seed: seed) else {
            throw CommandFailure("unknown scenario '\(scenario)'; choose one of \(MotionScenario.names.joined(separator: ", "))")
        }
        script.settings.sampleRate = rate
        // One sample at a time: nothing here grows with the recording's length.
        let samples: MotionScenario.Samples
        do { samples = try script.samples() } catch { throw CommandFailure("\(error)") }
        file.write(RecordingColumns.header(RecordingColumns.sensors + RecordingColumns.truth))
        for sample in samples {
            let (g, a, m, q) = (sample.gyroscope, sample.accelerometer, sample.magnetometer, sample.truth)
            file.write("\(sample.timestamp),\(g.x),\(g.y),\(g.z),\(a.x),\(a.y),\(a.z),\(m.x),\(m.y),\(m.z),")
            file.write("\(q.w),\(q.x),\(q.y),\(q.z)\n")
        }
        if let scheduleFile {
            scheduleFile.write("start,end,segment\n")
            for s in script.schedule { scheduleFile.write("\(s.start),\(s.end),\(s.segment.name)\n") }
        }
        try file.commit()
        try scheduleFile?.commit()
    }

    /// Whether two output paths name one file: the same string, the same path once `.`, `..` and
    /// symbolic links are resolved, or the same existing file.
    static func sameFile(_ a: String, _ b: String) -> Bool {
        func resolved(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
        return a == b || resolved(a) == resolved(b) || FileIdentity.same(a, b)
    }
}

import Dispatch
import Foundation
import MotionFusion
import MotionFusionIO

/// `motion fuse` over many recordings (`--output-directory`): which file goes where, decided and
/// checked before any is read.
///
/// Each input is a file or a folder; a folder stands for the regular `.csv` and `.csv.gz` files
/// directly in it (not in its subfolders, not hidden ones, not pipes or devices), in name order.
/// Each file's output is the folder's file of the same name, less a final `.gz`. Refused before
/// anything is read: standard input, a folder without such files, a file given twice (under any
/// name), two inputs whose output names differ at most in case, and an output that is one of the
/// inputs.
struct FuseFleetPlan: Equatable {
    /// One recording and where its attitude goes.
    struct Job: Equatable {
        var input: String
        var output: String
    }

    var jobs: [Job]
    /// Each input's work, about: its size in bytes, four times that for a `.gz` (CSV compresses
    /// about so much); 0 when it cannot be read (its job says why).
    var sizes: [Int] {
        jobs.map { job in
            let bytes = (try? FileManager.default.attributesOfItem(atPath: job.input)[.size] as? Int) ?? 0
            return job.input.hasSuffix(".gz") ? 4 * bytes : bytes
        }
    }

    /// The most files fused at once: each holds a temporary output, and `TemporaryFileCleanup`
    /// removes at most its capacity (64) of them on a signal; one is left for other outputs.
    static let maximumJobs = 63

    /// The plan for `inputs` (files or folders) into `directory`, which need not exist yet.
    ///
    /// - Throws: ``CommandFailure`` naming the input that cannot be planned.
    init(inputs: [String], directory: String) throws {
        var files: [String] = []
        for input in inputs {
            if input == "-" {
                throw CommandFailure("standard input (-) cannot be one of several inputs; give files or folders")
            }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isFolder) else {
                throw CommandFailure("\(input): no such file or folder")
            }
            guard isFolder.boolValue else {
                files.append(input)
                continue
            }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: input)
            } catch {
                throw CommandFailure("\(input): cannot list the folder: \(error.localizedDescription)")
            }
            // Regular files only (or links to them): a named pipe or a device among them would
            // block or never end.
            let recordings = names.filter { !$0.hasPrefix(".") && ($0.hasSuffix(".csv") || $0.hasSuffix(".csv.gz")) }
                .sorted()
                .map { (input.hasSuffix("/") ? input : input + "/") + $0 }
                .filter { path in
                    var status = stat()
                    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
                }
            if recordings.isEmpty { throw CommandFailure("\(input): the folder holds no .csv or .csv.gz file") }
            files += recordings
        }
        var seen: [FileIdentity: String] = [:]
        var byOutput: [String: String] = [:]
        jobs = []
        for file in files {
            if let identity = FileIdentity(path: file) {
                if let earlier = seen[identity] { throw CommandFailure("\(file) is given twice (also as \(earlier))") }
                seen[identity] = file
            }
            var name = (file as NSString).lastPathComponent
            if name.hasSuffix(".gz") { name.removeLast(3) }
            // Names that differ only in case are one file on a case-insensitive disk (macOS's).
            if let earlier = byOutput[name.lowercased()] {
                throw CommandFailure(
                    "\(earlier) and \(file) would both be written to \(name) in the output folder "
                        + "(names that differ only in case count as one); rename one")
            }
            byOutput[name.lowercased()] = file
            jobs.append(Job(input: file, output: (directory.hasSuffix("/") ? directory : directory + "/") + name))
        }
        for job in jobs {
            if let identity = FileIdentity(path: job.output), let input = seen[identity] {
                throw CommandFailure("\(job.output), the output of \(job.input), is the input \(input)")
            }
        }
    }

    /// Makes the output folder if it is missing.
    static func prepare(directory: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw CommandFailure("--output-directory \(directory) is not a folder") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("--output-directory \(directory): cannot create it: \(error.localizedDescription)")
        }
    }
}

/// The bytes a fleet of `motion fuse` runs has read and written, for its progress line and its
/// last line: every worker adds what it did since it last reported.
final class FuseFleetMeter: Sendable {
    struct Totals {
        var filesDone = 0
        var filesFailed = 0
        var bytesIn = 0
        var bytesOut = 0
        var rows = 0
        var lastReport: ContinuousClock.Instant
    }

    let files: Int
    let workers: Int
    let start = ContinuousClock.now
    let totals: Lock<Totals>

    init(files: Int, workers: Int) {
        self.files = files
        self.workers = workers
        totals = Lock(Totals(lastReport: start))
    }

    /// Adds a worker's progress; prints the progress line at most once a second.
    func add(bytesIn: Int, bytesOut: Int, rows: Int, fileDone: Bool = false, failed: Bool = false) {
        let line: String? = totals.withLock { t in
            t.bytesIn += bytesIn
            t.bytesOut += bytesOut
            t.rows += rows
            if fileDone { t.filesDone += 1 }
            if failed { t.filesFailed += 1 }
            let now = ContinuousClock.now
            guard now - t.lastReport >= .seconds(1) else { return nil }
            t.lastReport = now
            return "fuse: " + Self.summary(t, files: files, seconds: Self.seconds(now - start))
        }
        if let line { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }

    /// What one file has added, so that a file that fails can take it back.
    final class Tally {
        let meter: FuseFleetMeter
        var bytesIn = 0
        var bytesOut = 0
        var rows = 0

        init(_ meter: FuseFleetMeter) { self.meter = meter }

        /// The file's totals so far (not deltas); adds the difference to the meter.
        func report(bytesIn: Int, bytesOut: Int, rows: Int) {
            meter.add(bytesIn: bytesIn - self.bytesIn, bytesOut: bytesOut - self.bytesOut, rows: rows - self.rows)
            (self.bytesIn, self.bytesOut, self.rows) = (bytesIn, bytesOut, rows)
        }

        /// The file failed: what it added is taken back, and it counts as failed.
        func retract() {
            meter.add(bytesIn: -bytesIn, bytesOut: -bytesOut, rows: -rows, fileDone: true, failed: true)
            (bytesIn, bytesOut, rows) = (0, 0, 0)
        }
    }

    /// The last line: files, bytes, rows, time and throughput.
    func finish() -> String {
        let t = totals.withLock { $0 }
        return "fuse: done, " + Self.summary(t, files: files, seconds: Self.seconds(ContinuousClock.now - start))
            + " (\(workers) worker\(workers == 1 ? "" : "s"))"
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    static func summary(_ t: Totals, files: Int, seconds: Double) -> String {
        let megabytesIn = Double(t.bytesIn) / 1e6, megabytesOut = Double(t.bytesOut) / 1e6
        let failed = t.filesFailed > 0 ? " (\(t.filesFailed) failed, not counted below)" : ""
        return "\(t.filesDone) of \(files) files\(failed), \(t.rows) rows, "
            + "\(format(megabytesIn, digits: 1)) MB in, \(format(megabytesOut, digits: 1)) MB out, "
            + "\(format(seconds, digits: 2)) s: "
            + "\(format(seconds > 0 ? megabytesIn / seconds : 0, digits: 1)) MB/s in, "
            + "\(format(seconds > 0 ? megabytesOut / seconds : 0, digits: 1)) MB/s out"
    }
}

extension FuseCommand {
    /// Fuses every planned file with a copy of `filter`, `workers` files at a time on as many
    /// threads (the largest first), each as `motion fuse FILE -o OUTPUT` would (its own reader,
    /// stream and atomically written output: memory per worker stays flat), but quietly: a
    /// progress line a second and a last line for all, and for each file only its warnings (not
    /// the magnetometer calibration it learned, which is not kept). A file that fails does not stop
    /// the others: its error is printed when it happens, and at the end the command fails with the
    /// count (and the first failures again).
    func fuseFleet<F: AttitudeFilter>(
        _ filter: F, plan: FuseFleetPlan, workers: Int, calibration: SensorCalibration
    ) throws {
        let meter = FuseFleetMeter(files: plan.jobs.count, workers: workers)
        // The largest files first: no worker is left with a long file while the others idle.
        let sizes = plan.sizes
        let order = plan.jobs.indices.sorted { (sizes[$0], $1) > (sizes[$1], $0) }
        let next = Lock(0)
        let failures = Lock([Int: String]())
        let command = self
        let work: @Sendable () -> Void = {
            while true {
                let position = next.takeNext()
                guard position < order.count else { return }
                let index = order[position]
                let job = plan.jobs[index]
                let tally = FuseFleetMeter.Tally(meter)
                do {
                    // The plan checked every output against every input; each writer checks its
                    // own input and the calibration files again (not all inputs: N² stats).
                    try command.fuse(
                        filter, input: .file(job.input), output: job.output, calibration: calibration,
                        protecting: [job.input] + command.calibrationFiles, label: job.input, tally: tally)
                    meter.add(bytesIn: 0, bytesOut: 0, rows: 0, fileDone: true)
                } catch {
                    tally.retract()
                    let text = "\(error)"  // most errors name the file already
                    let message = text.hasPrefix(job.input) ? text : "\(job.input): \(text)"
                    failures.withLock { $0[index] = message }
                    FileHandle.standardError.write(Data("fuse: failed: \(message)\n".utf8))
                }
            }
        }
        // Threads of their own, not concurrentPerform (which runs at most one per processor):
        // --jobs above the processor count can hide waits for the disk.
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<workers {
            let thread = Thread {
                work()
                done.signal()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        for _ in 0..<workers { done.wait() }
        FileHandle.standardError.write(Data((meter.finish() + "\n").utf8))
        let failed = failures.withLock { $0 }
        guard failed.isEmpty else {
            let shown = 10
            let keys = failed.keys.sorted()
            let list = keys.prefix(shown).map { "  " + failed[$0]! }.joined(separator: "\n")
            let more = keys.count > shown ? "\n  … and \(keys.count - shown) more (each printed when it failed)" : ""
            let others = stopAfter == .write ? "the others were written" : "nothing was written"
            throw CommandFailure("\(failed.count) of \(plan.jobs.count) files failed (\(others)):\n\(list)\(more)")
        }
    }
}

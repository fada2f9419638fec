import Dispatch
import Foundation
import MotionFusion
import MotionFusionIO

/// `motion fuse` over many recordings (`--output-directory`): which file goes where, decided and
/// checked before any is read.
///
/// Each input is a file or a folder; a folder stands for the `.csv` and `.csv.gz` files directly
/// in it (not in its subfolders, not hidden ones), in name order. Each file's output is the
/// folder's file of the same name, less a final `.gz`. Refused before anything is read: standard
/// input, a folder without such files, two inputs given twice or with the same output name, and
/// an output that is one of the inputs.
struct FuseFleetPlan: Equatable {
    /// One recording and where its attitude goes.
    struct Job: Equatable {
        var input: String
        var output: String
    }

    var jobs: [Job]
    /// Each input's size in bytes (0 when it cannot be read: its job says why).
    var sizes: [Int] {
        jobs.map { job in
            (try? FileManager.default.attributesOfItem(atPath: job.input)[.size] as? Int) ?? 0
        }
    }

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
            let recordings = names.filter { !$0.hasPrefix(".") && ($0.hasSuffix(".csv") || $0.hasSuffix(".csv.gz")) }
                .sorted()
                .map { (input.hasSuffix("/") ? input : input + "/") + $0 }
                .filter { path in
                    var isFolder: ObjCBool = false
                    return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
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
            if let earlier = byOutput[name] {
                throw CommandFailure(
                    "\(earlier) and \(file) would both be written to \(name) in the output folder; rename one")
            }
            byOutput[name] = file
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

/// A file's device and inode: the same file under two names is the same identity.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
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
        let failed = t.filesFailed > 0 ? " (\(t.filesFailed) failed)" : ""
        return "\(t.filesDone) of \(files) files\(failed), \(t.rows) rows, "
            + "\(format(megabytesIn, digits: 1)) MB in, \(format(megabytesOut, digits: 1)) MB out, "
            + "\(format(seconds, digits: 2)) s: "
            + "\(format(seconds > 0 ? megabytesIn / seconds : 0, digits: 1)) MB/s in, "
            + "\(format(seconds > 0 ? megabytesOut / seconds : 0, digits: 1)) MB/s out"
    }
}

extension FuseCommand {
    /// Fuses every planned file with a copy of `filter`, `workers` files at a time (the largest
    /// first), each as `motion fuse FILE -o OUTPUT` would (its own reader, stream and atomically
    /// written output: memory per worker stays flat), but quietly: a progress line a second and
    /// a last line for all, and for each file only its warnings (not the magnetometer calibration
    /// it learned, which is not kept). A file that fails does not stop the others; at the end
    /// every failure is listed and the command fails.
    func fuseFleet<F: AttitudeFilter>(_ filter: F, plan: FuseFleetPlan, workers: Int) throws {
        let meter = FuseFleetMeter(files: plan.jobs.count, workers: workers)
        // The largest files first: no worker is left with a long file while the others idle.
        let sizes = plan.sizes
        let order = plan.jobs.indices.sorted { (sizes[$0], $1) > (sizes[$1], $0) }
        let next = Lock(0)
        let failures = Lock([Int: String]())
        let allInputs = plan.jobs.map(\.input) + calibrationFiles
        let command = self
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let position: Int = next.withLock { k in
                    defer { k += 1 }
                    return k
                }
                guard position < order.count else { return }
                let index = order[position]
                let job = plan.jobs[index]
                do {
                    try command.fuse(
                        filter, input: .file(job.input), output: job.output, protecting: allInputs,
                        label: job.input, meter: meter)
                    meter.add(bytesIn: 0, bytesOut: 0, rows: 0, fileDone: true)
                } catch {
                    failures.withLock { $0[index] = "\(job.input): \(error)" }
                    meter.add(bytesIn: 0, bytesOut: 0, rows: 0, fileDone: true, failed: true)
                }
            }
        }
        FileHandle.standardError.write(Data((meter.finish() + "\n").utf8))
        let failed = failures.withLock { $0 }
        guard failed.isEmpty else {
            let list = failed.keys.sorted().map { "  " + failed[$0]! }.joined(separator: "\n")
            throw CommandFailure(
                "\(failed.count) of \(plan.jobs.count) files failed (the others were written):\n\(list)")
        }
    }
}

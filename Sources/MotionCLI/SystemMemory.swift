import Foundation
import MotionFusion

/// The memory this process may still allocate.
enum SystemMemory {
    /// Bytes available without swapping: on Linux MemAvailable from /proc/meminfo, lowered to what
    /// is left under the cgroup's memory.max when there is one; elsewhere (or when /proc cannot be
    /// read) the physical memory. The environment variable `MOTION_MEMORY_LIMIT` (bytes) lowers it
    /// further: a cap on what the tool holds at once.
    static func available() -> Int {
        let physical = Int(clamping: ProcessInfo.processInfo.physicalMemory)
        let cap = ProcessInfo.processInfo.environment["MOTION_MEMORY_LIMIT"].flatMap { Int($0) }.map { max($0, 0) } ?? Int.max
        return min(cap, system(physical))
    }

    /// The most samples an in-memory ``IMURecording`` may hold: what ``available()`` fits, at least
    /// one. Commands that hold a whole recording (calibrate gyroscope and accelerometer, bench
    /// --input, demo --broad) read with it; calibrate magnetometer keeps only the field's readings
    /// (``samples(bytesEach:)`` of theirs).
    static func recordingSamples() -> Int { samples(bytesEach: IMURecording.bytesPerSample) }

    /// How many values of `bytesEach` bytes ``available()`` holds, at least one.
    static func samples(bytesEach: Int) -> Int { max(available() / max(bytesEach, 1), 1) }

    private static func system(_ physical: Int) -> Int {
        #if os(Linux)
            var available = physical
            if let meminfo = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8),
                let line = meminfo.split(separator: "\n").first(where: { $0.hasPrefix("MemAvailable:") }),
                let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
            {
                available = min(available, kilobytes.multipliedReportingOverflow(by: 1024).overflow ? Int.max : kilobytes * 1024)
            }
            func number(_ path: String) -> Int? {
                (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            }
            if let limit = number("/sys/fs/cgroup/memory.max"), let used = number("/sys/fs/cgroup/memory.current") {
                available = min(available, max(limit - used, 0))
            }
            return available
        #else
            return physical
        #endif
    }
}

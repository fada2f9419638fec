import Foundation
import Testing

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionDevices

/// `motion bench --latency`: its JSON contract, a short run that must lose nothing, the exact
/// percentiles and the matching of received device motion to written scans. No assertion is about
/// the latencies' values: the machine is shared.
struct LatencyBenchTests {
    /// Runs `body` on a thread of its own and waits for it without holding a thread of the
    /// cooperative pool (the stream path needs one to consume its `AsyncStream`).
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    @Test func jsonOutputHasItsKeysAndOneObjectPerRateAndPath() throws {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let binary = folder.appendingPathComponent("motion").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "the motion executable is built next to the tests: \(binary)")
        let process = Process()
        process.standardInput = FileHandle.nullDevice  // never the test runner's (a terminal would stop it)
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["bench", "--latency", "--json", "--duration", "0.2", "--rates", "100,1000"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)  // nothing lost
        let rows = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(rows.count == 14)
        var seen: [String] = []
        for row in rows {
            #expect(Set(row.keys) == ["rateHz", "path", "p50us", "p99us", "p999us", "maxus", "samples", "lost"])
            let rate = try #require(row["rateHz"] as? Double)
            let path = try #require(row["path"] as? String)
            for key in ["p50us", "p99us", "p999us", "maxus"] {
                let value = try #require(row[key] as? Double, "\(key)")
                #expect(value.isFinite && value >= 0)
            }
            let samples = try #require(row["samples"] as? Int)
            let lost = try #require(row["lost"] as? Int)
            #expect(samples == Int(rate * 0.2))
            #expect(lost == 0)
            seen.append("\(Int(rate)) \(path)")
        }
        #expect(seen == [
            "100 floor", "100 relay", "100 relay-queue", "100 relay-stream", "100 handler", "100 stream", "100 pull",
            "1000 floor", "1000 relay", "1000 relay-queue", "1000 relay-stream", "1000 handler", "1000 stream",
            "1000 pull",
        ])
    }

    @Test func aShortRunDeliversEveryScanOnceInOrder() async throws {
        let results = try await Self.onThread { try LatencyBench(rates: [100, 1000], duration: 0.3).run() }
        let paths: [LatencyPath] = [.floor, .relay, .queueRelay, .streamRelay, .handler, .stream, .pull]
        #expect(results.map(\.path) == paths + paths)
        #expect(results.map(\.rateHz) == Array(repeating: 100, count: 7) + Array(repeating: 1000, count: 7))
        for result in results {
            #expect(result.samples == Int(result.rateHz * 0.3), "\(result.path) at \(result.rateHz) Hz")
            #expect(result.delivered == result.samples, "\(result.path) at \(result.rateHz) Hz")
            #expect(result.lost == 0)
            #expect(result.repeated == 0)
            #expect(result.unknown == 0)
            #expect(result.problems.isEmpty, "\(result.problems)")
            #expect(result.isClean)
            #expect(result.statistics != nil)
        }
    }

    /// Each path is compared with the floor of its rate: µs above the floor's p50 and the ratio of
    /// the p99s, against the goals (25 µs, 2×); a rate without a floor gets no line.
    @Test func pathsAreComparedWithTheFloorOfTheirRate() {
        let base: Int64 = 40_000_123_456_789
        func one(_ path: LatencyPath, rate: Double, microseconds: Int64) -> LatencyResult {
            LatencyResult(
                rateHz: rate, path: path, written: [base], received: [Double(base) / 1e9],
                receipts: [base + microseconds * 1000])
        }
        let lines = LatencyBench.comparisons([
            one(.floor, rate: 1000, microseconds: 10), one(.handler, rate: 1000, microseconds: 30),
            one(.pull, rate: 1000, microseconds: 45), one(.stream, rate: 100, microseconds: 12),
        ])
        #expect(lines == [
            "1000 Hz handler: p50 +20.0 µs over the floor (goal ≤ 25: met), p99 3.00× the floor's (goal ≤ 2: missed)",
            "1000 Hz pull: p50 +35.0 µs over the floor (goal ≤ 25: missed), p99 4.50× the floor's (goal ≤ 2: missed)",
        ])
        // With a relay at the rate: its own line (no goal), and the handler's and stream's cost over it.
        let relayed = LatencyBench.comparisons([
            one(.floor, rate: 1000, microseconds: 10), one(.relay, rate: 1000, microseconds: 18),
            one(.handler, rate: 1000, microseconds: 30), one(.stream, rate: 1000, microseconds: 44),
            one(.pull, rate: 1000, microseconds: 12),
        ])
        #expect(relayed == [
            "1000 Hz relay: p50 +8.0 µs over the floor (a second thread's wake-up, no manager), p99 1.80× the floor's",
            "1000 Hz handler: p50 +20.0 µs over the floor (goal ≤ 25: met), p99 3.00× the floor's (goal ≤ 2: missed); p50 +12.0 µs over the relay",
            "1000 Hz stream: p50 +34.0 µs over the floor (goal ≤ 25: missed), p99 4.40× the floor's (goal ≤ 2: missed); p50 +26.0 µs over the relay",
            "1000 Hz pull: p50 +2.0 µs over the floor (goal ≤ 25: met), p99 1.20× the floor's (goal ≤ 2: met)",
        ])
        // With the queue's and the stream's own handovers: a line each, and the handler's and the
        // stream's cost over their own (the manager's share).
        let handedOver = LatencyBench.comparisons([
            one(.floor, rate: 1000, microseconds: 10), one(.relay, rate: 1000, microseconds: 18),
            one(.queueRelay, rate: 1000, microseconds: 21), one(.streamRelay, rate: 1000, microseconds: 33),
            one(.handler, rate: 1000, microseconds: 30), one(.stream, rate: 1000, microseconds: 44),
        ])
        #expect(handedOver == [
            "1000 Hz relay: p50 +8.0 µs over the floor (a second thread's wake-up, no manager), p99 1.80× the floor's",
            "1000 Hz relay-queue: p50 +11.0 µs over the floor (a serial queue's handover, no manager), p99 2.10× the floor's",
            "1000 Hz relay-stream: p50 +23.0 µs over the floor (an AsyncStream's handover to a task, no manager), p99 3.30× the floor's",
            "1000 Hz handler: p50 +20.0 µs over the floor (goal ≤ 25: met), p99 3.00× the floor's (goal ≤ 2: missed); p50 +12.0 µs over the relay; p50 +9.0 µs over relay-queue",
            "1000 Hz stream: p50 +34.0 µs over the floor (goal ≤ 25: missed), p99 4.40× the floor's (goal ≤ 2: missed); p50 +26.0 µs over the relay; p50 +11.0 µs over relay-stream",
        ])
    }

    @Test func percentilesAreNearestRanks() throws {
        // 1 … 1000 ns shuffled: the p-th percentile of 1000 values is the value of rank ⌈1000 p⌉.
        var generator = SystemRandomNumberGenerator()
        let thousand = try #require(LatencyStatistics(nanoseconds: (1...1000).map { Int64($0) }.shuffled(using: &generator)))
        #expect(thousand == LatencyStatistics(p50: 0.5, p99: 0.99, p999: 0.999, max: 1))
        // Ten values: rank 5 for p50, rank ⌈9.9⌉ = 10 and ⌈9.99⌉ = 10 for p99 and p99.9.
        let ten = try #require(LatencyStatistics(nanoseconds: [7000, 1000, 9000, 3000, 2000, 10000, 4000, 8000, 6000, 5000]))
        #expect(ten == LatencyStatistics(p50: 5, p99: 10, p999: 10, max: 10))
        // Three values: p50 is rank ⌈1.5⌉ = 2.
        #expect(LatencyStatistics(nanoseconds: [300, 100, 200]) == LatencyStatistics(p50: 0.2, p99: 0.3, p999: 0.3, max: 0.3))
        // One value is every percentile; none gives nothing.
        #expect(LatencyStatistics(nanoseconds: [1234]) == LatencyStatistics(p50: 1.234, p99: 1.234, p999: 1.234, max: 1.234))
        #expect(LatencyStatistics(nanoseconds: []) == nil)
        // 2000 values: p99.9 is rank 1998, p99 rank 1980, p50 rank 1000.
        let sorted = Array(1...2000)
        #expect(LatencyStatistics.percentile(sorted, 999, 1000) == 1998)
        #expect(LatencyStatistics.percentile(sorted, 99, 100) == 1980)
        #expect(LatencyStatistics.percentile(sorted, 1, 2) == 1000)
        #expect(LatencyStatistics.percentile(sorted, 0, 1) == 1)
        #expect(LatencyStatistics.percentile(sorted, 1, 1) == 2000)
    }

    @Test func receivedMotionIsMatchedToItsScan() {
        // Scans 1 ms apart at an uptime of about 11 hours.
        let base: Int64 = 40_000_123_456_789
        let written = (0..<6).map { base + Int64($0) * 1_000_000 }
        let seconds = written.map { Double($0) / 1e9 }
        // Received: 0, 1, 1 again, 3, 2 (late), 5, and one that matches nothing.
        let received = [seconds[0], seconds[1], seconds[1], seconds[3], seconds[2], seconds[5], seconds[5] + 0.0004]
        let receipts = received.map { Int64(($0 * 1e9).rounded()) + 50_000 }  // 50 µs each
        let result = LatencyResult(rateHz: 1000, path: .pull, written: written, received: received, receipts: receipts)
        #expect(result.samples == 6)
        #expect(result.delivered == 4)  // 0, 1, 3, 5
        #expect(result.lost == 2)  // 2 (out of order) and 4
        #expect(result.repeated == 2)
        #expect(result.unknown == 1)
        #expect(!result.isClean)
        #expect(result.statistics == LatencyStatistics(p50: 50, p99: 50, p999: 50, max: 50))
        // Nothing received: every scan lost, no figures, null in the JSON.
        let none = LatencyResult(rateHz: 100, path: .stream, written: written, received: [], receipts: [])
        #expect(none.lost == 6 && none.statistics == nil)
        #expect(
            none.json
                == #"{"rateHz": 100, "path": "stream", "p50us": null, "p99us": null, "p999us": null, "maxus": null, "samples": 6, "lost": 6}"#
        )
        #expect(LatencyResult.rateText(4000) == "4000" && LatencyResult.rateText(12.5) == "12.5")
    }

    @Test func timestampsSurviveTheRoundTripThroughSeconds() {
        // The Double seconds identify the scan at any realistic uptime (here up to 300 days).
        for uptime: Double in [1, 3600, 40_000, 2_592_000, 25_920_000] {
            let written = (0..<3).map { Int64(uptime * 1e9) + Int64($0) * 250_000 }  // 4 kHz
            for (index, stamp) in written.enumerated() {
                #expect(LatencyResult.scan(at: Double(stamp) / 1e9, in: written) == index, "uptime \(uptime) s")
            }
        }
    }
}

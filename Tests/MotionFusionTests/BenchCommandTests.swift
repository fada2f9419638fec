import Foundation
import Testing

/// `motion bench --json` is a contract that outside tools (scripts/compare_speed among them) read:
/// a JSON array of objects with exactly the keys filter, scalar, mode, streams, lanes and nsPerSample.
struct BenchCommandTests {
    @Test func jsonOutputKeepsItsContract() throws {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let binary = folder.appendingPathComponent("motion").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "the motion executable is built next to the tests: \(binary)")
        let process = Process()
        process.standardInput = FileHandle.nullDevice  // never the test runner's (a terminal would stop it)
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "bench", "--json", "--duration", "5", "--min-time", "0.01", "--repeats", "1",
            "--filter", "madgwick", "--filter", "inertial", "--streams", "1", "--streams", "20",
            "--block-steps", "8", "--float-lanes", "8", "--double-lanes", "4",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        // madgwick and inertial: 1 and 20 streams (both have a many-stream engine); Float and Double,
        // 6D and 9D.
        #expect(rows.count == 16)
        var seen = Set<String>()
        for row in rows {
            #expect(Set(row.keys) == ["filter", "scalar", "mode", "streams", "lanes", "nsPerSample"])
            let filter = try #require(row["filter"] as? String)
            let scalar = try #require(row["scalar"] as? String)
            let mode = try #require(row["mode"] as? String)
            let streams = try #require(row["streams"] as? Int)
            let lanes = try #require(row["lanes"] as? Int)
            let ns = try #require(row["nsPerSample"] as? Double)
            #expect(["madgwick", "inertial"].contains(filter))
            #expect(["Float", "Double"].contains(scalar))
            #expect(["6D", "9D"].contains(mode))
            #expect(streams == 1 || streams == 20)
            // The lanes asked for; a single stream is one scalar filter.
            #expect(lanes == (streams == 1 ? 1 : scalar == "Float" ? 8 : 4))
            #expect(ns > 0 && ns.isFinite)  // a time: no upper bound on a shared machine
            seen.insert("\(filter) \(scalar) \(mode) \(streams)")
        }
        #expect(seen.count == 16)
    }
}

import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// The first seconds of BROAD trial 01 (t, gx, gy, gz in rad/s, ax, ay, az in m/s², mx, my, mz in
/// µT), read directly from the CSV.
enum BroadTrial01 {
    static let name = "01_undisturbed_slow_rotation_A"

    static func rows(from start: Double = 0, before seconds: Double) throws -> [[Double]] {
        let path = BroadData.folder.appendingPathComponent(name + ".csv").path
        // The first seconds only: a row is about 200 bytes at 286 Hz, so 1 MB holds 15 s.
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? file.close() }
        let bytes = [UInt8](try file.read(upToCount: max(1 << 20, Int(seconds * 80_000))) ?? Data())
        var rows: [[Double]] = []
        var lineStart = try #require(bytes.firstIndex(of: 0x0A)) + 1  // after the header
        while let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) {
            let line = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
            lineStart = lineEnd + 1
            let values = line.split(separator: ",").prefix(10).compactMap { Double($0) }
            try #require(values.count == 10, "\(line)")
            if values[0] >= seconds { break }
            if values[0] >= start { rows.append(values) }
        }
        return rows
    }

    /// A kernel-style timestamp for `t` seconds: nanoseconds of a realtime clock.
    static func nanoseconds(_ t: Double) -> Int64 { 1_700_000_000_000_000_000 + Int64((t * 1e9).rounded()) }
}

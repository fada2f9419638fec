import Foundation
import Testing

/// A CSV file from `Reference/` (written by `scripts/make_rotation_reference` with SciPy), read by
/// column name. Reference files are committed, so a missing one is always a failure.
struct ReferenceTable {
    let header: [String]
    let rows: [[Substring]]

    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Reference")

    init(_ name: String) throws {
        let url = Self.folder.appendingPathComponent(name)
        let text = try String(contentsOf: url, encoding: .utf8)
        var lines = text.split(separator: "\n")
        header = lines.removeFirst().split(separator: ",").map(String.init)
        rows = lines.map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        for (index, row) in rows.enumerated() where row.count != header.count {
            Issue.record("\(name):\(index + 2): \(row.count) fields, expected \(header.count)")
        }
    }

    func index(_ column: String) -> Int {
        guard let index = header.firstIndex(of: column) else {
            fatalError("no column \(column) in reference table")
        }
        return index
    }

    func double(_ row: [Substring], _ column: String) -> Double {
        guard let value = Double(row[index(column)]) else {
            fatalError("column \(column) is not a number: \(row[index(column)])")
        }
        return value
    }

    func string(_ row: [Substring], _ column: String) -> String {
        String(row[index(column)])
    }

    func vector(_ row: [Substring], _ columns: String...) -> SIMD3<Double> {
        SIMD3(double(row, columns[0]), double(row, columns[1]), double(row, columns[2]))
    }

    func quaternion(_ row: [Substring], prefix: String = "q") -> Quaternion<Double> {
        Quaternion(
            w: double(row, prefix + "w"), x: double(row, prefix + "x"), y: double(row, prefix + "y"),
            z: double(row, prefix + "z"))
    }

    /// Rows grouped by an integer `case` column, in file order.
    func grouped(by column: String) -> [Int: [[Substring]]] {
        Dictionary(grouping: rows, by: { Int(double($0, column)) })
    }
}

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

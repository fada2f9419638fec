import ArgumentParser
import Foundation
import MotionFusion

/// `motion evaluate`: BROAD's error measures of an estimate against a reference.
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "BROAD's RMS errors (total, heading, inclination) of an estimate against a truth.",
        discussion: """
            ESTIMATE has columns qw,qx,qy,qz (as `motion fuse` writes them); TRUTH has qw,qx,qy,qz and \\
            optionally movement. Both are sensor → earth in the same frame, row by row. Rows count where \\
            movement is 1 (all rows without that column) and the truth is finite. Errors: \\
            e = q_est ⊗ q_ref⁻¹; total 2·acos|e_w|, heading 2·atan(|e_z|/|e_w|), inclination \\
            2·acos √(e_w² + e_z²); RMS in degrees.
            """)

    @Argument(help: "The estimate CSV.")
    var estimate: String

    @Argument(help: "The truth CSV.")
    var truth: String

    func run() throws {
        let (estimates, _) = try Self.quaternions(estimate, movement: false)
        let (references, movement) = try Self.quaternions(truth, movement: true)
        guard estimates.count == references.count else {
            throw CommandFailure("\(estimate) has \(estimates.count) rows, \(truth) has \(references.count)")
        }
        let summary = OrientationErrors.summary(
            estimates: estimates, references: references,
            scored: movement ?? [Bool](repeating: true, count: references.count))
        print("rows scored: \(summary.count) of \(references.count)")
        print("total RMSE        \(format(summary.total, digits: 3))°")
        print("heading RMSE      \(format(summary.heading, digits: 3))°")
        print("inclination RMSE  \(format(summary.inclination, digits: 3))°")
    }

    static func quaternions(_ path: String, movement wantMovement: Bool) throws -> ([Quaternion<Double>], [Bool]?) {
        do throws(CSVError) {
            let reader = try CSVReader(path: path)
            var columns = try ["qw", "qx", "qy", "qz"].map { name throws(CSVError) in try reader.requiredColumn(named: name) }
            let movementColumn = wantMovement ? try reader.column(named: "movement") : nil
            if let movementColumn { columns.append(movementColumn) }
            var values: [Double] = []
            var quaternions: [Quaternion<Double>] = []
            var flags: [Bool]? = movementColumn == nil ? nil : []
            while try reader.nextRow(columns: columns, into: &values) {
                quaternions.append(Quaternion(w: values[0], x: values[1], y: values[2], z: values[3]))
                if movementColumn != nil { flags!.append(values[4] == 1) }
            }
            return (quaternions, flags)
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
    }
}

import ArgumentParser
import Foundation
import MotionFusion

/// `motion evaluate`: BROAD's error measures of an estimate against a reference.
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "BROAD's RMS errors (total, heading, inclination) of an estimate against a truth.",
        discussion: """
            ESTIMATE has columns qw,qx,qy,qz (as `motion fuse` writes them); TRUTH has qw,qx,qy,qz and \
            optionally movement. Both are sensor → earth in the same frame, row by row. Rows count where \
            movement is 1 (all rows without that column) and the truth is finite. Errors: \
            e = q_est ⊗ q_ref⁻¹; total 2·acos|e_w|, heading 2·atan(|e_z|/|e_w|), inclination \
            2·acos √(e_w² + e_z²); RMS in degrees.

            A row whose truth or estimate quaternion is zero or not finite has no attitude: it is \
            left out of the RMS (never scored as the identity it would normalize to), and the report \
            says how many rows were left out for each reason and the line of the first. With no row \
            left to score the command fails.

            Heading is not observable without a magnetometer, so for a 6D estimate total and heading \
            measure an arbitrary heading offset and only inclination means something (as BROAD scores \
            6D methods). Give --6d (or --no-heading) for such an estimate; an estimate written by \
            `motion fuse` is recognized as 6D by itself when its flags column shows that no scored row \
            used the magnetometer. A 6D report puts inclination first and marks total and heading as \
            not meaningful; a 9D report says under the total line that total and heading include the \
            heading error.
            """)

    @Argument(help: "The estimate CSV.")
    var estimate: String

    @Argument(help: "The truth CSV.")
    var truth: String

    @Flag(
        name: [.customLong("6d"), .customLong("no-heading")],
        help: "The estimate is 6D (no magnetometer): heading and total are not meaningful, read inclination.")
    var sixD = false

    func run() throws {
        print(try report(), terminator: "")
    }

    /// What `run` prints.
    func report() throws -> String {
        let estimated = try Self.table(estimate, movement: false, flags: true)
        let reference = try Self.table(truth, movement: true, flags: false)
        let (estimates, references) = (estimated.quaternions, reference.quaternions)
        guard estimates.count == references.count else {
            throw CommandFailure("\(estimate) has \(estimates.count) rows, \(truth) has \(references.count)")
        }
        let scored = reference.movement ?? [Bool](repeating: true, count: references.count)
        let summary = OrientationErrors.summary(estimates: estimates, references: references, scored: scored)

        // The rows left out, with the first of each kind, as the summary counts them.
        var firstBadTruth: Int?, firstBadEstimate: Int?
        var magnetometerUsed = false
        for i in references.indices where scored[i] {
            if !OrientationErrors.isUsable(references[i]) {
                if firstBadTruth == nil { firstBadTruth = i }
            } else if !OrientationErrors.isUsable(estimates[i]) {
                if firstBadEstimate == nil { firstBadEstimate = i }
            } else if let flags = estimated.flags?[i], flags.contains(.magnetometerUsed) {
                magnetometerUsed = true
            }
        }
        var leftOut: [String] = []
        if let first = firstBadEstimate {
            leftOut.append(
                "\(Self.rows(summary.unusableEstimates)) whose estimate is zero or not finite "
                    + "(first at line \(estimated.lines[first]) of \(estimate))")
        }
        if let first = firstBadTruth {
            leftOut.append(
                "\(Self.rows(summary.unusableReferences)) whose truth is zero or not finite "
                    + "(first at line \(reference.lines[first]) of \(truth))")
        }
        guard summary.count > 0 else {
            let reasons = leftOut.isEmpty ? "no row has movement = 1" : leftOut.joined(separator: "; ")
            throw CommandFailure("no row to score: \(reasons)")
        }

        // 6D when told, or when motion fuse's flags show that no scored row used the magnetometer.
        let detected = !sixD && estimated.flags != nil && !magnetometerUsed
        var text = "rows scored: \(summary.count) of \(references.count)\n"
        for line in leftOut { text += "left out: \(line)\n" }
        let total = "total RMSE        \(format(summary.total, digits: 3))°"
        let heading = "heading RMSE      \(format(summary.heading, digits: 3))°"
        let inclination = "inclination RMSE  \(format(summary.inclination, digits: 3))°"
        if sixD || detected {
            let why = sixD ? "--6d" : "the flags column of \(estimate) shows no scored row used the magnetometer"
            text += "6D estimate (\(why)): heading is not observable without a magnetometer, so total and "
            text += "heading are not meaningful; inclination is the figure to read.\n"
            text += inclination + "\n"
            text += total + "   (not meaningful for a 6D estimate)\n"
            text += heading + "   (not meaningful for a 6D estimate)\n"
        } else {
            text += total + "\n"
            text += "  (total and heading include the heading error, which a 6D filter, without magnetometer, "
            text += "cannot observe: for a 6D estimate read inclination, or pass --6d)\n"
            text += heading + "\n"
            text += inclination + "\n"
        }
        return text
    }

    static func rows(_ n: Int) -> String { n == 1 ? "1 row" : "\(n) rows" }

    /// The quaternions of a CSV file and, when asked for and present, its movement flags.
    static func quaternions(_ path: String, movement wantMovement: Bool) throws -> ([Quaternion<Double>], [Bool]?) {
        let table = try table(path, movement: wantMovement, flags: false)
        return (table.quaternions, table.movement)
    }

    /// A file's rows: quaternions, their lines, and the movement and `motion fuse` flags columns
    /// when asked for and present (flags that are not whole numbers in 0...65535 are taken as
    /// another program's column and ignored).
    struct Table {
        var quaternions: [Quaternion<Double>] = []
        var lines: [Int] = []
        var movement: [Bool]?
        var flags: [FusionFlags]?
    }

    static func table(_ path: String, movement wantMovement: Bool, flags wantFlags: Bool) throws -> Table {
        do throws(CSVError) {
            let reader = try CSVReader(path: path)
            var columns = try ["qw", "qx", "qy", "qz"].map { name throws(CSVError) in try reader.requiredColumn(named: name) }
            let movementColumn = wantMovement ? try reader.column(named: "movement") : nil
            let flagsColumn = wantFlags ? try reader.column(named: "flags") : nil
            if let movementColumn { columns.append(movementColumn) }
            if let flagsColumn { columns.append(flagsColumn) }
            var values: [Double] = []
            var table = Table()
            if movementColumn != nil { table.movement = [] }
            if flagsColumn != nil { table.flags = [] }
            while try reader.nextRow(columns: columns, into: &values) {
                table.quaternions.append(Quaternion(w: values[0], x: values[1], y: values[2], z: values[3]))
                table.lines.append(reader.lineNumber)
                if movementColumn != nil { table.movement!.append(values[4] == 1) }
                if table.flags != nil {
                    let raw = values[columns.count - 1]
                    if raw >= 0 && raw <= Double(UInt16.max) && raw.rounded() == raw {
                        table.flags!.append(FusionFlags(rawValue: UInt16(raw)))
                    } else {
                        table.flags = nil
                    }
                }
            }
            warnAboutCut(reader.partialLastLine, in: path)
            return table
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
    }
}

import ArgumentParser
import MotionFusion
import RealModule

/// `motion evaluate`: BROAD's error measures of an estimate against a reference.
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "BROAD's RMS errors (total, heading, inclination) of an estimate against a truth.",
        discussion: """
            ESTIMATE has columns qw,qx,qy,qz (as `motion fuse` writes them); TRUTH has qw,qx,qy,qz \
            and optionally movement (BROAD) or score (the phone trials); both sensor → earth in the \
            same frame, row by row. Rows count where movement or score is above 0.5 (every row \
            without such a column); a row whose quaternion is zero or not finite is left out, and \
            the report says how many. RMS errors in degrees.

            Without a magnetometer heading is not observable: give --6d (or --no-heading) for a 6D \
            estimate and read the inclination (an estimate by `motion fuse` is recognized as 6D by \
            its flags column). The error formulas and the heading offset: the DocC article "The \
            motion Command-Line Tool", section "Scoring against a truth".
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

    /// Whether a constant heading offset between estimate and truth is removed before scoring.
    enum HeadingOffset: String, CaseIterable, ExpressibleByArgument {
        /// Scored as it is (BROAD's scoring, `scripts/compare_accuracy.py`).
        case keep
        /// The circular mean of the heading error over the scored rows is removed first
        /// (`score_tyrex.py`'s 9D scoring: an optical truth's north is not magnetic north).
        case remove
    }

    @Option(
        help: "keep (BROAD's scoring) or remove the constant heading offset, the circular mean of the heading error over the scored rows (score_tyrex.py's 9D scoring).")
    var headingOffset: HeadingOffset = .keep

    /// One pass over both files: the errors after turning the estimate by `turn` rad about the
    /// earth's vertical, and the sums of the heading error's sine and cosine over the scored rows.
    struct Pass {
        var accumulator = OrientationErrorAccumulator()
        var firstBadTruth: Int?, firstBadEstimate: Int?
        var magnetometerUsed = false
        var rows = 0
        var headingSine = 0.0, headingCosine = 0.0
        var hasFlags = false
    }

    func pass(turn: Double) throws -> Pass {
        let estimated = try QuaternionRows(estimate, movement: false, flags: true)
        let reference = try QuaternionRows(truth, movement: true, flags: false)
        let rotation = Quaternion<Double>(angle: turn, axis: SIMD3(0, 0, 1))
        var result = Pass()
        while true {
            let e = try estimated.next(), r = try reference.next()
            guard let e, let r else {
                if e == nil && r == nil { break }
                // One file is longer: count the rest of it for the message.
                let (longer, rest) = e == nil ? (reference, 1) : (estimated, 1)
                var extra = rest
                while try longer.next() != nil { extra += 1 }
                let rows = result.rows
                let (estimateRows, truthRows) = e == nil ? (rows, rows + extra) : (rows + extra, rows)
                throw CommandFailure("\(estimate) has \(estimateRows) rows, \(truth) has \(truthRows)")
            }
            result.rows += 1
            let q = turn == 0 ? e.quaternion : rotation * e.quaternion
            // The rows left out, with the first of each kind, as the accumulator counts them.
            switch result.accumulator.add(estimate: q, reference: r.quaternion, scored: r.movement ?? true) {
            case .unusableReference: if result.firstBadTruth == nil { result.firstBadTruth = r.line }
            case .unusableEstimate: if result.firstBadEstimate == nil { result.firstBadEstimate = e.line }
            case .scored:
                if e.flags?.contains(.magnetometerUsed) == true { result.magnetometerUsed = true }
                var error = (q * r.quaternion.conjugate).normalized()
                if error.w < 0 { error = Quaternion(w: -error.w, x: -error.x, y: -error.y, z: -error.z) }
                let heading = 2 * Double.atan2(y: error.z, x: error.w)
                result.headingSine += Double.sin(heading)
                result.headingCosine += Double.cos(heading)
            case .notScored: break
            }
        }
        result.hasFlags = estimated.hasFlags
        return result
    }

    /// What `run` prints. Both files are read row by row, side by side, so memory stays flat
    /// however long the recordings are (twice with `--heading-offset remove`).
    func report() throws -> String {
        if headingOffset == .remove, estimate == "-" || truth == "-" {
            throw CommandFailure("--heading-offset remove reads the files twice: give files, not -")
        }
        let first = try pass(turn: 0)
        let offset = Double.atan2(y: first.headingSine, x: first.headingCosine)
        let run = headingOffset == .remove ? try pass(turn: -offset) : first
        let accumulator = run.accumulator
        let (firstBadTruth, firstBadEstimate, magnetometerUsed, rows) =
            (run.firstBadTruth, run.firstBadEstimate, run.magnetometerUsed, run.rows)
        let summary = accumulator.summary
        var leftOut: [String] = []
        if let first = firstBadEstimate {
            leftOut.append(
                "\(Self.rows(summary.unusableEstimates)) whose estimate is zero or not finite "
                    + "(first at line \(first) of \(estimate))")
        }
        if let first = firstBadTruth {
            leftOut.append(
                "\(Self.rows(summary.unusableReferences)) whose truth is zero or not finite "
                    + "(first at line \(first) of \(truth))")
        }
        guard summary.count > 0 else {
            let reasons = leftOut.isEmpty ? "no row has movement = 1" : leftOut.joined(separator: "; ")
            throw CommandFailure("no row to score: \(reasons)")
        }

        // 6D when told, or when motion fuse's flags show that no scored row used the magnetometer.
        let detected = !sixD && run.hasFlags && !magnetometerUsed
        var text = "rows scored: \(summary.count) of \(rows)\n"
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
            let degrees = format(offset * 180 / .pi, digits: 3)
            text +=
                headingOffset == .remove
                ? "heading offset    \(degrees)° (circular mean of the heading error), removed before scoring\n"
                : "heading offset    \(degrees)° (circular mean of the heading error), kept; "
                    + "--heading-offset remove scores without it, as score_tyrex.py does\n"
            text += total + "\n"
            text += "  (total and heading include the heading error, which a 6D filter, without magnetometer, "
            text += "cannot observe: for a 6D estimate read inclination, or pass --6d)\n"
            text += heading + "\n"
            text += inclination + "\n"
        }
        return text
    }

    static func rows(_ n: Int) -> String { n == 1 ? "1 row" : "\(n) rows" }

    /// The quaternions of a CSV file and, when asked for and present, its movement flags (all
    /// in memory: for tests and small files).
    static func quaternions(_ path: String, movement wantMovement: Bool) throws -> ([Quaternion<Double>], [Bool]?) {
        let rows = try QuaternionRows(path, movement: wantMovement, flags: false)
        var quaternions: [Quaternion<Double>] = []
        var movement: [Bool]? = rows.hasMovement ? [] : nil
        while let row = try rows.next() {
            quaternions.append(row.quaternion)
            if let moving = row.movement { movement?.append(moving) }
        }
        return (quaternions, movement)
    }
}

/// Why a CSV file could not be read. Every case that concerns the content names the line (1-based,
/// the file's first line is line 1, blank or not) and, where there is one, the column. The header is
/// line 1 unless blank lines precede it (``CSVReader/headerLine``).
public enum CSVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// The file has no header line.
    case empty
    /// A required column is not in the header (at `line`); `found` is the header's names.
    case missingColumn(line: Int, name: String, found: [String])
    /// A column name appears twice in the header (at `line`).
    case duplicateColumn(line: Int, name: String, column: Int)
    /// A line has a different number of fields than the header. The description names the column
    /// where the line and the header part: the first missing field (`found + 1`) or the first extra
    /// one (`expected + 1`).
    case wrongFieldCount(line: Int, expected: Int, found: Int)
    /// A field that must hold a number does not.
    case notANumber(line: Int, column: Int, name: String, text: String)
    /// A line is longer than the reader accepts (a corrupt or binary file).
    case lineTooLong(line: Int, limit: Int)
    /// The header has columns but the file has no data line: `line` is where the first one should
    /// be, the line after the header.
    case noData(line: Int)
    /// A column's header gives a unit (`Gyroscope X (furlongs/s)`, `ax [LSB]`) that is not one of
    /// the spellings ``IMUCSVReader`` reads for that quantity (at `line`, the header's). `unit` is
    /// the text between the parentheses or brackets.
    case unknownUnit(line: Int, quantity: MeasuredQuantity, column: Int, name: String, unit: String)
    /// The axes of one sensor have different units in the header, or some have a unit and others
    /// none (at `line`, the header's): `column` is the first axis that differs from `otherColumn`,
    /// the first axis. A unit of nil means the column's header has none.
    case mixedUnits(
        line: Int, quantity: MeasuredQuantity, column: Int, name: String, unit: String?, otherColumn: Int,
        otherName: String, otherUnit: String?)
    /// The header gives one unit and the reader was given another (at `line`, the header's; the
    /// sensor's first column): `header` is the header's text, `given` the given unit's spelling.
    /// Neither is picked.
    case unitContradiction(line: Int, quantity: MeasuredQuantity, column: Int, name: String, header: String, given: String)
    /// The data contradict the unit they are read in (``RecordingUnitCheck``): `line` is the row
    /// that completed the evidence (the last row when the end of the file did), `column` the
    /// sensor's first column, `source` where the unit came from.
    case implausibleUnit(line: Int, column: Int, name: String, mismatch: RecordingUnitCheck.Mismatch, source: UnitSource)
    /// The recording has more samples than a reader that holds it in memory was allowed
    /// (``IMURecording/read(path:timeUnit:gyroscopeUnit:accelerometerUnit:magnetometerUnit:checksUnits:maximumSamples:)``):
    /// `line` is the row of the first sample beyond `limit`.
    case tooManySamples(line: Int, limit: Int)

    /// Where the unit a column is read in came from.
    public enum UnitSource: String, Sendable, Equatable {
        /// The column's header (`gx (deg/s)`).
        case header
        /// The reader's caller (the CLI's `--gyro-unit`, `--accel-unit`, `--mag-unit`, `--time-unit`).
        case given
        /// Neither: the library's unit.
        case library
    }

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .empty: "line 1: the file is empty (no header)"
        case .missingColumn(let line, let name, let found):
            "line \(line): no column named '\(name)' in the header (accepted: " + Self.accepted(name)
                + "; found: " + (found.prefix(20).map { "'\($0)'" }.joined(separator: ", ") + (found.count > 20 ? ", …" : "")) + ")"
        case .duplicateColumn(let line, let name, let column):
            "line \(line), column \(column): '\(name)' appears more than once in the header"
        case .wrongFieldCount(let line, let expected, let found):
            "line \(line), column \(min(found, expected) + 1): \(found) fields, the header has \(expected)"
        case .notANumber(let line, let column, let name, let text):
            "line \(line), column \(column) (\(name)): '\(text)' is not a number"
        case .lineTooLong(let line, let limit): "line \(line): longer than \(limit) bytes"
        case .noData(let line): "line \(line): the file has a header but no data"
        case .unknownUnit(let line, let quantity, let column, let name, let unit):
            "line \(line), column \(column) (\(name)): unknown \(quantity.rawValue) unit '\(unit)' (accepted: "
                + quantity.headerSpellings.joined(separator: ", ") + ")"
        case .mixedUnits(let line, let quantity, let column, let name, let unit, let otherColumn, let otherName, let otherUnit):
            "line \(line), column \(column) (\(name)): "
                + (unit.map { "\(quantity.rawValue) unit '\($0)'" } ?? "no unit")
                + ", but column \(otherColumn) (\(otherName)) has "
                + (otherUnit.map { "'\($0)'" } ?? "none")
                + ": give every \(quantity.rawValue) column the same unit"
        case .unitContradiction(let line, let quantity, let column, let name, let header, let given):
            "line \(line), column \(column) (\(name)): the header gives the \(quantity.rawValue) unit \(header), "
                + "but \(given) was given; give the header's unit or none"
        case .implausibleUnit(let line, let column, let name, let mismatch, let source):
            "line \(line), column \(column) (\(name)): \(mismatch) ("
                + (source == .header ? "the header's unit" : source == .given ? "the unit given" : "the default: the header gives none")
                + "); " + Self.unitAdvice(mismatch, name: name)
        case .tooManySamples(let line, let limit):
            "line \(line): more than \(limit) samples, the most this reader holds in memory"
        }
    }

    /// How to give the right unit: the header, the CLI option, or the check turned off.
    static func unitAdvice(_ mismatch: RecordingUnitCheck.Mismatch, name: String) -> String {
        let option = switch mismatch.quantity {
        case .time: "--time-unit"
        case .gyroscope: "--gyro-unit"
        case .accelerometer: "--accel-unit"
        case .magnetometer: "--mag-unit"
        }
        let base = CSVReader.splitUnit(name).name
        return (mismatch.looksLike.map { "write the unit in the header, '\(base) (\($0))', or give \(option) \($0); " } ?? "")
            + "--trust-units reads the values as they are"
    }

    /// The names a required column may have, for ``missingColumn(name:found:)``.
    static func accepted(_ name: String) -> String {
        var names = ["'\(name)'"]
        if let alias = RecordingColumns.longName(of: name) {
            names.append(
                "'" + alias.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
                    + "' (any case)")
        }
        return names.joined(separator: " or ") + ", with an optional unit such as '\(name) (unit)'"
    }
}

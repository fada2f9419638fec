import MotionFusion

/// The rows of a CSV file of attitudes, one at a time: the quaternion `qw,qx,qy,qz`, its line, and
/// the `movement` (or `score`: a row counts when it is above 0.5) and `motion fuse` `flags`
/// columns when asked for and present. A flags value that
/// is not a whole number in 0...65535 marks the column as another program's: from then on
/// ``hasFlags`` is false and no row carries flags.
final class QuaternionRows {
    struct Row {
        var quaternion: Quaternion<Double>
        var line: Int
        var movement: Bool?
        var flags: FusionFlags?
    }

    let path: String
    let hasMovement: Bool
    private(set) var hasFlags: Bool
    private let reader: CSVReader
    private var columns: [Int]
    private var values: [Double] = []
    private var ended = false

    init(_ path: String, movement wantMovement: Bool, flags wantFlags: Bool) throws {
        self.path = path
        do throws(CSVError) {
            let csv = try CSVReader(path: path)
            var wanted = try RecordingColumns.truth.map { name throws(CSVError) in try csv.requiredColumn(named: name) }
            // BROAD's `movement` (1 = scored) or the phone trials' `score` (above 0.5 = scored).
            var movementColumn = wantMovement ? try csv.column(named: RecordingColumns.movement) : nil
            if wantMovement, movementColumn == nil { movementColumn = try csv.column(named: "score") }
            let flagsColumn = wantFlags ? try csv.column(named: "flags") : nil
            if let movementColumn { wanted.append(movementColumn) }
            if let flagsColumn { wanted.append(flagsColumn) }
            reader = csv
            columns = wanted
            hasMovement = movementColumn != nil
            hasFlags = flagsColumn != nil
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
    }

    /// The next row, or nil at the end (where a cut-off last line is reported as a warning).
    func next() throws -> Row? {
        guard !ended else { return nil }
        do throws(CSVError) {
            guard try reader.nextRow(columns: columns, into: &values) else {
                ended = true
                warnAboutCut(reader.partialLastLine, in: path)
                return nil
            }
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
        var row = Row(quaternion: Quaternion(w: values[0], x: values[1], y: values[2], z: values[3]), line: reader.lineNumber)
        if hasMovement { row.movement = values[4] > 0.5 }
        if hasFlags {
            let raw = values[columns.count - 1]
            if raw >= 0 && raw <= Double(UInt16.max) && raw.rounded() == raw {
                row.flags = FusionFlags(rawValue: UInt16(raw))
            } else {
                hasFlags = false
            }
        }
        return row
    }
}

import Foundation
import MotionFusion

/// Where a command prints its report: standard output, or standard error when standard output
/// carries the command's data (`-o -`), so that the data stays parseable.
struct Report: TextOutputStream {
    let toStandardError: Bool

    /// The report for a command whose output file is `file` (nil: no output file).
    init(beside file: OutputFile?) {
        toStandardError = file?.writesToStandardOutput ?? false
    }

    mutating func write(_ string: String) {
        if toStandardError {
            FileHandle.standardError.write(Data(string.utf8))
        } else {
            FileHandle.standardOutput.write(Data(string.utf8))
        }
    }
}

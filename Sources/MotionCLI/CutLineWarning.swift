import Foundation
import MotionFusion

/// Tells the user, on standard error, that `path` ended inside a line that was not read (a
/// recording cut short by a crash or a full disk; see ``CSVPartialLine``). The command's result is
/// that of every whole line.
func warnAboutCut(_ cut: CSVPartialLine?, in path: String) {
    guard let cut else { return }
    FileHandle.standardError.write(Data("warning: \(path): \(cut)\n".utf8))
}

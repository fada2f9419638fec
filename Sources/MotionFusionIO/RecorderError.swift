
/// What opening a ``MotionRecorder`` can fail with.
public enum RecorderError: Error, Sendable, Hashable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case wrongHeader(path: String)
    /// A sample could not be appended whole, or the file not synced; the recorder has stopped and
    /// the file ends on its last whole line.
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open \(path) for appending: \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason); the recording stopped"
        case .wrongHeader(let path): "\(path) exists and is not a MotionRecorder recording (its first line is not \(MotionRecorder.header.dropLast()))"
        }
    }
}

/// Why a batch could not be processed.
public enum FusionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input arrays (or the output buffer) differ in length.
    case lengthMismatch(expected: Int, found: Int, what: String)

    public var description: String {
        switch self {
        case .lengthMismatch(let expected, let found, let what):
            "\(what) has \(found) elements, expected \(expected)"
        }
    }
}

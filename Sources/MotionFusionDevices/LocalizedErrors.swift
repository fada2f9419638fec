import Foundation

// Every public error of the library is a `LocalizedError` whose `errorDescription` is its
// `description`, so `localizedDescription` (what Foundation, `print(error.localizedDescription)` and
// most apps show) names the line, file or value instead of "The operation could not be completed".
// The devices layer's errors.
// The conformances of a layer are kept together here so that a new error type is easy to add next to them;
// `ErrorDescriptionTests` checks a value of each.

extension MotionManagerError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

extension IIOError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

extension IIOBufferError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

extension IIODeviceGroupError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

import Foundation
import MotionFusionCore

// Every public error of the library is a `LocalizedError` whose `errorDescription` is its
// `description`, so `localizedDescription` (what Foundation, `print(error.localizedDescription)` and
// most apps show) names the line, file or value instead of "The operation could not be completed".
// MotionFusionIO is the lowest layer with Foundation, so it also gives the core's errors (the core has
// no Foundation) their LocalizedError conformance.
// The conformances of a layer are kept together here so that a new error type is easy to add next to them;
// `ErrorDescriptionTests` checks a value of each.

extension CSVError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

extension RecorderError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

extension SettingsError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

extension DeviceMotionError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

extension WorldMagneticModelError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

extension RotationError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

extension FusionError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

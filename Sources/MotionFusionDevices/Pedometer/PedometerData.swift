import Foundation

/// What a ``Pedometer`` counted between two dates: Core Motion's `CMPedometerData`, with Swift
/// numbers (`Int`, `Double`) where Core Motion has `NSNumber`.
public struct PedometerData: Sendable, Hashable {
    /// The start of the interval.
    public var startDate: Date
    /// The end of the interval: for a live update, the date of the latest sample.
    public var endDate: Date
    /// Steps counted in the interval.
    public var numberOfSteps: Int
    /// The distance walked or run, m: the steps times ``StepLengthModel/length``.
    public var distance: Double?
    /// Floors climbed: nil (no barometer).
    public var floorsAscended: Int?
    /// Floors descended: nil (no barometer).
    public var floorsDescended: Int?
    /// The pace now, s/m; nil when not walking, and in a query.
    public var currentPace: Double?
    /// The cadence now, steps/s; nil when not walking, and in a query.
    public var currentCadence: Double?
    /// The average pace while walking or running in the interval, s/m: the time between steps of
    /// the same walk divided by the distance; nil without two such steps.
    public var averageActivePace: Double?

    public init(
        startDate: Date, endDate: Date, numberOfSteps: Int, distance: Double?, floorsAscended: Int? = nil,
        floorsDescended: Int? = nil, currentPace: Double?, currentCadence: Double?, averageActivePace: Double?
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.numberOfSteps = numberOfSteps
        self.distance = distance
        self.floorsAscended = floorsAscended
        self.floorsDescended = floorsDescended
        self.currentPace = currentPace
        self.currentCadence = currentCadence
        self.averageActivePace = averageActivePace
    }
}

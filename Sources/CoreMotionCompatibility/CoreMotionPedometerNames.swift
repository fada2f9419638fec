// Core Motion's pedometer and activity names over MotionFusion's ``Pedometer`` and
// ``MotionActivityManager``. `CMPedometer` is a class of its own here (not a typealias) because
// Core Motion's `CMPedometerData` holds `NSNumber`s (`data.numberOfSteps.intValue`) where
// MotionFusion's ``PedometerData`` holds Swift numbers; it forwards everything to a ``Pedometer``.

import Foundation

// MARK: Activity

/// `CMMotionActivityManager`: ``MotionActivityManager``, which needs a source
/// (`CMMotionActivityManager(source: …)`).
public typealias CMMotionActivityManager = MotionActivityManager
/// `CMMotionActivity`: `.stationary`, `.walking`, `.running`, `.automotive`, `.cycling`,
/// `.unknown`, `.confidence`, `.startDate`.
public typealias CMMotionActivity = MotionActivity
/// `CMMotionActivityConfidence`: `.low`, `.medium`, `.high`.
public typealias CMMotionActivityConfidence = ActivityConfidence
/// `CMMotionActivityHandler`.
public typealias CMMotionActivityHandler = MotionActivityManager.Handler
/// `CMMotionActivityQueryHandler`.
public typealias CMMotionActivityQueryHandler = MotionActivityManager.QueryHandler
/// `CMAuthorizationStatus`.
public typealias CMAuthorizationStatus = AuthorizationStatus

// MARK: Pedometer

/// `CMPedometerEvent`: `.date`, `.type`.
public typealias CMPedometerEvent = PedometerEvent
/// `CMPedometerEventType`: `.pause`, `.resume`.
public typealias CMPedometerEventType = PedometerEvent.EventType
/// `CMPedometerEventHandler`.
public typealias CMPedometerEventHandler = Pedometer.EventHandler
/// `CMPedometerHandler`.
public typealias CMPedometerHandler = (CMPedometerData?, (any Error)?) -> Void

/// `CMPedometerData`: ``PedometerData`` with Core Motion's `NSNumber` fields.
public final class CMPedometerData: @unchecked Sendable, CustomStringConvertible {
    // @unchecked: every field is a `let`, and `NSNumber` is immutable.
    /// The data in MotionFusion's types.
    public let data: PedometerData
    public let startDate: Date
    public let endDate: Date
    /// Steps.
    public let numberOfSteps: NSNumber
    /// m.
    public let distance: NSNumber?
    /// nil: no barometer.
    public let floorsAscended: NSNumber?
    /// nil: no barometer.
    public let floorsDescended: NSNumber?
    /// s/m.
    public let currentPace: NSNumber?
    /// steps/s.
    public let currentCadence: NSNumber?
    /// s/m.
    public let averageActivePace: NSNumber?

    public init(_ data: PedometerData) {
        self.data = data
        startDate = data.startDate
        endDate = data.endDate
        numberOfSteps = NSNumber(value: data.numberOfSteps)
        distance = data.distance.map { NSNumber(value: $0) }
        floorsAscended = data.floorsAscended.map { NSNumber(value: $0) }
        floorsDescended = data.floorsDescended.map { NSNumber(value: $0) }
        currentPace = data.currentPace.map { NSNumber(value: $0) }
        currentCadence = data.currentCadence.map { NSNumber(value: $0) }
        averageActivePace = data.averageActivePace.map { NSNumber(value: $0) }
    }

    public var description: String {
        "CMPedometerData(\(startDate) – \(endDate): \(numberOfSteps) steps, \(distance.map { "\($0) m" } ?? "no distance"))"
    }
}

/// `CMPedometer`: a ``Pedometer`` (``pedometer``) with Core Motion's `CMPedometerData`. Needs a
/// source (`CMPedometer(source: …)`) or a manager to share.
public final class CMPedometer: Sendable {
    /// The pedometer that counts.
    public let pedometer: Pedometer

    /// A pedometer with a manager of its own over `source`.
    public init(source: any MotionSource, timestampOrigin: Date? = nil) {
        pedometer = Pedometer(source: source, timestampOrigin: timestampOrigin)
    }

    /// A pedometer over a manager's samples.
    public init(manager: MotionManager, timestampOrigin: Date? = nil) {
        pedometer = Pedometer(manager: manager, timestampOrigin: timestampOrigin)
    }

    public class func isStepCountingAvailable() -> Bool { Pedometer.isStepCountingAvailable() }
    public class func isDistanceAvailable() -> Bool { Pedometer.isDistanceAvailable() }
    public class func isFloorCountingAvailable() -> Bool { Pedometer.isFloorCountingAvailable() }
    public class func isPaceAvailable() -> Bool { Pedometer.isPaceAvailable() }
    public class func isCadenceAvailable() -> Bool { Pedometer.isCadenceAvailable() }
    public class func isPedometerEventTrackingAvailable() -> Bool { Pedometer.isPedometerEventTrackingAvailable() }
    public class func authorizationStatus() -> CMAuthorizationStatus { Pedometer.authorizationStatus() }

    public func startUpdates(from start: Date, withHandler handler: @escaping CMPedometerHandler) {
        pedometer.startUpdates(from: start) { data, error in handler(data.map(CMPedometerData.init), error) }
    }
    public func stopUpdates() { pedometer.stopUpdates() }
    public func queryPedometerData(from start: Date, to end: Date, withHandler handler: @escaping CMPedometerHandler) {
        pedometer.queryPedometerData(from: start, to: end) { data, error in handler(data.map(CMPedometerData.init), error) }
    }
    public func startEventUpdates(handler: @escaping CMPedometerEventHandler) { pedometer.startEventUpdates(handler: handler) }
    public func stopEventUpdates() { pedometer.stopEventUpdates() }
}

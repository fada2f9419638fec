/// The three motion-event detectors fed from one device-motion stream: shakes from the user
/// acceleration, orientation changes from gravity, movements from the user acceleration too. The
/// movement recipe's own low-pass then removes only what the fusion left of gravity, so turning the
/// device (which moves gravity across the axes faster than the recipe's low-pass follows) is not
/// taken for a movement. Movements are not reported during a shake.
public struct MotionEventDetector: Sendable {
    /// Shake recognition.
    public var shake: ShakeDetector
    /// Device orientation.
    public var orientation: DeviceOrientationDetector
    /// Movement directions.
    public var movement: MovementDetector

    /// Detectors with the given settings.
    public init(
        shake: ShakeDetector.Settings = .init(), orientation: DeviceOrientationDetector.Settings = .init(),
        movement: MovementDetector.Settings = .init()
    ) {
        self.shake = ShakeDetector(settings: shake)
        self.orientation = DeviceOrientationDetector(settings: orientation)
        self.movement = MovementDetector(settings: movement)
    }

    /// Processes one device-motion sample and appends the events it completes to `events` (in the
    /// order shake, orientation, movement). Appending to a reused array allocates nothing once its
    /// capacity suffices.
    public mutating func update<S: FusionScalar>(_ motion: DeviceMotionSample<S>, into events: inout [MotionEvent]) {
        let t = motion.timestamp
        if let e = shake.update(timestamp: t, userAcceleration: motion.userAcceleration) { events.append(e) }
        if let e = orientation.update(timestamp: t, gravity: motion.gravity) { events.append(e) }
        let movementEvent = movement.update(timestamp: t, acceleration: motion.userAcceleration)
        if let e = movementEvent, !shake.isShaking { events.append(e) }
    }

    /// Ends the stream at `t`: a shake still in progress is cancelled.
    public mutating func finish(at t: Double, into events: inout [MotionEvent]) {
        if let e = shake.cancel(at: t) { events.append(e) }
    }
}

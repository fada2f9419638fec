/// Reports sudden movements along the device's axes, as in the classic accelerometer recipe: a
/// low-pass filter isolates gravity, the rest (the high-pass) is movement, and a high-pass component
/// beyond ``Settings-swift.struct/threshold`` reports a movement along its axis — the largest
/// component wins.
///
/// Input: Core Motion's acceleration in g (gravity + user acceleration, `−specific force / g₀`; see
/// ``CoreMotionConversion``). Since that reading has the opposite sign of the device's own
/// acceleration, the reported ``MovementDirection`` is the direction of the *push*: the opposite of
/// the high-pass reading's sign. The first ``Settings-swift.struct/settlingTime`` seconds are
/// ignored while the low-pass settles. After a report, the next one waits until every component has
/// fallen below half the threshold and ``Settings-swift.struct/refractoryTime`` has passed, so a push
/// and the stop that follows it are one report.
public struct MovementDetector: Sendable {
    /// The detector's thresholds.
    public struct Settings: Sendable, Hashable {
        /// g: the high-pass component that counts as a movement. Default 0.3.
        public var threshold: Double
        /// s: the gravity low-pass time constant. Default 0.5.
        public var gravityTimeConstant: Double
        /// s: ignored at the start. Default 1.
        public var settlingTime: Double
        /// s: no second report sooner than this after one. Default 0.6.
        public var refractoryTime: Double

        /// The defaults, or the values given.
        public init(
            threshold: Double = 0.3, gravityTimeConstant: Double = 0.5, settlingTime: Double = 1,
            refractoryTime: Double = 0.6
        ) {
            self.threshold = threshold
            self.gravityTimeConstant = gravityTimeConstant
            self.settlingTime = settlingTime
            self.refractoryTime = refractoryTime
        }
    }

    /// The settings.
    public var settings: Settings
    /// The high-pass filter (its low-pass is the gravity estimate).
    public private(set) var filter: HighPassFilter<Double>
    var start: Double?
    var lastTime: Double?
    var armed = true
    var lastReport = -Double.infinity

    /// A detector with the given settings.
    public init(settings: Settings = Settings()) {
        self.settings = settings
        filter = HighPassFilter(timeConstant: settings.gravityTimeConstant)
    }

    /// Processes one sample (Core Motion's acceleration, g); returns the movement it shows, if any.
    public mutating func update<S: FusionScalar>(timestamp t: Double, acceleration: SIMD3<S>) -> MotionEvent? {
        let a = SIMD3<Double>(acceleration)
        guard t.isFinite, VectorCheck.isFinite(a) else { return nil }
        let dt = lastTime.map { t - $0 } ?? 0
        if let last = lastTime, t <= last { return nil }
        lastTime = t
        if start == nil { start = t }
        let h = filter.update(a, dt: dt)
        guard t - start! >= settings.settlingTime else { return nil }
        let m = SIMD3(abs(h.x), abs(h.y), abs(h.z))
        let largest = max(m.x, max(m.y, m.z))
        if !armed {
            if largest < settings.threshold / 2 && t - lastReport >= settings.refractoryTime { armed = true }
            return nil
        }
        guard largest >= settings.threshold else { return nil }
        armed = false
        lastReport = t
        // The push is opposite to the Core Motion reading's high-pass sign.
        let direction: MovementDirection
        if m.x == largest {
            direction = h.x < 0 ? .right : .left
        } else if m.y == largest {
            direction = h.y < 0 ? .up : .down
        } else {
            direction = h.z < 0 ? .towardUser : .awayFromUser
        }
        return .movement(timestamp: t, direction: direction, peak: largest)
    }
}

#if !hasFeature(Embedded)
extension MovementDetector.Settings: Codable {}
#endif

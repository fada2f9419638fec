/// Recognizes shakes — the back-and-forth acceleration of a device shaken in the hand — and reports
/// them as `UIResponder` does: began, ended, or cancelled.
///
/// Input: the user acceleration in g (``DeviceMotionSample/userAcceleration``; gravity removed) with
/// timestamps in seconds. A **swing** is the acceleration rising above
/// ``Settings-swift.struct/threshold``; it counts as a **reversal** when its direction is roughly
/// opposite (more than 120° away) to the previous swing's, within ``Settings-swift.struct/window``
/// seconds of it.
/// - **began**: ``Settings-swift.struct/reversals`` reversals within ``Settings-swift.struct/window``
///   seconds, at the moment the last one starts. For a shake at f Hz with amplitude A that is about
///   `(reversals + asin(threshold / A) / π) / (2 f)` after it starts.
/// - **ended**: the acceleration has stayed below half the threshold for
///   ``Settings-swift.struct/quietDuration`` seconds; reported at that moment.
/// - **cancelled**: the shake has lasted longer than ``Settings-swift.struct/maximumDuration``, or
///   the samples stopped for longer than ``Settings-swift.struct/maximumGap`` (or ``cancel(at:)``).
/// After a shake ends or is cancelled, no new shake begins for ``Settings-swift.struct/lockout``
/// seconds (and a cancelled one must first go quiet).
///
/// Walking and running stay below the default threshold (their peaks are 0.3–1 g); a deliberate shake
/// reaches 2–4 g. Non-finite samples are ignored; timestamps that do not advance are ignored.
public struct ShakeDetector: Sendable {
    /// The detector's thresholds and times.
    public struct Settings: Sendable, Hashable {
        /// g: the acceleration a swing must exceed. Default 1.5.
        public var threshold: Double
        /// Reversals needed to begin. Default 2 (three swings).
        public var reversals: Int
        /// s: the time in which they must occur. Default 1.
        public var window: Double
        /// s: quiet time that ends a shake. Default 0.3.
        public var quietDuration: Double
        /// s: a shake longer than this is cancelled. Default 5.
        public var maximumDuration: Double
        /// s: a pause in the samples longer than this cancels a shake. Default 0.5.
        public var maximumGap: Double
        /// s: no shake begins this soon after the previous one ended. Default 1.
        public var lockout: Double

        /// The defaults, or the values given.
        public init(
            threshold: Double = 1.5, reversals: Int = 2, window: Double = 1, quietDuration: Double = 0.3,
            maximumDuration: Double = 5, maximumGap: Double = 0.5, lockout: Double = 1
        ) {
            self.threshold = threshold
            self.reversals = reversals
            self.window = window
            self.quietDuration = quietDuration
            self.maximumDuration = maximumDuration
            self.maximumGap = maximumGap
            self.lockout = lockout
        }
    }

    /// The settings.
    public var settings: Settings
    /// True between a shake's beginning and its end or cancellation.
    public private(set) var isShaking = false

    var lastTime: Double?
    var inSwing = false
    var lastSwingDirection: SIMD3<Double>?
    var lastSwingTime = -Double.infinity
    var reversalTimes: [Double] = []
    var began = 0.0
    var lastLoud = -Double.infinity
    var lockedUntil = -Double.infinity
    var needsQuiet = false

    /// A detector with the given settings.
    public init(settings: Settings = Settings()) {
        self.settings = settings
        reversalTimes.reserveCapacity(8)
    }

    /// Processes one sample; returns the shake event it completes, if any.
    public mutating func update<S: FusionScalar>(timestamp t: Double, userAcceleration: SIMD3<S>) -> MotionEvent? {
        let a = SIMD3<Double>(userAcceleration)
        guard VectorCheck.isFinite(a), t.isFinite else { return nil }
        if let last = lastTime {
            guard t > last else { return nil }
            if t - last > settings.maximumGap, isShaking {
                lastTime = t
                // Reported at the last sample before the pause; the lockout runs from now.
                return finish(at: last, cancelled: true, lockingFrom: t)
            }
        }
        lastTime = t
        let magnitude = (a * a).sum().squareRoot()
        if magnitude >= settings.threshold * 0.5 { lastLoud = t }

        if isShaking {
            if t - began > settings.maximumDuration { return finish(at: t, cancelled: true) }
            if t - lastLoud >= settings.quietDuration { return finish(at: t, cancelled: false) }
            return nil
        }
        if needsQuiet {
            if t - lastLoud >= settings.quietDuration { needsQuiet = false }
            return nil
        }
        // Swings and reversals.
        if magnitude >= settings.threshold {
            if !inSwing {
                inSwing = true
                let direction = a / magnitude
                if let previous = lastSwingDirection, t - lastSwingTime <= settings.window,
                    (previous * direction).sum() < -0.5
                {
                    reversalTimes.append(t)
                }
                lastSwingDirection = direction
                lastSwingTime = t
                reversalTimes.removeAll { t - $0 > settings.window }
                if reversalTimes.count >= settings.reversals && t >= lockedUntil {
                    isShaking = true
                    began = t
                    reversalTimes.removeAll(keepingCapacity: true)
                    return .shakeBegan(timestamp: t)
                }
            }
        } else if magnitude < settings.threshold * 0.8 {
            inSwing = false
            if let last = reversalTimes.last, t - last > settings.window { reversalTimes.removeAll(keepingCapacity: true) }
        }
        return nil
    }

    /// Cancels a shake in progress (for example when the source stops); nil when none is.
    public mutating func cancel(at t: Double) -> MotionEvent? {
        isShaking ? finish(at: t, cancelled: true) : nil
    }

    mutating func finish(at t: Double, cancelled: Bool, lockingFrom lockStart: Double? = nil) -> MotionEvent {
        isShaking = false
        inSwing = false
        lastSwingDirection = nil
        reversalTimes.removeAll(keepingCapacity: true)
        lockedUntil = (lockStart ?? t) + settings.lockout
        needsQuiet = cancelled
        return cancelled ? .shakeCancelled(timestamp: t) : .shakeEnded(timestamp: t)
    }
}

#if !hasFeature(Embedded)
extension ShakeDetector.Settings: Codable {}
#endif

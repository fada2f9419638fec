/// Tells stationary, walking, running and unknown apart from the accelerometer as the readings come,
/// with a confidence and the time each activity began: the open counterpart of Core Motion's
/// `CMMotionActivityManager`. It counts steps on the way (``steps``, a ``StepDetector``), so one
/// classifier gives a pedometer and the activity for the cost of both.
///
/// **Walking and running** are the step detector's walks: a rhythm of steps at a human cadence
/// that moves the whole body (see ``StepDetector``). A walk is **running** while its cadence is at
/// least ``Settings-swift.struct/runningCadence`` *and* the RMS of `|a|`'s swing around its mean
/// (the step detector's 2 s measure) is at least ``Settings-swift.struct/runningImpact``: a runner
/// leaves the ground every step, so `|a|` falls towards 0 g in flight and lands at 2–3 g, a swing
/// of 5–9 m/s² RMS on the phone dataset's running trials (any carrying position), where walking's
/// double support keeps it to 0.1–4.7 m/s² (4.7 with the phone swinging in the hand). The cadence
/// alone would call a brisk walk with short steps a run, the swing alone a walk with the phone
/// swung hard. Running ends when either falls below ``Settings-swift.struct/runningExitFraction``
/// of its threshold (hysteresis: a run that slows for a few steps stays a run). Both are judged at
/// each step.
///
/// **Stationary** means the device is still: the difference between a 50 ms and a 0.5 s low-pass
/// of the acceleration vector (which removes noise, gravity and any fixed tilt, but keeps every
/// movement and every turn) has stayed below ``Settings-swift.struct/stillAcceleration`` for
/// ``Settings-swift.struct/stillDuration`` seconds. Resting on a table the difference is 0.01–0.03
/// m/s² (BROAD's rest phases); a hand holding a phone still adds tremor of a few hundredths; any
/// deliberate movement is tenths or more.
///
/// **Unknown** is everything else: handled, shaken, carried in a vehicle, or not yet seen long
/// enough. Its confidence is always ``ActivityConfidence/low``.
///
/// **Confidence.** A walk, a run or stillness is reported with ``ActivityConfidence/medium`` when it
/// is recognised, and ``ActivityConfidence/high`` once it has lasted
/// ``Settings-swift.struct/confidentAfter`` seconds.
///
/// **Start times and delays.** A walk starts at its first step and is reported
/// ``Settings-swift.struct/minimumWalk`` (2 s) after it, once the step detector has confirmed it
/// (three steps in rhythm); stillness
/// starts when the device became still, and is reported ``Settings-swift.struct/stillDuration``
/// later; a run starts at the reading that recognised it; a walk ends when the step detector ends
/// it, 2 s or three step periods after the last step, and what follows is unknown from then, or
/// stationary from when the device became still (which may be before the walk ended). Start times
/// never go back before the previous report's start.
///
/// **Bad input.** What the step detector ignores (a NaN or infinite value or timestamp, a timestamp
/// that does not advance) the classifier ignores too. A gap longer than
/// ``StepDetector/Settings-swift.struct/stopAfter`` in the timestamps ends a walk and the stillness
/// (nothing is known about the gap): the activity is unknown until the readings show otherwise.
///
/// No allocation after `init`, nothing from Foundation: it runs in Embedded Swift. Between the
/// events that can change the activity (a step, a walk starting or ending, a still device moving,
/// a deadline) a reading costs the step detector's update, two low-passes and a comparison.
public struct ActivityClassifier<Scalar: FusionScalar>: Sendable {
    /// The thresholds; every numeric field has a valid range, given at the end of its documentation.
    public struct Settings: Sendable, Hashable {
        /// The step detector's settings.
        public var steps: StepDetector<Scalar>.Settings
        /// A walk whose cadence reaches this is a run (if its impacts are hard enough), steps/s.
        /// Default 2.4 (144 steps a minute): people switch from walking to running near 2 m/s, at
        /// about 2.3–2.5 steps a second, and run at 2.5–3.2 (the phone dataset's runs: 2.6–3.0);
        /// walks are 1.5–2.2. Valid range: > 0, finite.
        public var runningCadence: Scalar
        /// … and the RMS of `|a|`'s swing reaches this, m/s². Default 3 (see the type's
        /// documentation: runs 4.6–8.8, walks 0.1–4.7 on the phone dataset). Valid range: ≥ 0, finite.
        public var runningImpact: Scalar
        /// A run ends when its cadence or its swing falls below this fraction of its threshold.
        /// Default 0.9. Valid range: in [0, 1].
        public var runningExitFraction: Scalar
        /// The largest difference between the acceleration's 50 ms and 0.5 s low-passes of a still
        /// device, m/s². Default 0.25. Valid range: > 0, finite.
        public var stillAcceleration: Scalar
        /// How long the device must stay still to be stationary, s. Default 1.
        /// Valid range: ≥ 0, finite.
        public var stillDuration: Scalar
        /// How long an activity lasts before its confidence is high, s. Default 10 (15–30 steps).
        /// Valid range: ≥ 0, finite.
        public var confidentAfter: Scalar
        /// A walk is reported once this long has passed since its first step, s. Default 2 (3–6
        /// steps): shaking a phone for a second or two has a running rhythm, and a walk lasts
        /// longer. Longer waits hardly help against handling with a lasting rhythm (BROAD's
        /// translations: 0.41 of their time walking at 0 s, 0.40 at 2, 0.38 at 5) and delay every
        /// walk (median delay 1.8 s at 0, 2.1 s at 2, 5.1 s at 5). Valid range: ≥ 0, finite.
        public var minimumWalk: Scalar

        /// Settings; every default is stated on its property.
        public init(
            steps: StepDetector<Scalar>.Settings = .init(), runningCadence: Scalar = 2.4, runningImpact: Scalar = 3,
            runningExitFraction: Scalar = 0.9, stillAcceleration: Scalar = 0.25, stillDuration: Scalar = 1,
            confidentAfter: Scalar = 10, minimumWalk: Scalar = 2
        ) {
            self.steps = steps
            self.runningCadence = runningCadence
            self.runningImpact = runningImpact
            self.runningExitFraction = runningExitFraction
            self.stillAcceleration = stillAcceleration
            self.stillDuration = stillDuration
            self.confidentAfter = confidentAfter
            self.minimumWalk = minimumWalk
        }
    }

    /// The low-passes' time constants that define stillness, s.
    @usableFromInline static var stillFastTimeConstant: Scalar { 0.05 }
    @usableFromInline static var stillSlowTimeConstant: Scalar { 0.5 }

    /// The step detector, fed every reading: its ``StepDetector/newStepTimes`` after each
    /// ``update(timestamp:acceleration:)`` are the steps that reading confirmed.
    @inlinable public var steps: StepDetector<Scalar> { detector }
    @usableFromInline var detector: StepDetector<Scalar>
    @usableFromInline var classifierSettings: Settings

    /// The activity reported last (unknown, low, at time 0 before the first reading).
    @inlinable public var current: ActivityReport { report }
    @usableFromInline var report: ActivityReport

    @usableFromInline var seeded = false
    @usableFromInline var fast = SIMD3<Scalar>.zero
    @usableFromInline var slow = SIMD3<Scalar>.zero
    /// The step detector's time step when the gains were computed (its own cached step: the
    /// gains change when its do).
    @usableFromInline var cachedStep: Scalar = -1
    @usableFromInline var gains = SIMD2<Scalar>(repeating: 1)
    /// When the device last moved (its stillness began after this).
    @usableFromInline var movedAt = -Double.infinity
    @usableFromInline var running = false
    /// When the walk being reported began (its first step).
    @usableFromInline var walkStart = 0.0
    /// The activity can change without an event (a step, a walk starting or ending, stillness
    /// ending) only at or after this time: stillness long enough, confidence long enough, a walk
    /// long enough to report. Everything between is one comparison per reading.
    @usableFromInline var nextCheck = -Double.infinity

    /// A classifier with nothing seen yet. Settings outside their valid ranges are moved into them
    /// (see ``settings``).
    @inlinable
    public init(settings: Settings = Settings()) {
        let clamped = settings.clamped()
        classifierSettings = clamped
        detector = StepDetector(settings: clamped.steps)
        report = ActivityReport(kind: .unknown, confidence: .low, startTime: 0, reportTime: 0)
    }

    /// The settings; they may be changed between updates. Values outside their ranges are moved into
    /// them as ``StepDetector/settings`` documents (a running exit fraction above 1 becomes 1).
    public var settings: Settings {
        get { classifierSettings }
        set {
            classifierSettings = newValue.clamped()
            detector.settings = classifierSettings.steps
        }
    }

    /// Feeds one accelerometer reading: specific force in m/s² in any axes, taken at `timestamp`
    /// seconds. Returns true when the activity or its confidence changed (the new one in
    /// ``current``), and for the first reading (unknown, low, from then). The steps the reading
    /// confirmed are in `steps.newStepTimes`.
    @inlinable @discardableResult
    public mutating func update(timestamp t: Double, acceleration a: SIMD3<Scalar>) -> Bool {
        let ignoredBefore = detector.ignoredReadings
        let walkingBefore = detector.isWalking
        detector.update(timestamp: t, acceleration: a)
        guard detector.ignoredReadings == ignoredBefore else { return false }
        let walkingChanged = walkingBefore != detector.isWalking
        if walkingChanged, detector.isWalking, let first = detector.newStepTimes.first { walkStart = first }
        let firstReading = !seeded
        let moved = updateStillness(t, a)
        if firstReading {
            report = ActivityReport(kind: .unknown, confidence: .low, startTime: t, reportTime: t)
            nextCheck = t
            return true
        }
        // The events that can change the activity; otherwise only a deadline can.
        guard walkingChanged || !detector.newStepTimes.isEmpty || (moved && report.kind == .stationary)
            || t >= nextCheck
        else { return false }
        return classify(t)
    }

    /// Ends a recording: decides the step detector's last candidate (see ``StepDetector/finish()``).
    /// The activity is left as it is.
    public mutating func finish() {
        detector.finish()
    }

    /// Forgets everything but the settings.
    public mutating func reset() {
        self = ActivityClassifier(settings: classifierSettings)
    }

    /// Updates the stillness with a reading at `t`; true when the device moved (or the stillness
    /// restarted). Per reading: two low-passes and a comparison in `Scalar`, no `Double`
    /// arithmetic (soft-float on a Cortex-M4F).
    @inlinable @inline(__always)
    mutating func updateStillness(_ t: Double, _ a: SIMD3<Scalar>) -> Bool {
        // After a gap longer than `stopAfter` the step detector restarts its peak search: its
        // history then holds this one reading (as after the first).
        guard seeded, detector.history != 1 else {
            // The first reading, or one after a gap: nothing is known about the time before it.
            seeded = true
            fast = a
            slow = a
            movedAt = t
            return true
        }
        let dt = detector.cachedStep
        if dt != cachedStep {
            cachedStep = dt
            gains = SIMD2(
                FirstOrder.gain(dt: dt, timeConstant: Self.stillFastTimeConstant),
                FirstOrder.gain(dt: dt, timeConstant: Self.stillSlowTimeConstant))
        }
        fast += (a - fast) * gains.x
        slow += (a - slow) * gains.y
        let d = fast - slow
        let limit = classifierSettings.stillAcceleration
        guard (d * d).sum() > limit * limit else { return false }
        movedAt = t
        return true
    }

    /// Decides the activity after a reading at `t`; true when it changed.
    @inlinable
    mutating func classify(_ t: Double) -> Bool {
        let s = classifierSettings
        var kind = ActivityKind.unknown
        var start = t
        if detector.isWalking, let cadence = detector.cadence, t - walkStart >= Double(s.minimumWalk) {
            let swing = detector.magnitudePower.squareRoot()
            let exit = running ? s.runningExitFraction : 1
            running = Scalar(cadence) >= s.runningCadence * exit && swing >= s.runningImpact * exit
            kind = running ? .running : .walking
            start = kind == .walking && report.kind != .running ? walkStart : t
        } else {
            running = false
            if t - movedAt >= Double(s.stillDuration) {
                kind = .stationary
                start = movedAt
            }
        }
        var confidence = ActivityConfidence.low
        if kind == report.kind {
            start = report.startTime
            if kind != .unknown {
                confidence = t - start >= Double(s.confidentAfter) ? .high : .medium
            }
        } else if kind != .unknown {
            confidence = .medium
        }
        let changed = kind != report.kind || confidence != report.confidence
        if changed {
            report = ActivityReport(
                kind: kind, confidence: confidence, startTime: Swift.max(start, report.startTime), reportTime: t)
        }
        // The next time a deadline may change it: a walk long enough to report, stillness long
        // enough, an activity long enough for high confidence.
        var next = Double.infinity
        if detector.isWalking {
            if kind != .walking && kind != .running { next = walkStart + Double(s.minimumWalk) }
        } else if kind != .stationary {
            next = movedAt + Double(s.stillDuration)
        }
        if kind != .unknown && confidence == .medium {
            next = Swift.min(next, report.startTime + Double(s.confidentAfter))
        }
        nextCheck = next
        return changed
    }
}

extension ActivityClassifier.Settings: RangedSettings {
    /// The valid range of every floating-point setting of the classifier itself (the step
    /// detector's are checked by its own table).
    static var rules: [SettingRule<Self>] {
        [
            SettingRule("runningCadence", { $0.runningCadence }, { $0.runningCadence = $1 }, .positive),
            SettingRule("runningImpact", { $0.runningImpact }, { $0.runningImpact = $1 }, .nonNegative),
            SettingRule("runningExitFraction", { $0.runningExitFraction }, { $0.runningExitFraction = $1 }, .closed(0, 1)),
            SettingRule("stillAcceleration", { $0.stillAcceleration }, { $0.stillAcceleration = $1 }, .positive),
            SettingRule("stillDuration", { $0.stillDuration }, { $0.stillDuration = $1 }, .nonNegative),
            SettingRule("confidentAfter", { $0.confidentAfter }, { $0.confidentAfter = $1 }, .nonNegative),
            SettingRule("minimumWalk", { $0.minimumWalk }, { $0.minimumWalk = $1 }, .nonNegative),
        ]
    }

    static var defaults: Self { Self() }

    /// Checks every setting against its valid range, the step detector's included.
    ///
    /// - Throws: ``SettingsError/outOfRange(setting:value:range:)`` for the first setting outside
    ///   its range.
    public func validate() throws(SettingsError) {
        try steps.validate()
        if let error = rangeViolation() { throw error }
    }

    /// These settings with every value moved into its range.
    @usableFromInline
    func clamped() -> Self {
        var result = clampedToRanges()
        result.steps = steps.clamped()
        return result
    }
}

#if !hasFeature(Embedded)
extension ActivityClassifier.Settings: Codable {}
#endif

import RealModule

/// Counts steps as they happen, from the accelerometer alone, in any carrying position: a phone in a
/// hand, a trouser pocket, a purse, an armband, swinging in the hand.
///
/// **The signal.** Each heel strike jolts the whole body: the magnitude of the specific force
/// `|a|` (orientation-free, so the carrying position does not matter) rises by 1–5 m/s² for a few
/// tens of milliseconds. The detector removes gravity and slow motion by subtracting a low-pass of
/// `|a|` (``Settings-swift.struct/gravityTimeConstant``), smooths the rest with two first-order
/// low-passes of ``Settings-swift.struct/smoothingTimeConstant`` each (heel strikes keep their
/// shape; tremor and sensor noise go), and looks for its peaks. A peak is a **candidate step** when
/// it exceeds both ``Settings-swift.struct/minimumPeak`` and ``Settings-swift.struct/relativeThreshold``
/// times the signal's recent RMS (over ``Settings-swift.struct/loudnessTimeConstant``), so that a
/// gentle walk with the phone in the hand and a brisk one in a pocket are both counted. Of
/// candidates closer than a merge window only the larger is kept: a foot's impact often rings
/// twice (heel, then the leg's swing in a pocket).
///
/// **Walking, not handling.** Peaks alone also come from picking a phone up, shaking or typing on
/// it. A walk is a rhythm of the whole body: counting starts only when
/// ``Settings-swift.struct/stepsToStart`` candidates follow each other at intervals between
/// ``Settings-swift.struct/shortestStep`` and ``Settings-swift.struct/longestStep`` seconds (human
/// cadence, 60–300 steps a minute) that differ by at most the factor
/// ``Settings-swift.struct/startRegularity``, while at least
/// ``Settings-swift.struct/minimumMagnitudeShare`` of the dynamic acceleration changes `|a|` (a
/// body moving up and down, not a device turned in the hand); those steps are then all counted,
/// back-dated to when they happened. While walking every candidate is a step and the step period
/// is tracked. One step of each stride is often much weaker than the other (the leg or the arm
/// that carries the phone): a gap of about two periods with a weaker peak near its middle counts
/// that peak too, and a period with a secondary peak in the middle of four intervals running is
/// a stride, halved. Walking ends after ``Settings-swift.struct/stopAfter`` seconds, or three
/// periods, without a step.
///
/// **Timing.** A step's time is its smoothed peak's time (refined between samples by a parabola),
/// less the two low-passes' delay `2 τ`: on WeAllWalk's annotated heel strikes the median offset is
/// under 10 ms.
///
/// **What it costs.** No allocation after `init`, nothing from Foundation; it runs in Embedded
/// Swift. A step is reported when its merge window has passed: up to the window (0.4 s) + 2τ
/// (0.09 s) + one sample after it happened. The first steps of a walk come when the rhythm is
/// confirmed; a step filled in a gap comes with the step after it (about a period later); when a
/// period is halved, only the latest interval's middle step is added (the three before it, which
/// voted, are not counted).
///
/// **Bad input.** A reading with a NaN or infinite component, or a timestamp that is not finite or
/// does not advance, is ignored. A gap in the timestamps longer than
/// ``Settings-swift.struct/stopAfter`` ends a walk and restarts the peak search (a peak is not
/// looked for across the gap). A zero reading (free fall, or a sensor that reports zeros) is a
/// real reading of 0 m/s². A saturated accelerometer flattens peaks; the first sample of a
/// plateau is taken as the peak.
public struct StepDetector<Scalar: FusionScalar>: Sendable {
    /// Time constants, thresholds and the rhythm that confirms a walk. Every numeric field has a
    /// valid range, given at the end of its documentation; ``validate()`` reports a value outside
    /// it, and the detector moves such values into their ranges (see ``StepDetector/settings``).
    public struct Settings: Sendable, Hashable {
        /// The memory of the low-pass of `|a|` that is subtracted from it (gravity and slow
        /// motion), s. Default 0.8 (a step's impact, ~0.1 s, passes; posture changes do not).
        /// Valid range: > 0, finite.
        public var gravityTimeConstant: Scalar
        /// The time constant of each of the two smoothing low-passes, s. Default 0.045 (−3 dB of
        /// the pair near 2.3 Hz: a heel strike's energy is mostly below it, sensor noise above).
        /// Valid range: ≥ 0, finite.
        public var smoothingTimeConstant: Scalar
        /// The memory of the RMS that the relative threshold scales, s. Default 2 (four steps).
        /// Valid range: > 0, finite.
        public var loudnessTimeConstant: Scalar
        /// A candidate step's peak must exceed this fraction of the recent RMS. Default 0.6.
        /// Valid range: ≥ 0, finite.
        public var relativeThreshold: Scalar
        /// … and this absolute height, m/s². Default 0.7 (well above the noise of a phone
        /// accelerometer at rest, ~0.05 m/s² after smoothing). Valid range: ≥ 0, finite.
        public var minimumPeak: Scalar
        /// While walking, a peak above this fraction of the RMS (and ``minimumWeakPeak``) may fill
        /// a step missed in the middle of a gap of two periods. Default 0.2. Valid range: ≥ 0, finite.
        public var weakRelativeThreshold: Scalar
        /// The absolute floor of such a weaker peak, m/s². Default 0.25. Valid range: ≥ 0, finite.
        public var minimumWeakPeak: Scalar
        /// Candidates closer than this, before a walk is confirmed, are merged (the larger kept), s.
        /// Default 0.35. Valid range: ≥ 0, finite.
        public var startMergeWindow: Scalar
        /// While walking, candidates are merged within this fraction of the step period… Default 0.6.
        /// Valid range: ≥ 0, finite.
        public var walkingMergeFraction: Scalar
        /// … but never more than this, s. Default 0.4. Valid range: ≥ 0, finite.
        public var walkingMergeWindow: Scalar
        /// The shortest interval between steps that can start a walk, s. Default 0.2 (300 steps a
        /// minute, a sprint). Valid range: > 0, finite.
        public var shortestStep: Scalar
        /// The longest interval between steps that can start a walk, s. Default 1 (60 steps a
        /// minute, the slowest walking). Valid range: > 0, finite.
        public var longestStep: Scalar
        /// The largest ratio of the longest to the shortest interval among the steps that start a
        /// walk. Default 2.2. Valid range: ≥ 1, finite.
        public var startRegularity: Scalar
        /// How many regular candidates start a walk. Default 3. Valid range: 2…8.
        public var stepsToStart: Int
        /// A walk starts only while at least this share of the dynamic acceleration's power (over
        /// ``loudnessTimeConstant``) changes `|a|`. Default 0.2. Walking moves the whole body up
        /// and down, which `|a|` sees: 0.31–0.79 on the walking recordings (10th percentile of
        /// 2 s windows, any carrying position); turning a device in the hand turns gravity in its
        /// frame without changing `|a|`: 0.01–0.09 on BROAD's rotations. Valid range: 0…1.
        public var minimumMagnitudeShare: Scalar
        /// A walk ends after this long without a step, s (or three step periods, if longer).
        /// Default 2. Valid range: > 0, finite.
        public var stopAfter: Scalar

        /// Settings; every default is stated on its property.
        public init(
            gravityTimeConstant: Scalar = 0.8, smoothingTimeConstant: Scalar = 0.045,
            loudnessTimeConstant: Scalar = 2, relativeThreshold: Scalar = 0.6, minimumPeak: Scalar = 0.7,
            weakRelativeThreshold: Scalar = 0.2, minimumWeakPeak: Scalar = 0.25,
            startMergeWindow: Scalar = 0.35, walkingMergeFraction: Scalar = 0.6, walkingMergeWindow: Scalar = 0.4,
            shortestStep: Scalar = 0.2, longestStep: Scalar = 1, startRegularity: Scalar = 2.2,
            stepsToStart: Int = 3, minimumMagnitudeShare: Scalar = 0.2, stopAfter: Scalar = 2
        ) {
            self.gravityTimeConstant = gravityTimeConstant
            self.smoothingTimeConstant = smoothingTimeConstant
            self.loudnessTimeConstant = loudnessTimeConstant
            self.relativeThreshold = relativeThreshold
            self.minimumPeak = minimumPeak
            self.weakRelativeThreshold = weakRelativeThreshold
            self.minimumWeakPeak = minimumWeakPeak
            self.startMergeWindow = startMergeWindow
            self.walkingMergeFraction = walkingMergeFraction
            self.walkingMergeWindow = walkingMergeWindow
            self.shortestStep = shortestStep
            self.longestStep = longestStep
            self.startRegularity = startRegularity
            self.stepsToStart = stepsToStart
            self.minimumMagnitudeShare = minimumMagnitudeShare
            self.stopAfter = stopAfter
        }
    }

    /// The most steps one update can report: a confirmed start, or a filled step and its successor.
    public static var maximumStepsPerUpdate: Int { 8 }
    /// The most secondary peaks remembered.
    @usableFromInline static var weakCapacity: Int { 8 }
    /// A step period is never halved below this, s (215 steps a minute, faster than ordinary
    /// running).
    @usableFromInline static var shortestHalvedPeriod: Double { 0.28 }

    /// The settings; they may be changed between updates.
    ///
    /// Each value outside its valid range (see ``Settings-swift.struct``) is moved into it when the
    /// settings are set, here and in ``init(settings:)``, never per sample: a value beyond a closed
    /// end of its range becomes that end (a negative threshold 0, a share above 1 1); one beyond or
    /// at an open end (0 or less where the range is > 0, +∞) and NaN become the default;
    /// `stepsToStart` is clamped to 2…8, and `longestStep` is raised to `shortestStep` if it is
    /// shorter. A change takes effect at the next update. Call
    /// ``Settings-swift.struct/validate()`` to refuse such settings instead.
    public var settings: Settings {
        didSet {
            settings = settings.clamped()
            stopAfter = Double(settings.stopAfter)
            cachedStep = -1  // the time constants may have changed: the next sample recomputes the gains
            refreshDeadlines()
        }
    }
    /// `settings.stopAfter` as a `Double`, for the per-sample tests.
    @usableFromInline var stopAfter: Double

    // The signal.
    @usableFromInline var lastTime = 0.0
    @usableFromInline var seeded = false
    @usableFromInline var cachedStep: Scalar = -1
    @usableFromInline var gains = SIMD3<Scalar>(repeating: 1)  // gravity, smoothing, loudness
    @usableFromInline var keeps = SIMD3<Scalar>.zero  // 1 − gains
    @usableFromInline var level: Scalar = 0
    @usableFromInline var smooth = SIMD2<Scalar>.zero
    @usableFromInline var meanSquare: Scalar = 0
    // The dynamic acceleration's power, and the part of it that changes |a|.
    @usableFromInline var gravity = SIMD3<Scalar>.zero
    @usableFromInline var dynamicPower: Scalar = 0
    @usableFromInline var magnitudePower: Scalar = 0
    // The last three smoothed values and their times (the middle one is tested for a peak).
    @usableFromInline var history = 0
    @usableFromInline var times = SIMD3<Double>.zero
    @usableFromInline var values = SIMD3<Scalar>.zero
    // The candidate step not yet decided.
    @usableFromInline var hasCandidate = false
    @usableFromInline var candidateTime = 0.0
    @usableFromInline var candidateHeight: Scalar = 0
    /// When the candidate is decided: its time plus the merge window.
    @usableFromInline var candidateDeadline = Double.infinity
    // The rhythm.
    @usableFromInline var walking = false
    @usableFromInline var period = 0.0
    @usableFromInline var lastStep = 0.0
    /// When the walk ends without another step: the last step plus `stopAfter` or three periods.
    @usableFromInline var walkDeadline = Double.infinity
    @usableFromInline var pending: [Double] = []
    @usableFromInline var weak: [Double] = []
    @usableFromInline var weakHeights: [Scalar] = []
    @usableFromInline var halvingVotes = 0
    @usableFromInline var reported: [Double] = []
    @usableFromInline var count = 0
    @usableFromInline var ignored = 0

    /// A detector with nothing seen yet. Settings outside their valid ranges are moved into them
    /// (see ``settings``).
    @inlinable
    public init(settings: Settings = Settings()) {
        self.settings = settings.clamped()
        stopAfter = Double(self.settings.stopAfter)
        pending.reserveCapacity(Self.maximumStepsPerUpdate)
        weak.reserveCapacity(Self.weakCapacity)
        weakHeights.reserveCapacity(Self.weakCapacity)
        reported.reserveCapacity(Self.maximumStepsPerUpdate)
    }

    /// Steps counted since the start (or the last ``reset()``).
    @inlinable public var stepCount: Int { count }
    /// Readings ignored so far: a NaN or infinite value or timestamp, or a timestamp not after
    /// the previous reading's.
    @inlinable public var ignoredReadings: Int { ignored }
    /// True while a walk is confirmed and has not ended.
    @inlinable public var isWalking: Bool { walking }
    /// The current step period, s: the tracked interval between steps while walking, nil otherwise.
    @inlinable public var stepPeriod: Double? { walking ? period : nil }
    /// The current cadence, steps per second (1 / ``stepPeriod``), nil when not walking.
    @inlinable public var cadence: Double? { walking ? 1 / period : nil }
    /// The times (s, oldest first) of the steps the last ``update(timestamp:acceleration:)`` or
    /// ``finish()`` reported; empty when it reported none. At most ``maximumStepsPerUpdate``.
    /// Read it before the next update: the detector reuses its storage (a copy kept by the caller
    /// makes the next update allocate).
    @inlinable public var newStepTimes: [Double] { reported }

    /// Feeds one accelerometer reading: specific force in m/s² in any axes (what the sensor
    /// reports, gravity included), taken at `timestamp` seconds. Returns the number of steps
    /// confirmed by it (their times in ``newStepTimes``); bad input as in the type's
    /// documentation.
    @inlinable @inline(__always) @discardableResult
    public mutating func update(timestamp t: Double, acceleration a: SIMD3<Scalar>) -> Int {
        if !reported.isEmpty { reported.removeAll(keepingCapacity: true) }
        guard t.isFinite, VectorCheck.isFinite(a) else {
            ignored += 1
            return 0
        }
        let magnitude = (a * a).sum().squareRoot()
        guard seeded else {
            seeded = true
            lastTime = t
            level = magnitude
            gravity = a
            push(t, 0)
            return 0
        }
        guard t > lastTime else {
            ignored += 1
            return 0
        }
        let gap = t - lastTime
        lastTime = t
        if gap > stopAfter {
            // Too long a pause to look for a peak across it: decide what was seen, end the walk.
            decideCandidate()
            endWalk()
            history = 0
        }
        let dt = Scalar(gap)
        // Timestamps computed as k / rate differ in their last bits from step to step: a step
        // within a millionth of the last one keeps its gains (an error below 10⁻⁶ of a gain).
        if abs(dt - cachedStep) > cachedStep * 1e-6 {
            cachedStep = dt
            gains = SIMD3(
                FirstOrder.gain(dt: dt, timeConstant: settings.gravityTimeConstant),
                FirstOrder.gain(dt: dt, timeConstant: settings.smoothingTimeConstant),
                FirstOrder.gain(dt: dt, timeConstant: settings.loudnessTimeConstant))
            keeps = 1 - gains
        }
        // Each low-pass as y·(1 − k) + x·k: the two products do not wait for each other, so the
        // state's chain from one sample to the next is one multiply and one add.
        level = level * keeps.x + magnitude * gains.x
        gravity = gravity * keeps.x + a * gains.x
        let x = magnitude - level
        let dynamic = a - gravity
        dynamicPower = dynamicPower * keeps.z + (dynamic * dynamic).sum() * gains.z
        magnitudePower = magnitudePower * keeps.z + x * x * gains.z
        smooth.x = smooth.x * keeps.y + x * gains.y
        smooth.y = smooth.y * keeps.y + smooth.x * gains.y
        let y = smooth.y
        meanSquare = meanSquare * keeps.z + y * y * gains.z

        if t > candidateDeadline { decideCandidate() }
        if t > walkDeadline {
            // A candidate found before the walk's deadline is a step of the walk: decided now.
            if hasCandidate && candidateTime <= walkDeadline { decideCandidate() }
            if t > walkDeadline { endWalk() }
        }
        push(t, y)
        if history == 3 { look() }
        return reported.count
    }

    /// Decides the candidate still waiting at the end of a recording; returns the steps it adds
    /// (their times in ``newStepTimes``). Steps of a walk not yet confirmed are not counted.
    @discardableResult
    public mutating func finish() -> Int {
        if !reported.isEmpty { reported.removeAll(keepingCapacity: true) }
        decideCandidate()
        return reported.count
    }

    /// Forgets everything but the settings (the count starts again at 0).
    public mutating func reset() {
        self = StepDetector(settings: settings)
    }

    /// Candidates closer than this (s) to the kept one are merged with it.
    @inlinable var mergeWindow: Double {
        walking
            ? Swift.min(Double(settings.walkingMergeWindow), Double(settings.walkingMergeFraction) * period)
            : Double(settings.startMergeWindow)
    }

    /// Sets the deadlines from the candidate, the last step, the period and whether walking (after
    /// any of them changes).
    @inlinable
    mutating func refreshDeadlines() {
        candidateDeadline = hasCandidate ? candidateTime + mergeWindow : .infinity
        walkDeadline = walking ? lastStep + Swift.max(stopAfter, 3 * period) : .infinity
    }

    @inlinable @inline(__always)
    mutating func push(_ t: Double, _ y: Scalar) {
        times = SIMD3(times.y, times.z, t)
        values = SIMD3(values.y, values.z, y)
        history = Swift.min(history + 1, 3)
    }

    /// Tests the middle of the last three smoothed values for a peak.
    @inlinable @inline(__always)
    mutating func look() {
        let y1 = values.y
        guard y1 > values.x, y1 >= values.z else { return }
        let rms = meanSquare.squareRoot()
        let strong = y1 > Swift.max(settings.minimumPeak, settings.relativeThreshold * rms)
        if strong {
            if !hasCandidate || y1 > candidateHeight {
                if hasCandidate && walking { remember(candidateTime, candidateHeight) }
                hasCandidate = true
                candidateTime = peakTime()
                candidateHeight = y1
                candidateDeadline = candidateTime + mergeWindow
            } else if walking {
                remember(peakTime(), y1)
            }
        } else if walking && y1 > Swift.max(settings.minimumWeakPeak, settings.weakRelativeThreshold * rms) {
            remember(peakTime(), y1)
        }
    }

    /// Keeps a secondary peak (weaker than a candidate, or merged into one) while walking: the
    /// evidence for a step missed in a gap, or for a period that is really a stride.
    @inlinable
    mutating func remember(_ t: Double, _ height: Scalar) {
        if weak.count == Self.weakCapacity {
            weak.removeFirst()
            weakHeights.removeFirst()
        }
        weak.append(t)
        weakHeights.append(height)
    }

    /// The largest secondary peak within `from…to` s, as an index into `weak`; -1 when none.
    @inlinable
    func largestSecondary(from: Double, to: Double) -> Int {
        var best = -1
        for k in weak.indices where weak[k] >= from && weak[k] <= to {
            if best < 0 || weakHeights[k] > weakHeights[best] { best = k }
        }
        return best
    }

    /// Forgets the secondary peaks up to `t`.
    @inlinable
    mutating func forgetSecondary(through t: Double) {
        var kept = 0
        for k in weak.indices where weak[k] > t {
            weak[kept] = weak[k]
            weakHeights[kept] = weakHeights[k]
            kept += 1
        }
        weak.removeLast(weak.count - kept)
        weakHeights.removeLast(weakHeights.count - kept)
    }

    /// The time of the peak at the middle sample, refined by the parabola through the three
    /// samples (uneven spacing allowed). Steps are reported at this time less the smoothing's
    /// delay (``report(_:)``); the rhythm works on the peaks' own times.
    @inlinable
    func peakTime() -> Double {
        let d0 = times.x - times.y
        let d2 = times.z - times.y
        let e0 = Double(values.x - values.y)
        let e2 = Double(values.z - values.y)
        var offset = 0.0
        let denominator = d0 * d2 * (d0 - d2)
        if denominator != 0 {
            let q = (e0 * d2 - e2 * d0) / denominator
            let b = (e2 * d0 * d0 - e0 * d2 * d2) / denominator
            if q < 0 {
                let u = -b / (2 * q)
                if u >= d0 && u <= d2 { offset = u }
            }
        }
        return times.y + offset
    }

    @inlinable
    mutating func endWalk() {
        walking = false
        walkDeadline = .infinity
        if hasCandidate { candidateDeadline = candidateTime + mergeWindow }
        pending.removeAll(keepingCapacity: true)
        weak.removeAll(keepingCapacity: true)
        weakHeights.removeAll(keepingCapacity: true)
    }

    @inlinable
    mutating func report(_ t: Double) {
        reported.append(t - 2 * Double(settings.smoothingTimeConstant))
        count += 1
    }

    /// Decides the waiting candidate: a step of the walk, or a step towards confirming one.
    @inlinable
    mutating func decideCandidate() {
        guard hasCandidate else { return }
        hasCandidate = false
        candidateDeadline = .infinity
        defer { refreshDeadlines() }
        let t = candidateTime
        if walking {
            var gap = t - lastStep
            if gap > 0.6 * period && gap < 1.6 * period {
                // A period that is really a stride: a secondary peak in the middle of every
                // interval, at least 0.4 times the step's height, four times running.
                let best = largestSecondary(from: lastStep + 0.4 * gap, to: lastStep + 0.6 * gap)
                halvingVotes = best >= 0 && weakHeights[best] >= 0.4 * candidateHeight ? halvingVotes + 1 : 0
                if halvingVotes >= 4 && period / 2 >= Self.shortestHalvedPeriod {
                    halvingVotes = 0
                    period /= 2
                    report(weak[best])
                    gap /= 2
                }
            }
            if gap > 1.7 * period && gap < 2.3 * period {
                // A step missed in the middle? Take the largest secondary peak near it.
                let best = largestSecondary(from: lastStep + 0.3 * gap, to: lastStep + 0.7 * gap)
                if best >= 0 {
                    report(weak[best])
                    gap /= 2
                }
            }
            forgetSecondary(through: t)
            report(t)
            lastStep = t
            if gap > 0.6 * period && gap < 1.6 * period { period += 0.2 * (gap - period) }
            return
        }
        if let last = pending.last, t - last > stopAfter { pending.removeAll(keepingCapacity: true) }
        pending.append(t)
        let needed = settings.stepsToStart
        guard pending.count >= needed else { return }
        while pending.count > needed { pending.removeFirst() }  // stepsToStart lowered meanwhile
        var shortest = Double.infinity
        var longest = 0.0
        for k in 1..<pending.count {
            let interval = pending[k] - pending[k - 1]
            shortest = Swift.min(shortest, interval)
            longest = Swift.max(longest, interval)
        }
        guard shortest >= Double(settings.shortestStep), longest <= Double(settings.longestStep),
            longest <= Double(settings.startRegularity) * shortest,
            magnitudePower >= settings.minimumMagnitudeShare * dynamicPower
        else {
            pending.removeFirst()
            return
        }
        for step in pending { report(step) }
        period = (t - pending[0]) / Double(pending.count - 1)
        lastStep = t
        walking = true
        halvingVotes = 0
        pending.removeAll(keepingCapacity: true)
        weak.removeAll(keepingCapacity: true)
        weakHeights.removeAll(keepingCapacity: true)
    }
}

extension StepDetector.Settings: RangedSettings {
    /// The valid range of every floating-point setting: the one table that ``validate()``, the
    /// clamp of ``StepDetector/settings`` and the tests read (`stepsToStart` is checked beside it).
    static var rules: [SettingRule<Self>] {
        [
            SettingRule("gravityTimeConstant", { $0.gravityTimeConstant }, { $0.gravityTimeConstant = $1 }, .positive),
            SettingRule("smoothingTimeConstant", { $0.smoothingTimeConstant }, { $0.smoothingTimeConstant = $1 }, .nonNegative),
            SettingRule("loudnessTimeConstant", { $0.loudnessTimeConstant }, { $0.loudnessTimeConstant = $1 }, .positive),
            SettingRule("relativeThreshold", { $0.relativeThreshold }, { $0.relativeThreshold = $1 }, .nonNegative),
            SettingRule("minimumPeak", { $0.minimumPeak }, { $0.minimumPeak = $1 }, .nonNegative),
            SettingRule("weakRelativeThreshold", { $0.weakRelativeThreshold }, { $0.weakRelativeThreshold = $1 }, .nonNegative),
            SettingRule("minimumWeakPeak", { $0.minimumWeakPeak }, { $0.minimumWeakPeak = $1 }, .nonNegative),
            SettingRule("startMergeWindow", { $0.startMergeWindow }, { $0.startMergeWindow = $1 }, .nonNegative),
            SettingRule("walkingMergeFraction", { $0.walkingMergeFraction }, { $0.walkingMergeFraction = $1 }, .nonNegative),
            SettingRule("walkingMergeWindow", { $0.walkingMergeWindow }, { $0.walkingMergeWindow = $1 }, .nonNegative),
            SettingRule("shortestStep", { $0.shortestStep }, { $0.shortestStep = $1 }, .positive),
            SettingRule("longestStep", { $0.longestStep }, { $0.longestStep = $1 }, .positive),
            SettingRule("startRegularity", { $0.startRegularity }, { $0.startRegularity = $1 }, .atLeast(1)),
            SettingRule("minimumMagnitudeShare", { $0.minimumMagnitudeShare }, { $0.minimumMagnitudeShare = $1 }, .closed(0, 1)),
            SettingRule("stopAfter", { $0.stopAfter }, { $0.stopAfter = $1 }, .positive),
        ]
    }

    static var defaults: Self { Self() }

    /// The valid range of ``stepsToStart``.
    public static var stepsToStartRange: ClosedRange<Int> { 2...StepDetector.maximumStepsPerUpdate }

    /// Checks every numeric setting against its valid range (stated on each property), and that
    /// ``longestStep`` is not shorter than ``shortestStep``.
    ///
    /// - Throws: ``SettingsError/outOfRange(setting:value:range:)`` for the first setting outside
    ///   its range.
    public func validate() throws(SettingsError) {
        if let error = rangeViolation() { throw error }
        if !Self.stepsToStartRange.contains(stepsToStart) {
            throw .outOfRange(setting: "stepsToStart", value: Double(stepsToStart), range: "2…8")
        }
        if longestStep < shortestStep {
            throw .outOfRange(setting: "longestStep", value: Double(longestStep), range: "≥ shortestStep")
        }
    }

    /// These settings with every value moved into its range, as ``StepDetector/settings`` documents.
    @usableFromInline
    func clamped() -> Self {
        var result = clampedToRanges()
        result.stepsToStart = Swift.min(Swift.max(result.stepsToStart, Self.stepsToStartRange.lowerBound), Self.stepsToStartRange.upperBound)
        if result.longestStep < result.shortestStep { result.longestStep = result.shortestStep }
        return result
    }
}

#if !hasFeature(Embedded)
extension StepDetector.Settings: Codable {}
#endif

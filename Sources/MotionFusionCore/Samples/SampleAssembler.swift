/// Merges the readings of sensors that run at different rates, or on different devices, into the
/// samples a filter takes: one ``SensorSample`` per gyroscope reading, with the latest
/// accelerometer and magnetometer readings that are not too old.
///
/// Live capture (``add(_:)-(SensorReading)`` as readings arrive, ``next()`` for what is ready) and
/// recordings (readings in file order, then ``finish()``) use the same rules, so that a recording
/// replayed gives what the live path gave.
///
/// ### Rules
///
/// - **The gyroscope drives.** Every gyroscope reading becomes one sample at its timestamp, in the
///   order the readings arrived; readings of other sensors never make a sample of their own.
/// - **Latest, not too old.** The sample carries, for the accelerometer and the magnetometer, the
///   newest reading whose timestamp is at or before the sample's (a reading taken in the same scan
///   counts). A reading older than ``Rules-swift.struct/maximumAccelerometerAge`` or
///   ``Rules-swift.struct/maximumMagnetometerAge`` is dropped and the sample goes without it; the
///   same reading serves every sample within its age (a zero-order hold), never longer. A sensor
///   that stops is therefore absent from the samples once its last reading is that old; one that
///   never reports (no magnetometer: 6D) is always absent.
///   ``SensorSample/accelerometerTimestamp`` and ``SensorSample/magnetometerTimestamp`` say when
///   the readings used were taken.
/// - **Waiting for a reading that is due.** Live readings of several devices do not arrive in
///   timestamp order. A gyroscope reading is held back while a reading of another sensor is due
///   at or before its time: when that sensor reported before, at a rate the assembler has learned
///   (the average interval of its readings), and the gyroscope's time is at least 95 % of an
///   interval after that sensor's last reading (its next one, taken in the same scan or just
///   before, may still be on its way). Before its interval is known — no reading yet of a sensor
///   the assembler was told to expect (``init(rules:expecting:)``), or a single one — a gyroscope
///   reading waits until a reading at or after its time has arrived. The wait ends when the
///   reading arrives, or when gyroscope readings
///   ``Rules-swift.struct/maximumWait`` seconds newer have arrived: the sensor is then taken as
///   stalled and not waited for again until it reports. A sensor whose next reading is not due
///   costs no wait, so a 20 Hz magnetometer holds a 1 kHz gyroscope back only around its own
///   readings, for as long as its reading takes to arrive. A reading that arrives after a sample
///   it belonged to was made is counted as late (``Statistics-swift.struct/lateReadings``) and
///   used from then on.
/// - **Clocks that jump.** A gyroscope reading earlier than the previous one, or later by more
///   than ``Rules-swift.struct/maximumGap``, starts a new timeline: the samples still held are
///   made at once, and readings of the other sensors later than the new time (the old timeline)
///   are discarded. A reading of another sensor earlier than that sensor's previous one discards
///   that sensor's readings later than it. Jumps are counted; the ``SampleClock`` of the filter
///   then handles the timestamps as it documents.
/// - **Bad timestamps.** A reading with a NaN or infinite timestamp is discarded and counted
///   (``Statistics-swift.struct/invalidReadings``). Values are passed on as they are; the filter's
///   stream deals with NaN and saturated values.
///
/// Memory is bounded: at most ``heldSamples`` gyroscope readings wait (beyond
/// that the oldest is made without waiting, ``Statistics-swift.struct/overflows``) and
/// ``heldReadings`` readings of each other sensor are kept: when a sensor's readings fill that,
/// the gyroscope readings waiting are made first (they may need the oldest), and only a reading
/// still ahead of every gyroscope reading is dropped (``Statistics-swift.struct/discardedReadings``).
/// Made samples are kept until ``next()`` takes them, up to ``heldSamples``; a caller that adds
/// more without taking loses the oldest (``Statistics-swift.struct/droppedSamples``): take
/// samples after each reading or scan added. The queues' storage starts small and doubles only
/// when more readings wait than ever before (at most 8 allocations per queue in an assembler's life, none once
/// it has held that many): adding readings otherwise never allocates.
public struct SampleAssembler: Sendable {
    /// The limits the rules use, in seconds.
    public struct Rules: Sendable, Hashable {
        /// The oldest an accelerometer reading may be, relative to the sample, to be used. Default
        /// 0.1 s (ten periods at 100 Hz). Valid range: > 0, +∞ allowed (a reading is then kept
        /// until a newer one arrives).
        public var maximumAccelerometerAge: Double
        /// The oldest a magnetometer reading may be to be used. Default 0.5 s (ten periods at
        /// 20 Hz). Valid range: > 0, +∞ allowed.
        public var maximumMagnetometerAge: Double
        /// How long, in seconds of gyroscope time, a gyroscope reading waits for a due reading of
        /// another sensor. Default 0.05 s. 0: never wait (lowest latency; a reading that arrives
        /// late is used by the next samples). Valid range: ≥ 0, finite.
        public var maximumWait: Double
        /// A gyroscope step longer than this starts a new timeline (see the rules). Default 1 s,
        /// as ``SampleClock/maximumGap``. Valid range: > 0, +∞ allowed.
        public var maximumGap: Double

        /// Rules; a value outside its valid range is replaced by its default.
        public init(
            maximumAccelerometerAge: Double = 0.1, maximumMagnetometerAge: Double = 0.5, maximumWait: Double = 0.05,
            maximumGap: Double = 1
        ) {
            self.maximumAccelerometerAge = maximumAccelerometerAge > 0 ? maximumAccelerometerAge : 0.1
            self.maximumMagnetometerAge = maximumMagnetometerAge > 0 ? maximumMagnetometerAge : 0.5
            self.maximumWait = maximumWait >= 0 && maximumWait.isFinite ? maximumWait : 0.05
            self.maximumGap = maximumGap > 0 ? maximumGap : 1
        }

        /// The age limit of `sensor`'s readings.
        func maximumAge(_ sensor: SensorReading.Sensor) -> Double {
            sensor == .magnetometer ? maximumMagnetometerAge : maximumAccelerometerAge
        }
    }

    /// What the assembler did so far.
    public struct Statistics: Sendable, Hashable {
        /// Samples made.
        public var samples = 0
        /// Accelerometer readings dropped because they had grown too old for the sample being
        /// made (that sample and the next ones go without, until a newer reading).
        public var staleAccelerometer = 0
        /// Magnetometer readings dropped because they had grown too old (as ``staleAccelerometer``).
        public var staleMagnetometer = 0
        /// Readings that arrived after a sample at or after their time had been made.
        public var lateReadings = 0
        /// Waits for a due reading that ended because ``Rules-swift.struct/maximumWait`` passed.
        public var timedOutWaits = 0
        /// Timelines started: clocks that went backwards or jumped forward (see the rules).
        public var clockJumps = 0
        /// Readings discarded for a NaN or infinite timestamp.
        public var invalidReadings = 0
        /// Readings of other sensors discarded by a clock jump, or because too many were held.
        public var discardedReadings = 0
        /// Gyroscope readings made into samples without waiting because too many were held.
        public var overflows = 0
        /// Samples made and dropped because more than ``SampleAssembler/heldSamples`` were
        /// waiting to be taken with ``SampleAssembler/next()``.
        public var droppedSamples = 0

        public init() {}
    }

    /// The most gyroscope readings held back at once.
    public static let heldSamples = 4096
    /// The most readings of each other sensor kept.
    public static let heldReadings = 256

    /// The fraction of a sensor's interval after its last reading from which its next reading is
    /// due (jitter of the sensor's timestamps up to 5 % of the interval is tolerated).
    static let dueFraction = 0.95

    /// The readings of one non-driving sensor.
    struct Track: Sendable {
        var readings = BoundedQueue<SensorReading>(capacity: SampleAssembler.heldReadings)
        /// The timestamp of the newest reading received.
        var newest: Double?
        /// The average interval between readings (a running mean of the intervals up to the gap).
        var period: Double?
        /// Set when a wait for this sensor timed out; cleared by its next reading.
        var stalled = false
        /// Whether readings are expected before the first has arrived.
        var expected = false
    }

    /// The rules in force.
    public let rules: Rules
    /// What happened so far.
    public private(set) var statistics = Statistics()

    var pending = BoundedQueue<SensorReading>(capacity: SampleAssembler.heldSamples)
    var ready = BoundedQueue<SensorSample>(capacity: SampleAssembler.heldSamples)
    var accelerometer = Track()
    var magnetometer = Track()
    /// The newest gyroscope timestamp received.
    var newestGyroscope: Double?
    /// The timestamp of the newest sample made.
    var newestSample: Double?
    var finished = false

    /// An assembler with the given rules.
    ///
    /// - Parameter sensors: the sensors whose readings will come (the sources' ``SensorSet``). A
    ///   gyroscope reading waits for the first reading of each one listed (see the rules), so that
    ///   live samples from the start are those of a recording; one not listed is used from its
    ///   first reading on.
    public init(rules: Rules = Rules(), expecting sensors: SensorSet = []) {
        self.rules = rules
        accelerometer.expected = sensors.contains(.accelerometer)
        magnetometer.expected = sensors.contains(.magnetometer)
    }

    /// True after ``finish()``.
    public var isFinished: Bool { finished }

    /// Takes one reading. After ``finish()`` readings are ignored.
    public mutating func add(_ reading: SensorReading) {
        guard !finished else { return }
        guard reading.timestamp.isFinite else {
            statistics.invalidReadings += 1
            return
        }
        switch reading.sensor {
        case .gyroscope: addGyroscope(reading)
        case .accelerometer:
            while accelerometer.readings.isFull, let held = pending.popFirst() { makeReady(held) }
            Self.add(reading, to: &accelerometer, after: newestSample, rules: rules, &statistics)
        case .magnetometer:
            while magnetometer.readings.isFull, let held = pending.popFirst() { makeReady(held) }
            Self.add(reading, to: &magnetometer, after: newestSample, rules: rules, &statistics)
        }
    }

    /// Takes the readings of one scan (a sample of a device that samples several sensors
    /// together): the accelerometer and magnetometer first, then the gyroscope, all at the
    /// sample's timestamp (or at ``SensorSample/accelerometerTimestamp`` and
    /// ``SensorSample/magnetometerTimestamp`` where set).
    public mutating func add(_ sample: SensorSample) {
        if let a = sample.accelerometer {
            add(SensorReading(sensor: .accelerometer, timestamp: sample.accelerometerTimestamp ?? sample.timestamp, value: a))
        }
        if let m = sample.magnetometer {
            add(SensorReading(sensor: .magnetometer, timestamp: sample.magnetometerTimestamp ?? sample.timestamp, value: m))
        }
        if let g = sample.gyroscope {
            add(SensorReading(sensor: .gyroscope, timestamp: sample.timestamp, value: g))
        }
    }

    /// The end of the input: every gyroscope reading held is made into a sample without waiting.
    public mutating func finish() {
        finished = true
    }

    /// The next sample that is ready, or nil when none is (more readings are needed, or, after
    /// ``finish()``, none is left).
    public mutating func next() -> SensorSample? {
        if let sample = ready.popFirst() { return sample }
        guard let gyroscope = pending.first else { return nil }
        if !finished {
            let t = gyroscope.timestamp
            guard Self.mayMake(at: t, newestGyroscope: newestGyroscope, tracking: &accelerometer, rules: rules, &statistics),
                Self.mayMake(at: t, newestGyroscope: newestGyroscope, tracking: &magnetometer, rules: rules, &statistics)
            else { return nil }
        }
        pending.popFirst()
        return make(gyroscope)
    }

    /// The number of gyroscope readings held back (waiting, or made and not yet taken).
    public var heldCount: Int { pending.count + ready.count }

    // MARK: - Private

    private mutating func addGyroscope(_ reading: SensorReading) {
        let t = reading.timestamp
        if let last = newestGyroscope, t < last || t - last > rules.maximumGap {
            statistics.clockJumps += 1
            // The samples of the old timeline are made now, with what there is.
            while let held = pending.popFirst() {
                let sample = make(held)
                if ready.push(sample) != nil { statistics.droppedSamples += 1 }
            }
            if t < last {
                Self.discard(after: t, in: &accelerometer, &statistics)
                Self.discard(after: t, in: &magnetometer, &statistics)
            }
        }
        newestGyroscope = t
        if pending.isFull, let oldest = pending.popFirst() { makeReady(oldest) }
        pending.push(reading)
    }

    private static func add(
        _ reading: SensorReading, to track: inout Track, after newestSample: Double?, rules: Rules,
        _ statistics: inout Statistics
    ) {
        let t = reading.timestamp
        if let newest = track.newest {
            if t < newest {
                statistics.clockJumps += 1
                discard(after: t, in: &track, &statistics)
            } else if t - newest <= rules.maximumGap, t > newest {
                let interval = t - newest
                track.period = track.period.map { 0.9 * $0 + 0.1 * interval } ?? interval
            }
        }
        if let made = newestSample, t <= made, made - t <= rules.maximumGap {
            statistics.lateReadings += 1
        }
        if let last = track.readings.last, last.timestamp == t { track.readings.popLast() }
        if track.readings.push(reading) != nil { statistics.discardedReadings += 1 }
        track.newest = t
        track.stalled = false
    }

    /// Makes a held gyroscope reading into a sample without waiting (too much is held).
    private mutating func makeReady(_ gyroscope: SensorReading) {
        statistics.overflows += 1
        if ready.push(make(gyroscope)) != nil { statistics.droppedSamples += 1 }
    }

    /// Drops `track`'s readings later than `t`.
    private static func discard(after t: Double, in track: inout Track, _ statistics: inout Statistics) {
        while let last = track.readings.last, last.timestamp > t {
            track.readings.popLast()
            statistics.discardedReadings += 1
        }
        track.newest = track.readings.last?.timestamp
    }

    /// Whether a sample at `t` may be made as far as `track` is concerned: no reading of it is due
    /// at or before `t`, or the wait for it has run out (the sensor is then marked stalled).
    private static func mayMake(
        at t: Double, newestGyroscope: Double?, tracking track: inout Track, rules: Rules, _ statistics: inout Statistics
    ) -> Bool {
        guard !track.stalled else { return true }
        let due: Bool
        switch (track.newest, track.period) {
        case (let newest?, let period?): due = newest < t && t >= newest + Self.dueFraction * period
        case (let newest?, nil): due = newest < t
        case (nil, _): due = track.expected
        }
        guard due else { return true }
        if let latest = newestGyroscope, latest - t >= rules.maximumWait {
            statistics.timedOutWaits += 1
            track.stalled = true
            return true
        }
        return false
    }

    /// The sample of one gyroscope reading.
    private mutating func make(_ gyroscope: SensorReading) -> SensorSample {
        let t = gyroscope.timestamp
        let a = Self.latest(at: t, in: &accelerometer, maximumAge: rules.maximumAccelerometerAge)
        let m = Self.latest(at: t, in: &magnetometer, maximumAge: rules.maximumMagnetometerAge)
        if a.stale { statistics.staleAccelerometer += 1 }
        if m.stale { statistics.staleMagnetometer += 1 }
        statistics.samples += 1
        newestSample = t
        return SensorSample(
            timestamp: t, gyroscope: gyroscope.value, accelerometer: a.reading?.value, magnetometer: m.reading?.value,
            accelerometerTimestamp: a.reading?.timestamp, magnetometerTimestamp: m.reading?.timestamp)
    }

    /// The newest reading of `track` at or before `t` and no older than `maximumAge`; readings it
    /// supersedes, and one too old, are dropped.
    private static func latest(at t: Double, in track: inout Track, maximumAge: Double) -> (reading: SensorReading?, stale: Bool) {
        while track.readings.count >= 2, track.readings[1].timestamp <= t { track.readings.popFirst() }
        guard let candidate = track.readings.first, candidate.timestamp <= t else { return (nil, false) }
        if t - candidate.timestamp > maximumAge {
            track.readings.popFirst()
            return (nil, true)
        }
        return (candidate, false)
    }
}

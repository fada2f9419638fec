import MotionFusionCore
import RealModule

/// Checks the units a recording is read in against what its data say, so that a file in other
/// units than the reader assumes is refused instead of fused into a wrong answer.
///
/// Feed it every reading after conversion to the library's units (s, rad/s, m/s², µT), in file
/// order, then ask ``mismatch(final:)``. Each test looks for a unit that the data fit and the
/// assumed one does not; data that fit no accepted unit are refused only where the test is
/// unambiguous (the accelerometer, the magnetometer and a gyroscope beyond any MEMS range):
///
/// - **Time**: the median interval of the first ``sampleCount`` timestamps must lie between
///   0.1 ms and 0.25 s (10 kHz to 4 Hz). Outside it, a time unit that puts it between 0.1 ms and
///   0.1 s (a factor of 1000 wide, so at most one does) is what the timestamps look like.
/// - **Accelerometer**: the median magnitude of the first ``sampleCount`` readings is gravity's
///   while a device is carried, moved or held (specific force averages to 1 g): it must lie
///   between 4 and 25 m/s². Outside it, the other accepted unit that puts it there is named, else
///   no unit is.
/// - **Magnetometer**: the median magnitude of the first ``sampleCount`` readings must lie between
///   5 and 4000 µT (Earth's field is 22–67 µT; a phone's uncorrected hard iron adds hundreds of
///   µT, 3,400 on one of WeAllWalk's iPhones; a field of 40 µT or more read as gauss lands above
///   4000). Outside it, the accepted unit that puts it between 15 and 150 µT is named.
/// - **Gyroscope**, two tests. (1) More than 1 % of the first ``sampleCount`` readings beyond
///   70 rad/s (4000 °/s, past any MEMS gyroscope's range) means the values are not rad/s; deg/s
///   is named when it brings them in range. (2) The gyroscope against the accelerometer: between
///   two still moments (0.1 s blocks whose specific force varies by less than 3 % of its
///   magnitude; a block 2–10° from the previous one does not replace it) at most 1 s apart whose
///   gravity directions differ by 10° or more, the gyroscope
///   integrated from one to the other must turn the first direction into the second. The test
///   integrates the readings as read, 180/π times smaller (they were deg/s) and 180/π times
///   larger (they were rad/s read as deg/s); after ``pairCount`` such pairs, when the median
///   miss of the units as read exceeds 10° and another scale's is under a third of it, the
///   gyroscope looks like that unit. A constant bias of a few °/s moves the miss of a pair at most
///   1 s long by a few degrees, and a tilt of at least 10° between the pair is required, so a
///   raw gyroscope in the right unit is never taken for a wrong one.
///
/// A test runs once, when its data are complete or at the end (``mismatch(final:)`` with
/// `final` true), and not at all on fewer than ``minimumCount`` readings. A recording that holds
/// too little motion for the gyroscope test passes it.
public struct RecordingUnitCheck: Sendable {
    /// A unit the data contradict.
    public struct Mismatch: Sendable, Equatable, CustomStringConvertible {
        /// The quantity whose unit is wrong.
        public var quantity: MeasuredQuantity
        /// The unit the values are read in (its header spelling).
        public var readAs: String
        /// The accepted unit the values look like, or nil when none fits.
        public var looksLike: String?
        /// What was measured, in the library's units as read.
        public var evidence: String

        /// What was measured and which unit the values look like.
        public var description: String {
            evidence + ": " + (looksLike.map { "the values look like \($0), " } ?? "no accepted unit fits, ")
                + "but are read as \(readAs)"
        }
    }

    /// How many readings of each sensor the magnitude and interval tests use.
    public static let sampleCount = 1000
    /// Below this many readings a test does not run.
    public static let minimumCount = 50
    /// How many still pairs decide the gyroscope test.
    public static let pairCount = 8

    @usableFromInline let time: TimeUnit
    @usableFromInline let gyroscope: GyroscopeUnit
    @usableFromInline let accelerometer: AccelerometerUnit
    @usableFromInline let magnetometer: MagnetometerUnit?
    @usableFromInline var intervals: [Double] = []
    @usableFromInline var lastTime: Double?
    @usableFromInline var accelerometerNorms: [Double] = []
    @usableFromInline var magnetometerNorms: [Double] = []
    @usableFromInline var gyroscopeCount = 0
    @usableFromInline var gyroscopeBeyondRange = 0
    /// The tests that have run, one bit per ``MeasuredQuantity`` (a set of bits: checked on every
    /// row, where a `Set` would hash).
    @usableFromInline var done: UInt8 = 0

    /// Whether the test of `quantity` has run.
    func isDone(_ quantity: MeasuredQuantity) -> Bool { done & Self.bit(quantity) != 0 }

    static func bit(_ quantity: MeasuredQuantity) -> UInt8 {
        switch quantity {
        case .time: 1
        case .gyroscope: 2
        case .accelerometer: 4
        case .magnetometer: 8
        }
    }
    @usableFromInline var pairsDone = false
    // The gyroscope integrated at three scales (as read, ÷ 180/π, × 180/π), sensor → a fixed frame.
    // Three quaternions inline: as an array, the copy kept for a block's middle made the next
    // write copy the array, an allocation every block (0.086 a row at 100 Hz, `scripts/measure_io`).
    @usableFromInline var attitudes = ScaleAttitudes()
    @usableFromInline var lastGyroscopeTime: Double?
    @usableFromInline var block = Block()
    @usableFromInline var lastStill: (direction: SIMD3<Double>, attitudes: ScaleAttitudes, time: Double)?
    @usableFromInline var misses: [[Double]] = [[], [], []]

    @usableFromInline struct Block: Sendable {
        var count = 0
        var start = 0.0
        var sum = SIMD3<Double>.zero
        var squares = SIMD3<Double>.zero
        /// The gyroscope's attitudes halfway through the block, where its mean direction belongs.
        var middle: ScaleAttitudes?
    }

    /// The attitudes of the gyroscope integrated at the three scales, by index 0…2, stored inline.
    @usableFromInline struct ScaleAttitudes: Sendable {
        var first = SIMD4<Double>(1, 0, 0, 0)
        var second = SIMD4<Double>(1, 0, 0, 0)
        var third = SIMD4<Double>(1, 0, 0, 0)

        subscript(k: Int) -> SIMD4<Double> {
            get { k == 0 ? first : k == 1 ? second : third }
            set {
                switch k {
                case 0: first = newValue
                case 1: second = newValue
                default: third = newValue
                }
            }
        }
    }

    /// The scales of the gyroscope test, relative to the units as read.
    static let scales = [1, Double.pi / 180, 180 / Double.pi]

    /// A check of data read in these units (`magnetometer` nil when it is not read).
    public init(
        time: TimeUnit, gyroscope: GyroscopeUnit, accelerometer: AccelerometerUnit, magnetometer: MagnetometerUnit?
    ) {
        self.time = time
        self.gyroscope = gyroscope
        self.accelerometer = accelerometer
        self.magnetometer = magnetometer
    }

    /// A timestamp, s.
    public mutating func add(timestamp: Double) {
        guard timestamp.isFinite else { return }
        if let lastTime, timestamp > lastTime, intervals.count < Self.sampleCount {
            intervals.append(timestamp - lastTime)
        }
        lastTime = timestamp
    }

    /// A gyroscope reading, rad/s, taken at `timestamp` s.
    public mutating func add(gyroscope rate: SIMD3<Double>, at timestamp: Double) {
        guard VectorCheck.isFinite(rate), timestamp.isFinite else { return }
        if gyroscopeCount < Self.sampleCount {
            gyroscopeCount += 1
            if (rate * rate).sum() > 70 * 70 { gyroscopeBeyondRange += 1 }
        }
        defer { lastGyroscopeTime = timestamp }
        guard !pairsDone, let last = lastGyroscopeTime else { return }
        let dt = timestamp - last
        guard dt > 0, dt <= 0.5 else {
            lastStill = nil
            return
        }
        for k in 0..<3 {
            let half = rate * (Self.scales[k] * dt / 2)
            var q = attitudes[k]
            // q ⊗ (1, half), first order, renormalized.
            let v = SIMD3(q.y, q.z, q.w)
            let w = q.x - (v * half).sum()
            let xyz = half * q.x + v + SIMD3(
                v.y * half.z - v.z * half.y, v.z * half.x - v.x * half.z, v.x * half.y - v.y * half.x)
            q = SIMD4(w, xyz.x, xyz.y, xyz.z)
            attitudes[k] = q / (q * q).sum().squareRoot()
        }
    }

    /// An accelerometer reading, m/s² (specific force), taken at `timestamp` s.
    public mutating func add(accelerometer force: SIMD3<Double>, at timestamp: Double) {
        guard VectorCheck.isFinite(force), timestamp.isFinite else { return }
        if accelerometerNorms.count < Self.sampleCount {
            accelerometerNorms.append((force * force).sum().squareRoot())
        }
        guard !pairsDone else { return }
        if block.count == 0 { block.start = timestamp }
        block.count += 1
        block.sum += force
        block.squares += force * force
        if block.middle == nil, timestamp - block.start >= 0.05 { block.middle = attitudes }
        guard block.count >= 3, timestamp - block.start >= 0.1 else { return }
        let n = Double(block.count)
        let mean = block.sum / n
        let variance = block.squares / n - mean * mean
        let middle = block.middle ?? attitudes
        block = Block()
        let norm = (mean * mean).sum().squareRoot()
        guard norm > 0, variance.max() < (0.03 * norm) * (0.03 * norm) else { return }
        let direction = mean / norm
        // The anchor of a pair: the latest still block, kept while the direction drifts by 2–10°
        // (a slow turn) so that a pair can form, for up to 1 s.
        guard let previous = lastStill, timestamp - previous.time <= 1 else {
            lastStill = (direction, middle, timestamp)
            return
        }
        let tilt = Self.angle(previous.direction, direction)
        if tilt >= 10 * .pi / 180 {
            for k in 0..<3 {
                let predicted = Self.rotate(previous.direction, from: previous.attitudes[k], to: middle[k])
                misses[k].append(Self.angle(predicted, direction))
            }
        }
        if tilt < 2 * .pi / 180 || tilt >= 10 * .pi / 180 { lastStill = (direction, middle, timestamp) }
    }

    /// A magnetometer reading, µT.
    public mutating func add(magnetometer field: SIMD3<Double>) {
        guard VectorCheck.isFinite(field), magnetometerNorms.count < Self.sampleCount else { return }
        magnetometerNorms.append((field * field).sum().squareRoot())
    }

    /// The first unit the data contradict, or nil. Each test runs once: when its data are complete,
    /// or with `final` true (the end of the recording) on what there is.
    public mutating func mismatch(final: Bool = false) -> Mismatch? {
        func ready(_ count: Int, _ full: Bool) -> Bool { full || (final && count >= Self.minimumCount) }
        if !isDone(.time), ready(intervals.count, intervals.count >= Self.sampleCount) {
            done |= Self.bit(.time)
            if let m = timeMismatch() { return m }
        }
        if !isDone(.accelerometer),
            ready(accelerometerNorms.count, accelerometerNorms.count >= Self.sampleCount)
        {
            done |= Self.bit(.accelerometer)
            if let m = accelerometerMismatch() { return m }
        }
        if magnetometer != nil, !isDone(.magnetometer),
            ready(magnetometerNorms.count, magnetometerNorms.count >= Self.sampleCount)
        {
            done |= Self.bit(.magnetometer)
            if let m = magnetometerMismatch() { return m }
        }
        if !isDone(.gyroscope), ready(gyroscopeCount, gyroscopeCount >= Self.sampleCount) {
            done |= Self.bit(.gyroscope)
            if let m = gyroscopeRangeMismatch() { return m }
        }
        if !pairsDone, misses[0].count >= Self.pairCount || (final && misses[0].count > 0) {
            pairsDone = true
            if misses[0].count >= Self.pairCount / 2, let m = gyroscopeTiltMismatch() { return m }
        }
        return nil
    }

    func timeMismatch() -> Mismatch? {
        let interval = Self.median(intervals)
        guard interval < 1e-4 || interval > 0.25 else { return nil }
        let raw = interval * time.perSecond
        let fits = TimeUnit.allCases.filter { $0 != time && (1e-4...0.1).contains(raw / $0.perSecond) }
        guard let unit = fits.first else { return nil }
        return Mismatch(
            quantity: .time, readAs: time.rawValue, looksLike: unit.rawValue,
            evidence: "the median interval is \(Self.format(interval)) s (\(Self.format(1 / interval)) Hz)")
    }

    func accelerometerMismatch() -> Mismatch? {
        let norm = Self.median(accelerometerNorms)
        guard !(4...25).contains(norm) else { return nil }
        let raw = norm / accelerometer.toMetersPerSecondSquared
        let unit = AccelerometerUnit.allCases.first {
            $0 != accelerometer && (4...25).contains(raw * $0.toMetersPerSecondSquared)
        }
        return Mismatch(
            quantity: .accelerometer, readAs: accelerometer.rawValue, looksLike: unit?.rawValue,
            evidence: "the median magnitude is \(Self.format(norm)) m/s², not gravity's 9.81")
    }

    func magnetometerMismatch() -> Mismatch? {
        guard let magnetometer else { return nil }
        let norm = Self.median(magnetometerNorms)
        guard !(5...4000).contains(norm) else { return nil }
        let raw = norm / magnetometer.toMicrotesla
        let unit = MagnetometerUnit.allCases.first { $0 != magnetometer && (15...150).contains(raw * $0.toMicrotesla) }
        return Mismatch(
            quantity: .magnetometer, readAs: magnetometer.rawValue, looksLike: unit?.rawValue,
            evidence: "the median magnitude is \(Self.format(norm)) µT, not a magnetometer's 5–4000 µT")
    }

    func gyroscopeRangeMismatch() -> Mismatch? {
        guard gyroscopeBeyondRange * 100 > gyroscopeCount else { return nil }
        return Mismatch(
            quantity: .gyroscope, readAs: gyroscope.rawValue,
            looksLike: gyroscope == .radiansPerSecond ? GyroscopeUnit.degreesPerSecond.rawValue : nil,
            evidence: "\(gyroscopeBeyondRange) of the first \(gyroscopeCount) readings exceed 70 rad/s "
                + "(4000 °/s, beyond any MEMS gyroscope)")
    }

    func gyroscopeTiltMismatch() -> Mismatch? {
        let medians = misses.map { Self.median($0) * 180 / .pi }
        guard medians[0] > 10 else { return nil }
        let best = medians[1] < medians[2] ? 1 : 2
        guard medians[best] < medians[0] / 3 else { return nil }
        let unit: GyroscopeUnit? =
            best == 1
            ? (gyroscope == .radiansPerSecond ? .degreesPerSecond : nil)
            : (gyroscope == .degreesPerSecond ? .radiansPerSecond : nil)
        return Mismatch(
            quantity: .gyroscope, readAs: gyroscope.rawValue, looksLike: unit?.rawValue,
            evidence: "between \(misses[0].count) pairs of still moments the gyroscope as read misses the "
                + "accelerometer's change of tilt by \(Self.format(medians[0]))° (median), "
                + (best == 1 ? "180/π times smaller" : "180/π times larger")
                + " by \(Self.format(medians[best]))°")
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    static func angle(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let c = SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        return Double.atan2(y: (c * c).sum().squareRoot(), x: (a * b).sum())
    }

    /// `v` in the sensor frame at `q0`, seen in the sensor frame at `q1` (both sensor → fixed):
    /// r* ⊗ v ⊗ r with r = q0* ⊗ q1.
    static func rotate(_ v: SIMD3<Double>, from q0: SIMD4<Double>, to q1: SIMD4<Double>) -> SIMD3<Double> {
        func product(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
            SIMD4(
                a.x * b.x - a.y * b.y - a.z * b.z - a.w * b.w,
                a.x * b.y + a.y * b.x + a.z * b.w - a.w * b.z,
                a.x * b.z - a.y * b.w + a.z * b.x + a.w * b.y,
                a.x * b.w + a.y * b.z - a.z * b.y + a.w * b.x)
        }
        let conjugate = SIMD4<Double>(1, -1, -1, -1)
        let r = product(q0 * conjugate, q1)
        let p = product(product(r * conjugate, SIMD4(0, v.x, v.y, v.z)), r)
        return SIMD3(p.y, p.z, p.w)
    }

    /// `x` for a message: whole numbers from 100 up, two significant decimals below; Swift's own
    /// text for values beyond 10¹⁵ and non-finite ones (an overflowing norm is infinite).
    static func format(_ x: Double) -> String {
        let magnitude = abs(x)
        if !x.isFinite || magnitude >= 1e15 { return "\(x)" }
        if magnitude >= 100 || magnitude == 0 { return String(Int(x.rounded())) }
        var digits = 2
        var m = magnitude
        while m < 1 && digits < 9 {
            m *= 10
            digits += 1
        }
        let scale = Double.pow(10, digits)
        return String((x * scale).rounded() / scale)
    }
}

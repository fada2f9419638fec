/// Learns a magnetometer's hard and soft iron while the device moves, as Core Motion's calibrated
/// magnetic field does, and applies the calibration it has accepted: raw field in, calibrated field
/// out, µT. ``FusionStream`` runs one on the magnetometer by default, after the offline
/// ``SensorCalibration`` and before the filter.
///
/// **The samples.** It keeps at most ``capacity`` (64) field samples, spread over the directions:
/// a reading becomes a candidate only once it is ``spacingFraction`` / 2 of the field strength
/// away from the previous candidate (so a still or slowly turning device costs one distance test
/// per sample). Each kept sample has a place, the reading that first made it, which never moves.
/// Let the spacing be ``spacingFraction`` × the field strength (12.5 µT for a 50 µT field; 45 µT
/// is assumed before a fit): a candidate within half the spacing of a place replaces that place's
/// sample, so each part of the sphere holds its latest reading; one at least the spacing away from
/// every place makes a new place, or takes the oldest one's when all are used; one in between is
/// passed over. A reading with a component beyond ±100,000 µT is never sampled. Memory is fixed
/// (six `SIMD64` of coordinates, and 2 KB of stack during a fit); nothing allocates.
///
/// **The fits.** After every ``changesPerFit`` (8) changes of the set, with at least 12 samples, in `Double` on the
/// samples centred and scaled (a 3,400 µT offset leaves the fits exact):
/// 1. a sphere (`MagneticFieldFit`, Kåsa's algebraic fit): the hard iron;
/// 2. when the samples' directions from its centre cover enough of the sphere (coverage: the
///    smallest eigenvalue of their scatter `mean(d dᵀ)` at least 0.12, about ±45° about two axes;
///    1/3 for the whole sphere) and there are at least 24, an ellipsoid: hard iron and a symmetric
///    soft-iron matrix of determinant 1, kept if its condition number is at most 1.6;
/// 3. samples more than `max(3 × RMS, 5 %)` of the field strength off the fitted surface (a
///    disturbance that was sampled) are dropped from the set and the fit repeated once.
///
/// **Acceptance.** A fit replaces the calibration in use only when all hold: its field strength
/// is 15–80 µT (the earth's field is 22–67 µT); its residual (RMS of `|m| − R` with the sum of
/// squares divided by n − p, p the fit's parameters: 4 for a sphere, 9 for an ellipsoid) is at
/// most 5 % of `R` for a sphere and 3 % for an ellipsoid; the directions' coverage is at least
/// 0.05 (rotation through about ±25° about a second axis; a turn about one axis alone leaves the
/// hard iron along it unknown); and its residual on the current samples is below 0.8 × that of the
/// calibration in use (before any, of the field as it comes: h = 0, S = I, p = 1), and the
/// calibrated field changes by more than twice its residual (a smaller change is within what a
/// field that varies from place to place makes of any fit). A field that comes within 5 % of a sphere of an earth field's strength is taken
/// as calibrated: it is used as it comes (h = 0, S = I), and never replaced by a learned fit — on
/// the norm alone a few µT of hard iron cannot be told from a field that varies by a few µT from
/// place to place. A disturbed or poorly covered field therefore never replaces a good
/// calibration, and a learned calibration that no longer fits (the device was put in a magnetic
/// case) is replaced once a clearly better one is found.
///
/// **Accuracy** (``accuracy``, Core Motion's levels), re-measured at every fit on the current
/// samples, so that an old calibration that stopped fitting loses its level. Besides the residual
/// and the coverage it uses the hard iron's standard error along its worst-determined direction,
/// `σ / √λ`: σ the calibration's RMS residual on the samples (µT) and λ the smallest eigenvalue of
/// `Σ (d − d̄)(d − d̄)ᵀ` over the calibrated directions d (the first-order covariance of a sphere
/// fit's centre). Directions bunched in a cap fit a sphere closely yet leave the hard iron along the
/// cap's axis and the field strength confused: on BROAD trial 24 with a synthetic hard iron, the
/// first fit (18 samples, residual 1 %, coverage 0.05) put the heading 48° off.
///
/// | level | when |
/// |---|---|
/// | ``MagneticFieldAccuracy/uncalibrated`` | no fit accepted yet (the field is passed on raw) |
/// | ``MagneticFieldAccuracy/low`` | a calibration is in use, but the conditions below fail |
/// | ``MagneticFieldAccuracy/medium`` | relative residual ≤ 3 %, coverage ≥ 0.05, hard iron's standard error ≤ 2 µT |
/// | ``MagneticFieldAccuracy/high`` | relative residual ≤ 1.5 %, coverage ≥ 0.15, ≥ 32 samples, hard iron's standard error ≤ 1 µT |
///
/// **Bad input.** A reading that is zero, subnormal or not finite is passed on unchanged (the
/// filters treat it as missing) and never sampled. Until a fit is accepted the field is passed on
/// unchanged; the filters' own checks (a field that turns with the sensor, its norm and dip)
/// decide whether it is used.
@frozen
public struct OnlineMagnetometerCalibrator<Scalar: FusionScalar>: Sendable {
    /// The most samples kept.
    public static var capacity: Int { 64 }
    /// The least distance between kept samples, as a fraction of the field strength.
    public static var spacingFraction: Double { 0.25 }
    /// How many changes of the kept samples make a new fit.
    public static var changesPerFit: Int { 8 }
    /// The field strengths of the earth, with a margin, µT (the earth's is 22–67 µT): a fit of
    /// another strength is not accepted, and before a fit a field of another strength is not the
    /// earth's (``FusionStream`` withholds it from the filter).
    @inlinable public static var earthFieldStrengths: ClosedRange<Double> { 15...80 }
    /// Whether `field`'s strength is within ``earthFieldStrengths`` (compared squared: no root).
    @inlinable
    public static func hasEarthFieldStrength(_ field: SIMD3<Scalar>) -> Bool {
        let range = earthFieldStrengths
        let n2 = (field * field).sum()
        return n2 >= Scalar(range.lowerBound * range.lowerBound) && n2 <= Scalar(range.upperBound * range.upperBound)
    }
    /// The field strength assumed before a fit, µT.
    public static var assumedFieldStrength: Double { 45 }

    /// Where each kept sample's place is (the first reading that made it): candidates are
    /// measured against these, which never move, so a slow turn cannot drag a place along.
    ///
    /// The per-sample and fitting code reads and writes these `SIMD64` one lane at a time through
    /// memory (``Lanes64``, or pointers): a `SIMD64` subscript with a varying index, or
    /// `init(repeating:)`, compiles element by element where the target has no such vectors
    /// (WebAssembly: 38 kB of code). Only the Codable conformance, which Embedded builds leave out,
    /// uses subscripts.
    @usableFromInline var anchorX = Lanes64.filled(Scalar.infinity)
    @usableFromInline var anchorY = Lanes64.filled(Scalar.infinity)
    @usableFromInline var anchorZ = Lanes64.filled(Scalar.infinity)
    /// The latest reading at each place: what the fits use.
    @usableFromInline var xs = Lanes64.filled(Scalar.infinity)
    @usableFromInline var ys = Lanes64.filled(Scalar.infinity)
    @usableFromInline var zs = Lanes64.filled(Scalar.infinity)
    /// Insertion order of each kept sample (larger is newer).
    @usableFromInline var order = Lanes64.filled(Int32.max)
    @usableFromInline var count = 0
    @usableFromInline var sequence: Int32 = 0
    @usableFromInline var changesSinceFit = 0
    @usableFromInline var lastCandidate = SIMD3<Scalar>(repeating: .infinity)
    /// Squared spacing, and the squared candidate gate (half the spacing).
    @usableFromInline var spacing2: Scalar
    @usableFromInline var gate2: Scalar
    /// The calibration in use, in `Scalar` for the per-sample path.
    @usableFromInline var hard = SIMD3<Scalar>.zero
    @usableFromInline var soft = (SIMD3<Scalar>(1, 0, 0), SIMD3<Scalar>(0, 1, 0), SIMD3<Scalar>(0, 0, 1))
    @usableFromInline var isCalibrated = false

    /// The calibration in use (`m = S · (u − h)`; ``MagnetometerCalibration/fieldStrength`` the
    /// field's fitted strength, ``MagnetometerCalibration/residual`` the RMS of `|m| − R` over the
    /// samples when it was accepted, its sum of squares divided by n − p for p fitted parameters),
    /// nil until a fit is accepted (h = 0 and S = I when the field came calibrated).
    public var calibration: MagnetometerCalibration? { adopted }
    @usableFromInline var adopted: MagnetometerCalibration?
    /// How far the calibrated field can be trusted (the type's table).
    public var accuracy: MagneticFieldAccuracy { level }
    @usableFromInline var level: MagneticFieldAccuracy = .uncalibrated
    /// How many fits have been accepted.
    public var acceptedFits: Int { accepted }
    @usableFromInline var accepted = 0
    /// How many accepted fits changed the calibrated field by more than a refinement: each that
    /// moves a field of the calibration's strength by more than 10 % of it in some direction,
    /// compared with the calibration before (the field as it comes, before the first). ``FusionStream`` tells its filter of these only, so that the filter keeps
    /// what it learned of the field (its reference norm and dip) through the small refinements
    /// that follow every few seconds of turning.
    public var majorChanges: Int { major }
    @usableFromInline var major = 0

    /// Whether the calibration in use is an ellipsoid (hard and soft iron) rather than a sphere.
    public var hasSoftIron: Bool { softIronFitted }
    @usableFromInline var softIronFitted = false

    /// A calibrator with no calibration and no samples.
    @inlinable
    public init() {
        spacing2 = 0
        gate2 = 0
        setSpacing(fieldStrength: Self.assumedFieldStrength)
    }

    /// The number of samples kept.
    @inlinable public var sampleCount: Int { count }

    /// Calibrates one reading (µT) and learns from it. A reading that is zero, subnormal or not
    /// finite is returned unchanged and not sampled (the filters treat it as missing); so is any
    /// reading before a calibration is accepted.
    @inlinable
    public mutating func update(_ field: SIMD3<Scalar>) -> SIMD3<Scalar> {
        let d = field - lastCandidate
        if (d * d).sum() >= gate2 { consider(field) }
        // Not apply(_:): a non-mutating call here copied the 3 KB state.
        return Self.calibrated(field, isCalibrated: isCalibrated, hard: hard, soft: soft)
    }

    /// Applies the calibration in use without learning; a reading that is zero, subnormal or not
    /// finite, or any reading before a calibration, is returned unchanged.
    @inlinable
    public func apply(_ field: SIMD3<Scalar>) -> SIMD3<Scalar> {
        Self.calibrated(field, isCalibrated: isCalibrated, hard: hard, soft: soft)
    }

    /// `S · (u − h)`, or `u` itself before a calibration or for an unusable reading.
    @inlinable @inline(__always)
    static func calibrated(
        _ field: SIMD3<Scalar>, isCalibrated: Bool, hard: SIMD3<Scalar>,
        soft: (SIMD3<Scalar>, SIMD3<Scalar>, SIMD3<Scalar>)
    ) -> SIMD3<Scalar> {
        guard isCalibrated, VectorCheck.isUsableReading(field) else { return field }
        let u = field - hard
        return soft.0 * u.x + soft.1 * u.y + soft.2 * u.z
    }

    @inlinable
    mutating func setSpacing(fieldStrength: Double) {
        let spacing = Scalar(Self.spacingFraction * fieldStrength)
        spacing2 = spacing * spacing
        gate2 = spacing2 / 4
    }

    /// A reading far enough from the previous candidate: into the set, and a fit every ``changesPerFit`` changes.
    @inlinable @inline(never)
    mutating func consider(_ field: SIMD3<Scalar>) {
        guard VectorCheck.isUsableReading(field), VectorCheck.largestMagnitude(field) <= 100_000 else { return }
        lastCandidate = field
        let (nearest, nearestSlot) = Self.nearest(to: field, anchorX, anchorY, anchorZ, count: count)
        var slot: Int
        if nearest < gate2 {
            slot = nearestSlot  // the same place: the newer reading
        } else if nearest < spacing2 {
            return  // too near a kept place to add, too far to stand for it
        } else {
            if count < Self.capacity {
                slot = count
                count += 1
            } else {
                slot = Self.oldest(order, count: count)
            }
            Lanes64.store(field.x, at: slot, in: &anchorX)
            Lanes64.store(field.y, at: slot, in: &anchorY)
            Lanes64.store(field.z, at: slot, in: &anchorZ)
        }
        Lanes64.store(field.x, at: slot, in: &xs)
        Lanes64.store(field.y, at: slot, in: &ys)
        Lanes64.store(field.z, at: slot, in: &zs)
        Lanes64.store(sequence, at: slot, in: &order)
        sequence += 1
        if sequence == Int32.max { renumber() }
        changesSinceFit += 1
        if changesSinceFit >= Self.changesPerFit && count >= 12 { refit() }
    }

    /// The squared distance to the nearest of the first `count` places, and its slot. Through
    /// pointers: `SIMD64` arithmetic and subscripts compile to element-by-element copies (9 µs and
    /// 1 µs per search, against 0.1 µs here).
    @inlinable
    static func nearest(
        to field: SIMD3<Scalar>, _ x: SIMD64<Scalar>, _ y: SIMD64<Scalar>, _ z: SIMD64<Scalar>, count: Int
    ) -> (Scalar, Int) {
        withUnsafeBytes(of: x) { px in
            withUnsafeBytes(of: y) { py in
                withUnsafeBytes(of: z) { pz in
                    let xs = px.assumingMemoryBound(to: Scalar.self)
                    let ys = py.assumingMemoryBound(to: Scalar.self)
                    let zs = pz.assumingMemoryBound(to: Scalar.self)
                    var best = Scalar.infinity, index = 0
                    for i in 0..<count {
                        let d = SIMD3(xs[i], ys[i], zs[i]) - field
                        let d2 = (d * d).sum()
                        if d2 < best {
                            best = d2
                            index = i
                        }
                    }
                    return (best, index)
                }
            }
        }
    }

    /// The slot of the oldest of the first `count` samples.
    @inlinable
    static func oldest(_ order: SIMD64<Int32>, count: Int) -> Int {
        withUnsafeBytes(of: order) { raw in
            let ages = raw.assumingMemoryBound(to: Int32.self)
            var index = 0
            for i in 1..<max(count, 1) where ages[i] < ages[index] { index = i }
            return index
        }
    }

    /// Keeps the insertion order while making room below `Int32.max`.
    @inlinable
    mutating func renumber() {
        let half = Int32.max / 2
        for i in 0..<count { Lanes64.store(max(0, Lanes64.load(order, i) - half), at: i, in: &order) }
        sequence -= half
    }

    /// Fits the kept samples and applies `OnlineMagnetometerFit`'s verdict.
    @inlinable @inline(never)
    mutating func refit() {
        changesSinceFit = 0
        let n = count
        // 64 SIMD3<Double> (2 KB) on the stack: withUnsafeTemporaryAllocation puts more than 1 KB
        // on the heap in Embedded Swift.
        var storage = (SIMD64<Double>(), SIMD64<Double>(), SIMD64<Double>(), SIMD64<Double>())
        let verdict = withUnsafeMutableBytes(of: &storage) { raw in
            let buffer = UnsafeMutableBufferPointer(
                start: raw.baseAddress!.assumingMemoryBound(to: SIMD3<Double>.self), count: Self.capacity)
            withUnsafeBytes(of: xs) { px in
                withUnsafeBytes(of: ys) { py in
                    withUnsafeBytes(of: zs) { pz in
                        let (x, y, z) = (
                            px.assumingMemoryBound(to: Scalar.self), py.assumingMemoryBound(to: Scalar.self),
                            pz.assumingMemoryBound(to: Scalar.self))
                        for i in 0..<n { buffer[i] = SIMD3(Double(x[i]), Double(y[i]), Double(z[i])) }
                    }
                }
            }
            return OnlineMagnetometerFit.judge(
                UnsafeMutableBufferPointer(rebasing: buffer[0..<n]), current: adopted)
        }
        if verdict.outliers != 0 { drop(verdict.outliers) }
        if let adopted = verdict.adopted {
            // Before a calibration the field is used as it comes: the identity.
            let old = self.adopted ?? MagnetometerCalibration(fieldStrength: adopted.fieldStrength)
            if OnlineMagnetometerFit.largestChange(from: old, to: adopted) > 0.1 * adopted.fieldStrength { major += 1 }
            if self.adopted.map({ $0.hardIron != adopted.hardIron || $0.softIron != adopted.softIron }) ?? true {
                accepted += 1
            }
            use(adopted)
            softIronFitted = verdict.adoptedHasSoftIron
        }
        if self.adopted != nil { level = verdict.accuracy }
    }

    /// Makes `calibration` the one in use.
    @inlinable
    mutating func use(_ calibration: MagnetometerCalibration) {
        adopted = calibration
        isCalibrated = true
        hard = SIMD3<Scalar>(calibration.hardIron)
        soft = (
            SIMD3<Scalar>(calibration.softIron.column0), SIMD3<Scalar>(calibration.softIron.column1),
            SIMD3<Scalar>(calibration.softIron.column2))
        setSpacing(fieldStrength: calibration.fieldStrength)
    }

    /// Removes the samples whose bits are set in `mask`, keeping the others in order.
    @inlinable
    mutating func drop(_ mask: UInt64) {
        var kept = 0
        for i in 0..<count where mask & (1 << UInt64(i)) == 0 {
            Lanes64.move(i, to: kept, in: &xs)
            Lanes64.move(i, to: kept, in: &ys)
            Lanes64.move(i, to: kept, in: &zs)
            Lanes64.move(i, to: kept, in: &anchorX)
            Lanes64.move(i, to: kept, in: &anchorY)
            Lanes64.move(i, to: kept, in: &anchorZ)
            Lanes64.move(i, to: kept, in: &order)
            kept += 1
        }
        for i in kept..<count {
            Lanes64.store(Scalar.infinity, at: i, in: &xs)
            Lanes64.store(Scalar.infinity, at: i, in: &ys)
            Lanes64.store(Scalar.infinity, at: i, in: &zs)
            Lanes64.store(Scalar.infinity, at: i, in: &anchorX)
            Lanes64.store(Scalar.infinity, at: i, in: &anchorY)
            Lanes64.store(Scalar.infinity, at: i, in: &anchorZ)
            Lanes64.store(Int32.max, at: i, in: &order)
        }
        count = kept
    }
}

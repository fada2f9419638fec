/// Many independent ``InertialFrameFilter``s — the default filter — advanced together, each stream
/// with its own state and its own settings: the per-sample work of every stream (strapdown
/// integration, rest detection, the sums averaged into the almost inertial frame) runs over SIMD
/// lanes, one vector instruction for `Lanes.scalarCount` streams, and each stream's correction step
/// (inclination, heading, magnetic disturbance rejection, the bias Kalman filter), every
/// ``InertialFrameFilter/Settings-swift.struct/correctionInterval`` seconds, runs as the scalar
/// filter's own code on that stream's state.
///
/// Every stream computes exactly what ``InertialFrameFilter/update(gyroscope:accelerometer:magnetometer:dt:)``
/// computes, bit for bit: the lanes repeat the scalar per-sample step operation for operation, and
/// any sample the vector step does not cover — a stream's first samples (initialization and the
/// rest detector's seeding), a bad `Δt` or one beyond a gain's series (longer than a sixteenth of
/// the rest detector's time constant; a jittery clock's `Δt` is covered), a rotation of more than
/// 0.25 rad in one sample, an unusable gyroscope or accelerometer reading (non-finite, zero, beyond
/// the limits), a stream without rest estimation, a group of lanes not all active (the last, partly
/// filled group; a group after one of its streams ended) — goes through the scalar filter's `update`
/// for the streams of that group of lanes. So give the engine a multiple of `Lanes.scalarCount`
/// streams of similar length. The tests compare every stream with the scalar filter on the
/// BROAD trials and on synthetic recordings with bad samples. Bad input is therefore handled as the
/// scalar filter documents; a missing magnetometer sample is a zero vector in
/// ``MultiStreamSamples`` (``MultiStreamSamples/set(stream:step:gyroscope:accelerometer:magnetometer:dt:)``),
/// which the filter treats as it treats `nil`.
///
/// Read a stream's outputs from ``filter(stream:)``: the scalar filter with that stream's state, whose
/// attitude, bias, rest and disturbance flags are those of a scalar filter fed the same samples
/// (and which can continue on its own); ``quaternion(stream:)`` and ``isInitialized(stream:)`` read
/// the attitude alone without copying the filter. ``update(gyroscope:accelerometer:magnetometer:dt:)``
/// gives every stream the same readings (streams that differ in their settings only).
///
/// Lanes of one vector register's width are fastest (``VectorRegister``: `SIMD4<Float>` or
/// `SIMD2<Double>` in a build without CPU flags; wider lanes spill the state's vectors):
///
/// ```swift
/// let samples = MultiStreamSamples<SIMD4<Float>>(recordings: recordings)
/// var engine = InertialFrameStreams<SIMD4<Float>>(streamCount: recordings.count)
/// engine.process(samples)
/// let attitude = engine.filter(stream: 0).quaternion
/// ```
///
/// <doc:Performance> gives the throughput against one scalar filter.
public struct InertialFrameStreams<Lanes: FusionLanes>: Sendable {
    public typealias Scalar = Lanes.Scalar
    public typealias Filter = InertialFrameFilter<Scalar>
    @usableFromInline typealias Mask = SIMDMask<Lanes.MaskStorage>

    /// The per-sample state of one group of `Lanes.scalarCount` streams (the rest of each stream's
    /// state stays in its scalar filter). Authoritative between calls: a stream's scalar filter
    /// receives it before any of its own code runs (``store(_:lane:into:)``) and gives it back after
    /// (``load(_:lane:from:)``).
    @usableFromInline
    struct Group: Sendable {
        // Strapdown rotation (sensor → I), bias, 1 / (1 + sensitivity error), ∫ω dt of the step.
        @usableFromInline var qw = Lanes(repeating: 1), qx = Lanes(), qy = Lanes(), qz = Lanes()
        @usableFromInline var bx = Lanes(), by = Lanes(), bz = Lanes()
        @usableFromInline var sx = Lanes(repeating: 1), sy = Lanes(repeating: 1), sz = Lanes(repeating: 1)
        @usableFromInline var rsx = Lanes(), rsy = Lanes(), rsz = Lanes()
        // The rest detector: its two low-passes, stillness time and sums.
        @usableFromInline var gyx = Lanes(), gyy = Lanes(), gyz = Lanes()
        @usableFromInline var acx = Lanes(), acy = Lanes(), acz = Lanes()
        @usableFromInline var stillTime = Lanes(), resting = Lanes()
        @usableFromInline var psx = Lanes(), psy = Lanes(), psz = Lanes()
        @usableFromInline var pendingCount = Lanes(), takenCount = Lanes(), takenTime = Lanes()
        @usableFromInline var deviationSum = Lanes()
        // The averages in I since the last correction step.
        @usableFromInline var asx = Lanes(), asy = Lanes(), asz = Lanes(), accCount = Lanes()
        @usableFromInline var msx = Lanes(), msy = Lanes(), msz = Lanes(), magCount = Lanes()
        @usableFromInline var stepTime = Lanes()
        // The magnetometer's lag: its estimate, and the last reading and rate × reading kept for it.
        @usableFromInline var latency = Lanes()
        @usableFromInline var lrx = Lanes(), lry = Lanes(), lrz = Lanes()
        @usableFromInline var lcx = Lanes(), lcy = Lanes(), lcz = Lanes()
        @usableFromInline var hasReading = Lanes()
        // Each stream's cached per-sample gains and the settings the step reads.
        @usableFromInline var dt = Lanes(), tolerance = Lanes(), restGain = Lanes()
        @usableFromInline var gyroscopeThreshold2 = Lanes(), accelerometerThreshold2 = Lanes()
        @usableFromInline var restMinimumDuration = Lanes(), correctionInterval = Lanes(), restTimeConstant = Lanes()
        @usableFromInline var compensatesLatency = Lanes()
        // The filter's output rotation fromNWU ⊗ heading ⊗ inclination (its `output9`, made when it
        // initializes or resets and at correction steps), and 1 where it is made for the filter's frame.
        @usableFromInline var o9w = Lanes(), o9x = Lanes(), o9y = Lanes(), o9z = Lanes()
        @usableFromInline var outputReady = Lanes()
        /// 1 where the vector step applies to the stream (initialized, both rest low-passes seeded,
        /// rest estimated, gains cached), else 0.
        @usableFromInline var eligible = Lanes()
        /// Every lane eligible.
        @usableFromInline var allEligible = false
        /// The steps this group took by the vector step (the tests check that it carries the work).
        @usableFromInline var vectorSteps = 0

        @inlinable init() {}
    }

    /// The number of streams.
    public let streamCount: Int
    /// Each stream's scalar filter: its settings and the state the correction step uses.
    @usableFromInline var filters: [Filter]
    @usableFromInline var groups: [Group]

    /// `streamCount` uninitialized filters with the same settings (values outside their valid
    /// ranges moved into them, as ``InertialFrameFilter/settings`` describes).
    ///
    /// - Precondition: `streamCount ≥ 1` and the size representable (``byteCount(streamCount:)``).
    public init(streamCount: Int, settings: Filter.Settings = .init()) {
        precondition(streamCount >= 1, "need at least one stream")
        self.init(settings: Array(repeating: settings, count: streamCount))
    }

    /// One uninitialized filter per element of `settings`, each with its own settings (for example
    /// the candidates of a search over settings).
    ///
    /// - Precondition: `settings` is not empty and the size representable (``byteCount(streamCount:)``).
    public init(settings: [Filter.Settings]) {
        precondition(!settings.isEmpty, "need at least one stream")
        precondition(Self.byteCount(streamCount: settings.count) != nil, "\(settings.count) streams need more bytes than an Int can count")
        streamCount = settings.count
        filters = settings.map { Filter(settings: $0) }
        groups = Array(repeating: Group(), count: MultiStreamSamples<Lanes>.groupCount(streamCount: streamCount))
        for s in 0..<streamCount {
            Self.load(&groups[s / Lanes.scalarCount], lane: s % Lanes.scalarCount, from: filters[s])
        }
        for g in groups.indices { Self.refreshEligibility(&groups[g]) }
    }

    /// The bytes the state of `streamCount` streams takes (their scalar filters and the groups of
    /// lanes). Nil when `streamCount < 1` or the size does not fit in an `Int`. Allocates nothing.
    public static func byteCount(streamCount: Int) -> Int? {
        guard streamCount >= 1 else { return nil }
        let (a, o1) = MultiStreamSamples<Lanes>.groupCount(streamCount: streamCount)
            .multipliedReportingOverflow(by: MemoryLayout<Group>.stride)
        let (b, o2) = streamCount.multipliedReportingOverflow(by: MemoryLayout<Filter>.stride)
        let (total, o3) = a.addingReportingOverflow(b)
        return o1 || o2 || o3 ? nil : total
    }

    /// One stream's filter, with its state as a scalar ``InertialFrameFilter`` fed the same samples
    /// would have it: read its attitude, bias, flags, or continue with it on its own.
    public func filter(stream: Int) -> Filter {
        precondition(stream >= 0 && stream < streamCount, "stream out of range")
        var filter = filters[stream]
        var group = groups[stream / Lanes.scalarCount]
        Self.store(&group, lane: stream % Lanes.scalarCount, into: &filter)
        return filter
    }

    /// Runs every stream over its steps in `samples`, continuing from the current state.
    ///
    /// - Precondition: `samples.streamCount == streamCount`.
    @inlinable
    public mutating func process(_ samples: MultiStreamSamples<Lanes>) {
        precondition(samples.streamCount == streamCount, "the samples have another number of streams")
        process(samples, groups: 0..<groups.count)
    }

#if !hasFeature(Embedded)  // task groups need the Concurrency runtime, which a firmware need not link
    /// Runs the streams as ``process(_:)`` does, with the groups of lanes split over `taskCount`
    /// concurrent tasks (about one per core is best). Each task owns a contiguous range of groups
    /// and their streams' filters, so the tasks share nothing but the read-only samples. With
    /// `taskCount == 1` this is ``process(_:)``. Each call copies the state once per task.
    ///
    /// - Precondition: `samples.streamCount == streamCount`, `taskCount ≥ 1`.
    public mutating func process(_ samples: MultiStreamSamples<Lanes>, taskCount: Int) async {
        precondition(samples.streamCount == streamCount, "the samples have another number of streams")
        precondition(taskCount >= 1, "need at least one task")
        let tasks = min(taskCount, groups.count)
        if tasks == 1 {
            process(samples)
            return
        }
        let lanes = Lanes.scalarCount, streams = streamCount
        let prototype = self
        let parts = await GroupTasks.run(groupCount: groups.count, taskCount: tasks) { range in
            var part = prototype
            part.process(samples, groups: range)
            let filters = (range.lowerBound * lanes)..<min(range.upperBound * lanes, streams)
            return (Array(part.groups[range]), Array(part.filters[filters]))
        }
        for (range, part) in parts {
            groups.replaceSubrange(range, with: part.0)
            filters.replaceSubrange((range.lowerBound * lanes)..<min(range.upperBound * lanes, streams), with: part.1)
        }
    }
#endif

    /// The loop: every step, every group in `range`.
    @inlinable
    mutating func process(_ samples: MultiStreamSamples<Lanes>, groups range: Range<Int>) {
        let lanes = Lanes.scalarCount
        let groupCount = samples.groupCount
        let channels = samples.channelCount
        let shortest = samples.groupShortest
        let longest = samples.groupLongest
        let nineD = samples.hasMagnetometer
        let streams = streamCount
        samples.storage.withUnsafeBufferPointer { input in
            self.groups.withUnsafeMutableBufferPointer { state in
                self.filters.withUnsafeMutableBufferPointer { filters in
                    guard let input = input.baseAddress, let state = state.baseAddress,
                        let filters = filters.baseAddress
                    else { return }
                    for t in 0..<samples.stepCount {
                        let step = input + t &* channels &* groupCount
                        for g in range where t < longest[g] {
                            let first = g &* lanes
                            Self.advance(
                                &state[g], filters: filters + first, sample: step + g, stride: groupCount, nineD: nineD,
                                vector: t < shortest[g]
                            ) { l in first &+ l < streams && t < samples.lengths[first &+ l] }
                        }
                    }
                }
            }
        }
    }

    /// Advances every stream by one sample, the same readings for all of them: the streams differ
    /// only in their settings (the candidates of a search over settings, as `motion tune` runs
    /// them). Each stream computes what its scalar filter's
    /// ``InertialFrameFilter/update(gyroscope:accelerometer:magnetometer:dt:)`` computes with these
    /// arguments, bit for bit, by the vector step where it applies (see the type's description);
    /// `magnetometer` nil is a 6D step. Allocates nothing.
    @inlinable
    public mutating func update(
        gyroscope: SIMD3<Scalar>, accelerometer: SIMD3<Scalar>, magnetometer: SIMD3<Scalar>?, dt: Scalar
    ) {
        let lanes = Lanes.scalarCount
        let streams = streamCount
        let m = magnetometer ?? .zero
        // The sample in the layout `process` reads (channel k at `sample[k * stride]`), broadcast, in
        // a tuple on the stack (withUnsafeTemporaryAllocation puts more than 1 KB on the heap in
        // Embedded Swift: 10 SIMD16<Double> are 1,280 bytes).
        var broadcast = (
            Lanes(repeating: gyroscope.x), Lanes(repeating: gyroscope.y), Lanes(repeating: gyroscope.z),
            Lanes(repeating: accelerometer.x), Lanes(repeating: accelerometer.y), Lanes(repeating: accelerometer.z),
            Lanes(repeating: dt), Lanes(repeating: m.x), Lanes(repeating: m.y), Lanes(repeating: m.z))
        withUnsafeBytes(of: &broadcast) { raw in
            guard let sample = raw.baseAddress?.assumingMemoryBound(to: Lanes.self) else { return }
            self.groups.withUnsafeMutableBufferPointer { state in
                self.filters.withUnsafeMutableBufferPointer { filters in
                    guard let base = state.baseAddress, let filters = filters.baseAddress else { return }
                    for g in 0..<state.count {
                        let first = g &* lanes
                        Self.advance(
                            &base[g], filters: filters + first, sample: sample, stride: 1, nineD: magnetometer != nil,
                            vector: true
                        ) { l in first &+ l < streams }
                    }
                }
            }
        }
    }

    /// Tells every stream's filter that the magnetometer's calibration changed
    /// (``InertialFrameFilter/magnetometerCalibrationChanged()``), as ``FusionStream`` tells its
    /// filter when its online calibration changes.
    public mutating func magnetometerCalibrationChanged() {
        let lanes = Lanes.scalarCount
        for s in 0..<streamCount {
            Self.store(&groups[s / lanes], lane: s % lanes, into: &filters[s])
            filters[s].magnetometerCalibrationChanged()
            Self.load(&groups[s / lanes], lane: s % lanes, from: filters[s])
        }
        for g in groups.indices { Self.refreshEligibility(&groups[g]) }
    }

    /// Whether stream `stream`'s filter has initialized (``InertialFrameFilter/isInitialized``).
    @inlinable
    public func isInitialized(stream: Int) -> Bool {
        precondition(stream >= 0 && stream < streamCount, "stream out of range")
        return filters[stream].initialized
    }

    /// Stream `stream`'s attitude, ``InertialFrameFilter/quaternion`` of ``filter(stream:)`` bit for
    /// bit, without copying the stream's filter once its output rotation is made (when the filter
    /// initializes): one quaternion product per call then.
    @inlinable
    public func quaternion(stream: Int) -> Quaternion<Scalar> {
        precondition(stream >= 0 && stream < streamCount, "stream out of range")
        let g = stream / Lanes.scalarCount, l = stream % Lanes.scalarCount
        return groups.withUnsafeBufferPointer { groups in
            let s = groups.baseAddress! + g  // read in place: a group is kilobytes
            guard s.pointee.outputReady[l] == 1 else { return filter(stream: stream).quaternion }
            let output = Quaternion(w: s.pointee.o9w[l], x: s.pointee.o9x[l], y: s.pointee.o9y[l], z: s.pointee.o9z[l])
            let strapdown = Quaternion(w: s.pointee.qw[l], x: s.pointee.qx[l], y: s.pointee.qy[l], z: s.pointee.qz[l])
            return Filter.outputAttitude(output: output, strapdown: strapdown)
        }
    }

    /// One step of one group: the vector step when `vector` is true and every lane's sample allows
    /// it, with each due correction step run by the stream's scalar filter; otherwise the scalar
    /// filter of every lane `l` for which `active(l)`. `filters` points at the group's first
    /// stream's filter; channel k of the sample is at `sample[k * stride]`.
    @inlinable @inline(__always)
    static func advance(
        _ group: inout Group, filters: UnsafeMutablePointer<Filter>, sample: UnsafePointer<Lanes>, stride: Int,
        nineD: Bool, vector: Bool, active: (Int) -> Bool
    ) {
        let lanes = Lanes.scalarCount
        if vector && group.allEligible {
            let corrections = nineD
                ? vectorStep(&group, sample, stride: stride, nineD: true)
                : vectorStep(&group, sample, stride: stride, nineD: false)
            if let corrections {
                group.vectorSteps &+= 1
                if Lanes.anyLane(corrections) {
                    for l in 0..<lanes where corrections[l] {
                        let filter = filters + l
                        store(&group, lane: l, into: &filter.pointee)
                        filter.pointee.correct()
                        load(&group, lane: l, from: filter.pointee)
                    }
                }
                return
            }
        }
        // The scalar filter, stream by stream, for this step of this group.
        for l in 0..<lanes where active(l) {
            let filter = filters + l
            store(&group, lane: l, into: &filter.pointee)
            let gyroscope = SIMD3(sample[0][l], sample[stride][l], sample[2 &* stride][l])
            let accelerometer = SIMD3(sample[3 &* stride][l], sample[4 &* stride][l], sample[5 &* stride][l])
            let magnetometer: SIMD3<Scalar>? = nineD
                ? SIMD3(sample[7 &* stride][l], sample[8 &* stride][l], sample[9 &* stride][l])
                : nil
            filter.pointee.update(
                gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: magnetometer, dt: sample[6 &* stride][l])
            load(&group, lane: l, from: filter.pointee)
        }
        refreshEligibility(&group)
    }

    /// Lane-wise `|v| ≥ least normal` and `≤ greatest finite` for a non-negative or NaN `v`: `isNormal`.
    @inlinable @inline(__always)
    static func isNormal(_ v: Lanes) -> Mask {
        Lanes.laneGreaterOrEqual(v, Lanes(repeating: .leastNormalMagnitude))
            .& Lanes.laneLessOrEqual(v, Lanes(repeating: .greatestFiniteMagnitude))
    }

    /// ``InertialFrameFilter/update(gyroscope:accelerometer:magnetometer:dt:)`` up to its correction
    /// step in every lane of an eligible group, operation for operation; returns the lanes whose
    /// correction step is due. Returns nil, changing nothing, when a lane's sample needs the scalar
    /// path (see the type's description).
    @inlinable @inline(__always)
    static func vectorStep(_ s: inout Group, _ sample: UnsafePointer<Lanes>, stride: Int, nineD: Bool) -> Mask? {
        let gx = sample[0], gy = sample[stride], gz = sample[2 &* stride]
        let ax = sample[3 &* stride], ay = sample[4 &* stride], az = sample[5 &* stride]
        let dt = sample[6 &* stride]
        // The per-sample gains: kept where |Δt − dt| is within the tolerance, else made anew as
        // `SampleGains(dt:settings:)` makes them (a jittery clock changes them at every sample), by
        // FirstOrder.gain's series; a bad Δt, or one beyond the series, takes the scalar path.
        let zero = Lanes(), one = Lanes(repeating: 1)
        let ddt = dt - s.dt
        let offset = Lanes.select(Lanes.laneLess(ddt, zero), -ddt, ddt)
        let keep = Lanes.laneLessOrEqual(offset, s.tolerance)
        var ok = keep
        var gainDt = s.dt, tolerance = s.tolerance, restGain = s.restGain
        if !Lanes.allLanes(keep) {
            let valid = Lanes.laneGreater(dt, zero) .& Lanes.laneLessOrEqual(dt, Lanes(repeating: .greatestFiniteMagnitude))
            let tau = s.restTimeConstant
            let positive = Lanes.laneGreater(tau, zero)
            let u = dt / tau
            let inSeries = Lanes.laneGreaterOrEqual(u, zero) .& Lanes.laneLessOrEqual(u, Lanes(repeating: 0.0625))
            ok = keep .| (valid .& (inSeries .| .!positive))
            @inline(__always) func term(_ c: Lanes, _ k: Scalar) -> Lanes { one - u * Lanes(repeating: k) * c }
            let c8 = one - u * Lanes(repeating: 1 / 10 as Scalar)
            let c7 = term(c8, 1 / 9 as Scalar), c6 = term(c7, 1 / 8 as Scalar), c5 = term(c6, 1 / 7 as Scalar)
            let c4 = term(c5, 1 / 6 as Scalar), c3 = term(c4, 1 / 5 as Scalar), c2 = term(c3, 1 / 4 as Scalar)
            let c1 = term(c2, 1 / 3 as Scalar)
            let gain = Lanes.select(positive, u * term(c1, 1 / 2 as Scalar), one)
            gainDt = Lanes.select(keep, s.dt, dt)
            tolerance = Lanes.select(keep, s.tolerance, dt * Lanes(repeating: 1e-4))
            restGain = Lanes.select(keep, s.restGain, gain)
        }
        // The corrected rate, and the half rotation within the exponential's series.
        let rx = (gx - s.bx) * s.sx, ry = (gy - s.by) * s.sy, rz = (gz - s.bz) * s.sz
        let half = dt / 2
        let hx = rx * half, hy = ry * half, hz = rz * half
        let r2 = (rx * rx + ry * ry) + rz * rz
        let t2 = (hx * hx + hy * hy) + hz * hz
        ok = ok .& Lanes.laneLess(r2, Lanes(repeating: 1e6)) .& Lanes.laneLess(t2, Lanes(repeating: 0.0625))
        // A usable accelerometer reading within the inclination average's limit.
        let a2 = (ax * ax + ay * ay) + az * az
        ok = ok .& isNormal(a2) .& Lanes.laneLess(a2, Lanes(repeating: 1e6))
        guard Lanes.allLanes(ok) else { return nil }
        s.dt = gainDt
        s.tolerance = tolerance
        s.restGain = restGain

        // exp(half rotation) by its series, then strapdown ← strapdown ⊗ exp.
        let c2 = one - t2 * Lanes(repeating: 1 / 30 as Scalar)
        let c1 = one - (t2 * Lanes(repeating: 1 / 12 as Scalar)) * c2
        let ew = one - (t2 * Lanes(repeating: 0.5)) * c1
        let s2 = one - t2 * Lanes(repeating: 1 / 42 as Scalar)
        let s1 = one - (t2 * Lanes(repeating: 1 / 20 as Scalar)) * s2
        let sn = one - (t2 * Lanes(repeating: 1 / 6 as Scalar)) * s1
        let ex = hx * sn, ey = hy * sn, ez = hz * sn
        let a0 = s.qw, a1 = s.qx, a2q = s.qy, a3 = s.qz
        let w = ((a0 * ew - a1 * ex) - a2q * ey) - a3 * ez
        let x = ((a0 * ex + a1 * ew) + a2q * ez) - a3 * ey
        let y = ((a0 * ey - a1 * ez) + a2q * ew) + a3 * ex
        let z = ((a0 * ez + a1 * ey) - a2q * ex) + a3 * ew
        s.qw = w
        s.qx = x
        s.qy = y
        s.qz = z
        s.rsx += rx * dt
        s.rsy += ry * dt
        s.rsz += rz * dt

        // Rest detection: both low-passes, the deviations, the stillness time and sums.
        let k = s.restGain
        s.gyx += (gx - s.gyx) * k
        s.gyy += (gy - s.gyy) * k
        s.gyz += (gz - s.gyz) * k
        let dgx = gx - s.gyx, dgy = gy - s.gyy, dgz = gz - s.gyz
        let gyroscopeDeviation = (dgx * dgx + dgy * dgy) + dgz * dgz
        let quiet = Lanes.laneLess(gyroscopeDeviation, s.gyroscopeThreshold2)
        s.acx += (ax - s.acx) * k
        s.acy += (ay - s.acy) * k
        s.acz += (az - s.acz) * k
        let dax = ax - s.acx, day = ay - s.acy, daz = az - s.acz
        let still = Lanes.laneLess((dax * dax + day * day) + daz * daz, s.accelerometerThreshold2) .& quiet
        let stillTime = s.stillTime + dt
        s.stillTime = Lanes.select(still, stillTime, zero)
        s.resting = Lanes.select(still .& Lanes.laneGreaterOrEqual(stillTime, s.restMinimumDuration), one, zero)
        s.psx = Lanes.select(still, s.psx + gx, zero)
        s.psy = Lanes.select(still, s.psy + gy, zero)
        s.psz = Lanes.select(still, s.psz + gz, zero)
        s.pendingCount = Lanes.select(still, s.pendingCount + 1, zero)
        s.deviationSum = Lanes.select(still, s.deviationSum + gyroscopeDeviation, zero)
        s.takenCount = Lanes.select(still, s.takenCount, zero)
        s.takenTime = Lanes.select(still, s.takenTime, zero)

        // The accelerometer in I: strapdown.act(on:), v + w t + u × t with t = 2 u × v.
        let tx = 2 * (y * az - z * ay), ty = 2 * (z * ax - x * az), tz = 2 * (x * ay - y * ax)
        s.asx += (ax + w * tx) + (y * tz - z * ty)
        s.asy += (ay + w * ty) + (z * tx - x * tz)
        s.asz += (az + w * tz) + (x * ty - y * tx)
        s.accCount += one

        if nineD {
            let mx = sample[7 &* stride], my = sample[8 &* stride], mz = sample[9 &* stride]
            let used = isNormal((mx * mx + my * my) + mz * mz)
            if Lanes.anyLane(used) {
                // The reading compensated for the lag (where the stream estimates it).
                let compensates = used .& Lanes.laneEqual(s.compensatesLatency, one)
                let cx = ry * mz - rz * my, cy = rz * mx - rx * mz, cz = rx * my - ry * mx
                let px = Lanes.select(compensates, mx - s.latency * cx, mx)
                let py = Lanes.select(compensates, my - s.latency * cy, my)
                let pz = Lanes.select(compensates, mz - s.latency * cz, mz)
                s.lrx = Lanes.select(compensates, mx, s.lrx)
                s.lry = Lanes.select(compensates, my, s.lry)
                s.lrz = Lanes.select(compensates, mz, s.lrz)
                s.lcx = Lanes.select(compensates, cx, s.lcx)
                s.lcy = Lanes.select(compensates, cy, s.lcy)
                s.lcz = Lanes.select(compensates, cz, s.lcz)
                s.hasReading = Lanes.select(compensates, one, s.hasReading)
                let ux = 2 * (y * pz - z * py), uy = 2 * (z * px - x * pz), uz = 2 * (x * py - y * px)
                s.msx = Lanes.select(used, s.msx + ((px + w * ux) + (y * uz - z * uy)), s.msx)
                s.msy = Lanes.select(used, s.msy + ((py + w * uy) + (z * ux - x * uz)), s.msy)
                s.msz = Lanes.select(used, s.msz + ((pz + w * uz) + (x * uy - y * ux)), s.msz)
                s.magCount = Lanes.select(used, s.magCount + 1, s.magCount)
            }
        }
        s.stepTime += dt
        return Lanes.laneGreaterOrEqual(s.stepTime, s.correctionInterval)
    }

    /// Copies lane `l`'s per-sample state from the group into its stream's scalar filter. (`inout`
    /// only so that the group, kilobytes of lanes, is not copied for the call.)
    @inlinable
    static func store(_ s: inout Group, lane l: Int, into f: inout Filter) {
        f.attitude.strapdown = Quaternion(w: s.qw[l], x: s.qx[l], y: s.qy[l], z: s.qz[l])
        f.kalman.bias = SIMD3(s.bx[l], s.by[l], s.bz[l])
        f.kalman.inverseScale = SIMD3(s.sx[l], s.sy[l], s.sz[l])
        f.rateSum = SIMD3(s.rsx[l], s.rsy[l], s.rsz[l])
        f.rest.gyroscope.value = SIMD3(s.gyx[l], s.gyy[l], s.gyz[l])
        f.rest.accelerometer.value = SIMD3(s.acx[l], s.acy[l], s.acz[l])
        f.rest.stillTime = s.stillTime[l]
        f.rest.isResting = s.resting[l] == 1
        f.rest.pendingSum = SIMD3(s.psx[l], s.psy[l], s.psz[l])
        f.rest.pendingCount = s.pendingCount[l]
        f.rest.takenCount = s.takenCount[l]
        f.rest.takenTime = s.takenTime[l]
        f.rest.deviationSum = s.deviationSum[l]
        f.accSum = SIMD3(s.asx[l], s.asy[l], s.asz[l])
        f.accCount = s.accCount[l]
        f.magSum = SIMD3(s.msx[l], s.msy[l], s.msz[l])
        f.magCount = s.magCount[l]
        f.stepTime = s.stepTime[l]
        f.latency.estimate = s.latency[l]
        f.latency.reading = SIMD3(s.lrx[l], s.lry[l], s.lrz[l])
        f.latency.cross = SIMD3(s.lcx[l], s.lcy[l], s.lcz[l])
        f.latency.hasReading = s.hasReading[l] == 1
        // The vector step remakes the per-sample gains when Δt changes (see vectorStep).
        f.sampleGains.dt = s.dt[l]
        f.sampleGains.tolerance = s.tolerance[l]
        f.sampleGains.rest = s.restGain[l]
    }

    /// Copies lane `l`'s per-sample state, gains and settings from its stream's scalar filter into
    /// the group, and whether the vector step applies to it (``refreshEligibility(_:)`` then
    /// updates the group's flag).
    @inlinable
    static func load(_ s: inout Group, lane l: Int, from f: Filter) {
        let q = f.attitude.strapdown
        s.qw[l] = q.w
        s.qx[l] = q.x
        s.qy[l] = q.y
        s.qz[l] = q.z
        s.bx[l] = f.kalman.bias.x
        s.by[l] = f.kalman.bias.y
        s.bz[l] = f.kalman.bias.z
        s.sx[l] = f.kalman.inverseScale.x
        s.sy[l] = f.kalman.inverseScale.y
        s.sz[l] = f.kalman.inverseScale.z
        s.rsx[l] = f.rateSum.x
        s.rsy[l] = f.rateSum.y
        s.rsz[l] = f.rateSum.z
        s.gyx[l] = f.rest.gyroscope.value.x
        s.gyy[l] = f.rest.gyroscope.value.y
        s.gyz[l] = f.rest.gyroscope.value.z
        s.acx[l] = f.rest.accelerometer.value.x
        s.acy[l] = f.rest.accelerometer.value.y
        s.acz[l] = f.rest.accelerometer.value.z
        s.stillTime[l] = f.rest.stillTime
        s.resting[l] = f.rest.isResting ? 1 : 0
        s.psx[l] = f.rest.pendingSum.x
        s.psy[l] = f.rest.pendingSum.y
        s.psz[l] = f.rest.pendingSum.z
        s.pendingCount[l] = f.rest.pendingCount
        s.takenCount[l] = f.rest.takenCount
        s.takenTime[l] = f.rest.takenTime
        s.deviationSum[l] = f.rest.deviationSum
        s.asx[l] = f.accSum.x
        s.asy[l] = f.accSum.y
        s.asz[l] = f.accSum.z
        s.accCount[l] = f.accCount
        s.msx[l] = f.magSum.x
        s.msy[l] = f.magSum.y
        s.msz[l] = f.magSum.z
        s.magCount[l] = f.magCount
        s.stepTime[l] = f.stepTime
        s.latency[l] = f.latency.estimate
        s.lrx[l] = f.latency.reading.x
        s.lry[l] = f.latency.reading.y
        s.lrz[l] = f.latency.reading.z
        s.lcx[l] = f.latency.cross.x
        s.lcy[l] = f.latency.cross.y
        s.lcz[l] = f.latency.cross.z
        s.hasReading[l] = f.latency.hasReading ? 1 : 0
        let gains = f.sampleGains
        s.dt[l] = gains.dt
        s.tolerance[l] = gains.tolerance
        s.restGain[l] = gains.rest
        s.gyroscopeThreshold2[l] = gains.gyroscopeThreshold2
        s.accelerometerThreshold2[l] = gains.accelerometerThreshold2
        s.restMinimumDuration[l] = f.settings.restMinimumDuration
        s.correctionInterval[l] = f.settings.correctionInterval
        s.restTimeConstant[l] = f.settings.restTimeConstant
        s.compensatesLatency[l] = f.settings.estimatesMagnetometerLatency ? 1 : 0
        s.o9w[l] = f.output9.w
        s.o9x[l] = f.output9.x
        s.o9y[l] = f.output9.y
        s.o9z[l] = f.output9.z
        s.outputReady[l] = f.outputFrame == f.settings.frame ? 1 : 0
        let eligible = f.initialized && f.rest.gyroscope.seeded && f.rest.accelerometer.seeded
            && f.settings.estimatesBiasAtRest && gains.tolerance >= 0
        s.eligible[l] = eligible ? 1 : 0
    }

    /// Sets the group's flag: every lane eligible for the vector step.
    @inlinable
    static func refreshEligibility(_ s: inout Group) {
        s.allEligible = Lanes.allLanes(Lanes.laneEqual(s.eligible, Lanes(repeating: 1)))
    }
}

/// Many independent ``MadgwickFilter``s advanced together: one filter per stream, the streams'
/// states in structure-of-arrays layout over SIMD lanes, so that one vector instruction advances
/// `Lanes.scalarCount` streams at once.
///
/// Each lane computes exactly what ``MadgwickFilter/update(gyroscope:accelerometer:magnetometer:dt:)``
/// computes, operation for operation (the tests compare every lane with the scalar filter), with the
/// same rules for bad input: a stream's first usable accelerometer sample initializes it; a step with
/// `dt ≤ 0`, a non-finite `dt` or a non-finite gyroscope is held; an accelerometer without a
/// direction skips the correction; a magnetometer without one makes the step 6D; a step longer
/// than ``MadgwickFilter/longestStep`` is integrated as that, and each component of the bias
/// estimate stays within ±``MadgwickFilter/Settings-swift.struct/maximumBias``. Streams of
/// different lengths are fine: a stream is untouched after its last step.
///
/// Choose `Lanes` to match the machine's vectors: `SIMD8<Float>` or `SIMD16<Float>`,
/// `SIMD4<Double>` or `SIMD8<Double>`. The engine is fastest with many streams (64 and more):
/// one stream alone is bound by the latency of square roots and divisions, many streams by
/// throughput, and the loop runs all groups of lanes for one step before the next step. See
/// the Performance article for measurements.
///
/// ```swift
/// var samples = MultiStreamSamples<SIMD8<Float>>(recordings: recordings)
/// var engine = MadgwickStreams<SIMD8<Float>>(streamCount: recordings.count)
/// engine.process(samples)
/// let attitude = engine.quaternion(stream: 0)
/// ```
@frozen
public struct MadgwickStreams<Lanes: FusionLanes>: Sendable {
    public typealias Scalar = Lanes.Scalar
    @usableFromInline typealias Mask = SIMDMask<Lanes.MaskStorage>

    /// The state of one group of `Lanes.scalarCount` streams.
    @frozen @usableFromInline
    struct Group: Sendable {
        /// `p`, the unnormalized attitude (sensor → NWU), as in ``MadgwickFilter``.
        @usableFromInline var w: Lanes, x: Lanes, y: Lanes, z: Lanes
        /// The bias estimate, rad/s.
        @usableFromInline var bx: Lanes, by: Lanes, bz: Lanes
        /// 1 where the stream is initialized, else 0.
        @usableFromInline var initialized: Lanes
        /// True when every lane is initialized (the fast path).
        @usableFromInline var allInitialized: Bool

        @inlinable init() {
            w = Lanes(repeating: 1)
            x = Lanes()
            y = Lanes()
            z = Lanes()
            bx = Lanes()
            by = Lanes()
            bz = Lanes()
            initialized = Lanes()
            allInitialized = false
        }
    }

    /// The parameters of every stream's filter; they may be changed between calls. Values outside
    /// their valid ranges are moved into them when set, as ``MadgwickFilter/settings`` does.
    public var settings: MadgwickFilter<Scalar>.Settings {
        didSet { settings = settings.clamped() }
    }
    /// The number of streams.
    public let streamCount: Int
    @usableFromInline var groups: [Group]

    /// `streamCount` uninitialized filters with the same settings (values outside their valid ranges
    /// moved into them, as ``MadgwickFilter/settings`` describes).
    ///
    /// The state takes ``byteCount(streamCount:)`` bytes: check it first when the count comes from
    /// outside the program. As with Swift's own collections, a count out of range is a programmer
    /// error that stops the program, and so does an allocation larger than the memory there is.
    ///
    /// - Precondition: `streamCount ≥ 1` and the size representable (``byteCount(streamCount:)``
    ///   is not nil).
    public init(streamCount: Int, settings: MadgwickFilter<Scalar>.Settings = .init()) {
        precondition(streamCount >= 1, "need at least one stream")
        precondition(Self.byteCount(streamCount: streamCount) != nil, "\(streamCount) streams need more bytes than an Int can count")
        self.streamCount = streamCount
        self.settings = settings.clamped()
        groups = Array(repeating: Group(), count: MultiStreamSamples<Lanes>.groupCount(streamCount: streamCount))
        // Padding lanes count as initialized so that they never keep a group off the fast path.
        for s in streamCount..<(groups.count * Lanes.scalarCount) {
            groups[s / Lanes.scalarCount].initialized[s % Lanes.scalarCount] = 1
        }
    }

    /// The bytes the state of `streamCount` streams takes (one group of `Lanes.scalarCount`
    /// streams per `⌈streamCount / lanes⌉`). Nil when `streamCount < 1` or the size does not fit in
    /// an `Int`. Allocates nothing. (``process(_:taskCount:)`` copies the state once per task.)
    public static func byteCount(streamCount: Int) -> Int? {
        guard streamCount >= 1 else { return nil }
        let (bytes, overflow) = MultiStreamSamples<Lanes>.groupCount(streamCount: streamCount)
            .multipliedReportingOverflow(by: MemoryLayout<Group>.stride)
        return overflow ? nil : bytes
    }

    /// The attitude of one stream, sensor → ``MadgwickFilter/Settings/frame``, unit length
    /// (identity until the stream is initialized).
    public func quaternion(stream: Int) -> Quaternion<Scalar> {
        settings.frame.fromNWU() * nwuQuaternion(stream: stream)
    }

    /// The attitude of one stream, sensor → NWU, unit length.
    public func nwuQuaternion(stream: Int) -> Quaternion<Scalar> {
        let (g, l) = locate(stream)
        return Quaternion(w: groups[g].w[l], x: groups[g].x[l], y: groups[g].y[l], z: groups[g].z[l]).normalized()
    }

    /// The gyroscope bias estimate of one stream, rad/s (zero unless ζ > 0).
    public func gyroscopeBias(stream: Int) -> SIMD3<Scalar> {
        let (g, l) = locate(stream)
        return SIMD3(groups[g].bx[l], groups[g].by[l], groups[g].bz[l])
    }

    /// Whether one stream has been initialized.
    public func isInitialized(stream: Int) -> Bool {
        let (g, l) = locate(stream)
        return groups[g].initialized[l] == 1
    }

    /// One stream as a scalar ``MadgwickFilter`` with the same state, to continue on its own.
    public func filter(stream: Int) -> MadgwickFilter<Scalar> {
        var filter = MadgwickFilter<Scalar>(settings: settings)
        let (g, l) = locate(stream)
        if groups[g].initialized[l] == 1 {
            filter.state.q = Quaternion(w: groups[g].w[l], x: groups[g].x[l], y: groups[g].y[l], z: groups[g].z[l])
            filter.state.initialized = true
        }
        filter.bias = gyroscopeBias(stream: stream)
        return filter
    }

    func locate(_ stream: Int) -> (group: Int, lane: Int) {
        precondition(stream >= 0 && stream < streamCount, "stream out of range")
        return (stream / Lanes.scalarCount, stream % Lanes.scalarCount)
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
    /// concurrent tasks (about one per core is best). Each task owns a contiguous range of groups,
    /// so the tasks share nothing but the read-only samples. With `taskCount == 1` this is
    /// ``process(_:)``. Each call copies the state once per task (nothing per sample); ``process(_:)``
    /// allocates nothing.
    ///
    /// - Precondition: `samples.streamCount == streamCount`, `taskCount ≥ 1`.
    @inlinable
    public mutating func process(_ samples: MultiStreamSamples<Lanes>, taskCount: Int) async {
        precondition(samples.streamCount == streamCount, "the samples have another number of streams")
        precondition(taskCount >= 1, "need at least one task")
        let tasks = min(taskCount, groups.count)
        if tasks == 1 {
            process(samples)
            return
        }
        let prototype = self
        let parts = await GroupTasks.run(groupCount: groups.count, taskCount: tasks) { range in
            var part = prototype
            part.process(samples, groups: range)
            return Array(part.groups[range])
        }
        for (range, part) in parts {
            groups.replaceSubrange(range, with: part)
        }
    }
#endif

    /// The loop: every step, every group in `range`.
    @inlinable
    mutating func process(_ samples: MultiStreamSamples<Lanes>, groups range: Range<Int>) {
        let lanes = Lanes.scalarCount
        let groupCount = samples.groupCount
        let channels = samples.channelCount
        // Steps below a group's shortest stream need no length mask (see MultiStreamSamples).
        let shortest = samples.groupShortest
        let longest = samples.groupLongest
        let settings = self.settings
        let nineD = samples.hasMagnetometer
        let stepCount = samples.stepCount
        let longestStep = Lanes(repeating: MadgwickFilter<Scalar>.longestStep)
        samples.storage.withUnsafeBufferPointer { input in
            self.groups.withUnsafeMutableBufferPointer { state in
                guard let input = input.baseAddress, let state = state.baseAddress else { return }
                // A step longer than MadgwickFilter.longestStep (rare) takes the general path, which
                // bounds it, so that the fast path need not: one pass over the dt channel first tells
                // whether any step here is that long. (Bounding every step in the fast path, or even
                // checking it there, measurably slowed the 16 Float lanes: `motion bench --streams 1024`.)
                var anyLong = Mask(repeating: false)
                for t in 0..<stepCount {
                    let dt = input + t &* channels &* groupCount + 6 &* groupCount
                    for g in range { anyLong = anyLong .| Lanes.laneLess(longestStep, dt[g]) }
                }
                let checksSteps = Lanes.anyLane(anyLong)
                for t in 0..<stepCount {
                    let step = input + t &* channels &* groupCount
                    for g in range where t < longest[g] {
                        // Channel c of this group at this step is step[c * groupCount + g].
                        let sample = step + g
                        let longStep = checksSteps && Lanes.anyLane(Lanes.laneLess(longestStep, sample[6 &* groupCount]))
                        if t < shortest[g] && state[g].allInitialized && !longStep {
                            // The fast path: every stream of the group active and initialized, every
                            // step at most longestStep.
                            if nineD {
                                Self.step(
                                    &state[g], active: nil, sample, stride: groupCount, nineD: true, boundsStep: false,
                                    settings: settings)
                            } else {
                                Self.step(
                                    &state[g], active: nil, sample, stride: groupCount, nineD: false, boundsStep: false,
                                    settings: settings)
                            }
                            continue
                        }
                        var active = Mask(repeating: true)
                        for l in 0..<lanes {
                            let s = g * lanes + l
                            active[l] = s < samples.streamCount && t < samples.lengths[s]
                        }
                        if !state[g].allInitialized {
                            Self.initialize(&state[g], active: &active, sample, stride: groupCount, nineD: nineD)
                        }
                        Self.step(
                            &state[g], active: active, sample, stride: groupCount, nineD: nineD, boundsStep: true,
                            settings: settings)
                    }
                }
            }
        }
    }

    /// Initializes the active, uninitialized lanes from their sample (as the scalar filter's first
    /// update does) and removes them from `active` for this step.
    @inlinable
    static func initialize(
        _ group: inout Group, active: inout Mask, _ sample: UnsafePointer<Lanes>, stride: Int, nineD: Bool
    ) {
        let accelerometer = (sample[3 &* stride], sample[4 &* stride], sample[5 &* stride])
        let magnetometer = nineD ? (sample[7 &* stride], sample[8 &* stride], sample[9 &* stride]) : nil
        var all = true
        for l in 0..<Lanes.scalarCount where group.initialized[l] == 0 {
            guard active[l] else {
                all = false
                continue
            }
            active[l] = false
            let a = SIMD3(accelerometer.0[l], accelerometer.1[l], accelerometer.2[l])
            let m = magnetometer.map { SIMD3($0.0[l], $0.1[l], $0.2[l]) }
            if let q = AttitudeInitializer.nwu(accelerometer: a, magnetometer: m) {
                group.w[l] = q.w
                group.x[l] = q.x
                group.y[l] = q.y
                group.z[l] = q.z
                group.initialized[l] = 1
            } else {
                all = false
            }
        }
        group.allInitialized = all
    }

    @inlinable @inline(__always)
    static func isNormal(_ v: Lanes) -> Mask {
        Lanes.laneGreaterOrEqual(v, Lanes(repeating: .leastNormalMagnitude)) .& Lanes.laneLessOrEqual(v, Lanes(repeating: .greatestFiniteMagnitude))
    }

    /// One step of ``MadgwickFilter/update(gyroscope:accelerometer:magnetometer:dt:)`` in every
    /// active lane; the other lanes keep their state. `boundsStep` false: the caller has checked
    /// that no lane's `dt` exceeds ``MadgwickFilter/longestStep``.
    @inlinable @inline(__always)
    static func step(
        _ s: inout Group, active: Mask?, _ sample: UnsafePointer<Lanes>, stride: Int, nineD: Bool,
        boundsStep: Bool, settings: MadgwickFilter<Scalar>.Settings
    ) {
        let gyx = sample[0], gyy = sample[stride], gyz = sample[2 &* stride]
        let rawDt = sample[6 &* stride]
        let zero = Lanes()
        let finite = Lanes.laneEqual(gyx * 0, zero) .& Lanes.laneEqual(gyy * 0, zero) .& Lanes.laneEqual(gyz * 0, zero)
        var live = Lanes.laneGreater(rawDt, zero) .& Lanes.laneLessOrEqual(rawDt, Lanes(repeating: .greatestFiniteMagnitude)) .& finite
        if let active { live = live .& active }
        // At most MadgwickFilter.longestStep, as `min(dt, longestStep)` (in the lanes that are live).
        let longest = Lanes(repeating: MadgwickFilter<Scalar>.longestStep)
        let dt = boundsStep ? Lanes.select(Lanes.laneLess(longest, rawDt), longest, rawDt) : rawDt

        var n2 = (s.w * s.w + s.x * s.x) + (s.y * s.y + s.z * s.z)
        let inRange = Lanes.laneGreater(n2, Lanes(repeating: 0.25)) .& Lanes.laneLess(n2, Lanes(repeating: 4))
        if Lanes.anyLane(live .& .!inRange) {
            for l in 0..<Lanes.scalarCount where live[l] && !inRange[l] {
                let q = Quaternion(w: s.w[l], x: s.x[l], y: s.y[l], z: s.z[l]).normalized()
                s.w[l] = q.w
                s.x[l] = q.x
                s.y[l] = q.y
                s.z[l] = q.z
            }
            n2 = (s.w * s.w + s.x * s.x) + (s.y * s.y + s.z * s.z)
        }
        let w = s.w, x = s.x, y = s.y, z = s.z
        let ax0 = sample[3 &* stride], ay0 = sample[4 &* stride], az0 = sample[5 &* stride]
        let a2 = (ax0 * ax0 + ay0 * ay0) + az0 * az0
        let accValid = isNormal(a2)
        let ra = 1 / a2.laneSquareRoot()
        let ax = ax0 * ra, ay = ay0 * ra, az = az0 * ra
        let x2 = 2 * x, y2 = 2 * y, z2 = 2 * z, w2 = 2 * w
        var gw: Lanes, gx: Lanes, gy: Lanes, gz: Lanes
        if nineD {
            // With a magnetometer channel: the objective in q's quadratic forms, and the field's
            // rows in the lanes whose magnetometer has a direction.
            let inv = 1 / n2
            let inv2 = 2 * inv
            let b1 = inv2 * (x * z - w * y)
            let b2 = inv2 * (w * x + y * z)
            let b3 = 1 - inv2 * (x * x + y * y)
            let f1 = b1 - ax, f2 = b2 - ay, f3 = b3 - az
            let mx = sample[7 &* stride], my = sample[8 &* stride], mz = sample[9 &* stride]
            let m2 = (mx * mx + my * my) + mz * mz
            let magValid = accValid .& isNormal(m2) .& Lanes.laneLessOrEqual(m2, Lanes(repeating: 0x1p64))
            let tx = y2 * mz - z2 * my
            let ty = z2 * mx - x2 * mz
            let tz = x2 * my - y2 * mx
            let hx = n2 * mx + (w * tx + (y * tz - z * ty))
            let hy = n2 * my + (w * ty + (z * tx - x * tz))
            let hz = n2 * mz + (w * tz + (x * ty - y * tx))
            let sx = (hx * hx + hy * hy).laneSquareRoot()
            let bz = hz * inv
            let a4 = 1 - inv2 * (y * y + z * z)
            let a5 = inv2 * (x * y - w * z)
            let a6 = inv2 * (w * y + x * z)
            let f4 = sx * (inv * a4) + (bz * b1 - mx)
            let f5 = sx * (inv * a5) + (bz * b2 - my)
            let f6 = sx * (inv * a6) + (bz * b3 - mz)
            let r2 = 1 / m2
            let bzr = bz * r2, bxr = sx * (inv * r2)
            let u1 = f1 + bzr * f4, u2 = f2 + bzr * f5, u3 = f3 + bzr * f6
            let kw = y2 * f6 - z2 * f5
            let kx = y2 * f5 + z2 * f6
            let ky = (x2 * f5 + w2 * f6) - 2 * y2 * f4
            let kz = (x2 * f6 - w2 * f5) - 2 * z2 * f4
            gw = Lanes.select(magValid, (x2 * u2 - y2 * u1) + bxr * kw, x2 * f2 - y2 * f1)
            gx = Lanes.select(magValid, ((z2 * u1 + w2 * u2) - 2 * x2 * u3) + bxr * kx, (z2 * f1 + w2 * f2) - 2 * x2 * f3)
            gy = Lanes.select(magValid, ((z2 * u2 - w2 * u1) - 2 * y2 * u3) + bxr * ky, (z2 * f2 - w2 * f1) - 2 * y2 * f3)
            gz = Lanes.select(magValid, (x2 * u1 + y2 * u2) + bxr * kz, x2 * f1 + y2 * f2)
        } else {
            // Without one: the objective times |p|², no division.
            let d1 = 2 * (x * z - w * y)
            let d2 = 2 * (w * x + y * z)
            let d3 = n2 - 2 * (x * x + y * y)
            let e1 = d1 - n2 * ax, e2 = d2 - n2 * ay, e3 = d3 - n2 * az
            gw = x2 * e2 - y2 * e1
            gx = (z2 * e1 + w2 * e2) - 2 * x2 * e3
            gy = (z2 * e2 - w2 * e1) - 2 * y2 * e3
            gz = x2 * e1 + y2 * e2
        }
        let g2 = (gw * gw + gx * gx) + (gy * gy + gz * gz)
        let corrects = accValid .& isNormal(g2)
        gw = Lanes.select(corrects, gw, zero)
        gx = Lanes.select(corrects, gx, zero)
        gy = Lanes.select(corrects, gy, zero)
        gz = Lanes.select(corrects, gz, zero)
        let betaDt = settings.beta * dt
        let stepScale = Lanes.select(corrects, betaDt * (n2 / g2).laneSquareRoot(), zero)
        var rx = gyx - s.bx, ry = gyy - s.by, rz = gyz - s.bz
        if settings.zeta > 0 {
            let ex = ((w * gx - x * gw) - y * gz) + z * gy
            let ey = ((w * gy + x * gz) - y * gw) - z * gx
            let ez = ((w * gz - x * gy) + y * gx) - z * gw
            let k = 2 * settings.zeta * dt * (1 / (n2 * g2)).laneSquareRoot()
            let update = corrects .& live .& Lanes.laneLessOrEqual(k, Lanes(repeating: .greatestFiniteMagnitude))
            // Each component within ±maximumBias, as the scalar filter's `bounded`.
            let limit = Lanes(repeating: settings.maximumBias)
            let negativeLimit = Lanes(repeating: -settings.maximumBias)
            @inline(__always) func bounded(_ b: Lanes) -> Lanes {
                Lanes.select(Lanes.laneLess(b, negativeLimit), negativeLimit, Lanes.select(Lanes.laneGreater(b, limit), limit, b))
            }
            s.bx = Lanes.select(update, bounded(s.bx + ex * k), s.bx)
            s.by = Lanes.select(update, bounded(s.by + ey * k), s.by)
            s.bz = Lanes.select(update, bounded(s.bz + ez * k), s.bz)
            rx = gyx - s.bx
            ry = gyy - s.by
            rz = gyz - s.bz
        }
        let h = dt / 2
        rx *= h
        ry *= h
        rz *= h
        let pw = w - ((x * rx + y * ry) + z * rz)
        let px = x + ((w * rx + y * rz) - z * ry)
        let py = y + ((w * ry - x * rz) + z * rx)
        let pz = z + ((w * rz + x * ry) - y * rx)
        s.w = Lanes.select(live, pw - gw * stepScale, s.w)
        s.x = Lanes.select(live, px - gx * stepScale, s.x)
        s.y = Lanes.select(live, py - gy * stepScale, s.y)
        s.z = Lanes.select(live, pz - gz * stepScale, s.z)
    }
}

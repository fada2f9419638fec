import Foundation
import MotionFusion
import Testing

// The layers above the filters (see HostileInputTests.swift for the filters themselves): timestamps
// that repeat, go backward, jump by three hours or are not numbers through FusionStream,
// DeviceMotionProcessor and MotionManager; saturated sensors and bad sensor values through
// FusionStream; every fault in MadgwickStreams lanes; MotionEventDetector fed broken device motion.

/// The timestamp classes of the issue, planted in a 100 Hz stream of 300 samples.
enum TimestampFault: String, CaseIterable, Sendable {
    case repeated, backward, jumpThreeHours, notANumber, infinite

    static let count = 300

    /// The timestamps: `k × 0.01 s` with the fault from sample 100 on.
    var timestamps: [Double] {
        var t = (0..<Self.count).map { Double($0) * 0.01 }
        switch self {
        case .repeated: for k in 100...102 { t[k] = t[99] }  // three repeats of sample 99's time
        case .backward: t[100] = t[99] - 0.5
        case .jumpThreeHours: for k in 100..<Self.count { t[k] += 3 * 3600 }
        case .notANumber: t[100] = .nan
        case .infinite: (t[100], t[150]) = (.infinity, -.infinity)
        }
        return t
    }

    /// The Bad Input article's table, written out independently of ``SampleClock``: the time step
    /// of each sample and the flag it carries. A gap takes the typical period: here every regular
    /// step is 0.01 s.
    static func documentedSteps(_ t: [Double], maximumGap: Double = 1) -> [(dt: Double, flag: FusionFlags)] {
        var last: Double? = nil
        return t.map { t in
            guard t.isFinite else { return (0, .timestampInvalid) }
            guard let previous = last else {
                last = t
                return (0, [])
            }
            if t == previous { return (0, .timestampRepeated) }
            last = t
            if t < previous { return (0, .timestampBackward) }
            if t - previous > maximumGap { return (0.01, .timestampGap) }
            return (t - previous, [])
        }
    }

    static let timestampFlags: FusionFlags = [.timestampRepeated, .timestampBackward, .timestampGap, .timestampInvalid]
}

/// Two timestamps are the same value (NaN equals NaN).
private func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern }

@Suite("Hostile input: streams, device motion, manager, lanes, events")
struct HostileInputStreamTests {
    typealias FilterCase = HostileInput.FilterCase

    // MARK: Timestamps

    @Test(arguments: FilterCase.all, TimestampFault.allCases)
    func fusionStreamFollowsTheClockRules(_ c: FilterCase, _ fault: TimestampFault) throws {
        switch c.precision {
        case .float: try Self.checkStream(c, fault, Float.self)
        case .double: try Self.checkStream(c, fault, Double.self)
        }
    }

    static func checkStream<S: FusionScalar>(_ c: FilterCase, _ fault: TimestampFault, _: S.Type) throws {
        switch c.kind {
        case .inertial: try checkStream(InertialFrameFilter<S>(), c, fault)
        case .madgwick: try checkStream(MadgwickFilter<S>(), c, fault)
        case .mahony: try checkStream(MahonyFilter<S>(), c, fault)
        case .complementary: try checkStream(ComplementaryFilter<S>(), c, fault)
        }
    }

    /// The batch API (so that "every sample gets an output" is a count), against the bare filter fed
    /// the documented time steps.
    static func checkStream<F: AttitudeFilter>(_ filter: F, _ c: FilterCase, _ fault: TimestampFault) throws {
        let t = fault.timestamps
        let samples = (0..<t.count).map { ConstantRotation.sample($0) }
        var stream = FusionStream(filter: filter)
        let outputs = try stream.process(
            timestamps: t, gyroscope: samples.map { SIMD3<F.Scalar>($0.gyroscope) },
            accelerometer: samples.map { SIMD3<F.Scalar>($0.accelerometer) },
            magnetometer: samples.map { SIMD3<F.Scalar>($0.magnetometer!) })
        try #require(outputs.count == t.count, "\(outputs.count) outputs for \(t.count) samples")
        var reference = filter
        let steps = TimestampFault.documentedSteps(t)
        for (k, out) in outputs.enumerated() {
            let (dt, flag) = steps[k]
            let s = samples[k]
            reference.update(
                gyroscope: SIMD3(s.gyroscope), accelerometer: SIMD3(s.accelerometer), magnetometer: SIMD3(s.magnetometer!),
                dt: F.Scalar(dt))
            let q = Quaternion<Double>(out.quaternion)
            let context = "\(c.testDescription), \(fault), sample \(k)"
            #expect(same(out.timestamp, t[k]), "\(context): timestamp \(out.timestamp)")
            #expect(out.flags.intersection(TimestampFault.timestampFlags) == flag, "\(context): flags \(out.flags.rawValue)")
            guard HostileInput.expectUnit(q, c, "\(fault), sample \(k)") else { return }
            // The documented step, to rounding (a gap's typical period is an average of steps).
            let difference = q.angle(to: Quaternion(reference.quaternion))
            #expect(difference <= 64 * c.epsilon, "\(context): \(difference) rad from the documented steps")
            if k > 0 && dt == 0 {
                #expect(out.quaternion == outputs[k - 1].quaternion, "\(context): not held")
                #expect(!out.flags.contains(.accelerometerUsed), "\(context)")
            }
        }
    }

    /// Sample rates from 1 Hz to 10 kHz are ordinary steps for the clock: no flag, and the filter
    /// integrates over the sample period.
    @Test(arguments: [1, 10, 100, 1000, 10_000])
    func everySampleRateIsARegularStep(rate: Int) {
        var stream = FusionStream(filter: MadgwickFilter<Double>())
        var reference = MadgwickFilter<Double>()
        for k in 0..<200 {
            let s = ConstantRotation.sample(k)
            let out = stream.update(
                timestamp: Double(k) / Double(rate), gyroscope: s.gyroscope, accelerometer: s.accelerometer,
                magnetometer: s.magnetometer)
            reference.update(
                gyroscope: s.gyroscope, accelerometer: s.accelerometer, magnetometer: s.magnetometer,
                dt: k == 0 ? 0 : 1 / Double(rate))
            #expect(out.flags.intersection(TimestampFault.timestampFlags).isEmpty, "\(rate) Hz, sample \(k): \(out.flags.rawValue)")
            #expect(out.quaternion.angle(to: reference.quaternion) < 1e-12, "\(rate) Hz, sample \(k)")
        }
        // At 1 Hz the period is the default maximum gap: a clock running 100 ppm slow makes every
        // step a gap (the documented rule); a maximum gap above the period makes them regular.
        if rate == 1 {
            for (gap, flagged) in [(1.0, true), (2.0, false)] {
                var clock = SampleClock(maximumGap: gap)
                _ = clock.step(to: 0)
                for k in 1...10 { #expect((clock.step(to: Double(k) * 1.0001).event == .gap) == flagged, "maximum gap \(gap)") }
            }
        }
    }

    /// The same samples through the device-motion layer (the default inertial filter, magnetic north).
    static func deviceMotions(_ t: [Double], _ samples: [Sample]) throws -> [DeviceMotion] {
        var processor = try DeviceMotionProcessor<InertialFrameFilter<Double>>(referenceFrame: .xMagneticNorthZVertical)
        return samples.indices.map { k in
            processor.update(
                timestamp: t[k], gyroscope: samples[k].gyroscope, accelerometer: samples[k].accelerometer,
                magnetometer: samples[k].magnetometer)
        }
    }

    @Test(arguments: TimestampFault.allCases)
    func deviceMotionProcessorFollowsTheClockRules(_ fault: TimestampFault) throws {
        let t = fault.timestamps
        let samples = (0..<t.count).map { ConstantRotation.sample($0) }
        let motions = try Self.deviceMotions(t, samples)
        #expect(motions.count == t.count)
        // Magnetic north is the filter's NWU frame: the attitude is the filter's, stepped as documented.
        var reference = InertialFrameFilter<Double>(settings: .init(frame: .nwu))
        let steps = TimestampFault.documentedSteps(t)
        let c = FilterCase(kind: .inertial, precision: .double)
        for (k, motion) in motions.enumerated() {
            let s = samples[k]
            reference.update(gyroscope: s.gyroscope, accelerometer: s.accelerometer, magnetometer: s.magnetometer, dt: steps[k].dt)
            let q = motion.attitude.quaternion
            #expect(same(motion.timestamp, t[k]), "\(fault), sample \(k)")
            guard HostileInput.expectUnit(q, c, "\(fault), sample \(k)") else { return }
            #expect(q.angle(to: reference.quaternion) <= 1e-12, "\(fault), sample \(k)")
            if k > 0 && steps[k].dt == 0 { #expect(q == motions[k - 1].attitude.quaternion, "\(fault), sample \(k): not held") }
            #expect(abs((motion.gravity * motion.gravity).sum().squareRoot() - 1) < 1e-12 && motion.heading >= 0 && motion.heading < 360)
        }
    }

    @Test(arguments: TimestampFault.allCases)
    func motionManagerDeliversEverySampleWithBadTimestamps(_ fault: TimestampFault) async throws {
        let t = fault.timestamps
        let samples = (0..<t.count).map { ConstantRotation.sample($0) }
        var recording = IMURecording()
        recording.timestamps = t
        recording.gyroscope = samples.map(\.gyroscope)
        recording.accelerometer = samples.map(\.accelerometer)
        recording.magnetometer = samples.map { $0.magnetometer! }
        let manager = MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))
        var delivered: [DeviceMotion] = []
        for await motion in manager.deviceMotionUpdates(using: .xMagneticNorthZVertical) { delivered.append(motion) }
        #expect(
            delivered.count == t.count && manager.sampleCount == t.count && manager.error == nil,
            "\(fault): \(delivered.count) of \(t.count)")
        // The manager runs the device-motion processor on every sample, in order.
        let expected = try Self.deviceMotions(t, samples)
        for (k, (a, b)) in zip(delivered, expected).enumerated() {
            #expect(same(a.timestamp, b.timestamp) && a.attitude.quaternion == b.attitude.quaternion, "\(fault), sample \(k)")
        }
    }

    // MARK: Sensor values through the stream

    /// Each sensor fault (not the time-step ones: the stream makes its own steps) after 30 good
    /// samples: the documented flags, and the outputs' derived values stay finite.
    @Test(arguments: FilterCase.all, SensorFault.allCases.filter { !$0.rawValue.hasPrefix("timeStep") })
    func fusionStreamFlagsBadSensorValues(_ c: FilterCase, _ fault: SensorFault) {
        switch (c.kind, c.precision) {
        case (.inertial, .float): Self.checkFlags(InertialFrameFilter<Float>(), c, fault)
        case (.inertial, .double): Self.checkFlags(InertialFrameFilter<Double>(), c, fault)
        case (.madgwick, .float): Self.checkFlags(MadgwickFilter<Float>(), c, fault)
        case (.madgwick, .double): Self.checkFlags(MadgwickFilter<Double>(), c, fault)
        case (.mahony, .float): Self.checkFlags(MahonyFilter<Float>(), c, fault)
        case (.mahony, .double): Self.checkFlags(MahonyFilter<Double>(), c, fault)
        case (.complementary, .float): Self.checkFlags(ComplementaryFilter<Float>(), c, fault)
        case (.complementary, .double): Self.checkFlags(ComplementaryFilter<Double>(), c, fault)
        }
    }

    static func checkFlags<F: AttitudeFilter>(_ filter: F, _ c: FilterCase, _ fault: SensorFault) {
        var warm = FusionStream(filter: filter)
        var last: FusionOutput<F.Scalar>? = nil
        for k in 0..<30 {
            let s = ConstantRotation.sample(k)
            last = warm.update(
                timestamp: Double(k) * 0.01, gyroscope: SIMD3(s.gyroscope), accelerometer: SIMD3(s.accelerometer),
                magnetometer: s.magnetometer.map { SIMD3($0) })
        }
        for (v, bad) in fault.variants(of: ConstantRotation.sample(30)).enumerated() {
            var stream = warm
            let out = stream.update(
                timestamp: 0.3, gyroscope: SIMD3(bad.gyroscope), accelerometer: SIMD3(bad.accelerometer),
                magnetometer: bad.magnetometer.map { SIMD3($0) })
            let context = "\(c.testDescription), \(fault) variant \(v)"
            let flags = out.flags
            switch fault {
            // 1000 rad/s or more is corrupt: every filter is given NaN (FusionFlags.gyroscopeInvalid).
            case .gyroscopeNaN, .gyroscopeInfinite, .gyroscopeAbsurd:
                #expect(flags.contains(.gyroscopeInvalid) && !flags.contains(.accelerometerUsed), "\(context): \(flags.rawValue)")
                #expect(out.quaternion == last!.quaternion, "\(context): not held")
            case .accelerometerNaN, .accelerometerInfinite, .accelerometerZero:
                #expect(!flags.contains(.accelerometerUsed) && !flags.contains(.magnetometerUsed), "\(context): \(flags.rawValue)")
            case .magnetometerNaN, .magnetometerInfinite, .magnetometerZero, .magnetometerMissing:
                #expect(flags.contains(.accelerometerUsed) && !flags.contains(.magnetometerUsed), "\(context): \(flags.rawValue)")
            case .accelerometerAbsurd, .magnetometerAbsurd, .timeStepZero, .timeStepNegative, .timeStepNaN,
                .timeStepInfinite, .timeStepAbsurd:
                break  // no flag documented (no sensor ranges are set here)
            }
            if ![.gyroscopeNaN, .gyroscopeInfinite, .gyroscopeAbsurd].contains(fault) {
                #expect(!flags.contains(.gyroscopeInvalid), "\(context)")
            }
            HostileInput.expectUnit(Quaternion(out.quaternion), c, "\(fault) variant \(v)")
            // Gravity comes from the attitude: always finite, of the configured magnitude. A
            // non-finite accelerometer gives zero linear acceleration.
            let g = SIMD3<Double>(out.gravity)
            #expect(abs((g * g).sum().squareRoot() - 9.80665) < 1e-5, "\(context): gravity \(g)")
            let linear = [SIMD3<Double>(out.linearAcceleration), SIMD3<Double>(out.earthLinearAcceleration)]
            let accelerometerFinite = (bad.accelerometer * 0) == .zero
            if !accelerometerFinite { #expect(linear == [.zero, .zero], "\(context)") }
            if accelerometerFinite && fault != .accelerometerAbsurd {
                #expect(linear.allSatisfy { ($0 * 0) == .zero }, "\(context)")
            }
        }
    }

    // MARK: Saturation

    /// Ranges of a common IMU: ±2000 °/s (34.9 rad/s) and ±16 g.
    static let ranges = (gyroscope: 34.9, accelerometer: 16 * 9.80665)

    @Test(arguments: FilterCase.all)
    func saturatedSensorsAreFlaggedAndTheAccelerometerIsNotUsed(_ c: FilterCase) {
        switch (c.kind, c.precision) {
        case (.inertial, .float): Self.checkSaturation(InertialFrameFilter<Float>(), c)
        case (.inertial, .double): Self.checkSaturation(InertialFrameFilter<Double>(), c)
        case (.madgwick, .float): Self.checkSaturation(MadgwickFilter<Float>(), c)
        case (.madgwick, .double): Self.checkSaturation(MadgwickFilter<Double>(), c)
        case (.mahony, .float): Self.checkSaturation(MahonyFilter<Float>(), c)
        case (.mahony, .double): Self.checkSaturation(MahonyFilter<Double>(), c)
        case (.complementary, .float): Self.checkSaturation(ComplementaryFilter<Float>(), c)
        case (.complementary, .double): Self.checkSaturation(ComplementaryFilter<Double>(), c)
        }
    }

    static func checkSaturation<F: AttitudeFilter>(_ filter: F, _ c: FilterCase) {
        typealias S = F.Scalar
        let settings = FusionStream<F>.Settings(gyroscopeRange: S(ranges.gyroscope), accelerometerRange: S(ranges.accelerometer))
        var saturated = FusionStream(filter: filter, settings: settings)
        let level = SIMD3<S>(0, 0, 9.80665)
        _ = saturated.update(timestamp: 0, gyroscope: .zero, accelerometer: level)
        var unlimited = saturated
        unlimited.settings = .init()
        var reference = saturated.filter
        let start = Quaternion<Double>(saturated.filter.quaternion)

        // One second at rest while the accelerometer reads 16 g sideways (a knock at the range):
        // the saturated reading must not tilt the attitude; the same reading without a range does.
        let knock = SIMD3<S>(S(ranges.accelerometer), 0, 9.80665)
        for k in 1...100 {
            let t = Double(k) * 0.01
            let out = saturated.update(timestamp: t, gyroscope: .zero, accelerometer: knock)
            _ = unlimited.update(timestamp: t, gyroscope: .zero, accelerometer: knock)
            reference.update(gyroscope: .zero, accelerometer: .zero, magnetometer: nil, dt: S(0.01))
            #expect(out.flags.contains(.accelerometerSaturated) && !out.flags.contains(.accelerometerUsed), "\(c.testDescription), \(k)")
            #expect(out.quaternion == reference.quaternion, "\(c.testDescription), \(k): not the step without accelerometer")
        }
        let tilt = Quaternion<Double>(saturated.filter.quaternion).angle(to: start)
        let tiltWithoutRange = Quaternion<Double>(unlimited.filter.quaternion).angle(to: start)
        #expect(tilt <= 100 * 16 * c.epsilon, "\(c.testDescription): the saturated accelerometer tilted by \(tilt) rad")
        #expect(tiltWithoutRange > 1 * HostileInput.degree, "\(c.testDescription): \(tiltWithoutRange) rad without a range")

        // Five samples at 40 rad/s about x, beyond the range: flagged, and still integrated (here
        // without an accelerometer, so the rotation is the rate's alone).
        let before = Quaternion<Double>(saturated.filter.quaternion)
        for k in 101...105 {
            let out = saturated.update(timestamp: Double(k) * 0.01, gyroscope: SIMD3(40, 0, 0), accelerometer: .zero)
            #expect(out.flags.contains(.gyroscopeSaturated) && !out.flags.contains(.gyroscopeInvalid), "\(c.testDescription), \(k)")
        }
        let expected = before * Quaternion(angle: 5 * c.stepAngle(rate: 40, dt: 0.01), axis: SIMD3(1, 0, 0))
        // Rounding, and the inertial filter's exponential series: accurate to 1e-9 per step below
        // 0.25 rad (its documentation; a step here is 0.2 rad).
        let tolerance = 5 * (16 * c.epsilon * 40 * 0.01 + (c.kind == .inertial ? 1e-9 : 0))
        let error = Quaternion<Double>(saturated.filter.quaternion).angle(to: expected)
        #expect(error <= tolerance, "\(c.testDescription): \(error) rad")
        // At the range with a usable accelerometer: flagged and fused as usual.
        let out = saturated.update(timestamp: 1.06, gyroscope: SIMD3(S(ranges.gyroscope), 0, 0), accelerometer: level)
        #expect(out.flags.contains(.gyroscopeSaturated) && out.flags.contains(.accelerometerUsed), "\(c.testDescription)")
    }
}

extension HostileInputStreamTests {
    // MARK: Device motion and the manager with bad sensor values

    /// The burst recording of the filter tests (every fault class from 5 s to 7 s) through
    /// MotionManager: a device-motion sample for every input, equal to the processor's; attitude,
    /// gravity and heading always valid; the rates and accelerations are the measurements, so they
    /// are non-finite exactly when the input is.
    @Test func deviceMotionFromBadSensorValues() async throws {
        let samples = HostileInputFilterTests.burst.hostile
        var recording = IMURecording()
        recording.timestamps = samples.indices.map { Double($0) * 0.01 }
        recording.gyroscope = samples.map(\.gyroscope)
        recording.accelerometer = samples.map(\.accelerometer)
        recording.magnetometer = samples.map { $0.magnetometer ?? SIMD3(repeating: .nan) }
        let manager = MotionManager(source: RecordingSource(recording, pacing: .asFastAsPossible))
        var delivered: [DeviceMotion] = []
        for await motion in manager.deviceMotionUpdates(using: .xMagneticNorthZVertical) { delivered.append(motion) }
        #expect(delivered.count == samples.count)
        var processor = try DeviceMotionProcessor<InertialFrameFilter<Double>>(referenceFrame: .xMagneticNorthZVertical)
        let c = FilterCase(kind: .inertial, precision: .double)
        func finite(_ v: SIMD3<Double>) -> Bool { (v * 0) == .zero }
        for (k, motion) in delivered.enumerated() {
            let expected = processor.update(
                timestamp: recording.timestamps[k], gyroscope: recording.gyroscope[k], accelerometer: recording.accelerometer[k],
                magnetometer: recording.magnetometer![k])
            #expect(motion.attitude.quaternion == expected.attitude.quaternion, "sample \(k)")
            guard HostileInput.expectUnit(motion.attitude.quaternion, c, "sample \(k)") else { return }
            #expect(abs((motion.gravity * motion.gravity).sum().squareRoot() - 1) < 1e-12, "sample \(k)")
            #expect(motion.heading >= 0 && motion.heading < 360, "sample \(k)")
            #expect(finite(motion.rotationRate) == finite(recording.gyroscope[k]), "sample \(k)")
            #expect(finite(motion.userAcceleration) == finite(recording.accelerometer[k]), "sample \(k)")
        }
    }

    // MARK: MadgwickStreams lanes

    @Test func everyFaultInItsOwnLaneFloat() { Self.checkLanes(SIMD8<Float>.self) }
    @Test func everyFaultInItsOwnLaneDouble() { Self.checkLanes(SIMD4<Double>.self) }

    /// Lane 0 clean; lane i + 1 gets fault class i: each variant as an extra step inserted into the
    /// same clean samples. Every lane equals the scalar ``MadgwickFilter`` fed its samples, bit for
    /// bit, stays a unit quaternion, and a lane whose extra steps are held ends exactly where the
    /// clean lane does.
    static func checkLanes<Lanes: FusionLanes>(_: Lanes.Type) {
        typealias S = Lanes.Scalar
        let faults = SensorFault.allCases
        let clean = (0..<200).map { ConstantRotation.sample($0) }
        var streams: [[Sample]] = [clean]
        for fault in faults {
            var stream = clean
            for (v, bad) in fault.variants(of: clean[40]).enumerated().reversed() {
                var bad = bad
                if bad.magnetometer == nil { bad.magnetometer = .zero }  // how the lanes store a missing one
                stream.insert(bad, at: 40 + 5 * v)
            }
            streams.append(stream)
        }
        var samples = MultiStreamSamples<Lanes>(streamCount: streams.count, stepCount: streams.map(\.count).max()!, hasMagnetometer: true)
        for (i, stream) in streams.enumerated() {
            samples.setLength(stream.count, ofStream: i)
            for (t, s) in stream.enumerated() {
                samples.set(
                    stream: i, step: t, gyroscope: SIMD3(s.gyroscope), accelerometer: SIMD3(s.accelerometer),
                    magnetometer: s.magnetometer.map { SIMD3($0) }, dt: S(t == 0 ? 0 : s.dt))
            }
        }
        var engine = MadgwickStreams<Lanes>(streamCount: streams.count)
        engine.process(samples)
        let c = FilterCase(kind: .madgwick, precision: S.self == Float.self ? .float : .double)
        for (i, stream) in streams.enumerated() {
            var scalar = MadgwickFilter<S>()
            for t in 0..<stream.count {
                let x = samples.sample(stream: i, step: t)
                scalar.update(gyroscope: x.gyroscope, accelerometer: x.accelerometer, magnetometer: x.magnetometer, dt: x.dt)
            }
            let name = i == 0 ? "clean" : "\(faults[i - 1])"
            let q = engine.quaternion(stream: i)
            #expect(q == scalar.quaternion, "\(name): the lane differs from the scalar filter")
            HostileInput.expectUnit(Quaternion(q), c, "lane \(name)")
            if i > 0 && faults[i - 1].rule(for: .madgwick) == .held {
                #expect(q == engine.quaternion(stream: 0), "\(name): the held steps left a trace")
            }
        }
    }

    /// Recordings with each timestamp fault, through `MultiStreamSamples(recordings:)` and the lanes:
    /// the same attitude as a ``FusionStream`` with the same filter (the clock's rules).
    @Test func lanesFromRecordingsFollowTheClockRules() {
        let faults = TimestampFault.allCases
        let recordings = faults.map { fault -> IMURecording in
            let t = fault.timestamps
            var r = IMURecording()
            r.timestamps = t
            let samples = t.indices.map { ConstantRotation.sample($0) }
            r.gyroscope = samples.map(\.gyroscope)
            r.accelerometer = samples.map(\.accelerometer)
            r.magnetometer = samples.map { $0.magnetometer! }
            return r
        }
        let samples = MultiStreamSamples<SIMD4<Double>>(recordings: recordings)
        var engine = MadgwickStreams<SIMD4<Double>>(streamCount: recordings.count)
        engine.process(samples)
        for (i, r) in recordings.enumerated() {
            var stream = FusionStream(filter: MadgwickFilter<Double>())
            var last = Quaternion<Double>.identity
            for k in 0..<r.count {
                last = stream.update(
                    timestamp: r.timestamps[k], gyroscope: r.gyroscope[k], accelerometer: r.accelerometer[k],
                    magnetometer: r.magnetometer![k]
                ).quaternion
            }
            let difference = engine.quaternion(stream: i).angle(to: last)
            #expect(difference <= 1e-12, "\(faults[i]): \(difference) rad from FusionStream")
        }
    }

    // MARK: Motion events

    /// MotionEventDetector takes device motion: broken samples interleaved with a real gesture
    /// stream (NaN and infinite accelerations, gravity and timestamps, and repeated samples) change
    /// no event.
    @Test func motionEventsIgnoreBrokenDeviceMotion() throws {
        let recording = try MotionScenario.named("gestures")!.generate()
        var processor = try DeviceMotionProcessor<InertialFrameFilter<Double>>(referenceFrame: .xArbitraryZVertical)
        let motions = recording.timestamps.indices.map { k in
            processor.update(
                timestamp: recording.timestamps[k], gyroscope: recording.gyroscope[k],
                accelerometer: recording.accelerometer[k], magnetometer: nil)
        }
        func events(_ motions: [DeviceMotion]) -> [MotionEvent] {
            var detector = MotionEventDetector()
            var events: [MotionEvent] = []
            for m in motions { detector.update(m, into: &events) }
            detector.finish(at: motions.last!.timestamp, into: &events)
            return events
        }
        let clean = events(motions)
        #expect(clean.count >= 5, "the gestures give events: \(clean)")
        var broken: [DeviceMotion] = []
        for (k, m) in motions.enumerated() {
            broken.append(m)
            var b = m
            switch k % 6 {
            case 0: b.userAcceleration = SIMD3(.nan, 0, 0)
            case 1: b.gravity = SIMD3(0, .infinity, 0); b.userAcceleration.z = -.infinity
            case 2: b.timestamp = .nan
            case 3: b.timestamp = .infinity
            case 4: b.gravity = SIMD3(repeating: .nan)
            default: break  // an exact repeat: same timestamp
            }
            if k % 6 == 0 || k % 6 == 1 || k % 6 == 4 { b.timestamp = .nan }
            broken.append(b)
        }
        #expect(events(broken) == clean)
    }
}

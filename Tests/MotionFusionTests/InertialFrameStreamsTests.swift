import Foundation
import Testing

@testable import MotionFusion
@testable import MotionFusionCore

/// The default filter's many-stream engine against the scalar filter: every stream must end with
/// exactly the scalar filter's state (attitude 9D and 6D, bias, sensitivity, their variances, rest
/// and disturbance flags, magnetometer lag) when both are fed the same stored samples — on the BROAD
/// trials (real motion, rests, magnetic disturbances), with different settings per stream, and on
/// synthetic recordings with bad samples that take the scalar path; in Float and Double, processed
/// in chunks and on several tasks.
struct InertialFrameStreamsTests {
    /// Every observable of a filter, as bit patterns (so that −0 and NaN compare too).
    static func fingerprint<S: FusionScalar>(_ f: InertialFrameFilter<S>) -> [UInt64] {
        var values: [S] = []
        values += [f.quaternion.w, f.quaternion.x, f.quaternion.y, f.quaternion.z]
        values += [f.quaternion6D.w, f.quaternion6D.x, f.quaternion6D.y, f.quaternion6D.z]
        let b = f.gyroscopeBias, k = f.gyroscopeScale, bs = f.gyroscopeBiasSigma, ks = f.gyroscopeScaleSigma
        values += [b.x, b.y, b.z, k.x, k.y, k.z, bs.x, bs.y, bs.z, ks.x, ks.y, ks.z]
        values += [f.magnetometerLatency, f.headingDisagreement]
        var bits = values.map { Double($0).bitPattern }  // Float → Double is exact
        bits += [f.isRestDetected ? 1 : 0, f.isMagneticDisturbanceDetected ? 1 : 0, f.isInitialized ? 1 : 0]
        return bits
    }

    /// Runs the engine over `recordings` (in `chunks` consecutive pieces, or on `tasks` tasks) and a
    /// scalar filter per recording over the same stored samples; returns the streams whose final
    /// state differs.
    static func differingStreams<Lanes: FusionLanes>(
        _: Lanes.Type, _ recordings: [IMURecording], settings: [InertialFrameFilter<Lanes.Scalar>.Settings],
        chunks: Int = 1, tasks: Int = 1
    ) async -> [Int] {
        await run(Lanes.self, recordings, settings: settings, chunks: chunks, tasks: tasks).differing
    }

    /// As `differingStreams`, also returning the steps the groups took by the vector step.
    static func run<Lanes: FusionLanes>(
        _: Lanes.Type, _ recordings: [IMURecording], settings: [InertialFrameFilter<Lanes.Scalar>.Settings],
        chunks: Int = 1, tasks: Int = 1
    ) async -> (differing: [Int], vectorSteps: Int) {
        typealias S = Lanes.Scalar
        let all = MultiStreamSamples<Lanes>(recordings: recordings)
        var engine = InertialFrameStreams<Lanes>(settings: settings)
        // Chunks: the same samples cut into consecutive pieces of steps.
        let bounds = (0...chunks).map { all.stepCount * $0 / chunks }
        for c in 0..<chunks {
            let steps = bounds[c + 1] - bounds[c]
            var piece = MultiStreamSamples<Lanes>(
                streamCount: all.streamCount, stepCount: steps, hasMagnetometer: all.hasMagnetometer)
            for s in 0..<all.streamCount {
                let length = min(max(all.lengths[s] - bounds[c], 0), steps)
                piece.setLength(length, ofStream: s)
                for t in 0..<length {
                    let x = all.sample(stream: s, step: bounds[c] + t)
                    piece.set(
                        stream: s, step: t, gyroscope: x.gyroscope, accelerometer: x.accelerometer,
                        magnetometer: x.magnetometer, dt: x.dt)
                }
            }
            if tasks == 1 {
                engine.process(piece)
            } else {
                await engine.process(piece, taskCount: tasks)
            }
        }
        var differing: [Int] = []
        for s in 0..<recordings.count {
            var filter = InertialFrameFilter<S>(settings: settings[s])
            for t in 0..<all.lengths[s] {
                let x = all.sample(stream: s, step: t)
                filter.update(gyroscope: x.gyroscope, accelerometer: x.accelerometer, magnetometer: x.magnetometer, dt: x.dt)
            }
            if fingerprint(engine.filter(stream: s)) != fingerprint(filter) { differing.append(s) }
        }
        return (differing, engine.groups.reduce(0) { $0 + $1.vectorSteps })
    }

    /// Settings that differ per stream (time constants, rest thresholds, latency estimation, the
    /// correction interval), so that the lanes of one group run different filters.
    static func variedSettings<S: FusionScalar>(_ count: Int) -> [InertialFrameFilter<S>.Settings] {
        (0..<count).map { s in
            var settings = InertialFrameFilter<S>.Settings()
            switch s % 4 {
            case 1:
                settings.accelerometerTimeConstant = 2.5
                settings.magnetometerTimeConstant = 12
            case 2:
                settings.restGyroscopeThreshold *= 3
                settings.estimatesMagnetometerLatency = false
            case 3:
                settings.correctionInterval = 0.05
                settings.biasMotionSigma *= 4
            default: break
            }
            if s % 13 == 12 { settings.estimatesBiasAtRest = false }  // keeps its group in the scalar path
            return settings
        }
    }

    @Test(
        .enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"),
        arguments: [false, true])
    func broadTrialsEqualTheScalarFilter(magnetometer: Bool) async throws {
        // Nine trials, four of them twice with other settings: 13 streams, two groups of eight
        // Float lanes (the second part padding) and four groups of four Double lanes.
        var recordings = try BroadData.trials.map { try BroadData.recording($0) }
        recordings += recordings.prefix(4)
        if !magnetometer {
            for i in recordings.indices { recordings[i].magnetometer = nil }
        }
        let float = await Self.run(
            SIMD8<Float>.self, recordings, settings: Self.variedSettings(recordings.count), chunks: 2)
        #expect(float.differing.isEmpty, "Float lanes differing from the scalar filter: \(float.differing)")
        let double = await Self.run(
            SIMD4<Double>.self, recordings, settings: Self.variedSettings(recordings.count), tasks: 2)
        #expect(double.differing.isEmpty, "Double lanes differing from the scalar filter: \(double.differing)")
        // One 16-byte register's lanes (what `motion bench` and `motion tune` run in a build without
        // CPU flags), 9D in four groups of four Float lanes and 6D in seven of two Double lanes, the
        // last partly filled.
        if magnetometer {
            let narrow = await Self.run(
                SIMD4<Float>.self, recordings, settings: Self.variedSettings(recordings.count), chunks: 3)
            #expect(narrow.differing.isEmpty, "SIMD4 Float lanes differing from the scalar filter: \(narrow.differing)")
        } else {
            let narrow = await Self.run(SIMD2<Double>.self, recordings, settings: Self.variedSettings(recordings.count))
            #expect(narrow.differing.isEmpty, "SIMD2 Double lanes differing from the scalar filter: \(narrow.differing)")
        }
        // Sixteen streams in SIMD16 Float lanes, one group (no stream without rest estimation).
        let sixteen = Array((recordings + recordings).prefix(16))
        var wideSettings: [InertialFrameFilter<Float>.Settings] = Self.variedSettings(16)
        for i in wideSettings.indices { wideSettings[i].estimatesBiasAtRest = true }
        let wide = await Self.run(SIMD16<Float>.self, sixteen, settings: wideSettings)
        #expect(wide.differing.isEmpty, "SIMD16 Float lanes differing from the scalar filter: \(wide.differing)")
        // The vector step carried the work: most steps of the full groups (the shortest trial has
        // over 20,000 samples) went through the lanes in each run. (Stream 12, without rest
        // estimation, is in a partly filled group, which is scalar anyway.)
        #expect(float.vectorSteps > 20_000 && double.vectorSteps > 20_000 && wide.vectorSteps > 20_000,
                "vector steps: \(float.vectorSteps), \(double.vectorSteps), \(wide.vectorSteps)")
    }

    @Test(arguments: [false, true])
    func badSamplesTakeTheScalarPathAndStillAgree(magnetometer: Bool) async {
        // NaN and infinite gyroscope samples, zero and NaN accelerometers and magnetometers,
        // repeated and backward timestamps, a one-hour jump, late initialization (see
        // MadgwickStreamsTests.allRecordings), on 12 streams of different lengths.
        let recordings = MadgwickStreamsTests.recordings(count: 12, magnetometer: magnetometer)
        let settings: [InertialFrameFilter<Double>.Settings] = Self.variedSettings(12)
        let double = await Self.differingStreams(SIMD8<Double>.self, recordings, settings: settings, chunks: 3)
        #expect(double.isEmpty, "Double lanes differing from the scalar filter: \(double)")
        let float = await Self.differingStreams(
            SIMD16<Float>.self, recordings, settings: Self.variedSettings(12), chunks: 1, tasks: 3)
        #expect(float.isEmpty, "Float lanes differing from the scalar filter: \(float)")
    }

    @Test func jitteryClocksStayInTheVectorStepAndAgree() async throws {
        // Phones' clocks jitter: every Δt differs from the last by more than the cached gains'
        // tolerance, so the vector step remakes the rest detector's gain at every sample, as the
        // scalar filter does, and must still match it bit for bit.
        var recordings = MadgwickStreamsTests.recordings(count: 40, magnetometer: true).enumerated()
            .filter { $0.offset % 3 != 0 && $0.offset % 4 != 1 && $0.offset % 5 != 2 }.map(\.element)
        try #require(recordings.count >= 8)
        recordings = Array(recordings.prefix(8))
        for r in recordings.indices {
            for i in recordings[r].timestamps.indices {
                recordings[r].timestamps[i] += 0.0002 * sin(Double(i) * 1.7 + Double(r))  // ±0.2 ms
            }
            // Samples the vector step must leave to the scalar filter although Δt is usual: a
            // rotation over 0.25 rad in one sample, a rate beyond 1000 rad/s, a specific force
            // beyond 1000 m/s².
            let n = recordings[r].count
            recordings[r].gyroscope[n / 3] = SIMD3(60, 0, 0)
            recordings[r].gyroscope[n / 2] = SIMD3(0, 1500, 0)
            recordings[r].accelerometer[2 * n / 3] = SIMD3(0, 0, 2000)
        }
        let float = await Self.differingStreams(SIMD16<Float>.self, recordings + recordings, settings: Self.variedSettings(16))
        #expect(float.isEmpty, "Float lanes differing from the scalar filter: \(float)")
        let double = await Self.differingStreams(SIMD4<Double>.self, recordings, settings: Self.variedSettings(8))
        #expect(double.isEmpty, "Double lanes differing from the scalar filter: \(double)")
        // All but the first few steps and the twelve planted samples of each group's streams.
        Self.expectVectorSteps(recordings, allBut: 30)
    }

    /// Runs 8 streams in SIMD4 Double lanes and expects each group to have taken the vector step
    /// at all but `slack` of its shortest stream's steps.
    static func expectVectorSteps(
        _ recordings: [IMURecording], allBut slack: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let samples = MultiStreamSamples<SIMD4<Double>>(recordings: recordings)
        var engine = InertialFrameStreams<SIMD4<Double>>(streamCount: 8)
        engine.process(samples)
        for g in 0..<2 {
            let steps = (0..<4).map { samples.lengths[4 * g + $0] }.min()!
            #expect(
                engine.groups[g].vectorSteps >= steps - slack, "group \(g): \(engine.groups[g].vectorSteps) of \(steps)",
                sourceLocation: sourceLocation)
        }
    }

    @Test func theVectorStepCarriesTheWork() throws {
        // A guard against an engine that is exact only because everything falls back to the scalar
        // filter: on clean synthetic recordings (none of the planted bad samples) every group takes
        // the vector step at all but its first few steps.
        let recordings = MadgwickStreamsTests.recordings(count: 40, magnetometer: true).enumerated()
            .filter { $0.offset % 3 != 0 && $0.offset % 4 != 1 && $0.offset % 5 != 2 }.map(\.element)
        try #require(recordings.count >= 8)
        Self.expectVectorSteps(Array(recordings.prefix(8)), allBut: 10)
    }
    /// Every stream fed the same readings by `update` (a search over settings): each stream's
    /// attitude (`quaternion(stream:)`, read after every sample) and initialization are its scalar
    /// filter's, bit for bit, and so is its final state — on BROAD's trial 24 (taps, a magnetic
    /// disturbance) with 19 streams of varied settings (a group without rest estimation and a partly
    /// filled group take the scalar path), 6D steps amid 9D ones, planted NaN gyroscope and
    /// accelerometer samples, and the magnetometer's calibration changed twice.
    @Test(
        .enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"),
        arguments: [false, true])
    func theSameReadingsForEveryStreamGiveEachItsScalarFilter(double: Bool) throws {
        let recording = try BroadData.recording("24_disturbed_tapping_A")
        if double {
            try Self.expectBroadcastEqualsScalar(SIMD4<Double>.self, recording)
            try Self.expectBroadcastEqualsScalar(SIMD2<Double>.self, recording)
        } else {
            try Self.expectBroadcastEqualsScalar(SIMD8<Float>.self, recording)
            try Self.expectBroadcastEqualsScalar(SIMD4<Float>.self, recording)
        }
    }

    static func expectBroadcastEqualsScalar<Lanes: FusionLanes>(
        _: Lanes.Type, _ recording: IMURecording, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        typealias S = Lanes.Scalar
        let samples = MultiStreamSamples<SIMD2<S>>(recordings: [recording])
        let settings: [InertialFrameFilter<S>.Settings] = variedSettings(19)
        var engine = InertialFrameStreams<Lanes>(settings: settings)
        var filters = settings.map { InertialFrameFilter<S>(settings: $0) }
        let n = samples.lengths[0]
        var differing = Set<Int>(), compared = 0
        for t in 0..<n {
            var x = samples.sample(stream: 0, step: t)
            if t % 997 == 500 { x.gyroscope = SIMD3(repeating: .nan) }
            if t % 1009 == 700 { x.accelerometer = SIMD3(repeating: .nan) }
            let field = t % 3 == 1 ? nil : x.magnetometer
            if t == n / 3 || t == 2 * n / 3 {
                engine.magnetometerCalibrationChanged()
                for s in filters.indices { filters[s].magnetometerCalibrationChanged() }
            }
            engine.update(gyroscope: x.gyroscope, accelerometer: x.accelerometer, magnetometer: field, dt: x.dt)
            for s in filters.indices {
                filters[s].update(gyroscope: x.gyroscope, accelerometer: x.accelerometer, magnetometer: field, dt: x.dt)
                let a = engine.quaternion(stream: s).components, b = filters[s].quaternion.components
                let same = (0..<4).allSatisfy { Double(a[$0]).bitPattern == Double(b[$0]).bitPattern }
                if !same || engine.isInitialized(stream: s) != filters[s].isInitialized { differing.insert(s) }
                compared += 1
            }
        }
        for s in filters.indices where fingerprint(engine.filter(stream: s)) != fingerprint(filters[s]) {
            differing.insert(s)
        }
        #expect(differing.isEmpty, "streams differing from their scalar filter: \(differing.sorted())", sourceLocation: sourceLocation)
        #expect(compared == 19 * n && n > 20_000, sourceLocation: sourceLocation)
        // The full groups without a stream that lacks rest estimation took the vector step at most samples.
        let vector = engine.groups[0].vectorSteps
        #expect(vector > n * 9 / 10, "group 0: \(vector) vector steps of \(n)", sourceLocation: sourceLocation)
        // The attitude is not trivially the same: the streams' settings make it differ.
        #expect(engine.quaternion(stream: 0) != engine.quaternion(stream: 1), sourceLocation: sourceLocation)
    }
}

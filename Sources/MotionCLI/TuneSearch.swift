import Dispatch
import Foundation
import MotionFusion

/// `motion tune`'s work: every candidate filter over every recording, scored.
///
/// Each candidate runs inside a ``FusionStream`` set up as `motion fuse` sets it up by default (its
/// sample clock with the same longest gap; the online magnetometer calibration, unless switched off,
/// replayed from ``TuneRecording``, where it ran once for all candidates), so a candidate's score is what `motion fuse` with its `--set` values and then `motion evaluate`
/// would report (a test checks it). Work items (a recording and a share of the candidates) go to
/// `jobs` threads. A search that takes more than a second says how far it is on standard error
/// once a second.
///
/// The default filter's candidates run as the lanes of its many-stream engine
/// (``InertialFrameStreams``, one vector register's lanes): every candidate of a work item is
/// a lane of one pass over the recording, each sample given to all of them at once, bit for bit its
/// scalar filter (a test holds the scores to those of scalar states). The other filters' candidates
/// are scalar states: the recording is read in blocks of ``blockSamples`` samples, and every
/// candidate of a work item advances through a block while it stays in the first-level cache.
struct TuneSearch<F: AttitudeFilter>: Sendable {
    let candidates: [F]
    let recordings: [TuneRecording<F.Scalar>]
    let metric: TuneMetric
    let maximumGap: Double
    /// Whether the default filter's candidates run as lanes; false runs them as scalar states, as the
    /// other filters' (the reference the tests hold the lanes to).
    var usesLanes = true

    /// Samples per block.
    static var blockSamples: Int { 128 }

    /// The RMS error, degrees, of candidate `c` on recording `r` at `[c * recordings.count + r]`;
    /// NaN where the candidate's attitude was not finite at a scored row.
    func run(jobs: Int) -> [Double] {
        let n = candidates.count, r = recordings.count
        var scores = [Double](repeating: .nan, count: n * r)
        // Shares of the candidates small enough that every thread gets several per recording (whole
        // groups of lanes, for the default filter's engine).
        let width = usesLanes ? Self.laneWidth : 1
        let share = (max(1, min(64, (n + 4 * jobs - 1) / (4 * jobs))) + width - 1) / width * width
        let items = recordings.indices.sorted(by: { recordings[$0].count > recordings[$1].count }).flatMap { k in
            stride(from: 0, to: n, by: share).map { first in (recording: k, first: first, end: min(n, first + share)) }
        }
        let next = Lock(0)
        // Progress on standard error, once a second, for searches that take more than one.
        let total = n * recordings.reduce(0) { $0 + $1.count }
        let start = ContinuousClock.now
        let progress = Lock((steps: 0, last: start))
        scores.withUnsafeMutableBufferPointer { out in
            let results = UnsafeSendableBuffer(out)
            let work: @Sendable () -> Void = {
                while true {
                    let position = next.takeNext()
                    guard position < items.count else { return }
                    let item = items[position]
                    let rms = score(candidates[item.first..<item.end], on: recordings[item.recording], lanes: usesLanes)
                    for (offset, value) in rms.enumerated() {
                        results.buffer[(item.first + offset) * r + item.recording] = value
                    }
                    let steps = (item.end - item.first) * recordings[item.recording].count
                    let line: String? = progress.withLock { p in
                        p.steps += steps
                        let now = ContinuousClock.now
                        guard now - p.last >= .seconds(1), p.steps < total else { return nil }
                        p.last = now
                        let seconds = Double((now - start).components.seconds)
                        return "tune: \(100 * p.steps / total)% of \(total) sample steps, \(Int(seconds)) s\n"
                    }
                    if let line { FileHandle.standardError.write(Data(line.utf8)) }
                }
            }
            if jobs <= 1 {
                work()
            } else {
                DispatchQueue.concurrentPerform(iterations: jobs) { _ in work() }
            }
        }
        return scores
    }

    /// The number of candidates that run together as lanes: for the default filter one vector
    /// register's width in its precision (``VectorRegister``; its engine is fastest so), 1 for the
    /// others (scalar states).
    static var laneWidth: Int {
        guard F.self == InertialFrameFilter<F.Scalar>.self else { return 1 }
        return LaneWidth.register(F.Scalar.self)
    }

    /// The RMS errors, degrees, of `filters` on `recording`: as lanes for the default filter when
    /// `lanes`, else as scalar states.
    func score(_ filters: ArraySlice<F>, on recording: TuneRecording<F.Scalar>, lanes: Bool) -> [Double] {
        if lanes, F.self == InertialFrameFilter<F.Scalar>.self {
            let work = ScoreLanes(search: self, filters: filters, recording: recording)
            return LaneWidth.run(work, scalar: F.Scalar.self, width: Self.laneWidth)
        }
        return scoreScalar(filters, on: recording)
    }

    /// ``scoreLanes(_:_:on:)`` for a lane type chosen at run time: the candidates are default
    /// filters in the lanes' precision (``score(_:on:lanes:)`` checked that `F` is one).
    private struct ScoreLanes: LaneWork {
        let search: TuneSearch, filters: ArraySlice<F>, recording: TuneRecording<F.Scalar>
        func run<Lanes: FusionLanes>(_: Lanes.Type) -> [Double] {
            let settings = filters.map { ($0 as! InertialFrameFilter<Lanes.Scalar>).settings }
            return search.scoreLanes(Lanes.self, settings, on: recording as! TuneRecording<Lanes.Scalar>)
        }
    }

    /// The RMS errors, degrees, of the default filter with `settings` on `recording`, each candidate a
    /// lane of ``InertialFrameStreams`` (the last group filled with copies of the last candidate,
    /// so that every group takes the vector step). Per sample this is ``FusionStream``'s update as
    /// ``scoreScalar(_:on:)`` runs it: the clock's step, a corrupt gyroscope reading made NaN, the
    /// online calibration's change told, the filter's step, the identity attitude before
    /// initialization.
    func scoreLanes<Lanes: FusionLanes>(
        _: Lanes.Type, _ settings: [InertialFrameFilter<Lanes.Scalar>.Settings],
        on recording: TuneRecording<Lanes.Scalar>
    ) -> [Double] {
        typealias S = Lanes.Scalar
        let count = settings.count
        let padding = (Lanes.scalarCount - count % Lanes.scalarCount) % Lanes.scalarCount
        var engine = InertialFrameStreams<Lanes>(settings: settings + Array(repeating: settings[count - 1], count: padding))
        var clock = SampleClock(maximumGap: maximumGap)
        var sums = [Double](repeating: 0, count: count)
        let metric = self.metric
        for sample in recording.samples {
            let dt = S(clock.step(to: sample.timestamp).dt)
            let corrupt = FusionStream<InertialFrameFilter<S>>.isCorrupt(gyroscope: sample.gyroscope)
            if sample.calibrationChanged { engine.magnetometerCalibrationChanged() }
            engine.update(
                gyroscope: corrupt ? SIMD3(repeating: .nan) : sample.gyroscope, accelerometer: sample.accelerometer,
                magnetometer: sample.field, dt: dt)
            guard let truth = sample.truth else { continue }
            for c in 0..<count {
                let q = engine.isInitialized(stream: c) ? engine.quaternion(stream: c) : .identity
                let angle = metric.angle(estimate: Quaternion<Double>(components: SIMD4<Double>(q.components)), reference: truth)
                sums[c] += angle * angle
            }
        }
        let scored = Double(recording.scoredCount)
        return sums.map { ($0 / scored).squareRoot() * (180 / Double.pi) }
    }

    /// The RMS errors, degrees, of `filters` on `recording`, each a scalar filter state.
    func scoreScalar(_ filters: ArraySlice<F>, on recording: TuneRecording<F.Scalar>) -> [Double] {
        var streams = filters.map { filter in
            FusionStream(filter: filter, clock: SampleClock(maximumGap: maximumGap), magnetometerCalibrator: nil)
        }
        var sums = [Double](repeating: 0, count: streams.count)
        let metric = self.metric
        recording.samples.withUnsafeBufferPointer { samples in
            streams.withUnsafeMutableBufferPointer { streams in
                for start in stride(from: 0, to: samples.count, by: Self.blockSamples) {
                    let block = samples[start..<min(samples.count, start + Self.blockSamples)]
                    for c in streams.indices {
                        var sum = sums[c]
                        for sample in block {
                            if sample.calibrationChanged { streams[c].filter.magnetometerCalibrationChanged() }
                            let out = streams[c].update(
                                timestamp: sample.timestamp, gyroscope: sample.gyroscope,
                                accelerometer: sample.accelerometer, magnetometer: sample.field)
                            guard let truth = sample.truth else { continue }
                            let q = Quaternion<Double>(components: SIMD4<Double>(out.quaternion.components))
                            let angle = metric.angle(estimate: q, reference: truth)
                            sum += angle * angle
                        }
                        sums[c] = sum
                    }
                }
            }
        }
        let count = Double(recording.scoredCount)
        return sums.map { ($0 / count).squareRoot() * (180 / Double.pi) }
    }
}

/// A buffer that threads write at disjoint indices.
struct UnsafeSendableBuffer: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Double>
    init(_ buffer: UnsafeMutableBufferPointer<Double>) { self.buffer = buffer }
}

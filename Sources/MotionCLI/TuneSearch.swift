import Dispatch
import Foundation
import MotionFusion

/// `motion tune`'s work: every candidate filter over every recording, scored.
///
/// Each candidate runs inside a ``FusionStream`` set up as `motion fuse` sets it up by default (its
/// sample clock with the same longest gap; the online magnetometer calibration, unless switched off,
/// replayed from ``TuneRecording``, where it ran once for all candidates), so a candidate's score is what `motion fuse` with its `--set` values and then `motion evaluate`
/// would report (a test checks it). A recording is read from memory in blocks of
/// ``blockSamples`` samples: for each block every candidate of a work item advances through it, so
/// each sample is read from memory once per work item while the block stays in the first-level
/// cache; work items (a recording and a share of the candidates) go to `jobs` threads. A search
/// that takes more than a second says how far it is on standard error once a second.
///
/// The candidates are scalar filters, one state each: the default filter has no many-lane form (the
/// many-stream engine runs Madgwick only).
struct TuneSearch<F: AttitudeFilter>: Sendable {
    let candidates: [F]
    let recordings: [TuneRecording<F.Scalar>]
    let metric: TuneMetric
    let maximumGap: Double

    /// Samples per block.
    static var blockSamples: Int { 128 }

    /// The RMS error, degrees, of candidate `c` on recording `r` at `[c * recordings.count + r]`;
    /// NaN where the candidate's attitude was not finite at a scored row.
    func run(jobs: Int) -> [Double] {
        let n = candidates.count, r = recordings.count
        var scores = [Double](repeating: .nan, count: n * r)
        // Shares of the candidates small enough that every thread gets several per recording.
        let share = max(1, min(64, (n + 4 * jobs - 1) / (4 * jobs)))
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
                    let rms = score(candidates[item.first..<item.end], on: recordings[item.recording])
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

    /// The RMS errors, degrees, of `filters` on `recording`.
    func score(_ filters: ArraySlice<F>, on recording: TuneRecording<F.Scalar>) -> [Double] {
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

import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// The many-stream engine's memory, known before allocating: `byteCount` answers for any count,
/// nil for a count out of range or a size beyond `Int`, without trapping (the initializers keep
/// their preconditions, as Swift's collections do, and `motion bench` checks these first).
@Suite("Many-stream sizes")
struct ManyStreamsSizeTests {
    @Test func samplesByteCountIsTheStorage() {
        typealias Samples = MultiStreamSamples<SIMD8<Float>>
        // 20 streams: 3 groups of 8 lanes; 8 steps of 10 channels of 32-byte vectors; 20 lengths and
        // 2 × 3 group lengths of 8 bytes.
        #expect(Samples.byteCount(streamCount: 20, stepCount: 8, hasMagnetometer: true) == 8 * 10 * 3 * 32 + (20 + 6) * 8)
        #expect(Samples.byteCount(streamCount: 20, stepCount: 8, hasMagnetometer: false) == 8 * 7 * 3 * 32 + (20 + 6) * 8)
        #expect(Samples.byteCount(streamCount: 1, stepCount: 0, hasMagnetometer: true) == 3 * 8)
        let samples = Samples(streamCount: 20, stepCount: 8, hasMagnetometer: true)
        #expect(samples.storage.count * MemoryLayout<SIMD8<Float>>.stride + (samples.lengths.count + 2 * samples.groupCount) * 8
            == Samples.byteCount(streamCount: 20, stepCount: 8, hasMagnetometer: true))
    }

    @Test(arguments: [(0, 8), (-1, 8), (Int.min, 8), (20, -1), (1, Int.min), (Int.max, 64), (1_000_000_000, Int.max), (Int.max, 0)])
    func samplesByteCountOutOfRangeIsNil(_ streams: Int, _ steps: Int) {
        #expect(MultiStreamSamples<SIMD16<Float>>.byteCount(streamCount: streams, stepCount: steps, hasMagnetometer: true) == nil)
        #expect(MultiStreamSamples<SIMD2<Double>>.byteCount(streamCount: streams, stepCount: steps, hasMagnetometer: false) == nil)
    }

    /// `motion bench --streams 1000000000`: 1.79 TB of 6D Float samples in blocks of 64 steps.
    @Test func aBillionStreamsIsCountedNotAllocated() {
        let samples = MultiStreamSamples<SIMD16<Float>>.byteCount(streamCount: 1_000_000_000, stepCount: 64, hasMagnetometer: false)
        #expect(samples == 64 * 7 * 62_500_000 * 64 + (1_000_000_000 + 2 * 62_500_000) * 8)
        let states = MadgwickStreams<SIMD16<Float>>.byteCount(streamCount: 1_000_000_000)
        #expect(states == 62_500_000 * MemoryLayout<MadgwickStreams<SIMD16<Float>>.Group>.stride)
    }

    @Test func engineByteCount() {
        #expect(MadgwickStreams<SIMD4<Double>>.byteCount(streamCount: 9) == 3 * MemoryLayout<MadgwickStreams<SIMD4<Double>>.Group>.stride)
        for count in [0, -1, Int.min, Int.max, Int.max - 1, Int.max / 2] {
            #expect(MadgwickStreams<SIMD16<Float>>.byteCount(streamCount: count) == nil, "\(count)")
            #expect(MadgwickStreams<SIMD2<Double>>.byteCount(streamCount: count) == nil, "\(count)")
        }
    }

    /// ⌈n / lanes⌉ without the old `(n + lanes − 1) / lanes`, which overflowed near Int.max.
    @Test func groupCountDoesNotOverflow() {
        #expect(MultiStreamSamples<SIMD16<Float>>.groupCount(streamCount: Int.max) == Int.max / 16 + 1)
        #expect(MultiStreamSamples<SIMD2<Double>>.groupCount(streamCount: Int.max) == Int.max / 2 + 1)
        #expect(MultiStreamSamples<SIMD8<Float>>.groupCount(streamCount: 16) == 2)
        #expect(MultiStreamSamples<SIMD8<Float>>.groupCount(streamCount: 17) == 3)
    }
}

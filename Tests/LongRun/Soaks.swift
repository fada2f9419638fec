import MotionFusion
import MotionFusionIO

/// The filters' soaks (the four filters in Double, the default one also in Float) and the motion
/// generator, each behind its own lock so that the jobs of one block can run on different threads.
final class Soaks: Sendable {
    struct Generator: Sendable {
        var motion: EndlessMotion
        var block = EndlessMotion.Block()
    }

    struct Row {
        var name: String
        var updates: Int
        var normError: Double
        var nonFinite: Int
        var largestBias: Double
        var biasError: Double
        var rms: SIMD3<Double>
        var largestError: Double
        var normBound: Double
    }

    let inertial: Lock<FilterSoak<InertialFrameFilter<Double>>>
    let madgwick: Lock<FilterSoak<MadgwickFilter<Double>>>
    let mahony: Lock<FilterSoak<MahonyFilter<Double>>>
    let complementary: Lock<FilterSoak<ComplementaryFilter<Double>>>
    let inertialFloat: Lock<FilterSoak<InertialFrameFilter<Float>>>
    let generator: Lock<Generator>

    init(
        inertial: FilterSoak<InertialFrameFilter<Double>>, madgwick: FilterSoak<MadgwickFilter<Double>>,
        mahony: FilterSoak<MahonyFilter<Double>>, complementary: FilterSoak<ComplementaryFilter<Double>>,
        inertialFloat: FilterSoak<InertialFrameFilter<Float>>, motion: EndlessMotion
    ) {
        self.inertial = Lock(inertial)
        self.madgwick = Lock(madgwick)
        self.mahony = Lock(mahony)
        self.complementary = Lock(complementary)
        self.inertialFloat = Lock(inertialFloat)
        generator = Lock(Generator(motion: motion))
    }

    /// The jobs of one block: one per soak, and one that makes the next block.
    static let jobs = 6

    /// Job `job` of a block: one of the soaks, or (the last job) making the next block.
    func run(job: Int, on block: EndlessMotion.Block, dt: Double, nextCount: Int) {
        switch job {
        case 0: inertial.withLock { $0.run(block, dt: dt) }
        case 1: madgwick.withLock { $0.run(block, dt: dt) }
        case 2: mahony.withLock { $0.run(block, dt: dt) }
        case 3: complementary.withLock { $0.run(block, dt: dt) }
        case 4: inertialFloat.withLock { $0.run(block, dt: dt) }
        default:
            if nextCount > 0 { generator.withLock { $0.motion.fill(&$0.block, count: nextCount) } }
        }
    }

    /// Takes the block the generator made last.
    func takeBlock() -> EndlessMotion.Block {
        generator.withLock { generator in
            var block = EndlessMotion.Block()
            swap(&block, &generator.block)
            return block
        }
    }

    func rows(trueBias: SIMD3<Double>) -> [Row] {
        func row<F>(_ soak: Lock<FilterSoak<F>>) -> Row {
            soak.withLock { s in
                let e = SIMD3<Double>(s.filter.gyroscopeBias) - trueBias
                return Row(
                    name: s.name, updates: s.updates, normError: s.largestNormError, nonFinite: s.nonFiniteAttitudes,
                    largestBias: s.largestBias, biasError: (e * e).sum().squareRoot(), rms: s.lastBlockRMS,
                    largestError: s.largestError, normBound: s.normBound)
            }
        }
        return [row(inertial), row(madgwick), row(mahony), row(complementary), row(inertialFloat)]
    }
}

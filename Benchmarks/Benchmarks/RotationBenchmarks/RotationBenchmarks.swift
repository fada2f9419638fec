// MotionFusion benchmarks, run from another module than the library on purpose: every generic
// operation measured here reaches this code only through `@inlinable`, as in an application.
//
// Conventions (see ../../README.md):
// - The per-operation benchmarks process a batch of 1,000 precomputed inputs per iteration with
//   `scalingFactor: .kilo`, so `--scale` reports nanoseconds and allocations per operation.
// - Inputs are made in `setup`, outside the measured region, from a fixed seed.
// - Results are stored into an output buffer that escapes to the benchmark state, and one result
//   per iteration goes to `blackHole`, so the optimizer cannot drop the work.

import Benchmark
import MotionFusion

// MARK: - Suite

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(1),
        maxIterations: 2_000
    )

    registerElementwiseBenchmarks(Float.self, suffix: "Float")
    registerElementwiseBenchmarks(Double.self, suffix: "Double")
    registerBatchRotationBenchmarks(Float.self, suffix: "Float")
    registerBatchRotationBenchmarks(Double.self, suffix: "Double")
    registerEstimationBenchmarks()
    registerSameModuleBaselines()
}

/// Inputs per iteration of the element-wise benchmarks; equal to the `.kilo` scaling factor.
let batchSize = 1_000

// MARK: - Inputs

/// SplitMix64: a small, fast, seedable generator, so every run measures the same inputs.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SplitMix64 {
    /// A rotation uniformly distributed over SO(3) (rejection sampling in the unit 4-ball).
    mutating func unitQuaternion<S: FusionScalar>(_: S.Type = S.self) -> Quaternion<S> {
        while true {
            let c = SIMD4<Double>(
                Double.random(in: -1...1, using: &self), Double.random(in: -1...1, using: &self),
                Double.random(in: -1...1, using: &self), Double.random(in: -1...1, using: &self))
            let n2 = (c * c).sum()
            if n2 > 1e-4 && n2 <= 1 {
                return Quaternion(Quaternion<Double>(components: c / n2.squareRoot()))
            }
        }
    }

    /// A vector with components uniform in `-scale...scale`.
    mutating func vector<S: FusionScalar>(_: S.Type = S.self, scale: Double = 1) -> SIMD3<S> {
        SIMD3(
            S(Double.random(in: -scale...scale, using: &self)),
            S(Double.random(in: -scale...scale, using: &self)),
            S(Double.random(in: -scale...scale, using: &self)))
    }
}

/// Preallocated input and output buffers of one benchmark, made in its setup closure. A class, so
/// that the buffers escape and stores into `output` cannot be optimized away.
final class MapState<Input, Output> {
    let input: UnsafeMutableBufferPointer<Input>
    let output: UnsafeMutableBufferPointer<Output>

    init(inputs: [Input], fill: Output) {
        input = .allocate(capacity: inputs.count)
        _ = input.initialize(from: inputs)
        output = .allocate(capacity: inputs.count)
        output.initialize(repeating: fill)
    }

    deinit {
        input.deallocate()
        output.deallocate()
    }
}

/// `output[i] = body(input[i])` for every scaled iteration. Always inlined, so `body` is inlined
/// too and the loop is what an application would write (no closure call per element).
@inline(__always)
func measureMap<Input, Output>(
    _ benchmark: Benchmark, _ state: MapState<Input, Output>, _ body: (Input) -> Output
) {
    let input = state.input
    let output = state.output
    for index in benchmark.scaledIterations {
        output[index] = body(input[index])
    }
    blackHole(output[0])
}

/// Registers a benchmark that maps 1,000 inputs made by `makeInput` to outputs.
/// `measure` must call ``measureMap(_:_:_:)`` with the operation written out as a closure literal.
func mapBenchmark<Input, Output>(
    _ name: String,
    seed: UInt64,
    input makeInput: @escaping (inout SplitMix64) -> Input,
    fill: Output,
    measure: @escaping (Benchmark, MapState<Input, Output>) -> Void
) {
    Benchmark(name, closure: measure) {
        var rng = SplitMix64(seed: seed)
        let inputs = (0..<batchSize).map { _ in makeInput(&rng) }
        return MapState(inputs: inputs, fill: fill)
    }
}

// MARK: - Element-wise rotation operations (Float and Double)

func registerElementwiseBenchmarks<S: FusionScalar>(_: S.Type, suffix: String) {
    typealias Q = Quaternion<S>
    let zeroQ = Q.identity
    let zeroV = SIMD3<S>.zero

    mapBenchmark(
        "Quaternion.product.\(suffix)", seed: 1,
        input: { rng in (rng.unitQuaternion(S.self), rng.unitQuaternion(S.self)) }, fill: zeroQ
    ) { benchmark, state in
        measureMap(benchmark, state) { pair in pair.0 * pair.1 }
    }

    mapBenchmark(
        "Quaternion.productNormalized.\(suffix)", seed: 2,
        input: { rng in (rng.unitQuaternion(S.self), rng.unitQuaternion(S.self)) }, fill: zeroQ
    ) { benchmark, state in
        measureMap(benchmark, state) { pair in (pair.0 * pair.1).normalized() }
    }

    mapBenchmark(
        "Quaternion.act.\(suffix)", seed: 3,
        input: { rng in (rng.unitQuaternion(S.self), rng.vector(S.self)) }, fill: zeroV
    ) { benchmark, state in
        measureMap(benchmark, state) { pair in pair.0.act(on: pair.1) }
    }

    mapBenchmark(
        "Quaternion.toRotationMatrix.\(suffix)", seed: 4,
        input: { rng in rng.unitQuaternion(S.self) }, fill: RotationMatrix<S>.identity
    ) { benchmark, state in
        measureMap(benchmark, state) { q in RotationMatrix(q) }
    }

    mapBenchmark(
        "RotationMatrix.toQuaternion.\(suffix)", seed: 5,
        input: { rng in RotationMatrix(rng.unitQuaternion(S.self)) }, fill: zeroQ
    ) { benchmark, state in
        measureMap(benchmark, state) { m in m.quaternion }
    }

    for (label, sequence) in [("aerospace", RotationSequence.aerospace), ("coreMotion", .coreMotion)] {
        mapBenchmark(
            "Quaternion.toEulerAngles.\(label).\(suffix)", seed: 6,
            input: { rng in rng.unitQuaternion(S.self) },
            fill: EulerAngles<S>(angles: .zero, sequence: sequence)
        ) { benchmark, state in
            measureMap(benchmark, state) { q in EulerAngles(q, sequence: sequence) }
        }

        mapBenchmark(
            "EulerAngles.toQuaternion.\(label).\(suffix)", seed: 7,
            input: { rng in EulerAngles(rng.unitQuaternion(S.self), sequence: sequence) },
            fill: zeroQ
        ) { benchmark, state in
            measureMap(benchmark, state) { e in Quaternion(e) }
        }
    }

    mapBenchmark(
        "Quaternion.initRotationVector.\(suffix)", seed: 8,
        // Rotation vectors of angle up to π (a ball of radius π, sampled in its cube).
        input: { rng in rng.vector(S.self, scale: Double.pi / 3.0.squareRoot()) }, fill: zeroQ
    ) { benchmark, state in
        measureMap(benchmark, state) { v in Quaternion(rotationVector: v) }
    }

    mapBenchmark(
        "Quaternion.rotationVector.\(suffix)", seed: 9,
        input: { rng in rng.unitQuaternion(S.self) }, fill: zeroV
    ) { benchmark, state in
        measureMap(benchmark, state) { q in q.rotationVector }
    }

    mapBenchmark(
        "Quaternion.slerp.\(suffix)", seed: 10,
        input: { rng in
            (rng.unitQuaternion(S.self), rng.unitQuaternion(S.self), S(Double.random(in: 0...1, using: &rng)))
        },
        fill: zeroQ
    ) { benchmark, state in
        measureMap(benchmark, state) { item in item.0.slerp(to: item.1, t: item.2) }
    }

    let attitude: (inout SplitMix64) -> Attitude<S> = { rng in
        Attitude(unitQuaternion: rng.unitQuaternion(S.self))
    }
    mapBenchmark("Attitude.roll.\(suffix)", seed: 11, input: attitude, fill: S.zero) {
        benchmark, state in
        measureMap(benchmark, state) { a in a.roll }
    }
    mapBenchmark("Attitude.pitch.\(suffix)", seed: 11, input: attitude, fill: S.zero) {
        benchmark, state in
        measureMap(benchmark, state) { a in a.pitch }
    }
    mapBenchmark("Attitude.yaw.\(suffix)", seed: 11, input: attitude, fill: S.zero) {
        benchmark, state in
        measureMap(benchmark, state) { a in a.yaw }
    }
    // The three read one after the other, as a display would: each accessor extracts all three
    // Euler angles again, so this costs up to three times `Attitude.roll` unless the compiler merges them.
    mapBenchmark(
        "Attitude.rollPitchYaw.\(suffix)", seed: 11, input: attitude, fill: SIMD3<S>.zero
    ) { benchmark, state in
        measureMap(benchmark, state) { a in SIMD3(a.roll, a.pitch, a.yaw) }
    }
    mapBenchmark(
        "Attitude.eulerAngles.\(suffix)", seed: 11, input: attitude, fill: SIMD3<S>.zero
    ) { benchmark, state in
        measureMap(benchmark, state) { a in a.eulerAngles.angles }
    }
}

// MARK: - Batch rotation: .simd vs .blas

/// One matrix and `count` vectors, rotated from `input` into `output` (separate buffers, as the
/// BLAS kernel requires).
final class BatchState<S: FusionScalar> {
    let matrix: RotationMatrix<S>
    let input: UnsafeMutableBufferPointer<SIMD3<S>>
    let output: UnsafeMutableBufferPointer<SIMD3<S>>

    init(count: Int, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        matrix = RotationMatrix(rng.unitQuaternion(S.self))
        input = .allocate(capacity: count)
        for index in 0..<count { (input.baseAddress! + index).initialize(to: rng.vector(S.self)) }
        output = .allocate(capacity: count)
        output.initialize(repeating: .zero)
    }

    deinit {
        input.deallocate()
        output.deallocate()
    }
}

func registerBatchRotationBenchmarks<S: FusionScalar>(_: S.Type, suffix: String) {
    for kernel in BatchRotationKernel.allCases {
        // N = 1,000: one call per iteration, scaled by 1,000 → time per vector.
        // N = 100,000: ten calls per iteration (10⁶ vectors), scaled by 10⁶ → time per vector.
        for (count, calls, scaling) in [
            (1_000, 1, BenchmarkScalingFactor.kilo), (100_000, 10, BenchmarkScalingFactor.mega),
        ] {
            Benchmark(
                "RotationMatrix.rotate.\(kernel).n\(count).\(suffix)",
                configuration: .init(scalingFactor: scaling, maxIterations: count == 1_000 ? 5_000 : 200)
            ) { (benchmark: Benchmark, state: BatchState<S>) in
                let input = UnsafeBufferPointer(state.input)
                for _ in 0..<calls {
                    state.matrix.rotate(input, into: state.output, kernel: kernel)
                }
                blackHole(state.output[count - 1])
            } setup: {
                BatchState<S>(count: count, seed: 20)
            }
        }
    }
}

// MARK: - Estimation (LAPACK): Wahba and quaternion averaging

final class WahbaState {
    /// Several problems of 10 vector pairs each, used in turn.
    let problems: [(reference: [SIMD3<Double>], observed: [SIMD3<Double>])]
    var next = 0

    init(problemCount: Int, pairs: Int, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        problems = (0..<problemCount).map { _ in
            let truth: Quaternion<Double> = rng.unitQuaternion()
            let observed: [SIMD3<Double>] = (0..<pairs).map { _ in rng.vector() }
            // reference = truth · observed + a little noise.
            let reference = observed.map { truth.act(on: $0) + rng.vector(Double.self, scale: 1e-3) }
            return (reference, observed)
        }
    }
}

final class AverageState {
    let sets: [[Quaternion<Double>]]
    var next = 0

    init(setCount: Int, size: Int, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        sets = (0..<setCount).map { _ in
            let center: Quaternion<Double> = rng.unitQuaternion()
            return (0..<size).map { _ in
                // Scatter of up to about 0.2 rad around the center, random sign (q ≡ −q).
                let q = (center * Quaternion(rotationVector: rng.vector(Double.self, scale: 0.1)))
                return Bool.random(using: &rng) ? q : -q
            }
        }
    }
}

func registerEstimationBenchmarks() {
    let oneCall = Benchmark.Configuration(scalingFactor: .one, maxIterations: 20_000)

    for method in WahbaMethod.allCases {
        Benchmark("Wahba.solve.\(method).n10.Double", configuration: oneCall) {
            (benchmark: Benchmark, state: WahbaState) in
            let problem = state.problems[state.next]
            state.next = (state.next + 1) % state.problems.count
            do {
                let solution = try Wahba.solve(
                    reference: problem.reference, observed: problem.observed, method: method)
                blackHole(solution)
            } catch {
                benchmark.error("Wahba.solve failed: \(error)")
            }
        } setup: {
            WahbaState(problemCount: 64, pairs: 10, seed: 30)
        }
    }

    Benchmark("Quaternion.average.n100.Double", configuration: oneCall) {
        (benchmark: Benchmark, state: AverageState) in
        let set = state.sets[state.next]
        state.next = (state.next + 1) % state.sets.count
        do {
            blackHole(try Quaternion.average(set))
        } catch {
            benchmark.error("Quaternion.average failed: \(error)")
        }
    } setup: {
        AverageState(setCount: 64, size: 100, seed: 40)
    }
}

// MARK: - Same-module baselines

// Hand-written, concrete (non-generic) versions of two operations in this module. If the library's
// cross-module numbers are close to these, `@inlinable` specialization works as intended.

@inline(__always)
func handHamilton(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
    SIMD4(
        a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
        a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
        a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
        a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0])
}

func registerSameModuleBaselines() {
    mapBenchmark(
        "Baseline.handWrittenProduct.Double", seed: 1,
        input: { rng -> (SIMD4<Double>, SIMD4<Double>) in
            let a: Quaternion<Double> = rng.unitQuaternion()
            let b: Quaternion<Double> = rng.unitQuaternion()
            return (a.components, b.components)
        },
        fill: SIMD4<Double>.zero
    ) { benchmark, state in
        measureMap(benchmark, state) { pair in handHamilton(pair.0, pair.1) }
    }

    Benchmark(
        "Baseline.handWrittenRotateLoop.n1000.Double",
        configuration: .init(scalingFactor: .kilo, maxIterations: 5_000)
    ) { (benchmark: Benchmark, state: BatchState<Double>) in
        let (c0, c1, c2) = (state.matrix.column0, state.matrix.column1, state.matrix.column2)
        let input = state.input
        let output = state.output
        for index in 0..<input.count {
            let v = input[index]
            output[index] = c0 * v.x + c1 * v.y + c2 * v.z
        }
        blackHole(output[input.count - 1])
    } setup: {
        BatchState<Double>(count: 1_000, seed: 20)
    }

    Benchmark(
        "Baseline.handWrittenRotateLoop.n1000.Float",
        configuration: .init(scalingFactor: .kilo, maxIterations: 5_000)
    ) { (benchmark: Benchmark, state: BatchState<Float>) in
        let (c0, c1, c2) = (state.matrix.column0, state.matrix.column1, state.matrix.column2)
        let input = state.input
        let output = state.output
        for index in 0..<input.count {
            let v = input[index]
            output[index] = c0 * v.x + c1 * v.y + c2 * v.z
        }
        blackHole(output[input.count - 1])
    } setup: {
        BatchState<Float>(count: 1_000, seed: 20)
    }
}

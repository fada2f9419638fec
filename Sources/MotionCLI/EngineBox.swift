import Foundation
import MotionFusion

/// A many-stream engine the benchmark can time: ``MadgwickStreams`` or ``InertialFrameStreams``.
protocol ManyStreamEngine<Lanes>: Sendable {
    associatedtype Lanes: FusionLanes
    mutating func process(_ samples: MultiStreamSamples<Lanes>)
    mutating func process(_ samples: MultiStreamSamples<Lanes>, taskCount: Int) async
    /// Bytes of state for `streamCount` streams.
    static func byteCount(streamCount: Int) -> Int?
    /// One stream's attitude (read once, so that the work cannot be optimised away).
    func benchQuaternion(stream: Int) -> Quaternion<Lanes.Scalar>
    /// Whether the benchmark must feed each stream's recording onward instead of looping one block
    /// (see `BenchCommand.measureMany`).
    static var needsContinuousFeed: Bool { get }
}

extension MadgwickStreams: ManyStreamEngine {
    func benchQuaternion(stream: Int) -> Quaternion<Scalar> { quaternion(stream: stream) }
    static var needsContinuousFeed: Bool { false }
}

extension InertialFrameStreams: ManyStreamEngine {
    func benchQuaternion(stream: Int) -> Quaternion<Scalar> { filter(stream: stream).quaternion }
    /// Its rest detector and correction steps must see real motion: looping a still block lets
    /// Float covariances decay into subnormal numbers, several times slower on x86.
    static var needsContinuousFeed: Bool { true }
}

/// Holds a many-stream engine for the benchmark and runs it on one or several tasks.
final class EngineBox<Engine: ManyStreamEngine>: @unchecked Sendable {
    // @unchecked: `engine` is only touched by `run`, which returns after its task has finished
    // (the semaphore orders the task's writes before the caller's next access).
    var engine: Engine

    init(_ engine: Engine) { self.engine = engine }

    func run(_ samples: MultiStreamSamples<Engine.Lanes>, tasks: Int) {
        if tasks == 1 {
            engine.process(samples)
            return
        }
        let done = DispatchSemaphore(value: 0)
        Task {
            await self.engine.process(samples, taskCount: tasks)
            done.signal()
        }
        done.wait()
    }
}

import Foundation
import MotionFusion

/// Holds the many-stream engine for the benchmark and runs it on one or several tasks.
final class EngineBox<Lanes: FusionLanes>: @unchecked Sendable {
    // @unchecked: `engine` is only touched by `run`, which returns after its task has finished
    // (the semaphore orders the task's writes before the caller's next access).
    var engine: MadgwickStreams<Lanes>

    init(_ engine: MadgwickStreams<Lanes>) { self.engine = engine }

    func run(_ samples: MultiStreamSamples<Lanes>, tasks: Int) {
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

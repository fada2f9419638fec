import Foundation

@testable import MotionFusionIO

/// `body(0)`, …, `body(count − 1)` on all cores (`DispatchQueue.concurrentPerform`), the results in
/// index order. An error thrown by any call is rethrown once all have run (one of them, if several
/// throw). The accuracy tests score their trials with it.
func concurrentMap<T: Sendable>(_ count: Int, _ body: @Sendable (Int) throws -> T) throws -> [T] {
    let results = Lock([T?](repeating: nil, count: count))
    let failure = Lock<(any Error)?>(nil)
    DispatchQueue.concurrentPerform(iterations: count) { i in
        do {
            let value = try body(i)
            results.withLock { $0[i] = value }
        } catch {
            failure.withLock { $0 = error }
        }
    }
    if let error = failure.withLock({ $0 }) { throw error }
    return results.withLock { $0.map { $0! } }
}

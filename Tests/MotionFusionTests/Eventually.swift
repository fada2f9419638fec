import Foundation

/// Polls `condition` every millisecond until it holds or `limit` has passed, and looks once more
/// after the deadline: a test task held off the CPU past the deadline (the sanitizer's runs share
/// a loaded machine with forty other tests) still sees what happened meanwhile, instead of failing
/// on a look it never took.
func eventually(within limit: Duration, _ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}

/// The same for code that may not suspend: sleeps the thread between looks.
func eventuallyBlocking(within limit: Duration, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.001)
    }
    return condition()
}

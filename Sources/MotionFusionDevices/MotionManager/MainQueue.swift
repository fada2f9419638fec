import Foundation

/// Tells whether code runs on the main queue (or the main thread), which `Thread.isMainThread`
/// alone does not: once a program calls `dispatchMain()` (as an `async` main does on Linux, and so
/// `swift test`), the main queue and the main actor run on a pool thread.
enum MainQueue {
    static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// True on the main thread, and inside work that the main queue runs.
    static var isCurrent: Bool { Thread.isMainThread || DispatchQueue.getSpecific(key: key) == true }

    /// True if `queue` is the main queue (Linux gives a new `DispatchQueue` object for each
    /// `DispatchQueue.main`, so identity does not tell).
    static func isMain(_ queue: DispatchQueue) -> Bool { queue.getSpecific(key: key) == true }
}

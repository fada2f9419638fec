#if canImport(Synchronization) && !canImport(Darwin)
    import Synchronization
#endif
#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// The package's one lock: all mutual exclusion in the library goes through it (only a thread that
// must *wait* for a state change uses a condition variable, and says why).
//
// Where the platform has it for every deployment target, it is Swift's `Synchronization.Mutex`
// (Linux, Android, Windows, … with Swift 6). On Apple platforms `Mutex` needs macOS 15 / iOS 18
// and the package declares no minimum platform, so there the same API sits on a pthread mutex.

#if canImport(Synchronization) && !canImport(Darwin)

    /// A mutual-exclusion lock over the state it protects, as Swift's `Synchronization.Mutex`
    /// (which backs it here), in a class so that escaping closures and several objects can share
    /// it. The state is reached only inside ``withLock(_:)``; `Lock<Void>` (``init()``) guards
    /// state kept elsewhere.
    package final class Lock<State>: Sendable {
        private let mutex: Mutex<State>

        package init(_ state: sending State) { mutex = Mutex(state) }

        /// Runs `body` with the state while holding the lock. Not reentrant: `body` must not take
        /// the same lock again.
        package func withLock<Result, Failure: Error>(
            _ body: (inout sending State) throws(Failure) -> sending Result
        ) throws(Failure) -> sending Result {
            try mutex.withLock { (state: inout sending State) throws(Failure) -> sending Result in
                let address = Unmanaged.passUnretained(self).toOpaque()
                ThreadSanitizer.acquire?(address)
                defer { ThreadSanitizer.release?(address) }
                return try body(&state)
            }
        }
    }

    /// ThreadSanitizer sees pthread mutexes but not `Mutex`, whose Linux implementation is a
    /// futex it does not know: under it, every access inside ``Lock/withLock(_:)`` would look like
    /// a race. When the program runs with TSan's runtime (`--sanitize=thread`), the lock tells it
    /// of each acquire and release (`__tsan_acquire` / `__tsan_release`, found with `dlsym`);
    /// elsewhere the symbols are absent and each call costs a load and a nil check.
    private enum ThreadSanitizer {
        typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void
        static let acquire = annotation(named: "__tsan_acquire")
        static let release = annotation(named: "__tsan_release")

        private static func annotation(named name: String) -> Annotation? {
            #if canImport(Glibc)
                // A null handle is glibc's RTLD_DEFAULT: the program and every library it loaded.
                guard let symbol = dlsym(nil, name) else { return nil }
                return unsafeBitCast(symbol, to: Annotation.self)
            #else
                return nil
            #endif
        }
    }

#else

    /// A mutual-exclusion lock over the state it protects, as Swift's `Synchronization.Mutex`
    /// (which is not available on every Apple OS this package supports, so a pthread mutex backs
    /// it here), in a class so that escaping closures and several objects can share it. The state
    /// is reached only inside ``withLock(_:)``; `Lock<Void>` (``init()``) guards state kept
    /// elsewhere.
    package final class Lock<State>: @unchecked Sendable {
        // @unchecked Sendable: `state` is read and written only between `pthread_mutex_lock` and
        // `pthread_mutex_unlock` of `mutex`, whose address never changes (it is allocated once).
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private var state: State

        package init(_ state: sending State) {
            self.state = state
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }

        /// Runs `body` with the state while holding the lock. Not reentrant: `body` must not take
        /// the same lock again.
        package func withLock<Result, Failure: Error>(
            _ body: (inout sending State) throws(Failure) -> sending Result
        ) throws(Failure) -> sending Result {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&state)
        }
    }

#endif

extension Lock where State == Void {
    /// A lock that guards state kept outside it (properties of the object that owns the lock).
    package convenience init() { self.init(()) }

    /// Runs `body` while holding the lock. Not reentrant: `body` must not take the same lock again.
    package func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> sending Result) throws(Failure) -> sending Result {
        try withLock { (_: inout sending Void) throws(Failure) -> sending Result in try body() }
    }
}

extension Lock where State == Int {
    /// The counter's value, which is then incremented: how threads share out work items by index.
    package func takeNext() -> Int {
        withLock { k in
            defer { k += 1 }
            return k
        }
    }
}

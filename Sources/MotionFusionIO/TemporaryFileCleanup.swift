import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Removes the temporary files of ``OutputFile`` when the process is ended by SIGINT, SIGTERM or
/// SIGHUP (Control-C, `kill`, a closed terminal), so that an interrupted command leaves nothing
/// beside its output: the output path is as it was.
///
/// Off until ``enable()`` is called: a library does not take over an application's signals. A
/// command-line program calls it once at start. Each signal whose disposition is then the default
/// (not ignored, as `nohup` ignores SIGHUP, and not handled by the program) gets a handler that
/// unlinks every temporary file open at that moment, restores the default disposition and raises
/// the signal again, so the process ends as it would have (status 128 + the signal's number in a
/// shell). The handler only reads a fixed table through atomics and calls `unlink(2)`, which is
/// async-signal-safe.
///
/// At most ``capacity`` temporary files are covered at once, each with a path of at most
/// ``longestPath`` bytes; one beyond either is still removed by ``OutputFile/abandon()`` and by a
/// normal exit, only not on a signal.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public enum TemporaryFileCleanup {
    /// How many temporary files are covered at once (`motion fuse --output-directory` keeps one
    /// per worker).
    public static let capacity = 64
    /// The longest path covered, in bytes.
    public static let longestPath = 4095

    /// The signals handled.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Slot states: free, being filled or emptied (the handler passes over it), holding a path.
    static let free = 0
    static let busy = 1
    static let holding = 2

    /// The table: `capacity` states, and `capacity` buffers of `longestPath + 1` bytes. Allocated
    /// once, by ``enable()``, and never freed (the handler may read it at any time).
    nonisolated(unsafe) static var states: UnsafeMutablePointer<Atomic<Int>>?
    nonisolated(unsafe) static var paths: UnsafeMutablePointer<CChar>?
    private static let enabled = Mutex(false)

    /// Installs the handlers (once; later calls do nothing). Call it before any output is opened.
    public static func enable() {
        enabled.withLock { done in
            guard !done else { return }
            done = true
            let states = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: capacity)
            for k in 0..<capacity { (states + k).initialize(to: Atomic(free)) }
            paths = UnsafeMutablePointer<CChar>.allocate(capacity: capacity * (longestPath + 1))
            Self.states = states
            for signal in signals {
                var current = sigaction()
                guard sigaction(signal, nil, &current) == 0, Self.isDefault(current) else { continue }
                var action = sigaction()
                Self.setHandler(&action)
                sigemptyset(&action.sa_mask)
                action.sa_flags = 0
                _ = sigaction(signal, &action, nil)
            }
        }
    }

    /// Whether a disposition is the default one.
    private static func isDefault(_ action: sigaction) -> Bool {
        #if canImport(Darwin)
            return action.__sigaction_u.__sa_handler == nil
        #else
            return action.__sigaction_handler.sa_handler == nil
        #endif
    }

    private static func setHandler(_ action: inout sigaction) {
        #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = handleSignal
        #else
            action.__sigaction_handler.sa_handler = handleSignal
        #endif
    }

    /// Covers `path`; returns its slot, or nil when the cleanup is off, the table is full or the
    /// path too long.
    static func register(_ path: String) -> Int? {
        guard let states, let paths else { return nil }
        let bytes = Array(path.utf8)
        guard bytes.count <= longestPath, !bytes.contains(0) else { return nil }
        for k in 0..<capacity {
            guard states[k].compareExchange(expected: free, desired: busy, ordering: .acquiring).exchanged else { continue }
            let buffer = paths + k * (longestPath + 1)
            for (i, byte) in bytes.enumerated() { buffer[i] = CChar(bitPattern: byte) }
            buffer[bytes.count] = 0
            states[k].store(holding, ordering: .releasing)
            return k
        }
        return nil
    }

    /// Stops covering the path in `slot` (the file was renamed or removed).
    static func unregister(_ slot: Int) {
        guard let states else { return }
        states[slot].store(busy, ordering: .sequentiallyConsistent)
        states[slot].store(free, ordering: .releasing)
    }

    /// Whether a path is covered now (for tests).
    static var coveredCount: Int {
        guard let states else { return 0 }
        return (0..<capacity).filter { states[$0].load(ordering: .acquiring) == holding }.count
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
/// The signal handler: unlinks the covered temporary files, then ends the process as the signal
/// would have.
private func handleSignal(_ signal: Int32) {
    if let states = TemporaryFileCleanup.states, let paths = TemporaryFileCleanup.paths {
        for k in 0..<TemporaryFileCleanup.capacity where states[k].load(ordering: .acquiring) == TemporaryFileCleanup.holding {
            unlink(paths + k * (TemporaryFileCleanup.longestPath + 1))
        }
    }
    var action = sigaction()
    sigemptyset(&action.sa_mask)
    _ = sigaction(signal, &action, nil)  // the default disposition (a zeroed handler is SIG_DFL)
    raise(signal)
}

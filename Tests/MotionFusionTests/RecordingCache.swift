import Foundation

import MotionFusionCore
@testable import MotionFusionIO

/// Reference recordings read once per test process and shared by the tests that score them: in a
/// debug build, reading and parsing a trial takes seconds, and several accuracy tests score the
/// same trials. A recording is read outside the lock, so that trials read on all cores at once
/// stay parallel (two tests that ask for the same trial at the same moment may both read it). A
/// test that checks reading itself reads the file, not this cache.
enum RecordingCache {
    private static let recordings = Lock<[String: IMURecording]>([:])

    /// The recording stored under `key`, read with `read` the first time.
    static func recording(_ key: String, read: () throws -> IMURecording) rethrows -> IMURecording {
        if let cached = recordings.withLock({ $0[key] }) { return cached }
        let recording = try read()
        recordings.withLock { $0[key] = recording }
        return recording
    }
}

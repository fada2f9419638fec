import Testing

@testable import MotionFusion
@testable import MotionFusionWeb

/// The WebAssembly build's C-style exports (Sources/MotionFusionWeb), called as a page calls them,
/// against the library used directly: `DeviceMotionProcessor` around the default filter,
/// `MotionEventDetector` and `StepDetector` fed the same samples must give the same numbers bit for
/// bit. (`scripts/web` then holds the WebAssembly module to this host build.)
struct WebExportsTests {
    @Test(.enabled(if: BroadData.required, "BROAD data not found at ../shared/reference-data/broad"))
    func exportsEqualTheLibraryOnABroadTrial() throws {
        let recording = try BroadData.recording(BroadData.trials[4])  // fast combined motion
        let handle = try #require(mf_create(2))
        defer { mf_destroy(handle) }
        var processor = try DeviceMotionProcessor<InertialFrameFilter<Double>>(referenceFrame: .xMagneticNorthZVertical)
        var detector = MotionEventDetector()
        var steps = StepDetector<Double>()
        var events: [MotionEvent] = []
        let count = Int(mf_output_count())
        var out = [Double](repeating: 0, count: count)
        var event = [Double](repeating: 0, count: 4)
        var eventCount = 0
        for k in 0..<recording.count {
            let g = recording.gyroscope[k], a = recording.accelerometer[k], m = recording.magnetometer![k]
            let n = mf_update(handle, recording.timestamps[k], g.x, g.y, g.z, a.x, a.y, a.z, m.x, m.y, m.z)
            let motion = processor.update(timestamp: recording.timestamps[k], gyroscope: g, accelerometer: a, magnetometer: m)
            events.removeAll()
            detector.update(motion, into: &events)
            steps.update(timestamp: recording.timestamps[k], acceleration: a)
            try #require(Int(n) == events.count, "sample \(k)")
            eventCount += events.count
            mf_output(handle, &out)
            let q = motion.attitude.quaternion, b = processor.stream.filter.gyroscopeBias
            let expected: [Double] = [
                motion.timestamp, q.w, q.x, q.y, q.z, motion.rotationRate.x, motion.rotationRate.y,
                motion.rotationRate.z, motion.gravity.x, motion.gravity.y, motion.gravity.z,
                motion.userAcceleration.x, motion.userAcceleration.y, motion.userAcceleration.z, b.x, b.y, b.z,
                motion.heading, processor.stream.filter.isInitialized ? 1 : 0,
                processor.stream.filter.isRestDetected ? 1 : 0,
                processor.stream.filter.isMagneticDisturbanceDetected ? 1 : 0, steps.isWalking ? 1 : 0,
                Double(steps.stepCount),
            ]
            try #require(out.map(\.bitPattern) == expected.map(\.bitPattern), "sample \(k)")
            for (i, e) in events.enumerated() {
                let written = mf_event(handle, Int32(i), &event)
                try #require(written == 1)
                #expect(event[1] == e.timestamp, "sample \(k), event \(i)")
                #expect(event[0] == [1, 2, 3, 4, 5][kindIndex(e)], "sample \(k), event \(i)")
                switch e {
                case .orientationChanged(_, _, let to):
                    #expect(event[2] == Double(DeviceOrientation.allCases.firstIndex(of: to)!), "sample \(k)")
                case .movement(_, let direction, let peak):
                    #expect(event[2] == Double(MovementDirection.allCases.firstIndex(of: direction)!), "sample \(k)")
                    #expect(event[3].bitPattern == peak.bitPattern, "sample \(k)")
                default:
                    #expect(event[2].isNaN && event[3].isNaN, "sample \(k)")
                }
            }
            let beyond = mf_event(handle, Int32(events.count), &event)
            #expect(beyond == 0, "sample \(k)")
        }
        // The trial has shakes and turns: events and steps are exercised, not only the attitude.
        #expect(eventCount > 0)
    }

    @Test func badHandlesAndFramesAreRefused() {
        #expect(mf_create(-1) == nil)
        #expect(mf_create(3) == nil)  // true north needs a declination
        #expect(mf_update(nil, 0, 0, 0, 0, 0, 0, 9.81, 0, 0, 0) == 0)
        let handle = mf_create(0)
        #expect(handle != nil)
        var out = [Double](repeating: 0, count: Int(mf_output_count()))
        mf_output(handle, &out)
        #expect(out.allSatisfy { $0.isNaN })  // nothing before the first sample
        mf_destroy(handle)
        mf_destroy(nil)
    }

    func kindIndex(_ e: MotionEvent) -> Int {
        switch e {
        case .shakeBegan: 0
        case .shakeEnded: 1
        case .shakeCancelled: 2
        case .orientationChanged: 3
        case .movement: 4
        }
    }
}

import MotionFusionCore

/// What a web page (or any C caller) drives through the C-style exports of
/// `WebExports.swift`: MotionFusion's device motion (the default filter,
/// ``InertialFrameFilter`` in `Double`, behind ``DeviceMotionProcessor``), the motion events
/// (``MotionEventDetector``: shakes, orientation changes, movements) and the step detector
/// (``StepDetector``), fed one raw sample at a time. The same code runs in the host build and in the
/// WebAssembly build of `scripts/web`, which checks that both give the same numbers.
///
/// Units as everywhere in MotionFusion: gyroscope rad/s, accelerometer specific force m/s²,
/// magnetometer µT, time s; the outputs are Core Motion's (attitude in the reference frame,
/// gravity and user acceleration in g, rotation rate without the bias estimate, rad/s).
struct WebSession {
    var processor: DeviceMotionProcessor<InertialFrameFilter<Double>>
    var events = MotionEventDetector()
    var steps = StepDetector<Double>()
    /// The events of the last update (reused storage: no allocation once its capacity suffices).
    var newEvents: [MotionEvent] = []
    /// The last update's device motion (nil before the first).
    var last: DeviceMotionSample<Double>?
    /// The number of outputs ``write(into:)`` writes.
    static let outputCount = 26

    /// A session in `frame`; nil for a frame that needs what the page cannot give (true north needs
    /// a declination).
    init?(frame: AttitudeReferenceFrame) {
        guard let processor = try? DeviceMotionProcessor<InertialFrameFilter<Double>>(referenceFrame: frame) else {
            return nil
        }
        self.processor = processor
        newEvents.reserveCapacity(8)
    }

    /// One raw sample; returns the number of events it completed (``newEvents``). A magnetometer
    /// with a non-finite component is no magnetometer reading (6D for this sample).
    mutating func update(
        timestamp: Double, gyroscope: SIMD3<Double>, accelerometer: SIMD3<Double>, magnetometer: SIMD3<Double>
    ) -> Int {
        let field: SIMD3<Double>? =
            magnetometer.x.isFinite && magnetometer.y.isFinite && magnetometer.z.isFinite ? magnetometer : nil
        return update(timestamp: timestamp, gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: field)
    }

    /// One raw sample with or without a magnetometer reading (a recording's sample, whose reading
    /// is passed on as read); returns the number of events it completed.
    mutating func update(
        timestamp: Double, gyroscope: SIMD3<Double>, accelerometer: SIMD3<Double>, magnetometer field: SIMD3<Double>?
    ) -> Int {
        let motion = processor.update(
            timestamp: timestamp, gyroscope: gyroscope, accelerometer: accelerometer, magnetometer: field)
        last = motion
        newEvents.removeAll(keepingCapacity: true)
        events.update(motion, into: &newEvents)
        steps.update(timestamp: timestamp, acceleration: accelerometer)
        return newEvents.count
    }

    /// Writes the last update's outputs, in this order: timestamp; attitude quaternion w, x, y, z
    /// (sensor → the reference frame); rotation rate x, y, z; gravity x, y, z; user acceleration
    /// x, y, z; gyroscope bias x, y, z; heading (degrees, −1 when not north-referenced); then 1 or 0
    /// for: the filter initialized, rest detected, magnetic disturbance detected, walking; the
    /// steps counted; and the attitude's roll, pitch and yaw (Core Motion's, radians). All NaN
    /// before the first update.
    func write(into out: UnsafeMutablePointer<Double>) {
        guard let m = last else {
            for i in 0..<Self.outputCount { out[i] = .nan }
            return
        }
        let q = m.attitude.quaternion
        let filter = processor.stream.filter
        let b = filter.gyroscopeBias
        out[0] = m.timestamp
        (out[1], out[2], out[3], out[4]) = (q.w, q.x, q.y, q.z)
        (out[5], out[6], out[7]) = (m.rotationRate.x, m.rotationRate.y, m.rotationRate.z)
        (out[8], out[9], out[10]) = (m.gravity.x, m.gravity.y, m.gravity.z)
        (out[11], out[12], out[13]) = (m.userAcceleration.x, m.userAcceleration.y, m.userAcceleration.z)
        (out[14], out[15], out[16]) = (b.x, b.y, b.z)
        out[17] = m.heading
        out[18] = filter.isInitialized ? 1 : 0
        out[19] = filter.isRestDetected ? 1 : 0
        out[20] = filter.isMagneticDisturbanceDetected ? 1 : 0
        out[21] = steps.isWalking ? 1 : 0
        out[22] = Double(steps.stepCount)
        (out[23], out[24], out[25]) = (m.attitude.roll, m.attitude.pitch, m.attitude.yaw)
    }

    /// Writes event `index` of the last update: kind (1 shake began, 2 shake ended, 3 shake
    /// cancelled, 4 orientation changed, 5 movement), timestamp, and for an orientation change the
    /// new orientation's index in ``DeviceOrientation/allCases``, for a movement its direction's
    /// index in ``MovementDirection/allCases`` and its peak (g); unused values NaN. Returns false for
    /// an index out of range.
    func writeEvent(_ index: Int, into out: UnsafeMutablePointer<Double>) -> Bool {
        guard index >= 0, index < newEvents.count else { return false }
        out[2] = .nan
        out[3] = .nan
        switch newEvents[index] {
        case .shakeBegan(let t): (out[0], out[1]) = (1, t)
        case .shakeEnded(let t): (out[0], out[1]) = (2, t)
        case .shakeCancelled(let t): (out[0], out[1]) = (3, t)
        case .orientationChanged(let t, _, let to):
            (out[0], out[1]) = (4, t)
            out[2] = Double(DeviceOrientation.allCases.firstIndex(of: to) ?? -1)
        case .movement(let t, let direction, let peak):
            (out[0], out[1]) = (5, t)
            out[2] = Double(MovementDirection.allCases.firstIndex(of: direction) ?? -1)
            out[3] = peak
        }
        return true
    }
}

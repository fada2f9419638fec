// Core Motion code as Apple's article "Getting processed device-motion data" and the CMMotionManager
// reference write it, compiled in Swift 6 language mode (the package's) with only the import and the
// manager's source changed:
//   - a plain class whose handlers run on `.main` and on an `OperationQueue()` and capture `self`
//     (`MotionViewController`), and a pull loop reading `deviceMotion`;
//   - a `@MainActor` view controller whose `.main` handler calls `self.update(data)` (`ViewController`);
//   - a `Timer` reading `deviceMotion` 60 times a second, in a `@MainActor` class as in an app
//     (`TimerViewController`);
//   - device motion wrapped in an `AsyncStream` (`MotionStream`).
// The changes from Core Motion code:
//   1. `import CoreMotion` → `import CoreMotionCompatibility`.
//   2. `CMMotionManager()` → `CMMotionManager(source: …)` (here a simulated recording; on a device,
//      `IIOSource`).
// and, only where an attitude is mutated, 3. `let attitude = validData.attitude` → `var attitude = …`:
// CMAttitude is a class in Core Motion, a struct here, and `multiply(byInverseOf:)` mutates it.
//
// The handler types are plain closures, as Swift imports Core Motion's blocks: a closure in a plain
// class may capture `self`, and one written in a `@MainActor` class is isolated to the main actor
// (given `.main`, it runs there). What a handler on a concurrent `OperationQueue()` shares with the
// rest of the program is the program's to protect, as with Core Motion; this code keeps it in a
// lock (`Locked`, below), as an app would. `Timer`'s block is `@Sendable` in Foundation, so the Timer shape compiles
// in a `@MainActor` class (a view controller, where Apple's listing lives) but not in a plain one.
// (This file is compiled here against CoreMotionCompatibility; there is no Apple SDK on Linux to
// build it against Core Motion.)

import CoreMotionCompatibility
import Foundation

/// What a handler or a frame read from one device-motion sample.
struct MotionReading: Sendable {
    var timestamp: TimeInterval
    var roll, pitch, yaw: Double
    /// The attitude relative to the first one, as a quaternion.
    var relativeAttitude: CMQuaternion
    var gravity: CMAcceleration
    var userAcceleration: CMAcceleration
    var rotationRate: CMRotationRate
    var heading: Double
    var magneticField: CMMagneticField
    var magneticFieldAccuracy: CMMagneticFieldCalibrationAccuracy
    var rotationMatrix: CMRotationMatrix
    var quaternion: CMQuaternion
}

final class MotionViewController {
    let motion = CMMotionManager(source: RecordingSource(SyntheticMotion.generate(), pacing: .realTime(speed: 20)))
    let queue = OperationQueue()
    let referenceAttitude = Locked<CMAttitude?>(nil)
    let readings = Locked<[MotionReading]>([])
    let errors = Locked<[any Error]>([])

    /// Listing 1, with the handler on the main queue.
    func startDeviceMotion() {
        if motion.isDeviceMotionAvailable {
            self.motion.deviceMotionUpdateInterval = 1.0 / 60.0
            self.motion.showsDeviceMovementDisplay = true
            guard CMMotionManager.availableAttitudeReferenceFrames().contains(.xMagneticNorthZVertical) else { return }
            self.motion.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, to: .main) { data, error in
                if let error {
                    self.errors.withLock { $0.append(error) }
                    self.motion.stopDeviceMotionUpdates()
                    return
                }
                guard let data else { return }
                self.use(data)
            }
        }
    }

    /// Listing 2: queued device-motion updates.
    func startQueuedUpdates() {
        if motion.isDeviceMotionAvailable {
            self.motion.deviceMotionUpdateInterval = 1.0 / 60.0
            self.motion.showsDeviceMovementDisplay = true
            self.motion.startDeviceMotionUpdates(
                using: .xMagneticNorthZVertical,
                to: self.queue,
                withHandler: { (data, error) in
                    // Make sure the data is valid before accessing it.
                    if let validData = data {
                        self.use(validData)
                    }
                })
        }
    }

    /// Pull: start without a handler, then read `deviceMotion` once a frame (a display link, a game
    /// loop).
    func startPolling() {
        if motion.isDeviceMotionAvailable {
            self.motion.deviceMotionUpdateInterval = 1.0 / 60.0
            self.motion.startDeviceMotionUpdates(using: .xMagneticNorthZVertical)
        }
    }

    func updateFrame() {
        if let data = self.motion.deviceMotion {
            self.use(data)
        }
    }

    func stopDeviceMotion() {
        self.motion.stopDeviceMotionUpdates()
    }

    private func use(_ validData: CMDeviceMotion) {
        // Get the attitude relative to the magnetic north reference frame.
        let roll = validData.attitude.roll
        let pitch = validData.attitude.pitch
        let yaw = validData.attitude.yaw

        // The attitude relative to the first one.
        let relative = referenceAttitude.withLock { reference -> CMQuaternion in
            if reference == nil {
                reference = validData.attitude.copy() as? CMAttitude
            }
            var attitude = validData.attitude
            if let reference {
                attitude.multiply(byInverseOf: reference)
            }
            return attitude.quaternion
        }

        let reading = MotionReading(
            timestamp: validData.timestamp,
            roll: roll, pitch: pitch, yaw: yaw,
            relativeAttitude: relative,
            gravity: CMAcceleration(x: validData.gravity.x, y: validData.gravity.y, z: validData.gravity.z),
            userAcceleration: CMAcceleration(
                x: validData.userAcceleration.x, y: validData.userAcceleration.y, z: validData.userAcceleration.z),
            rotationRate: CMRotationRate(x: validData.rotationRate.x, y: validData.rotationRate.y, z: validData.rotationRate.z),
            heading: validData.heading,
            magneticField: CMMagneticField(
                x: validData.magneticField.field.x, y: validData.magneticField.field.y, z: validData.magneticField.field.z),
            magneticFieldAccuracy: validData.magneticField.accuracy,
            rotationMatrix: CMRotationMatrix(
                m11: validData.attitude.rotationMatrix.m11, m12: validData.attitude.rotationMatrix.m12,
                m13: validData.attitude.rotationMatrix.m13, m21: validData.attitude.rotationMatrix.m21,
                m22: validData.attitude.rotationMatrix.m22, m23: validData.attitude.rotationMatrix.m23,
                m31: validData.attitude.rotationMatrix.m31, m32: validData.attitude.rotationMatrix.m32,
                m33: validData.attitude.rotationMatrix.m33),
            quaternion: CMQuaternion(
                x: validData.attitude.quaternion.x, y: validData.attitude.quaternion.y,
                z: validData.attitude.quaternion.z, w: validData.attitude.quaternion.w))
        readings.withLock { $0.append(reading) }
    }
}

/// The `@MainActor` view controller, as in the article "Device Motion for Core Motion Users" (which
/// a test checks word for word against this code).
@MainActor
final class ViewController {
    let motion = CMMotionManager(source: RecordingSource(SyntheticMotion.generate(), pacing: .asFastAsPossible))  // IIOSource on a device
    private(set) var samples: [CMDeviceMotion] = []
    private(set) var headingText = ""

    func startDeviceMotion() {
        guard motion.isDeviceMotionAvailable else { return }
        motion.deviceMotionUpdateInterval = 1.0 / 60.0
        motion.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, to: .main) { data, error in
            guard let data else { return }
            self.update(data)
        }
    }

    func update(_ data: CMDeviceMotion) {
        samples.append(data)
        headingText = "\(Int(data.heading.rounded()) % 360)°"
    }
}

/// Apple's Timer listing, in a `@MainActor` class as in a view controller: a 60 Hz timer on the
/// current run loop reads `deviceMotion`. Each frame's reading goes to `frames` (a lock, because
/// Foundation's `Timer` block is `@Sendable` and so cannot touch the class's main-actor state).
@MainActor
final class TimerViewController {
    let motion: CMMotionManager
    var timer: Timer?
    let frames = Locked<[MotionReading.Frame]>([])

    init(source: any MotionSource) { motion = CMMotionManager(source: source) }

    func startDeviceMotion() {
        if motion.isDeviceMotionAvailable {
            self.motion.deviceMotionUpdateInterval = 1.0 / 60.0
            self.motion.showsDeviceMovementDisplay = true
            self.motion.startDeviceMotionUpdates(using: .xMagneticNorthZVertical)

            // Configure a timer to fetch the motion data.
            self.timer = Timer(fire: Date(), interval: (1.0 / 60.0), repeats: true,
                               block: { (timer) in
                                if let data = self.motion.deviceMotion {
                                    // Get the attitude relative to the magnetic north reference frame.
                                    let x = data.attitude.pitch
                                    let y = data.attitude.roll
                                    let z = data.attitude.yaw

                                    // Use the motion data in your app.
                                    let frame = MotionReading.Frame(timestamp: data.timestamp, pitch: x, roll: y, yaw: z,
                                                                    userAcceleration: data.userAcceleration)
                                    self.frames.withLock { $0.append(frame) }
                                }
            })

            // Add the timer to the current run loop.
            RunLoop.current.add(self.timer!, forMode: RunLoop.Mode.default)
        }
    }

    func stopDeviceMotion() {
        timer?.invalidate()
        timer = nil
        motion.stopDeviceMotionUpdates()
    }
}

/// Device motion as an `AsyncStream`, the usual wrapper around a Core Motion handler, in a plain
/// class.
final class MotionStream {
    let motion = CMMotionManager(source: RecordingSource(SyntheticMotion.generate(), pacing: .realTime(speed: 20)))
    let queue = OperationQueue()

    func deviceMotionUpdates() -> AsyncStream<CMDeviceMotion> {
        AsyncStream { continuation in
            motion.deviceMotionUpdateInterval = 1.0 / 60.0
            motion.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, to: queue) { data, error in
                if let data {
                    continuation.yield(data)
                } else {
                    continuation.finish()
                }
            }
            continuation.onTermination = { [motion] _ in
                motion.stopDeviceMotionUpdates()
            }
        }
    }
}

extension MotionReading {
    /// What one frame of the timer read.
    struct Frame: Sendable {
        var timestamp: TimeInterval
        var pitch, roll, yaw: Double
        var userAcceleration: CMAcceleration
    }
}

/// What an app shares between its handlers and the rest of the program: a value behind an
/// `NSLock`. (Not `Synchronization.Mutex`: scripts/tsan runs this code under the thread sanitizer,
/// which reported the readings appended inside `Mutex.withLock` from two handlers on
/// `OperationQueue()` as a race, once in two runs; on Linux a contended `Mutex` waits on a futex
/// inside the uninstrumented standard library, so the sanitizer may not see that lock's order. A
/// pthread mutex it intercepts.)
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

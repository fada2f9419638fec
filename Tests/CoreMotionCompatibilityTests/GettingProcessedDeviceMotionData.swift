// Core Motion code as Apple's article "Getting processed device-motion data" and the CMMotionManager
// reference write it: availability, the update interval, showsDeviceMovementDisplay, the reference
// frames, handlers on `.main` and on an `OperationQueue()`, a pull loop, the reference attitude
// (`copy() as? CMAttitude`, `multiply(byInverseOf:)`), and every field the handlers read; and the
// most common app shape, a `@MainActor` view controller whose `.main` handler updates it.
//
// It builds against CoreMotionCompatibility with only these changes from Core Motion code:
//   1. `import CoreMotion` → `import CoreMotionCompatibility`.
//   2. `CMMotionManager()` → `CMMotionManager(source: …)` (here a simulated recording replayed at
//      20× real time; on a device, `IIOSource`).
//   3. `let attitude = validData.attitude` → `var attitude = …`: CMAttitude is a class in Core
//      Motion, a struct here, and `multiply(byInverseOf:)` mutates it.
//   4. In a `@MainActor` class, a `.main` handler reaches the class through
//      `MainActor.assumeIsolated { self.update(data) }` instead of `self.update(data)`.
// Swift 6 strict concurrency. Here the handlers are `@Sendable`, so they are never isolated to the
// main actor. (Apple's CoreMotion headers, as far as the public copies we could read show, declare
// the handlers as plain blocks without NS_SWIFT_SENDABLE, which Swift imports as non-Sendable
// closures: there a closure written in a `@MainActor` class takes the main actor's isolation, so
// `self.update(data)` compiles, and traps at run time on a queue other than `.main`. Not verified
// against the newest SDK.) Hence change 4, and the classic shape below: `MotionViewController` is
// `@unchecked Sendable` (CMMotionManager is not marked Sendable in Core Motion) and keeps what its
// handlers share (the reference attitude and what they read) in a `Mutex` from Synchronization;
// what leaves the lock is Sendable in both worlds (C structs and numbers, not the CMAttitude class).
// Nothing else differs from Core Motion code. (This file is compiled here against
// CoreMotionCompatibility; there is no Apple SDK on Linux to build it against Core Motion.)

import CoreMotionCompatibility
import Foundation
import Synchronization

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

final class MotionViewController: @unchecked Sendable {
    let motion = CMMotionManager(source: RecordingSource(SyntheticMotion.generate(), pacing: .realTime(speed: 20)))
    let queue = OperationQueue()
    let referenceAttitude = Mutex<CMAttitude?>(nil)
    let readings = Mutex<[MotionReading]>([])
    let errors = Mutex<[any Error]>([])

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
    let motion = CMMotionManager(source: RecordingSource(SyntheticMotion.generate()))  // IIOSource on a device
    private(set) var samples: [CMDeviceMotion] = []
    private(set) var headingText = ""

    func startDeviceMotion() {
        guard motion.isDeviceMotionAvailable else { return }
        motion.deviceMotionUpdateInterval = 1.0 / 60.0
        motion.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, to: .main) { data, error in
            guard let data else { return }
            // `.main` runs the handler on the main actor; assumeIsolated checks that and says so.
            MainActor.assumeIsolated {
                self.update(data)
            }
        }
    }

    func update(_ data: CMDeviceMotion) {
        samples.append(data)
        headingText = "\(Int(data.heading.rounded()) % 360)°"
    }
}

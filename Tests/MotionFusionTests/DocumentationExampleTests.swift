import MotionFusion
import Testing

/// The code examples of the DocC articles, as written there, with a check of their result.
struct DocumentationExampleTests {
    /// "Device Motion for Core Motion Users".
    @Test func deviceMotionForCoreMotionUsersExample() {
        let recording = MotionScenario.named("gestures")!.generate()
        let manager = MotionManager(source: RecordingSource(recording))  // or CSVReplaySource, IIOSource
        manager.deviceMotionUpdateInterval = 0.02  // 50 Hz
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical)
        manager.waitUntilFinished()
        let motion = manager.deviceMotion
        #expect(motion != nil)
        if let motion {
            print(motion.attitude.yaw, motion.gravity, motion.userAcceleration)
            // Gravity is a unit vector in g whatever the attitude.
            let g = motion.gravity
            #expect(abs((g * g).sum().squareRoot() - 1) < 1e-9)
            #expect(motion.attitude.yaw.isFinite)
        }
    }
}

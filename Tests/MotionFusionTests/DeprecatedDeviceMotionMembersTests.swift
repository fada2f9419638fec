import MotionFusion
import Testing

/// `DeviceMotionSample.magneticFieldAccuracy` (0.5) is deprecated, not removed: a client's code
/// still compiles, reads `magneticField.accuracy` and writes it.
@Suite("Deprecated DeviceMotionSample members")
struct DeprecatedDeviceMotionMembersTests {
    /// Reached through a protocol whose requirement is not deprecated, so calling it does not warn
    /// (the suite builds with warnings as errors in CI) while the deprecated member is still used
    /// exactly as a client would use it.
    private protocol OldNames {
        func accuracy(of sample: DeviceMotion) -> MagneticFieldAccuracy
        func setting(_ accuracy: MagneticFieldAccuracy, in sample: DeviceMotion) -> DeviceMotion
    }

    private struct Client: OldNames {
        @available(*, deprecated)
        func accuracy(of sample: DeviceMotion) -> MagneticFieldAccuracy { sample.magneticFieldAccuracy }

        @available(*, deprecated)
        func setting(_ accuracy: MagneticFieldAccuracy, in sample: DeviceMotion) -> DeviceMotion {
            var copy = sample
            copy.magneticFieldAccuracy = accuracy
            return copy
        }
    }

    @Test func oldNameReadsAndWritesTheFieldsAccuracy() throws {
        var processor = try DeviceMotionProcessor(stream: FusionStream(), referenceFrame: .xMagneticNorthZVertical)
        let sample = processor.update(
            timestamp: 0, gyroscope: .zero, accelerometer: SIMD3(0, 0, 9.81), magnetometer: SIMD3(20, 0, -40))
        let old: any OldNames = Client()
        #expect(old.accuracy(of: sample) == sample.magneticField.accuracy)
        let changed = old.setting(.high, in: sample)
        #expect(changed.magneticField.accuracy == .high)
        #expect(sample.magneticField.accuracy != .high)
    }
}

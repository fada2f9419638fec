import Dispatch
import Foundation
import MotionFusionTestSupport
import Testing

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// A source of given samples, in order (gated by `GatedSource` in the tests).
final class SampleListSource: MotionSource {
    let samples: [SensorSample]
    let sensors: SensorSet
    private var position = 0  // only the manager's worker thread touches it

    init(_ samples: [SensorSample], sensors: SensorSet = .all) {
        self.samples = samples
        self.sensors = sensors
    }

    func next() throws -> SensorSample? {
        guard position < samples.count else { return nil }
        defer { position += 1 }
        return samples[position]
    }
}

/// `MotionManager` with samples of a `SampleAssembler` (sensors at different rates): each
/// accelerometer and magnetometer reading is reported once, at its own time; device motion is as
/// before.
@Suite("MotionManager with assembled samples")
struct MotionManagerAssembledSampleTests {
    /// A gyroscope at 100 Hz, an accelerometer at 50 Hz (half of its readings at a gyroscope's
    /// time, half between) and a magnetometer at 20 Hz, assembled offline.
    static func assembled() -> (samples: [SensorSample], accelerometer: [Double], magnetometer: [Double]) {
        var readings: [SensorReading] = []
        var accelerometer: [Double] = []
        var magnetometer: [Double] = []
        for k in 0..<100 {
            let t = Double(k) * 0.01
            if k % 5 == 0 {
                magnetometer.append(t)
                readings.append(SensorReading(sensor: .magnetometer, timestamp: t, value: SIMD3(20, Double(k), -40)))
            }
            if k % 2 == 0 {
                // Every other one between two gyroscope readings.
                let ta = k % 4 == 0 ? t : t - 0.004
                accelerometer.append(ta)
                readings.append(SensorReading(sensor: .accelerometer, timestamp: ta, value: SIMD3(0.1, Double(k) * 0.01, 9.8)))
            }
            readings.append(SensorReading(sensor: .gyroscope, timestamp: t, value: SIMD3(0.01, 0.02, Double(k) * 1e-3)))
        }
        var assembler = SampleAssembler()
        for reading in readings { assembler.add(reading) }
        assembler.finish()
        var samples: [SensorSample] = []
        while let sample = assembler.next() { samples.append(sample) }
        return (samples, accelerometer, magnetometer)
    }

    @Test func eachReadingOnceAtItsOwnTime() throws {
        let (samples, accelerometerTimes, magnetometerTimes) = Self.assembled()
        #expect(samples.count == 100)
        let source = GatedSource(SampleListSource(samples))
        let manager = MotionManager(source: source)
        let queue = DispatchQueue(label: "test")
        let accelerations = Lock<[AccelerometerData]>([])
        let fields = Lock<[MagnetometerData]>([])
        let motions = Lock<[DeviceMotion]>([])
        manager.startAccelerometerUpdates(to: queue) { data, _ in if let data { accelerations.withLock { $0.append(data) } } }
        manager.startMagnetometerUpdates(to: queue) { data, _ in if let data { fields.withLock { $0.append(data) } } }
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, to: queue) { motion, _ in
            if let motion { motions.withLock { $0.append(motion) } }
        }
        source.open()
        manager.waitUntilFinished()
        queue.sync {}
        let a = accelerations.withLock { $0 }
        let m = fields.withLock { $0 }
        // The accelerometer reading at −0.004 s precedes every gyroscope reading: no sample has it.
        #expect(a.map(\.timestamp) == accelerometerTimes.filter { $0 >= 0 })
        #expect(m.map(\.timestamp) == magnetometerTimes)
        // The values are the readings', converted as always.
        let second = try #require(samples.first { $0.accelerometerTimestamp == 0.016 })
        #expect(a[1].acceleration == CoreMotionConversion.acceleration(specificForce: second.accelerometer!))
        #expect(m[3].magneticField == SIMD3(20, 15, -40))
        // Device motion: every sample, as a processor gives it on the same samples.
        var processor = try DeviceMotionProcessor<InertialFrameFilter<Double>>(referenceFrame: .xMagneticNorthZVertical)
        let expected = samples.map {
            processor.update(timestamp: $0.timestamp, gyroscope: $0.gyroscope!, accelerometer: $0.accelerometer!, magnetometer: $0.magnetometer)
        }
        #expect(motions.withLock { $0 } == expected)
    }

    /// Without the reading times (one sensor set per scan, a recording) every sample's readings are
    /// reported, repeated values included, at the sample's time.
    @Test func samplesWithoutReadingTimesAsBefore() throws {
        let samples = (0..<10).map {
            SensorSample(timestamp: Double($0) * 0.01, gyroscope: .zero, accelerometer: SIMD3(0, 0, 9.8), magnetometer: SIMD3(1, 2, 3))
        }
        let source = GatedSource(SampleListSource(samples))
        let manager = MotionManager(source: source)
        let queue = DispatchQueue(label: "test")
        let times = Lock<[Double]>([])
        let magnetometer = Lock(0)
        manager.startAccelerometerUpdates(to: queue) { data, _ in if let data { times.withLock { $0.append(data.timestamp) } } }
        manager.startMagnetometerUpdates(to: queue) { data, _ in if data != nil { magnetometer.withLock { $0 += 1 } } }
        source.open()
        manager.waitUntilFinished()
        queue.sync {}
        #expect(times.withLock { $0 } == samples.map(\.timestamp))
        #expect(magnetometer.withLock { $0 } == 10)
    }
}

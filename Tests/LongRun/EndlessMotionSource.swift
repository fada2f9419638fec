import MotionFusion

/// ``EndlessMotion`` as a ``MotionSource`` that ends after `count` samples, made as they are taken
/// (as fast as the manager takes them: a fast-forward replay).
final class EndlessMotionSource: MotionSource {
    private var motion: EndlessMotion
    private var block = EndlessMotion.Block()
    private var position = 0
    private let count: Int
    private(set) var produced = 0
    /// The last sample's true attitude (sensor → ENU).
    private(set) var truth = Quaternion<Double>.identity

    init(_ settings: EndlessMotion.Settings, count: Int) {
        motion = EndlessMotion(settings)
        self.count = count
    }

    var sensors: SensorSet { .all }

    func next() throws -> SensorSample? {
        guard produced < count else { return nil }
        if position == block.count {
            motion.fill(&block, count: min(4096, count - produced))
            position = 0
        }
        defer {
            position += 1
            produced += 1
        }
        truth = block.truth[position]
        return SensorSample(
            timestamp: block.timestamps[position], gyroscope: block.gyroscope[position],
            accelerometer: block.accelerometer[position], magnetometer: block.magnetometer[position])
    }
}

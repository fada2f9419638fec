import MotionFusion

extension AccelerometerPresence {
    /// Throws the refusal (``refusal(_:written:)``) as a ``CommandFailure`` unless a reading was seen.
    func check(_ paths: [String], written: String) throws {
        if let refusal = refusal(paths, written: written) { throw CommandFailure(refusal) }
    }
}

extension Quaternion: CustomStringConvertible {
    /// `Quaternion(w: …, x: …, y: …, z: …)`, scalar first. In Embedded Swift, which cannot format
    /// floating-point numbers, the numbers print as a placeholder; the conformance is the same.
    public var description: String {
        "Quaternion(w: \(w), x: \(x), y: \(y), z: \(z))"
    }
}

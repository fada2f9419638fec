#if !hasFeature(Embedded)
extension Quaternion: Codable {
    @usableFromInline
    enum CodingKeys: String, CodingKey {
        case w, x, y, z
    }

    /// Encodes as `{"w": …, "x": …, "y": …, "z": …}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(w, forKey: .w)
        try container.encode(x, forKey: .x)
        try container.encode(y, forKey: .y)
        try container.encode(z, forKey: .z)
    }

    /// Decodes `{"w": …, "x": …, "y": …, "z": …}`; all four keys are required.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            w: try container.decode(Scalar.self, forKey: .w),
            x: try container.decode(Scalar.self, forKey: .x),
            y: try container.decode(Scalar.self, forKey: .y),
            z: try container.decode(Scalar.self, forKey: .z))
    }
}
#endif

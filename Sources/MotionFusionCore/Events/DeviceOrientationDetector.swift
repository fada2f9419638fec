/// Tracks the device orientation (portrait, landscape, face up, …) from gravity, with hysteresis,
/// and reports each change.
///
/// Input: gravity in the device frame in g (``DeviceMotionSample/gravity``). The raw orientation of a
/// sample is the axis along which gravity has its largest component, if that component reaches
/// ``Settings-swift.struct/threshold`` (0.75 g: within about 41° of the axis); otherwise the sample
/// has none and the current orientation stays. Between two axes at 45° neither component reaches
/// the threshold, so a device held on the diagonal does not flicker. A new raw orientation must
/// last ``Settings-swift.struct/minimumDuration`` seconds before it becomes the orientation; the
/// change is reported at that moment. Before the first change the orientation is ``DeviceOrientation/unknown``.
public struct DeviceOrientationDetector: Sendable {
    /// The detector's thresholds.
    public struct Settings: Sendable, Hashable {
        /// g: the smallest gravity component along an axis that names an orientation. Default 0.75.
        public var threshold: Double
        /// s: how long a new orientation must hold. Default 0.2.
        public var minimumDuration: Double

        /// The defaults, or the values given.
        public init(threshold: Double = 0.75, minimumDuration: Double = 0.2) {
            self.threshold = threshold
            self.minimumDuration = minimumDuration
        }
    }

    /// The settings.
    public var settings: Settings
    /// The current orientation.
    public private(set) var orientation: DeviceOrientation = .unknown
    var candidate: DeviceOrientation = .unknown
    var candidateSince = 0.0

    /// A detector with the given settings.
    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The orientation gravity `g` (device frame, g) points to on its own, or nil when no axis
    /// component reaches `threshold`.
    public static func classify<S: FusionScalar>(gravity g: SIMD3<S>, threshold: Double = 0.75) -> DeviceOrientation? {
        let v = SIMD3<Double>(g)
        guard VectorCheck.isFinite(v) else { return nil }
        let m = SIMD3(abs(v.x), abs(v.y), abs(v.z))
        if m.x >= m.y && m.x >= m.z {
            return m.x >= threshold ? (v.x < 0 ? .landscapeLeft : .landscapeRight) : nil
        }
        if m.y >= m.z {
            return m.y >= threshold ? (v.y < 0 ? .portrait : .portraitUpsideDown) : nil
        }
        return m.z >= threshold ? (v.z < 0 ? .faceUp : .faceDown) : nil
    }

    /// Processes one sample; returns the change it completes, if any.
    public mutating func update<S: FusionScalar>(timestamp t: Double, gravity: SIMD3<S>) -> MotionEvent? {
        guard t.isFinite, let raw = Self.classify(gravity: gravity, threshold: settings.threshold) else {
            return nil
        }
        if raw == orientation {
            candidate = orientation
            return nil
        }
        if raw != candidate {
            candidate = raw
            candidateSince = t
        }
        guard t - candidateSince >= settings.minimumDuration else { return nil }
        let previous = orientation
        orientation = raw
        return .orientationChanged(timestamp: t, from: previous, to: raw)
    }
}

#if !hasFeature(Embedded)
extension DeviceOrientationDetector.Settings: Codable {}
#endif

#if !hasFeature(Embedded)
/// The calibration state a client keeps across sessions, as Core Motion keeps its magnetometer
/// calibration: `Codable` as
/// `{"kind": "onlineMagnetometerCalibration", "version": 1, "calibration": {…} or absent,
/// "accuracy": "medium", "hasSoftIron": false, "acceptedFits": 3, "majorChanges": 1,
/// "samples": [[x, y, z], …], "places": [[x, y, z], …], "ages": [n, …], "lastCandidate": [x, y, z],
/// "changesSinceFit": n}` — the calibration in use (``MagnetometerCalibration``'s own format, its
/// ranges checked), the kept samples (µT) with their places and insertion order, and where the
/// sampling stood: a restored state continues exactly as the saved one would have.
///
/// Decoding refuses, with `DecodingError.dataCorrupted` naming the field, anything else: another
/// kind of file (an offline `motion calibrate` file given by mistake), another version, more than
/// ``capacity`` samples, samples and places of different counts, a coordinate that is not finite
/// or beyond ±100,000 µT (no reading beyond it is ever sampled), an unknown accuracy, a calibration
/// whose field strength is not 15–80 µT (no accepted fit has another), counts beyond 2³¹ − 1.
/// A state from another device or another place decodes, and is found out by the data: its
/// calibration's residual on the new samples grows, its accuracy drops, and a fit of the new
/// samples replaces it by the usual rules.
extension OnlineMagnetometerCalibrator: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind, version, calibration, accuracy, hasSoftIron, acceptedFits, majorChanges, samples, places, ages
        case lastCandidate, changesSinceFit
    }

    /// The `kind` every state file carries.
    public static var stateKind: String { "onlineMagnetometerCalibration" }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Self.stateKind, forKey: .kind)
        try c.encode(1, forKey: .version)
        try c.encodeIfPresent(adopted, forKey: .calibration)
        try c.encode(level, forKey: .accuracy)
        try c.encode(softIronFitted, forKey: .hasSoftIron)
        try c.encode(accepted, forKey: .acceptedFits)
        try c.encode(major, forKey: .majorChanges)
        try c.encode((0..<count).map { [Double(xs[$0]), Double(ys[$0]), Double(zs[$0])] }, forKey: .samples)
        try c.encode((0..<count).map { [Double(anchorX[$0]), Double(anchorY[$0]), Double(anchorZ[$0])] }, forKey: .places)
        try c.encode((0..<count).map { Int(order[$0]) }, forKey: .ages)
        if VectorCheck.isFinite(lastCandidate) {
            try c.encode([Double(lastCandidate.x), Double(lastCandidate.y), Double(lastCandidate.z)], forKey: .lastCandidate)
        }
        try c.encode(changesSinceFit, forKey: .changesSinceFit)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func refuse(_ key: CodingKeys, _ reason: String) -> DecodingError {
            DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: reason)
        }
        guard try c.decode(String.self, forKey: .kind) == Self.stateKind else {
            throw refuse(.kind, "not an online magnetometer calibration state (kind \"\(Self.stateKind)\")")
        }
        let version = try c.decode(Int.self, forKey: .version)
        guard version == 1 else { throw refuse(.version, "version \(version) is not 1, the only one this build reads") }
        let samples = try c.decode([[Double]].self, forKey: .samples)
        let places = try c.decode([[Double]].self, forKey: .places)
        guard samples.count <= Self.capacity else {
            throw refuse(.samples, "\(samples.count) samples, more than the \(Self.capacity) kept")
        }
        guard places.count == samples.count else {
            throw refuse(.places, "\(places.count) places for \(samples.count) samples")
        }
        let ages = try c.decode([Int].self, forKey: .ages)
        guard ages.count == samples.count, ages.allSatisfy({ (0..<Int(Int32.max)).contains($0) }) else {
            throw refuse(.ages, "\(ages.count) ages for \(samples.count) samples, or one outside 0..<2³¹ − 1")
        }
        let last = try c.decodeIfPresent([Double].self, forKey: .lastCandidate)
        if let last, !(last.count == 3 && last.allSatisfy({ $0.isFinite && abs($0) <= 100_000 })) {
            throw refuse(.lastCandidate, "lastCandidate is not 3 finite numbers within ±100,000 µT")
        }
        for (key, list) in [(CodingKeys.samples, samples), (.places, places)] {
            for (i, p) in list.enumerated() where !(p.count == 3 && p.allSatisfy({ $0.isFinite && abs($0) <= 100_000 })) {
                throw refuse(key, "\(key.rawValue)[\(i)] is not 3 finite numbers within ±100,000 µT")
            }
        }
        self.init()
        let calibration = try c.decodeIfPresent(MagnetometerCalibration.self, forKey: .calibration)
        if let calibration, !OnlineMagnetometerFit.fieldStrengthRange.contains(calibration.fieldStrength) {
            throw refuse(.calibration, "calibration.fieldStrength \(calibration.fieldStrength) µT is not 15–80 µT")
        }
        let accuracy = try c.decode(MagneticFieldAccuracy.self, forKey: .accuracy)
        guard (calibration == nil) == (accuracy == .uncalibrated) else {
            throw refuse(.accuracy, "accuracy \(accuracy.rawValue) \(calibration == nil ? "without" : "with") a calibration")
        }
        for (i, (p, a)) in zip(samples, places).enumerated() {
            xs[i] = Scalar(p[0])
            ys[i] = Scalar(p[1])
            zs[i] = Scalar(p[2])
            anchorX[i] = Scalar(a[0])
            anchorY[i] = Scalar(a[1])
            anchorZ[i] = Scalar(a[2])
            order[i] = Int32(ages[i])
        }
        count = samples.count
        sequence = Int32(min((ages.max() ?? -1) + 1, Int(Int32.max) - 1))
        if let last { lastCandidate = SIMD3(Scalar(last[0]), Scalar(last[1]), Scalar(last[2])) }
        changesSinceFit = min(max(0, try c.decode(Int.self, forKey: .changesSinceFit)), Self.changesPerFit - 1)
        if let calibration { use(calibration) }
        level = accuracy
        softIronFitted = try c.decode(Bool.self, forKey: .hasSoftIron)
        for key in [CodingKeys.acceptedFits, .majorChanges] {
            let n = try c.decode(Int.self, forKey: key)
            guard (0..<Int(Int32.max)).contains(n) else { throw refuse(key, "\(key.rawValue) \(n) is not 0..<2³¹ − 1") }
        }
        accepted = try c.decode(Int.self, forKey: .acceptedFits)
        major = try c.decode(Int.self, forKey: .majorChanges)
    }
}
#endif

import Foundation
import Testing

@testable import MotionFusionCore
@testable import MotionFusionSimulation
@testable import MotionFusion
@testable import MotionCLI

/// The online magnetometer calibration against fields made from a known distortion: the expected
/// hard and soft iron are the ones the test put in, never values the code computed.
@Suite("Online magnetometer calibration")
struct OnlineMagnetometerCalibratorTests {
    /// A field of `strength` µT seen from directions spread over the sphere (a deterministic
    /// spiral), distorted as `raw = D · b + h`.
    static func distortedSphere(
        count: Int, strength: Double, hardIron h: SIMD3<Double>, distortion d: RotationMatrix<Double>,
        noise: Double = 0, seed: UInt64 = 1, band: Double = 1
    ) -> [SIMD3<Double>] {
        var random = TestRandom(seed: seed)
        return (0..<count).map { k in
            // A golden-angle spiral over z in [−band, band].
            let z = band * (1 - 2 * (Double(k) + 0.5) / Double(count))
            let phi = Double(k) * 2.399963229728653
            let r = (1 - z * z).squareRoot()
            let b = SIMD3(r * cos(phi), r * sin(phi), z) * strength
            let e = random.gaussianVector() * noise
            return d * b + h + e
        }
    }

    static func symmetric(scales: SIMD3<Double>, skew: Double) -> RotationMatrix<Double> {
        RotationMatrix(
            rows: SIMD3(scales.x, skew, skew / 2), SIMD3(skew, scales.y, -skew), SIMD3(skew / 2, -skew, scales.z))
    }

    @Test func aLargeHardIronIsFoundFromASphereOfDirections() throws {
        let h = SIMD3(520.0, -730.0, 3400.0)
        let points = Self.distortedSphere(count: 400, strength: 47, hardIron: h, distortion: .identity)
        var calibrator = OnlineMagnetometerCalibrator<Double>()
        for p in points { _ = calibrator.update(p) }
        let c = try #require(calibrator.calibration, "sampled \(calibrator.sampleCount)")
        #expect(VectorCheck.length(c.hardIron - h) < 0.01)
        #expect(abs(c.fieldStrength - 47) < 0.01)
        #expect(calibrator.accuracy == .high)
    }
}

extension OnlineMagnetometerCalibratorTests {
    @Test func theDefaultStreamLearnsTheField() throws {
        let h = SIMD3(520.0, -730.0, 3400.0)
        let points = Self.distortedSphere(count: 400, strength: 47, hardIron: h, distortion: .identity)
        var stream = FusionStream()
        for (k, p) in points.enumerated() {
            _ = stream.update(timestamp: Double(k) * 0.01, gyroscope: .zero, accelerometer: SIMD3(0, 0, 9.81), magnetometer: p)
        }
        let c = try #require(stream.magnetometerCalibrator?.calibration, "sampled \(stream.magnetometerCalibrator?.sampleCount ?? -1)")
        #expect(VectorCheck.length(c.hardIron - h) < 0.01)
    }
}

extension OnlineMagnetometerCalibratorTests {
    /// Hard and soft iron from a field seen from every direction: the ellipsoid's truth is the
    /// distortion put in (D symmetric, so S = D⁻¹ up to the common scale).
    @Test func softIronIsFoundWhenTheDirectionsCoverTheSphere() throws {
        let h = SIMD3(-310.0, 45.0, 660.0)
        let d = Self.symmetric(scales: SIMD3(1.12, 0.9, 1.04), skew: 0.03)
        let points = Self.distortedSphere(count: 2000, strength: 50, hardIron: h, distortion: d, noise: 0.3, seed: 7)
        var calibrator = OnlineMagnetometerCalibrator<Double>()
        for p in points { _ = calibrator.update(p) }
        let c = try #require(calibrator.calibration)
        #expect(calibrator.hasSoftIron)
        #expect(VectorCheck.length(c.hardIron - h) < 0.5, "hard iron \(c.hardIron)")
        let values = try #require((c.softIron * d).singularValues)
        let mean = Foundation.cbrt(values.x * values.y * values.z)
        #expect(abs(values.x / mean - 1) < 0.01 && abs(values.z / mean - 1) < 0.01, "S·D singular values \(values)")
        // Calibrated readings lie on a sphere of the fitted strength: RMS within 1.5 % of it (the
        // noise alone is 0.6 %; raw, they are hundreds of µT off).
        let squares = points.map { p -> Double in
            let e = VectorCheck.length(calibrator.apply(p)) - c.fieldStrength
            return e * e
        }
        let rms = (squares.reduce(0, +) / Double(points.count)).squareRoot()
        #expect(rms < 0.015 * c.fieldStrength, "RMS \(rms) µT")
    }

    /// Turning about one axis only (with a ±3° wobble, so that a sphere is determined) leaves the
    /// hard iron along it unknown: the coverage rule refuses every fit.
    @Test func aTurnAboutOneAxisIsNotEnough() throws {
        var calibrator = OnlineMagnetometerCalibrator<Double>()
        var points: [SIMD3<Double>] = []
        for k in 0..<4000 {
            let angle = Double(k) * 0.01
            let tilt = 0.05 * sin(Double(k) * 0.37)
            let b = SIMD3(20 * cos(angle), 20 * sin(angle), -43.0)
            let wobbled = SIMD3(b.x, b.y * cos(tilt) - b.z * sin(tilt), b.y * sin(tilt) + b.z * cos(tilt))
            points.append(wobbled + SIMD3(400, 0, 0))
            _ = calibrator.update(points.last!)
        }
        #expect(calibrator.calibration == nil && calibrator.accuracy == .uncalibrated)
        // The sphere itself is determined: it is the coverage that refuses it.
        let sphere = points.withUnsafeBufferPointer { MagneticFieldFit.sphere($0) }
        #expect(sphere != nil)
    }

    /// The ellipsoid fit on exact points: the centre is the hard iron put in, S · D has equal
    /// singular values (a rotation times the common scale), det S = 1, and R is the radius of the
    /// sphere of the same volume, 50 · det(D)^(1/3).
    @Test func theEllipsoidFitIsExactOnExactPoints() throws {
        let h = SIMD3(35.0, -12.0, 80.0)
        let d = Self.symmetric(scales: SIMD3(1.1, 0.88, 1.02), skew: 0.04)
        let points = Self.distortedSphere(count: 200, strength: 50, hardIron: h, distortion: d)
        let (sphere, ellipsoid) = try points.withUnsafeBufferPointer { p in
            let sphere = try #require(MagneticFieldFit.sphere(p))
            return (sphere, try #require(MagneticFieldFit.ellipsoid(p, around: sphere)))
        }
        #expect(sphere.softIron == .identity)
        #expect(VectorCheck.length(ellipsoid.hardIron - h) < 1e-8)
        #expect(abs(ellipsoid.softIron.determinant - 1) < 1e-12)
        let values = try #require((ellipsoid.softIron * d).singularValues)
        #expect(values.x - values.z < 1e-9 * values.x, "\(values)")
        #expect(abs(ellipsoid.fieldStrength - 50 * Foundation.cbrt(d.determinant)) < 1e-8)
        #expect(points.withUnsafeBufferPointer { MagneticFieldFit.residual(of: ellipsoid, $0) } < 1e-8)
        // Coverage: 1/3 for the whole sphere, about 0.06 for a band ±25° wide.
        let whole = Self.distortedSphere(count: 2000, strength: 50, hardIron: .zero, distortion: .identity)
        let band = Self.distortedSphere(count: 2000, strength: 50, hardIron: .zero, distortion: .identity, band: sin(25 * .pi / 180))
        #expect(abs(whole.withUnsafeBufferPointer { MagneticFieldFit.coverage(around: .zero, $0) } - 1.0 / 3) < 0.002)
        #expect(abs(band.withUnsafeBufferPointer { MagneticFieldFit.coverage(around: .zero, $0) } - 0.059) < 0.005)
    }

    /// The default stream leaves a raw field (hundreds of µT) out of the filter until a fit is
    /// accepted, then uses it.
    @Test func theStreamWithholdsARawFieldUntilItIsCalibrated() throws {
        let h = SIMD3(300.0, -500.0, 200.0)
        let points = Self.distortedSphere(count: 600, strength: 47, hardIron: h, distortion: .identity)
        var stream = FusionStream()
        var flags: [FusionFlags] = []
        for (k, p) in points.enumerated() {
            flags.append(stream.update(timestamp: Double(k) * 0.01, gyroscope: .zero, accelerometer: SIMD3(0, 0, 9.81), magnetometer: p).flags)
        }
        #expect(!flags[1].contains(.magnetometerUsed))
        #expect(flags.last!.contains(.magnetometerUsed))
        var off = FusionStream<InertialFrameFilter<Double>>(filter: InertialFrameFilter(), magnetometerCalibrator: nil)
        #expect(off.magnetometerCalibrator == nil)
        _ = off.update(timestamp: 0, gyroscope: .zero, accelerometer: SIMD3(0, 0, 9.81), magnetometer: points[0])
        #expect(off.update(timestamp: 0.01, gyroscope: .zero, accelerometer: SIMD3(0, 0, 9.81), magnetometer: points[1]).flags.contains(.magnetometerUsed))
    }

    /// A field that comes calibrated is kept as it is (never replaced by a learned fit), and the
    /// readings pass unchanged.
    @Test func aCalibratedFieldIsLeftAlone() throws {
        let points = Self.distortedSphere(count: 1000, strength: 48, hardIron: .zero, distortion: .identity, noise: 0.5, seed: 3)
        var calibrator = OnlineMagnetometerCalibrator<Double>()
        for p in points { #expect(calibrator.update(p) == p) }
        let c = try #require(calibrator.calibration)
        #expect(c.hardIron == .zero && c.softIron == .identity)
        #expect(calibrator.accuracy == .high)
    }

    /// Zero, NaN and infinite readings pass unchanged and are never sampled; Float works too.
    @Test func badReadingsPassThroughAndAreNotLearned() {
        var calibrator = OnlineMagnetometerCalibrator<Float>()
        for bad in [SIMD3<Float>.zero, SIMD3(.nan, 1, 2), SIMD3(.infinity, 0, 0)] {
            let out = calibrator.update(bad)
            #expect(out == bad || (out.x.isNaN && bad.x.isNaN))
        }
        #expect(calibrator.sampleCount == 0)
        let points = Self.distortedSphere(count: 400, strength: 47, hardIron: SIMD3(520, -730, 3400), distortion: .identity)
        for p in points { _ = calibrator.update(SIMD3<Float>(p)) }
        #expect(calibrator.calibration.map { VectorCheck.length($0.hardIron - SIMD3(520, -730, 3400)) < 0.05 } == true)
        #expect(calibrator.update(.zero) == .zero)
    }

    /// A disturbed stretch (a field 30 µT off, as a magnet passing) sampled into the set does not
    /// replace a good calibration: its samples are dropped as outliers.
    @Test func aDisturbanceDoesNotReplaceAGoodCalibration() throws {
        let h = SIMD3(200.0, 100.0, -300.0)
        var calibrator = OnlineMagnetometerCalibrator<Double>()
        for p in Self.distortedSphere(count: 1500, strength: 47, hardIron: h, distortion: .identity, noise: 0.3, seed: 5) {
            _ = calibrator.update(p)
        }
        let before = try #require(calibrator.calibration)
        for p in Self.distortedSphere(count: 300, strength: 47, hardIron: h + SIMD3(0, 30, 0), distortion: .identity, seed: 6, band: 0.3) {
            _ = calibrator.update(p)
        }
        let after = try #require(calibrator.calibration)
        #expect(VectorCheck.length(after.hardIron - h) <= VectorCheck.length(before.hardIron - h) + 0.2, "\(after.hardIron)")
    }

    /// `motion fuse` reads a raw phone's field (3,400 µT of hard iron) without --trust-units and
    /// reports the calibration it learned.
    @Test func fuseLearnsARawPhonesField() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let h = SIMD3(520.0, -730.0, 3400.0)
        var text = "t,gx,gy,gz,ax,ay,az,mx,my,mz\n"
        for (k, p) in Self.distortedSphere(count: 600, strength: 47, hardIron: h, distortion: .identity).enumerated() {
            text += "\(Double(k) * 0.01),0,0,0,0,0,9.81,\(p.x),\(p.y),\(p.z)\n"
        }
        _ = try folder.write("raw.csv", text)
        let result = try StandardOutputTests.run(["fuse", "raw.csv", "-o", "out.csv"], in: folder)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("magnetometer calibration high") && result.error.contains("hard iron (520.00, -730.00, 3400.00) µT"), "\(result.error)")
        let off = try StandardOutputTests.run(["fuse", "raw.csv", "-o", "off.csv", "--no-learn-magnetometer"], in: folder)
        #expect(off.status == 0 && !off.error.contains("magnetometer"), "\(off.error)")
    }
}

/// The state kept across sessions: a round trip continues exactly where it stopped, and a file
/// that is not such a state is refused naming what is wrong.
@Suite("Online magnetometer calibration state")
struct OnlineMagnetometerStateTests {
    static let points = OnlineMagnetometerCalibratorTests.distortedSphere(
        count: 700, strength: 47, hardIron: SIMD3(120, -40, 300),
        distortion: OnlineMagnetometerCalibratorTests.symmetric(scales: SIMD3(1.05, 0.95, 1.0), skew: 0.02),
        noise: 0.2, seed: 11)

    @Test func aRestoredStateContinuesExactlyWhereItStopped() throws {
        var original = OnlineMagnetometerCalibrator<Double>()
        for p in Self.points.prefix(400) { _ = original.update(p) }
        let data = try JSONEncoder().encode(original)
        var restored = try JSONDecoder().decode(OnlineMagnetometerCalibrator<Double>.self, from: data)
        #expect(restored.calibration == original.calibration && restored.accuracy == original.accuracy)
        #expect(restored.sampleCount == original.sampleCount && restored.hasSoftIron == original.hasSoftIron)
        for p in Self.points.dropFirst(400) {
            #expect(restored.update(p) == original.update(p))
        }
        #expect(restored.calibration == original.calibration && restored.acceptedFits == original.acceptedFits)
    }

    @Test(arguments: [
        (#"{"kind":"other","version":1,"samples":[],"places":[],"accuracy":"uncalibrated","hasSoftIron":false,"acceptedFits":0,"majorChanges":0,"ages":[],"changesSinceFit":0}"#, "not an online magnetometer calibration state"),
        (#"{"kind":"onlineMagnetometerCalibration","version":2,"samples":[],"places":[],"accuracy":"uncalibrated","hasSoftIron":false,"acceptedFits":0,"majorChanges":0,"ages":[],"changesSinceFit":0}"#, "version 2"),
        (#"{"kind":"onlineMagnetometerCalibration","version":1,"samples":[[1,2,3]],"places":[],"accuracy":"uncalibrated","hasSoftIron":false,"acceptedFits":0,"majorChanges":0,"ages":[0],"changesSinceFit":0}"#, "0 places for 1 samples"),
        (#"{"kind":"onlineMagnetometerCalibration","version":1,"samples":[[1,2,200000]],"places":[[1,2,3]],"accuracy":"uncalibrated","hasSoftIron":false,"acceptedFits":0,"majorChanges":0,"ages":[0],"changesSinceFit":0}"#, "samples[0] is not 3 finite numbers"),
        (#"{"kind":"onlineMagnetometerCalibration","version":1,"samples":[],"places":[],"accuracy":"high","hasSoftIron":false,"acceptedFits":0,"majorChanges":0,"ages":[],"changesSinceFit":0}"#, "accuracy high without a calibration"),
        (#"{"kind":"onlineMagnetometerCalibration","version":1,"samples":[],"places":[],"accuracy":"medium","hasSoftIron":false,"acceptedFits":1,"majorChanges":1,"ages":[],"changesSinceFit":0,"calibration":{"hardIron":[1,2,3],"softIron":[[1,0,0],[0,1,0],[0,0,-1]]}}"#, "softIron"),
    ])
    func aWrongStateIsRefusedNamingWhy(json: String, reason: String) {
        do {
            _ = try JSONDecoder().decode(OnlineMagnetometerCalibrator<Float>.self, from: Data(json.utf8))
            Issue.record("decoded: \(json)")
        } catch {
            #expect(MagnetometerStateFile.describe(error).contains(reason), "\(MagnetometerStateFile.describe(error))")
        }
    }

    /// `motion fuse --magnetometer-calibration`: a second recording starts from the first one's
    /// calibration; a file that is not a state is refused, left unchanged, and fusion goes on.
    @Test func fuseCarriesTheStateFromOneRecordingToTheNext() throws {
        let folder = try Folder()
        defer { folder.remove() }
        var text = "t,gx,gy,gz,ax,ay,az,mx,my,mz\n"
        for (k, p) in Self.points.enumerated() { text += "\(Double(k) * 0.01),0,0,0,0,0,9.81,\(p.x),\(p.y),\(p.z)\n" }
        _ = try folder.write("first.csv", text)
        let still = Self.points[0]
        _ = try folder.write("second.csv", "t,gx,gy,gz,ax,ay,az,mx,my,mz\n0,0,0,0,0,0,9.81,\(still.x),\(still.y),\(still.z)\n0.01,0,0,0,0,0,9.81,\(still.x),\(still.y),\(still.z)\n")
        let first = try StandardOutputTests.run(["fuse", "first.csv", "-o", "a.csv", "--magnetometer-calibration", "state.json"], in: folder)
        #expect(first.status == 0, "\(first.error)")
        let state = try JSONDecoder().decode(OnlineMagnetometerCalibrator<Double>.self, from: Data(contentsOf: URL(fileURLWithPath: folder["state.json"])))
        #expect(state.calibration.map { VectorCheck.length($0.hardIron - SIMD3(120, -40, 300)) < 1 } == true)
        // Two still rows learn nothing: the second run is calibrated from its first row.
        let second = try StandardOutputTests.run(["fuse", "second.csv", "-o", "b.csv", "--magnetometer-calibration", "state.json", "--trust-units"], in: folder)
        #expect(second.status == 0 && second.error.contains("magnetometer calibration"), "\(second.error)")
        let offline = #"{"sensor":"magnetometer","hardIron":[1,2,3],"softIron":[[1,0,0],[0,1,0],[0,0,1]]}"#
        _ = try folder.write("offline.json", offline)
        let wrong = try StandardOutputTests.run(["fuse", "second.csv", "-o", "c.csv", "--magnetometer-calibration", "offline.json", "--trust-units"], in: folder)
        #expect(wrong.status == 0 && wrong.error.contains("refused") && wrong.error.contains("left unchanged"), "\(wrong.error)")
        #expect(try String(contentsOfFile: folder["offline.json"], encoding: .utf8) == offline)
    }
}

extension OnlineMagnetometerCalibratorTests {
    /// The hard iron's standard error against its independent references: on an even cover of the
    /// sphere, σ / √(N/3) (the directions' covariance is I/3); on a cap, the spread of the fitted
    /// centres over many noisy draws (a Monte Carlo estimate that the formula does not enter).
    @Test func theHardIronStandardErrorIsTheFitsOwnSpread() throws {
        let h = SIMD3(300.0, -200.0, 500.0)
        let sphere = Self.distortedSphere(count: 600, strength: 47, hardIron: h, distortion: .identity)
        let exact = MagnetometerCalibration(hardIron: h, fieldStrength: 47)
        let even = sphere.withUnsafeBufferPointer { MagneticFieldFit.hardIronUncertainty(of: exact, $0, residual: 0.5) }
        #expect(abs(even / (0.5 / (600.0 / 3).squareRoot()) - 1) < 0.02, "\(even)")

        // A cap: z in [0.6, 1] (directions within 53° of +z), 40 points, 0.5 µT of noise.
        let count = 40
        var predicted = 0.0
        var centres: [SIMD3<Double>] = []
        for seed in 1...300 {
            var random = TestRandom(seed: UInt64(seed))
            let points: [SIMD3<Double>] = (0..<count).map { k in
                let z = 0.6 + 0.4 * (Double(k) + 0.5) / Double(count)
                let phi = Double(k) * 2.399963229728653
                let r = (1 - z * z).squareRoot()
                return SIMD3(r * cos(phi), r * sin(phi), z) * 47 + h + random.gaussianVector() * 0.5
            }
            let fitted = try #require(points.withUnsafeBufferPointer { MagneticFieldFit.sphere($0) })
            centres.append(fitted.hardIron)
            if seed == 1 {
                predicted = points.withUnsafeBufferPointer { MagneticFieldFit.hardIronUncertainty(of: exact, $0, residual: 0.5) }
            }
        }
        let meanZ = centres.map(\.z).reduce(0, +) / Double(centres.count)
        let spreadZ = (centres.map { ($0.z - meanZ) * ($0.z - meanZ) }.reduce(0, +) / Double(centres.count - 1)).squareRoot()
        // The cap's axis is the worst direction: more than the noise itself (about 0.7 µT from
        // z's spread of 0.4 / √12 over 40 points), twenty times the full sphere's.
        #expect(predicted > 10 * even && predicted > 0.5, "\(predicted)")
        #expect(abs(spreadZ / predicted - 1) < 0.25, "Monte Carlo \(spreadZ) µT, predicted \(predicted) µT")
    }
}

import Foundation
import Testing

@testable import MotionCLI
@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Magnetometer hard- and soft-iron recovery on synthetic data with known parameters.
@Suite("Magnetometer ellipsoid fit")
struct EllipsoidFitTests {
    /// Raw readings u = S⁻¹ m + h for field vectors m of length `radius` in random directions within
    /// `maximumPolarAngle` of a random pole (π: the whole sphere), plus noise.
    static func readings(
        hardIron: SIMD3<Double>, softIron: RotationMatrix<Double>, radius: Double, count: Int,
        maximumPolarAngle: Double, noise: Double, random: inout TestRandom
    ) -> [SIMD3<Double>] {
        let inverse = softIron.inverted()!
        let pole = Quaternion<Double>(rotationVector: random.gaussianVector())
        return (0..<count).map { _ in
            let polar = acos(1 - Double.random(in: 0...1, using: &random) * (1 - cos(maximumPolarAngle)))
            let azimuth = Double.random(in: 0..<(2 * .pi), using: &random)
            let direction = SIMD3(sin(polar) * cos(azimuth), sin(polar) * sin(azimuth), cos(polar))
            return inverse * (pole.act(on: direction) * radius) + hardIron + noise * random.gaussianVector()
        }
    }

    /// A random symmetric soft-iron matrix with principal axes `axes` in a random orientation.
    static func softIron(axes: SIMD3<Double>, random: inout TestRandom) -> RotationMatrix<Double> {
        let r = RotationMatrix(random.rotation())
        let d = RotationMatrix<Double>(columns: SIMD3(axes.x, 0, 0), SIMD3(0, axes.y, 0), SIMD3(0, 0, axes.z))
        return r * d * r.transposed
    }

    @Test(arguments: [Double.pi, 2.0, 1.6])  // whole sphere, most of it, a little over a hemisphere
    func recoversHardAndSoftIron(maximumPolarAngle: Double) throws {
        var random = TestRandom(seed: UInt64(maximumPolarAngle * 1000))
        for _ in 0..<20 {
            let hard = SIMD3(
                Double.random(in: -50...50, using: &random), Double.random(in: -50...50, using: &random),
                Double.random(in: -50...50, using: &random))
            let axes = SIMD3(
                Double.random(in: 0.8...1.2, using: &random), Double.random(in: 0.8...1.2, using: &random),
                Double.random(in: 0.8...1.2, using: &random))
            let soft = Self.softIron(axes: axes, random: &random)
            let samples = Self.readings(
                hardIron: hard, softIron: soft, radius: 48, count: 1000, maximumPolarAngle: maximumPolarAngle,
                noise: 0.1, random: &random)
            let fit = try EllipsoidFit.magnetometer(samples, fieldStrength: 48)
            #expect((fit.hardIron - hard).length < 0.5, "hard iron \(fit.hardIron) vs \(hard)")
            // Soft iron to 1 %: every element within 1 % of the matrix's scale.
            #expect(fit.softIron.maximumDifference(to: soft) < 0.01, "soft iron off by \(fit.softIron.maximumDifference(to: soft))")
            #expect(fit.residual < 0.3)
            #expect(fit.accuracy == .high)
        }
    }

    @Test func withoutAFieldStrengthTheFittedRadiusIsUsed() throws {
        var random = TestRandom(seed: 3)
        let soft = Self.softIron(axes: SIMD3(0.9, 1.0, 1.1), random: &random)
        let samples = Self.readings(
            hardIron: SIMD3(10, -20, 30), softIron: soft, radius: 50, count: 500, maximumPolarAngle: .pi,
            noise: 0.05, random: &random)
        let fit = try EllipsoidFit.magnetometer(samples)
        // det(S) = 0.99 for these axes, so the equal-volume radius is 50 / 0.99^(1/3).
        #expect(abs(fit.fieldStrength - 50 / pow(0.99, 1.0 / 3)) < 0.1)
        #expect((fit.hardIron - SIMD3(10, -20, 30)).length < 0.2)
    }

    @Test func degenerateDataGetsAClearError() {
        var random = TestRandom(seed: 5)
        // All in a plane (a magnetometer turned about one axis only).
        let planar = (0..<200).map { k -> SIMD3<Double> in
            let a = Double(k) * 0.05
            return SIMD3(40 * cos(a) + 5, 40 * sin(a) - 3, 12)
        }
        #expect(throws: CalibrationError.self) { try EllipsoidFit.magnetometer(planar) }
        do {
            _ = try EllipsoidFit.magnetometer(planar)
        } catch {
            #expect("\(error)".contains("plane"))
        }
        #expect(throws: CalibrationError.tooFewSamples(needed: 10, found: 5)) {
            try EllipsoidFit.magnetometer(Array(planar.prefix(5)))
        }
        var withNaN = Self.readings(
            hardIron: .zero, softIron: .identity, radius: 50, count: 50, maximumPolarAngle: .pi, noise: 0.1,
            random: &random)
        withNaN[17] = SIMD3(.nan, 0, 0)
        #expect(throws: CalibrationError.nonFiniteSample(index: 17)) { try EllipsoidFit.magnetometer(withNaN) }
        // A hyperboloid is not an ellipsoid.
        let hyperboloid = (0..<300).map { _ -> SIMD3<Double> in
            let u = Double.random(in: -2...2, using: &random), t = Double.random(in: 0..<(2 * .pi), using: &random)
            return SIMD3(cosh(u) * cos(t), cosh(u) * sin(t), sinh(u)) * 30
        }
        #expect(throws: CalibrationError.self) { try EllipsoidFit.magnetometer(hyperboloid) }
    }

    @Test func jsonContract() throws {
        let calibration = MagnetometerCalibration(
            hardIron: SIMD3(1, 2, 3), softIron: RotationMatrix(rows: SIMD3(1, 0.1, 0), SIMD3(0.1, 1, 0), SIMD3(0, 0, 1)),
            fieldStrength: 49, residual: 0.2)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(calibration)) as! [String: Any]
        #expect(json["hardIron"] as? [Double] == [1, 2, 3])
        #expect((json["softIron"] as? [[Double]])?[0] == [1, 0.1, 0])
        #expect(try JSONDecoder().decode(MagnetometerCalibration.self, from: JSONEncoder().encode(calibration)) == calibration)
        // calibrated = softIron · (raw − hardIron)
        let raw = SIMD3<Double>(11, 2, 3)
        #expect(calibration.apply(raw) == SIMD3(10, 1, 0))
    }
}

@Suite("Magnetometer sphere fallback and CLI")
struct MagnetometerCalibrationCommandTests {
    @Test func sphereFallbackRecoversHardIronFromPartialCover() throws {
        var random = TestRandom(seed: 17)
        let hard = SIMD3<Double>(12, -30, 7)
        // A cap of 55°: not enough for the full ellipsoid's uniqueness test? Either way the
        // automatic model must give the hard iron to 0.5 µT on an undistorted (spherical) field.
        let samples = EllipsoidFitTests.readings(
            hardIron: hard, softIron: .identity, radius: 45, count: 800, maximumPolarAngle: 1.0, noise: 0.1,
            random: &random)
        let sphere = try EllipsoidFit.magnetometer(samples, fieldStrength: nil, model: .sphere)
        #expect(sphere.model == .sphere)
        #expect((sphere.calibration.hardIron - hard).length < 0.5)
        #expect(abs(sphere.calibration.fieldStrength - 45) < 0.5)
        // A tiny cap (the sensor barely turned): refused with a reason, never a wrong answer.
        let cap = EllipsoidFitTests.readings(
            hardIron: hard, softIron: .identity, radius: 45, count: 800, maximumPolarAngle: 0.1, noise: 0.3,
            random: &random)
        #expect(throws: CalibrationError.self) { try EllipsoidFit.magnetometer(cap, fieldStrength: nil, model: .automatic) }
    }

    @Test func calibrateWritesTheContractAndFuseAppliesIt() throws {
        var random = TestRandom(seed: 23)
        let hard = SIMD3<Double>(20, -10, 35)
        let soft = EllipsoidFitTests.softIron(axes: SIMD3(0.9, 1.05, 1.1), random: &random)
        let samples = EllipsoidFitTests.readings(
            hardIron: hard, softIron: soft, radius: 50, count: 600, maximumPolarAngle: .pi, noise: 0.05,
            random: &random)
        var text = "t,gx,gy,gz,ax,ay,az,mx,my,mz\n"
        for (k, m) in samples.enumerated() { text += "\(Double(k) * 0.01),0,0,0,0,0,9.81,\(m.x),\(m.y),\(m.z)\n" }
        let input = CSVReaderTests.file(text)
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("mf-cal-\(UUID()).json").path
        try FuseCommandTests.run(["calibrate", "magnetometer", input, "-o", json, "--field-strength", "50"])
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as! [String: Any]
        #expect(object["sensor"] as? String == "magnetometer")
        let h = try #require(object["hardIron"] as? [Double])
        let s = try #require(object["softIron"] as? [[Double]])
        #expect((SIMD3(h[0], h[1], h[2]) - hard).length < 0.5)
        for i in 0..<3 { for j in 0..<3 { #expect(abs(s[i][j] - soft[i, j]) < 0.01) } }
        // fuse --calibration: the calibrated field in the stream has the field strength.
        let calibration = try CalibrationFile.read([json])
        let corrected = samples.map { calibration.magnetometer!.apply($0).length }
        #expect(corrected.allSatisfy { abs($0 - 50) < 0.5 })
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("mf-calout-\(UUID()).csv").path
        try FuseCommandTests.run(["fuse", input, "-o", out, "--calibration", json])
        #expect(try FuseCommandTests.output(out).count == samples.count)
        #expect(throws: (any Error).self) { try FuseCommandTests.run(["fuse", input, "-o", out, "--calibration", input]) }
    }
}

import Foundation
import Testing

@testable import MotionFusionCore

/// SplitAttitude, InertialFrameFilter's attitude as heading ⊗ inclination ⊗ strapdown, against
/// closed forms: rotations about a fixed axis, the tilt that turns a vector up, and headings.
/// The largest absolute component of `v`.
private func largestMagnitude<V: SIMD>(_ v: V) -> V.Scalar where V.Scalar: FloatingPoint {
    v.indices.map { abs(v[$0]) }.max()!
}

@Suite("SplitAttitude")
struct SplitAttitudeTests {
    /// Rotation about the unit axis `n` by `angle`, written out.
    static func rotation(_ angle: Double, _ n: SIMD3<Double>) -> SIMD4<Double> {
        SIMD4(cos(angle / 2), n.x * sin(angle / 2), n.y * sin(angle / 2), n.z * sin(angle / 2))
    }

    static func close(_ q: Quaternion<Double>, _ e: SIMD4<Double>, _ tolerance: Double) -> Bool {
        // q and −q are the same rotation.
        let d = min(largestMagnitude(q.components - e), largestMagnitude(q.components + e))
        return d < tolerance
    }

    /// Strapdown integration of a constant rate about a fixed axis is the closed-form rotation by
    /// |ω| t about that axis, whatever the number of samples.
    @Test func strapdownOfAConstantRateIsTheClosedFormRotation() {
        let axis = SIMD3<Double>(1, -2, 2) / 3
        let speed = 1.3  // rad/s
        let dt = 0.004
        var attitude = SplitAttitude<Double>()
        for _ in 0..<1000 { attitude.integrate(halfRotation: axis * speed * (dt / 2)) }
        #expect(Self.close(attitude.strapdown, Self.rotation(speed * 1000 * dt, axis), 1e-12))
        #expect(attitude.inclination == .identity && attitude.heading == .identity)
    }

    /// The exponential of a half rotation vector, by series below 0.25 rad and by cos/sin above,
    /// equals (cos|v|, sin|v| v̂) on both sides of the switch: within the series' first omitted term
    /// |v|⁸/8! (below the documented 1e-9) below, to rounding above.
    @Test(arguments: [1e-9, 0.01, 0.2, 0.2499, 0.2501, 0.7, 2.0])
    func exponentialMatchesCosineAndSine(halfAngle: Double) {
        let axis = SIMD3<Double>(2, 3, -6) / 7
        let q = SplitAttitude<Double>.exponential(halfRotation: axis * halfAngle)
        let omitted = halfAngle < 0.25 ? pow(halfAngle, 8) / 40320 : 0
        #expect(omitted < 1e-9)
        #expect(Self.close(q, Self.rotation(2 * halfAngle, axis), 1.01 * omitted + 4e-16))
        let qf = SplitAttitude<Float>.exponential(halfRotation: SIMD3<Float>(axis * halfAngle))
        #expect(Self.close(Quaternion<Double>(qf), Self.rotation(2 * halfAngle, axis), 3e-7))
    }

    /// The inclination correction turns the given specific force straight up by the whole angle,
    /// about a horizontal axis (no heading change), and reports (u_y, −u_x).
    @Test(arguments: [SIMD3<Double>(0.3, -0.4, 9.7), SIMD3(5, 1, 2), SIMD3(-1, 2, -8)])
    func inclinationTurnsTheSpecificForceUp(force: SIMD3<Double>) throws {
        var attitude = SplitAttitude<Double>()
        let u = force / (force * force).sum().squareRoot()
        let result = attitude.correctInclination(toward: force)
        let reported = try #require(result)
        #expect(largestMagnitude(reported - SIMD2(u.y, -u.x)) < 1e-15)
        let up = attitude.inclination.act(on: u)
        #expect(largestMagnitude(up - SIMD3(0, 0, 1)) < 1e-14)
        // Angle acos(u_z) about the horizontal axis (u_y, −u_x, 0) / |…|.
        let h = (u.x * u.x + u.y * u.y).squareRoot()
        #expect(Self.close(attitude.inclination, Self.rotation(acos(u.z), SIMD3(u.y / h, -u.x / h, 0)), 1e-14))
        #expect(attitude.heading == .identity && attitude.strapdown == .identity)
    }

    /// Upside down exactly: a half turn about x; a zero force: no correction.
    @Test func inclinationEdgeCases() {
        var attitude = SplitAttitude<Double>()
        let flipped = attitude.correctInclination(toward: SIMD3(0, 0, -9.81))
        #expect(flipped != nil)
        #expect(largestMagnitude(attitude.inclination.act(on: SIMD3(0, 0, -1)) - SIMD3(0, 0, 1)) < 1e-15)
        var still = SplitAttitude<Double>()
        let none = still.correctInclination(toward: .zero)
        #expect(none == nil)
        #expect(still.inclination == .identity)
    }

    /// The heading disagreement of a field at azimuth α seen through a heading rotation δ is
    /// −(α + δ) (wrapped), and turning the heading by it points the field north.
    @Test(arguments: [(0.3, 0.2), (-2.5, 1.0), (3.0, 0.5), (0.0, -0.01)])
    func headingDisagreementAndRotation(alpha: Double, delta: Double) throws {
        var attitude = SplitAttitude<Double>()
        attitude.heading = Quaternion(w: cos(delta / 2), x: 0, y: 0, z: sin(delta / 2))
        let dip = 1.1
        let e = SIMD3(cos(dip) * cos(alpha), cos(dip) * sin(alpha), -sin(dip))
        let disagreement = try #require(attitude.headingDisagreement(fieldDirection: e))
        let expected = atan2(-sin(alpha + delta), cos(alpha + delta))
        #expect(abs(disagreement - expected) < 1e-14)
        attitude.rotateHeading(by: disagreement)
        #expect(Self.close(attitude.heading, Self.rotation(delta + disagreement, SIMD3(0, 0, 1)), 1e-14))
        #expect(abs(try #require(attitude.headingDisagreement(fieldDirection: e))) < 1e-14)
    }

    /// Heading rotations by small (series, |angle| < 0.1) and large (cos/sin) angles compose about z;
    /// a vertical field has no heading. The series of half angle h omits h⁶/6! in the cosine and
    /// h⁷/7! in the sine: at h = 0.05 an angle error below 1e-12 per rotation.
    @Test func headingRotationComposesAboutVertical() {
        var attitude = SplitAttitude<Double>()
        var total = 0.0
        for angle in [0.09, -0.03, 1.7, 0.0999, 0.1001, -2.9] {
            attitude.rotateHeading(by: angle)
            total += angle
            #expect(Self.close(attitude.heading, Self.rotation(total, SIMD3(0, 0, 1)), 5e-12))
        }
        #expect(attitude.headingDisagreement(fieldDirection: SIMD3(0, 0, -1)) == nil)
    }

    /// sixD is inclination ⊗ strapdown.
    @Test func sixDIsInclinationAfterStrapdown() {
        var attitude = SplitAttitude<Double>(strapdown: Quaternion(angle: 0.4, axis: SIMD3(0, 1, 0)))
        attitude.inclination = Quaternion(angle: -0.1, axis: SIMD3(1, 0, 0))
        let v = SIMD3<Double>(0.2, -0.7, 0.5)
        let expected = attitude.inclination.act(on: attitude.strapdown.act(on: v))
        #expect(largestMagnitude(attitude.sixD.act(on: v) - expected) < 1e-15)
    }
}

import PropertyBased
import Testing
import RealModule

@testable import MotionFusion
@testable import MotionFusionCore
@testable import MotionFusionDevices
@testable import MotionFusionEstimation
@testable import MotionFusionIO
@testable import MotionFusionSimulation

/// Property-based checks (swift-property-based) of group laws and round trips, run for Double
/// (tolerance 1e-12) and Float (1e-5).
@Suite("Rotation properties")
struct RotationPropertyTests {
    static func rotations<S: FusionScalar>(_: S.Type) -> Generator<Quaternion<S>, Shrink.None<(S, S, S, S)>>
    where S.RawSignificand: FixedWidthInteger {
        Gen<S>.value(in: -1...1).simd4
            .filter { ($0 * $0).sum() > 0.01 }
            .map { Quaternion(components: $0).normalized() }
            .withoutShrink()
    }

    static func vectors<S: FusionScalar>(_: S.Type) -> Generator<SIMD3<S>, Shrink.None<(S, S, S)>>
    where S.RawSignificand: FixedWidthInteger {
        Gen<S>.value(in: -10...10).simd3.withoutShrink()
    }

    static func tolerance<S: FusionScalar>(_: S.Type) -> S { S.self == Double.self ? 1e-12 : 1e-5 }

    func groupLaws<S: FusionScalar>(_ type: S.Type) async where S.RawSignificand: FixedWidthInteger {
        let tol = Self.tolerance(type)
        await propertyCheck(
            count: 300, input: Self.rotations(type), Self.rotations(type), Self.rotations(type)
        ) { a, b, c in
            #expect(((a * b) * c).isApproximatelyEqual(to: a * (b * c), absoluteTolerance: tol))
            #expect((a * .identity) == a && (Quaternion.identity * a) == a)
            #expect((a * a.inverse).isApproximatelyEqual(to: .identity, absoluteTolerance: tol))
            #expect((a * b).conjugate.isApproximatelyEqual(to: b.conjugate * a.conjugate, absoluteTolerance: tol))
            #expect(abs((a * b).length - 1) <= tol)
            #expect(a.representsSameRotation(as: -a))
            #expect(a.isApproximatelySameRotation(as: -a, angleTolerance: tol))
            #expect(abs(a.angle(to: b) - b.angle(to: a)) <= tol)
        }
        await propertyCheck(count: 300, input: Self.rotations(type), Self.rotations(type), Self.vectors(type)) {
            a, b, v in
            let scale = max(1, v.length)
            #expect(((a * b).act(on: v) - a.act(on: b.act(on: v))).length <= tol * scale * 4)
            #expect(abs(a.act(on: v).length - v.length) <= tol * scale * 4)
            #expect((a.inverseAct(on: a.act(on: v)) - v).length <= tol * scale * 4)
            let m = RotationMatrix(a) * RotationMatrix(b)
            #expect(m.maximumDifference(to: RotationMatrix(a * b)) <= tol * 4)
            #expect((RotationMatrix(a) * v - a.act(on: v)).length <= tol * scale * 4)
        }
    }

    func roundTrips<S: FusionScalar>(_ type: S.Type) async where S.RawSignificand: FixedWidthInteger {
        let tol = Self.tolerance(type)
        await propertyCheck(count: 300, input: Self.rotations(type)) { q in
            #expect(RotationMatrix(q).quaternion.angle(to: q) <= tol)
            #expect(Quaternion(rotationVector: q.rotationVector).angle(to: q) <= tol)
            #expect(Quaternion(angle: q.angle, axis: q.axis).angle(to: q) <= tol)
            #expect(q.log().exp().isApproximatelyEqual(to: q, absoluteTolerance: tol * 4))
            for sequence in RotationSequence.allCases {
                let euler = q.eulerAngles(sequence)
                // The angles reproduce the rotation; near gimbal lock only to the lock threshold.
                let allowed = max(tol * 8, euler.isGimbalLocked ? S.gimbalLockThreshold * 2 : 0)
                #expect(euler.quaternion.angle(to: q) <= allowed, "\(sequence)")
            }
        }
    }

    func slerpAndBetween<S: FusionScalar>(_ type: S.Type) async where S.RawSignificand: FixedWidthInteger {
        let tol = Self.tolerance(type)
        await propertyCheck(count: 300, input: Self.rotations(type), Self.rotations(type), Gen<S>.value(in: 0...1)) {
            a, b, t in
            #expect(a.slerp(to: b, t: 0).angle(to: a) <= tol * 4)
            #expect(a.slerp(to: b, t: 1).angle(to: b) <= tol * 4)
            let mid = a.slerp(to: b, t: t)
            // Along the geodesic: the angles to both ends add up to the whole.
            #expect(abs(mid.angle(to: a) + mid.angle(to: b) - a.angle(to: b)) <= tol * 16)
            #expect(abs(mid.angle(to: a) - t * a.angle(to: b)) <= tol * 16)
        }
        await propertyCheck(count: 300, input: Self.vectors(type), Self.vectors(type)) { from, to in
            guard from.length > 0.1, to.length > 0.1 else { return }
            let q = try Quaternion.rotation(from: from, to: to)
            let mapped = q.act(on: from / from.length)
            #expect((mapped - to / to.length).length <= tol * 8)
            // Shortest arc: the rotation angle is the angle between the vectors.
            let between = S.atan2(y: from.cross(to).length, x: from.dot(to))
            #expect(abs(q.angle - between) <= tol * 8)
            // Antiparallel: still a rotation that maps one onto the other, by 180°.
            let back = try Quaternion.rotation(from: from, to: -from * 3)
            #expect((back.act(on: from) + from).length <= tol * 8 * from.length)
            #expect(abs(back.angle - S.pi) <= tol * 8)
        }
    }

    @Test func groupLawsDouble() async { await groupLaws(Double.self) }
    @Test func groupLawsFloat() async { await groupLaws(Float.self) }
    @Test func roundTripsDouble() async { await roundTrips(Double.self) }
    @Test func roundTripsFloat() async { await roundTrips(Float.self) }
    @Test func slerpAndShortestArcDouble() async { await slerpAndBetween(Double.self) }
    @Test func slerpAndShortestArcFloat() async { await slerpAndBetween(Float.self) }
}

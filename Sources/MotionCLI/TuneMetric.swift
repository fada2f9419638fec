import ArgumentParser
import MotionFusion
import RealModule

/// What `motion tune` minimizes: one of BROAD's error angles (``OrientationErrors``), as an RMS over
/// a recording's scored rows, in degrees, with the heading offset kept (BROAD's scoring, `motion
/// evaluate`'s default).
enum TuneMetric: String, CaseIterable, ExpressibleByArgument, Sendable {
    case total, heading, inclination

    /// The angle, rad, between `estimate` (finite, not zero) and `reference` (normalized): the
    /// formula of ``OrientationErrors/angles(estimate:reference:)`` for this metric alone, with the
    /// two components of `e = q̂ ⊗ q_ref⁻¹` it needs (`e_w`, `e_z`) and the estimate's norm divided
    /// out (the same value to rounding; a test holds it to `motion evaluate`'s to 1e-9°).
    @inline(__always)
    func angle(estimate q: Quaternion<Double>, reference r: Quaternion<Double>) -> Double {
        let p = q.components, s = r.components
        let scale = 1 / (p * p).sum().squareRoot()
        let w = min(abs((p * s).sum() * scale), 1)
        switch self {
        case .total: return 2 * Double.acos(w)
        case .heading, .inclination:
            let z = (p[3] * s[0] - p[0] * s[3] + p[2] * s[1] - p[1] * s[2]) * scale
            if self == .heading { return 2 * Double.atan(abs(z) / w) }
            return 2 * Double.acos(min((w * w + z * z).squareRoot(), 1))
        }
    }
}

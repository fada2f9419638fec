import MotionFusionCore
import RealModule

/// The solution of Wahba's problem.
public struct WahbaSolution<Scalar: FusionScalar>: Sendable, Hashable {
    /// The unit quaternion (w ≥ 0) that best maps observed vectors onto reference vectors:
    /// `reference[i] ≈ rotation.act(on: observed[i])`.
    public var rotation: Quaternion<Scalar>
    /// The root of the weighted sum of squared residuals, `√(Σ wᵢ |aᵢ − R bᵢ|²)`, as SciPy's
    /// `align_vectors` reports it (`rssd`).
    public var rootSumSquaredDistance: Scalar
    /// The method used.
    public var method: WahbaMethod
}

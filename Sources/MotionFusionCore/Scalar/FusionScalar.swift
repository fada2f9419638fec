import RealModule

/// The floating-point types MotionFusion computes in: `Float` and `Double` (the default in examples).
///
/// Every generic type in the library is generic over a `FusionScalar`. The protocol gathers what the
/// numerics need — elementary functions from swift-numerics' `Real`, conversions between binary
/// floating-point types, SIMD storage, `Codable` and `Sendable` — so that generic signatures stay short.
/// Do not conform other types to it: the library is tested for `Float` and `Double` only.
/// Embedded Swift has no `Codable`: there the requirement, and every `Codable` conformance of the
/// library, is left out; everything else is the same in both builds.
#if hasFeature(Embedded)
public protocol FusionScalar: Real, BinaryFloatingPoint, SIMDScalar, Sendable
where SIMD2Storage: Sendable, SIMD4Storage: Sendable, SIMD8Storage: Sendable,
    SIMD16Storage: Sendable, SIMD32Storage: Sendable, SIMD64Storage: Sendable
{
    /// Below this angular distance (radians) from a gimbal lock, Euler angle extraction treats the
    /// rotation as locked: `1e-7` for `Double` (as SciPy), `√ulp ≈ 3.5e-4` for `Float`.
    static var gimbalLockThreshold: Self { get }
}
#else
public protocol FusionScalar: Real, BinaryFloatingPoint, SIMDScalar, Codable, Sendable
where SIMD2Storage: Sendable, SIMD4Storage: Sendable, SIMD8Storage: Sendable,
    SIMD16Storage: Sendable, SIMD32Storage: Sendable, SIMD64Storage: Sendable
{
    /// Below this angular distance (radians) from a gimbal lock, Euler angle extraction treats the
    /// rotation as locked: `1e-7` for `Double` (as SciPy), `√ulp ≈ 3.5e-4` for `Float`.
    static var gimbalLockThreshold: Self { get }
}
#endif

extension Float: FusionScalar {
    @inlinable public static var gimbalLockThreshold: Float { 3.4526698e-4 }
}

extension Double: FusionScalar {
    @inlinable public static var gimbalLockThreshold: Double { 1e-7 }
}

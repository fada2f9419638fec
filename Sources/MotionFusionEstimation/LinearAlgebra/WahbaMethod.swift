import RealModule

/// How ``Wahba/solve(reference:observed:weights:method:)`` finds the optimal rotation.
public enum WahbaMethod: String, CaseIterable, Sendable, Codable {
    /// Davenport's q-method: the eigenvector of the 4 × 4 matrix K with the largest eigenvalue
    /// (LAPACK `dsyev`). Gives the quaternion directly.
    case davenport
    /// The singular value decomposition of the 3 × 3 attitude profile matrix B,
    /// `R = U diag(1, 1, det U · det V) Vᵀ` (the core's nearest rotation: one-sided Jacobi in plain
    /// Swift, no LAPACK), then Shepperd's conversion to a quaternion.
    case svd
}

/// The kernel that rotates many vectors by one rotation.
public enum BatchRotationKernel: String, CaseIterable, Sendable {
    /// A loop of SIMD matrix × vector products (three multiply-adds per vector). The default: on the
    /// reference machine it takes about 1.1 ns per vector (Double) against 13.5 ns for Debian's
    /// reference BLAS, at 1,000 and at 100,000 vectors (see the Performance article).
    case simd
    /// One `gemm` call of the system BLAS (`cblas_dgemm` / `cblas_sgemm`) on the padded
    /// `SIMD3` layout. Kept so that the comparison can be re-measured with another BLAS.
    case blas
}

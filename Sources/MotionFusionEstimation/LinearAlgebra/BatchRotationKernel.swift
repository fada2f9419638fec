/// The kernel that rotates many vectors by one rotation.
public enum BatchRotationKernel: String, CaseIterable, Sendable {
    /// A loop of SIMD matrix × vector products (three multiply-adds per vector). The default: it is
    /// several times faster than Debian's reference BLAS at 1,000 and at 100,000 vectors (the
    /// figures are in the Performance article; `Benchmarks/` measures them again, `RotationMatrix.rotate.*`).
    case simd
    /// One `gemm` call of the system BLAS (`cblas_dgemm` / `cblas_sgemm`) on the padded
    /// `SIMD3` layout. Kept so that the comparison can be re-measured with another BLAS.
    case blas
}

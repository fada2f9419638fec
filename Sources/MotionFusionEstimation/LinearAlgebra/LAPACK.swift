#if canImport(Accelerate)
internal import Accelerate
#elseif canImport(CLAPACK)
internal import CLAPACK
#else
#error("MotionFusionEstimation needs LAPACK: Accelerate (Apple platforms) or LAPACKE through pkg-config (Linux, Android, OpenBSD)")
#endif

/// The library's only door to the system LAPACK and BLAS. Everything here is internal: LAPACK types
/// and status codes never reach the public API. On Linux (and other systems with pkg-config) it is
/// the system LAPACKE and CBLAS; on Apple platforms Accelerate's LAPACK and BLAS, through the
/// LAPACKE-shaped wrappers in `LAPACK+Accelerate.swift`. The Apple path is compiled only where a Mac
/// builds the package: this project's CI runs on Linux.
///
/// Matrices are column-major `[Double]`. The routines copy their input, so callers keep theirs.
enum LAPACK {
    /// A matrix dimension as LAPACK's 32-bit integer, or the error for one it cannot take (more than
    /// 2³¹ − 1 rows: a calibration over billions of samples); never a trapping conversion.
    static func dimension(_ value: Int, _ routine: String) throws(EstimationError) -> Int32 {
        guard let converted = Int32(exactly: value) else { throw .tooLarge(routine: routine, size: value) }
        return converted
    }
    /// Eigen decomposition of a symmetric `n × n` matrix (`dsyev`): eigenvalues in ascending order and
    /// the matching orthonormal eigenvectors as the columns of a column-major matrix.
    static func symmetricEigen(
        _ matrix: [Double], order n: Int
    ) throws(EstimationError) -> (values: [Double], vectors: [Double]) {
        precondition(matrix.count == n * n, "matrix size")
        let order = try dimension(n, "dsyev")
        var a = matrix
        var values = [Double](repeating: 0, count: n)
        let info = a.withUnsafeMutableBufferPointer { aPointer in
            values.withUnsafeMutableBufferPointer { wPointer in
                LAPACKE_dsyev(
                    LAPACK_COL_MAJOR, CChar(UInt8(ascii: "V")), CChar(UInt8(ascii: "U")),
                    order, aPointer.baseAddress, order, wPointer.baseAddress)
            }
        }
        guard info == 0 else { throw .lapackFailure(routine: "dsyev", info: Int(info)) }
        return (values, a)
    }

    /// Singular value decomposition `A = U Σ Vᵀ` of an `m × n` matrix (`dgesvd`), full Vᵀ and — when
    /// `computeU` — full U (`m × m`: leave it off for tall matrices, where it would be huge; `u` is
    /// then empty), singular values in descending order.
    static func singularValueDecomposition(
        _ matrix: [Double], rows m: Int, columns n: Int, computeU: Bool = true
    ) throws(EstimationError) -> (u: [Double], singularValues: [Double], vt: [Double]) {
        precondition(matrix.count == m * n, "matrix size")
        let (rows, columns) = (try dimension(m, "dgesvd"), try dimension(n, "dgesvd"))
        var a = matrix
        var s = [Double](repeating: 0, count: min(m, n))
        var u = [Double](repeating: 0, count: computeU ? m * m : 1)
        var vt = [Double](repeating: 0, count: n * n)
        var superb = [Double](repeating: 0, count: max(1, min(m, n) - 1))
        let all = CChar(UInt8(ascii: "A"))
        let jobU = computeU ? all : CChar(UInt8(ascii: "N"))
        let info = a.withUnsafeMutableBufferPointer { aP in
            s.withUnsafeMutableBufferPointer { sP in
                u.withUnsafeMutableBufferPointer { uP in
                    vt.withUnsafeMutableBufferPointer { vtP in
                        superb.withUnsafeMutableBufferPointer { wP in
                            LAPACKE_dgesvd(
                                LAPACK_COL_MAJOR, jobU, all, rows, columns,
                                aP.baseAddress, rows, sP.baseAddress, uP.baseAddress,
                                rows, vtP.baseAddress, columns, wP.baseAddress)
                        }
                    }
                }
            }
        }
        guard info == 0 else { throw .lapackFailure(routine: "dgesvd", info: Int(info)) }
        return (computeU ? u : [], s, vt)
    }

    /// The minimum-norm least-squares solution of `A x ≈ B` for a column-major `m × n` matrix `A`
    /// and `nrhs` right-hand sides (`B` column-major `m × nrhs`), by `dgelsd` (SVD-based, so
    /// rank-deficient systems are handled). Returns the `n × nrhs` solution, the singular values of
    /// `A` in descending order, and the effective rank (singular values above `rcond · s₁`).
    static func leastSquares(
        _ matrix: [Double], rows m: Int, columns n: Int, rightHandSides b: [Double], count nrhs: Int = 1,
        rcond: Double = -1
    ) throws(EstimationError) -> (solution: [Double], singularValues: [Double], rank: Int) {
        precondition(matrix.count == m * n && b.count == m * nrhs, "matrix size")
        let ldb = max(m, n)
        let (rows, columns, sides, leading) = (
            try dimension(m, "dgelsd"), try dimension(n, "dgelsd"), try dimension(nrhs, "dgelsd"), try dimension(ldb, "dgelsd")
        )
        var a = matrix
        var rhs = [Double](repeating: 0, count: ldb * nrhs)
        for column in 0..<nrhs {
            for row in 0..<m { rhs[column * ldb + row] = b[column * m + row] }
        }
        var s = [Double](repeating: 0, count: min(m, n))
        var rank: Int32 = 0
        let info = a.withUnsafeMutableBufferPointer { aP in
            rhs.withUnsafeMutableBufferPointer { bP in
                s.withUnsafeMutableBufferPointer { sP in
                    LAPACKE_dgelsd(
                        LAPACK_COL_MAJOR, rows, columns, sides, aP.baseAddress, rows,
                        bP.baseAddress, leading, sP.baseAddress, rcond, &rank)
                }
            }
        }
        guard info == 0 else { throw .lapackFailure(routine: "dgelsd", info: Int(info)) }
        var solution = [Double](repeating: 0, count: n * nrhs)
        for column in 0..<nrhs {
            for row in 0..<n { solution[column * n + row] = rhs[column * ldb + row] }
        }
        return (solution, s, Int(rank))
    }

    /// `C = A · B` for column-major `A` (3 × 3, leading dimension 3) and `B`, `C` (3 × count, leading
    /// dimension 4: the padded layout of `SIMD3<Double>`), by `cblas_dgemm`.
    static func multiply3(
        _ a: [Double], _ b: UnsafePointer<Double>, into c: UnsafeMutablePointer<Double>, count: Int
    ) {
        a.withUnsafeBufferPointer { aP in
            // In pieces BLAS's 32-bit counts can take (one piece below 2³⁰ vectors).
            var done = 0
            while done < count {
                let piece = Swift.min(count - done, 1 << 30)
                cblas_dgemm(
                    CblasColMajor, CblasNoTrans, CblasNoTrans, 3, Int32(piece), 3, 1, aP.baseAddress, 3,
                    b + 4 * done, 4, 0, c + 4 * done, 4)
                done += piece
            }
        }
    }

    /// Single-precision twin of ``multiply3(_:_:into:count:)`` (`cblas_sgemm`, `SIMD3<Float>` layout).
    static func multiply3(
        _ a: [Float], _ b: UnsafePointer<Float>, into c: UnsafeMutablePointer<Float>, count: Int
    ) {
        a.withUnsafeBufferPointer { aP in
            // In pieces BLAS's 32-bit counts can take (one piece below 2³⁰ vectors).
            var done = 0
            while done < count {
                let piece = Swift.min(count - done, 1 << 30)
                cblas_sgemm(
                    CblasColMajor, CblasNoTrans, CblasNoTrans, 3, Int32(piece), 3, 1, aP.baseAddress, 3,
                    b + 4 * done, 4, 0, c + 4 * done, 4)
                done += piece
            }
        }
    }
}

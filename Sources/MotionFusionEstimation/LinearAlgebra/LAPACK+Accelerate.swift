#if canImport(Accelerate)
internal import Accelerate

// Accelerate has LAPACK's Fortran interface (`dsyev_`, …, with workspace arguments) but not
// LAPACKE's C one. These wrappers give the three routines `LAPACK` calls the LAPACKE signatures it
// uses on Linux (column-major only), querying and allocating the workspace as LAPACKE does, so that
// `LAPACK.swift` is the same code on both. Compiled only on Apple platforms.

let LAPACK_COL_MAJOR: Int32 = 102

func LAPACKE_dsyev(
    _ layout: Int32, _ jobz: CChar, _ uplo: CChar, _ n: Int32, _ a: UnsafeMutablePointer<Double>?,
    _ lda: Int32, _ w: UnsafeMutablePointer<Double>?
) -> Int32 {
    precondition(layout == LAPACK_COL_MAJOR)
    var (jobz, uplo, n, lda) = (jobz, uplo, __CLPK_integer(n), __CLPK_integer(lda))
    var info: __CLPK_integer = 0
    var lwork: __CLPK_integer = -1
    var query = 0.0
    dsyev_(&jobz, &uplo, &n, a, &lda, w, &query, &lwork, &info)
    guard info == 0 else { return Int32(info) }
    lwork = __CLPK_integer(max(1, query.rounded(.up)))
    var work = [Double](repeating: 0, count: Int(lwork))
    dsyev_(&jobz, &uplo, &n, a, &lda, w, &work, &lwork, &info)
    return Int32(info)
}

func LAPACKE_dgesvd(
    _ layout: Int32, _ jobu: CChar, _ jobvt: CChar, _ m: Int32, _ n: Int32,
    _ a: UnsafeMutablePointer<Double>?, _ lda: Int32, _ s: UnsafeMutablePointer<Double>?,
    _ u: UnsafeMutablePointer<Double>?, _ ldu: Int32, _ vt: UnsafeMutablePointer<Double>?, _ ldvt: Int32,
    _ superb: UnsafeMutablePointer<Double>?
) -> Int32 {
    precondition(layout == LAPACK_COL_MAJOR)
    var (jobu, jobvt) = (jobu, jobvt)
    var (m, n, lda, ldu, ldvt) = (
        __CLPK_integer(m), __CLPK_integer(n), __CLPK_integer(lda), __CLPK_integer(ldu), __CLPK_integer(ldvt)
    )
    var info: __CLPK_integer = 0
    var lwork: __CLPK_integer = -1
    var query = 0.0
    dgesvd_(&jobu, &jobvt, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, &query, &lwork, &info)
    guard info == 0 else { return Int32(info) }
    lwork = __CLPK_integer(max(1, query.rounded(.up)))
    var work = [Double](repeating: 0, count: Int(lwork))
    dgesvd_(&jobu, &jobvt, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, &work, &lwork, &info)
    // LAPACKE returns the unconverged superdiagonal in `superb`, as dgesvd leaves it in work[1...].
    if let superb {
        for i in 0..<max(0, Int(min(m, n)) - 1) { superb[i] = work[i + 1] }
    }
    return Int32(info)
}

func LAPACKE_dgelsd(
    _ layout: Int32, _ m: Int32, _ n: Int32, _ nrhs: Int32, _ a: UnsafeMutablePointer<Double>?,
    _ lda: Int32, _ b: UnsafeMutablePointer<Double>?, _ ldb: Int32, _ s: UnsafeMutablePointer<Double>?,
    _ rcond: Double, _ rank: UnsafeMutablePointer<Int32>
) -> Int32 {
    precondition(layout == LAPACK_COL_MAJOR)
    var (m, n, nrhs, lda, ldb) = (
        __CLPK_integer(m), __CLPK_integer(n), __CLPK_integer(nrhs), __CLPK_integer(lda), __CLPK_integer(ldb)
    )
    var rcond = rcond
    var rankOut: __CLPK_integer = 0
    var info: __CLPK_integer = 0
    var lwork: __CLPK_integer = -1
    var query = 0.0
    // LIWORK ≥ max(1, 3·minmn·nlvl + 11·minmn), nlvl = max(0, int(log₂(minmn / (smlsiz + 1))) + 1),
    // with smlsiz = 25 (dgelsd's documentation; ilaenv's value for it).
    let minmn = Int(min(m, n))
    let nlvl = minmn > 0 ? max(0, Int(log2(Double(minmn) / 26)) + 1) : 0
    var iwork = [__CLPK_integer](repeating: 0, count: max(1, 3 * minmn * nlvl + 11 * minmn))
    dgelsd_(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, &rankOut, &query, &lwork, &iwork, &info)
    guard info == 0 else { return Int32(info) }
    lwork = __CLPK_integer(max(1, query.rounded(.up)))
    var work = [Double](repeating: 0, count: Int(lwork))
    dgelsd_(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, &rankOut, &work, &lwork, &iwork, &info)
    rank.pointee = Int32(rankOut)
    return Int32(info)
}
#endif

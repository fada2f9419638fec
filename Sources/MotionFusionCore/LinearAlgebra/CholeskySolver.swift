/// Solves small symmetric positive definite systems `A x = b` in place by Cholesky (`A = L Lᵀ`),
/// without LAPACK and without allocation: the online magnetometer fits' normal equations (4 × 4
/// for a sphere, 9 × 9 for an ellipsoid) in every build, Embedded Swift included.
@usableFromInline
enum CholeskySolver {
    /// Solves `A x = b` for the `n × n` matrix stored row-major at `a` (only its lower triangle is
    /// read; it is overwritten by `L`) and the right-hand side at `b` (overwritten by `x`).
    /// Returns false, leaving `b` unspecified, when `A` is not numerically positive definite: a
    /// pivot at or below `n · ulp` times the largest diagonal element, or a non-finite one.
    static func solve(_ a: UnsafeMutablePointer<Double>, _ b: UnsafeMutablePointer<Double>, n: Int) -> Bool {
        var largest = 0.0
        for i in 0..<n { largest = max(largest, abs(a[i * n + i])) }
        guard largest.isFinite, largest > 0 else { return false }
        let floor = Double(n) * .ulpOfOne * largest
        for j in 0..<n {
            var pivot = a[j * n + j]
            for k in 0..<j { pivot -= a[j * n + k] * a[j * n + k] }
            guard pivot > floor, pivot.isFinite else { return false }
            let l = pivot.squareRoot()
            a[j * n + j] = l
            for i in (j + 1)..<max(n, j + 1) {
                var s = a[i * n + j]
                for k in 0..<j { s -= a[i * n + k] * a[j * n + k] }
                a[i * n + j] = s / l
            }
        }
        // L y = b, then Lᵀ x = y.
        for i in 0..<n {
            var s = b[i]
            for k in 0..<i { s -= a[i * n + k] * b[k] }
            b[i] = s / a[i * n + i]
        }
        for i in stride(from: n - 1, through: 0, by: -1) {
            var s = b[i]
            for k in (i + 1)..<max(n, i + 1) { s -= a[k * n + i] * b[k] }
            b[i] = s / a[i * n + i]
        }
        return true
    }
}

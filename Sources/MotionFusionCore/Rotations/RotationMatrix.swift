import RealModule

/// A 3 × 3 rotation (direction-cosine) matrix, stored as three `SIMD3` columns.
///
/// `R * v` rotates `v` the same way as `Quaternion.act(on:)` of the quaternion it was built from:
/// for an attitude, sensor frame → earth frame. The type does not force orthonormality (products of
/// rotation matrices drift); ``orthonormalized()`` returns the nearest rotation.
///
/// `Codable` as nested row-major arrays: `[[r00, r01, r02], [r10, r11, r12], [r20, r21, r22]]`.
@frozen
public struct RotationMatrix<Scalar: FusionScalar> {
    /// The first column: the image of the x axis.
    public var column0: SIMD3<Scalar>
    /// The second column: the image of the y axis.
    public var column1: SIMD3<Scalar>
    /// The third column: the image of the z axis.
    public var column2: SIMD3<Scalar>

    /// A matrix from its three columns.
    @inlinable @inline(__always)
    public init(columns c0: SIMD3<Scalar>, _ c1: SIMD3<Scalar>, _ c2: SIMD3<Scalar>) {
        column0 = c0
        column1 = c1
        column2 = c2
    }

    /// A matrix from its three rows.
    @inlinable
    public init(rows r0: SIMD3<Scalar>, _ r1: SIMD3<Scalar>, _ r2: SIMD3<Scalar>) {
        column0 = SIMD3(r0.x, r1.x, r2.x)
        column1 = SIMD3(r0.y, r1.y, r2.y)
        column2 = SIMD3(r0.z, r1.z, r2.z)
    }

    /// Converts a matrix of another precision.
    @inlinable
    public init<Other>(_ other: RotationMatrix<Other>) {
        column0 = SIMD3<Scalar>(other.column0)
        column1 = SIMD3<Scalar>(other.column1)
        column2 = SIMD3<Scalar>(other.column2)
    }

    /// The identity matrix.
    @inlinable
    public static var identity: RotationMatrix {
        RotationMatrix(columns: SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))
    }

    /// The element in `row`, `column` (both 0...2).
    @inlinable
    public subscript(row: Int, column: Int) -> Scalar {
        get {
            precondition((0..<3).contains(column), "column index out of range")
            return column == 0 ? column0[row] : (column == 1 ? column1[row] : column2[row])
        }
        set {
            switch column {
            case 0: column0[row] = newValue
            case 1: column1[row] = newValue
            default:
                precondition(column == 2, "column index out of range")
                column2[row] = newValue
            }
        }
    }

    /// The three rows.
    @inlinable
    public var rows: (SIMD3<Scalar>, SIMD3<Scalar>, SIMD3<Scalar>) {
        let t = transposed
        return (t.column0, t.column1, t.column2)
    }

    /// The transpose, which for a rotation is its inverse.
    @inlinable
    public var transposed: RotationMatrix {
        RotationMatrix(rows: column0, column1, column2)
    }

    /// The determinant: +1 for a rotation.
    @inlinable
    public var determinant: Scalar {
        column0.dot(column1.cross(column2))
    }

    /// True when all nine elements are finite.
    @inlinable
    public var isFinite: Bool {
        VectorCheck.isFinite(column0) && VectorCheck.isFinite(column1) && VectorCheck.isFinite(column2)
    }

    /// Matrix × vector.
    @inlinable @inline(__always)
    public static func * (m: RotationMatrix, v: SIMD3<Scalar>) -> SIMD3<Scalar> {
        m.column0 * v.x + m.column1 * v.y + m.column2 * v.z
    }

    /// Matrix × matrix: applying `rhs` first, then `lhs`.
    @inlinable
    public static func * (lhs: RotationMatrix, rhs: RotationMatrix) -> RotationMatrix {
        RotationMatrix(columns: lhs * rhs.column0, lhs * rhs.column1, lhs * rhs.column2)
    }

    /// The largest absolute element-wise difference.
    @inlinable
    public func maximumDifference(to other: RotationMatrix) -> Scalar {
        let d = column0 - other.column0
        let e = column1 - other.column1
        let f = column2 - other.column2
        var largest: Scalar = 0
        for index in 0..<3 {
            largest = Swift.max(largest, Swift.max(abs(d[index]), Swift.max(abs(e[index]), abs(f[index]))))
        }
        return largest
    }

    /// True when every element differs by at most `tolerance`. Non-finite matrices never compare
    /// approximately equal.
    @inlinable
    public func isApproximatelyEqual(
        to other: RotationMatrix, tolerance: Scalar = Scalar.ulpOfOne.squareRoot()
    ) -> Bool {
        guard isFinite, other.isFinite else { return false }
        return maximumDifference(to: other) <= tolerance
    }
}


extension RotationMatrix {
    /// The nearest rotation matrix in the Frobenius norm (the orthogonal polar factor with
    /// determinant +1).
    ///
    /// A matrix with positive determinant — the usual case, a rotation that drifted through many
    /// products — is orthonormalized by Higham's Newton iteration `X ← (X + X⁻ᵀ) / 2`, which converges
    /// quadratically in a few steps and needs no allocation. Otherwise (determinant ≤ 0, or no
    /// convergence) the nearest rotation comes from a singular value decomposition
    /// `R = U diag(1, 1, det(U Vᵀ)) Vᵀ` (in plain Swift: one-sided Jacobi, no LAPACK) — for a reflection (determinant −1) or a matrix of rank
    /// below 2 the nearest rotation is not unique, and this is one of them. Recovery: a matrix with a
    /// NaN or infinite element, or the zero matrix, returns ``identity``.
    @inlinable
    public func orthonormalized() -> RotationMatrix {
        guard isFinite else { return .identity }
        // Newton's iteration needs a well-scaled positive determinant; anything else goes to the SVD.
        let determinant = self.determinant
        if determinant > 0 && determinant.isNormal && determinant.isFinite {
            var x = self
            for _ in 0..<32 {
                // X⁻ᵀ = cofactor(X) / det(X): the cofactor columns are cross products of the columns.
                let c0 = x.column1.cross(x.column2)
                let c1 = x.column2.cross(x.column0)
                let c2 = x.column0.cross(x.column1)
                let det = x.column0.dot(c0)
                guard det > 0, det.isFinite else { break }
                let next = RotationMatrix(
                    columns: (x.column0 + c0 / det) / 2, (x.column1 + c1 / det) / 2,
                    (x.column2 + c2 / det) / 2)
                let change = next.maximumDifference(to: x)
                x = next
                if change <= 4 * Scalar.ulpOfOne { return x }
            }
        }
        return NearestRotation.ofMatrix(self) ?? .identity
    }
}

extension RotationMatrix: Equatable, Hashable, Sendable {}

#if !hasFeature(Embedded)
extension RotationMatrix: Codable {
    /// Encodes as nested row-major arrays `[[r00, r01, r02], [r10, r11, r12], [r20, r21, r22]]`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        let (r0, r1, r2) = rows
        for row in [r0, r1, r2] {
            try container.encode([row.x, row.y, row.z])
        }
    }

    /// Decodes nested row-major arrays; exactly three rows of three numbers.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var rows: [SIMD3<Scalar>] = []
        while !container.isAtEnd {
            let row = try container.decode([Scalar].self)
            guard row.count == 3 else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "a matrix row needs 3 numbers, found \(row.count)")
            }
            rows.append(SIMD3(row[0], row[1], row[2]))
        }
        guard rows.count == 3 else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a 3 × 3 matrix needs 3 rows, found \(rows.count)")
        }
        self.init(rows: rows[0], rows[1], rows[2])
    }
}
#endif

extension RotationMatrix: CustomStringConvertible {
    /// The rows, e.g. `RotationMatrix([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0])`.
    public var description: String {
        let (r0, r1, r2) = rows
        func text(_ r: SIMD3<Scalar>) -> String { "[\(r.x), \(r.y), \(r.z)]" }
        return "RotationMatrix(\(text(r0)), \(text(r1)), \(text(r2)))"
    }
}

import MotionFusionCore
extension RotationMatrix {
    /// Rotates every vector of `input` into `output` (`output[i] = R * input[i]`).
    ///
    /// `output` must have at least `input.count` elements. With the ``BatchRotationKernel/simd``
    /// kernel the two buffers may be the same; with ``BatchRotationKernel/blas`` they must not
    /// overlap (checked: overlapping buffers stop the program with a precondition failure rather
    /// than give undefined results). Allocates nothing.
    @inlinable
    public func rotate(
        _ input: UnsafeBufferPointer<SIMD3<Scalar>>,
        into output: UnsafeMutableBufferPointer<SIMD3<Scalar>>,
        kernel: BatchRotationKernel = .simd
    ) {
        precondition(output.count >= input.count, "output buffer too small")
        switch kernel {
        case .simd:
            let (c0, c1, c2) = (column0, column1, column2)
            for index in 0..<input.count {
                let v = input[index]
                output[index] = c0 * v.x + c1 * v.y + c2 * v.z
            }
        case .blas:
            if let i = input.baseAddress, let o = output.baseAddress {
                let inputBytes = UnsafeRawPointer(i)..<UnsafeRawPointer(i + input.count)
                let outputBytes = UnsafeRawPointer(o)..<UnsafeRawPointer(o + input.count)
                precondition(!inputBytes.overlaps(outputBytes), "the BLAS kernel needs separate buffers")
            }
            rotateWithBLAS(input, into: output)
        }
    }

    /// The rotated copies of `vectors`.
    @inlinable
    public func rotated(
        _ vectors: [SIMD3<Scalar>], kernel: BatchRotationKernel = .simd
    ) -> [SIMD3<Scalar>] {
        [SIMD3<Scalar>](unsafeUninitializedCapacity: vectors.count) { buffer, count in
            vectors.withUnsafeBufferPointer { rotate($0, into: buffer, kernel: kernel) }
            count = vectors.count
        }
    }

    @usableFromInline
    func rotateWithBLAS(
        _ input: UnsafeBufferPointer<SIMD3<Scalar>>,
        into output: UnsafeMutableBufferPointer<SIMD3<Scalar>>
    ) {
        guard let source = input.baseAddress, let target = output.baseAddress, !input.isEmpty else {
            return
        }
        let count = input.count
        if Scalar.self == Double.self {
            let m = RotationMatrix<Double>(self)
            let a = [
                m.column0.x, m.column0.y, m.column0.z, m.column1.x, m.column1.y, m.column1.z,
                m.column2.x, m.column2.y, m.column2.z,
            ]
            UnsafeRawPointer(source).withMemoryRebound(to: Double.self, capacity: 4 * count) { b in
                UnsafeMutableRawPointer(target).withMemoryRebound(
                    to: Double.self, capacity: 4 * count
                ) { c in
                    LAPACK.multiply3(a, b, into: c, count: count)
                }
            }
        } else {
            let m = RotationMatrix<Float>(self)
            let a = [
                m.column0.x, m.column0.y, m.column0.z, m.column1.x, m.column1.y, m.column1.z,
                m.column2.x, m.column2.y, m.column2.z,
            ]
            UnsafeRawPointer(source).withMemoryRebound(to: Float.self, capacity: 4 * count) { b in
                UnsafeMutableRawPointer(target).withMemoryRebound(
                    to: Float.self, capacity: 4 * count
                ) { c in
                    LAPACK.multiply3(a, b, into: c, count: count)
                }
            }
        }
    }
}

extension Quaternion {
    /// Rotates many vectors: the quaternion's matrix is built once, then applied to each vector.
    @inlinable
    public func act(on vectors: [SIMD3<Scalar>], kernel: BatchRotationKernel = .simd) -> [SIMD3<
        Scalar
    >] {
        RotationMatrix(self).rotated(vectors, kernel: kernel)
    }
}

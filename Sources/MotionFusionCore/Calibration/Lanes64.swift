/// Element access to a `SIMD64` through its bytes. A `SIMD64` subscript with an index known only at
/// run time, and `SIMD64(repeating:)`, compile element by element on a target without 64-lane
/// vectors (WebAssembly, a Cortex-M): a store into lane `i` becomes a choice among 64 stores. These
/// load and store one element in memory instead; the values are the same. A lane must be in
/// 0 ..< 64 (a precondition the callers keep: unlike a subscript, nothing checks it in a release
/// build).
@usableFromInline
enum Lanes64 {
    /// A vector with every lane `value`, filled by a loop.
    @inlinable
    static func filled<T: SIMDScalar>(_ value: T) -> SIMD64<T> {
        var vector = SIMD64<T>()
        withUnsafeMutableBytes(of: &vector) { raw in
            for i in 0..<64 { raw.storeBytes(of: value, toByteOffset: i * MemoryLayout<T>.stride, as: T.self) }
        }
        return vector
    }

    /// Lane `i` (0 ..< 64) of `vector`.
    @inlinable @inline(__always)
    static func load<T: SIMDScalar>(_ vector: SIMD64<T>, _ i: Int) -> T {
        withUnsafeBytes(of: vector) { $0.load(fromByteOffset: i * MemoryLayout<T>.stride, as: T.self) }
    }

    /// Sets lane `i` (0 ..< 64) of `vector` to `value`.
    @inlinable @inline(__always)
    static func store<T: SIMDScalar>(_ value: T, at i: Int, in vector: inout SIMD64<T>) {
        withUnsafeMutableBytes(of: &vector) { $0.storeBytes(of: value, toByteOffset: i * MemoryLayout<T>.stride, as: T.self) }
    }

    /// Copies lane `from` of `vector` into lane `to`.
    @inlinable @inline(__always)
    static func move<T: SIMDScalar>(_ from: Int, to: Int, in vector: inout SIMD64<T>) {
        withUnsafeMutableBytes(of: &vector) { raw in
            let stride = MemoryLayout<T>.stride
            raw.storeBytes(of: raw.load(fromByteOffset: from * stride, as: T.self), toByteOffset: to * stride, as: T.self)
        }
    }
}

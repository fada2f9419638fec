import CVectorMath

/// The widest vector registers the build targets, and the lane types that fill one.
///
/// The many-stream engines are generic over their lanes (``FusionLanes``); which width is fastest
/// depends on the build, not on the processor it runs on. ``InertialFrameStreams`` keeps about
/// seventy vectors of state per group of streams: with lanes wider than a register each vector is
/// several registers, which spill, and it is fastest with one register per vector —
/// `SIMD4<Float>` and `SIMD2<Double>` in a portable build (SSE2 on x86-64, NEON on 64-bit ARM),
/// `SIMD16<Float>` and `SIMD8<Double>` built for AVX-512 (<doc:Performance>).
/// ``MadgwickStreams``, whose state is a few vectors, is fastest with the widest lanes,
/// `SIMD16<Float>` and `SIMD8<Double>`, in either build.
public enum VectorRegister {
    /// The size in bytes of the widest vector registers this build of the library may use: 64 when
    /// it was built for AVX-512 (for example `swift build -Xswiftc -target-cpu -Xswiftc native -Xcc
    /// -march=native` on such a processor), 32 for AVX or AVX2, else 16 (the x86-64 baseline's SSE2,
    /// 64-bit ARM's NEON, and any other target).
    public static var byteCount: Int { Int(mf_vector_register_bytes()) }

    /// The number of `Float` lanes in one register: 4, 8 or 16.
    public static var floatLanes: Int { byteCount / MemoryLayout<Float>.size }

    /// The number of `Double` lanes in one register: 2, 4 or 8.
    public static var doubleLanes: Int { byteCount / MemoryLayout<Double>.size }
}

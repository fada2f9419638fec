// Lane-wise square roots for MotionFusion's many-stream engine.
//
// Swift's standard library has no vector square root: `SIMD16<Float>.squareRoot()` becomes one
// scalar square root (and a libm call for its errno path) per lane. These header-only functions
// lower to the target's vector square-root instruction (`sqrtps`/`sqrtpd` on x86-64, `fsqrt` on
// AArch64), correctly rounded like the scalar one, so every lane computes exactly what the scalar
// filter computes. Swift imports the clang vector types below as SIMD2 … SIMD16, and inlines the
// functions into the Swift code that calls them.
#ifndef MOTIONFUSION_CVECTORMATH_H
#define MOTIONFUSION_CVECTORMATH_H

typedef float mf_float2 __attribute__((ext_vector_type(2)));
typedef float mf_float4 __attribute__((ext_vector_type(4)));
typedef float mf_float8 __attribute__((ext_vector_type(8)));
typedef float mf_float16 __attribute__((ext_vector_type(16)));
typedef double mf_double2 __attribute__((ext_vector_type(2)));
typedef double mf_double4 __attribute__((ext_vector_type(4)));
typedef double mf_double8 __attribute__((ext_vector_type(8)));
typedef double mf_double16 __attribute__((ext_vector_type(16)));

#define MF_INLINE static inline __attribute__((always_inline))

MF_INLINE mf_float2 mf_sqrt_float2(mf_float2 x) { return __builtin_elementwise_sqrt(x); }
MF_INLINE mf_float4 mf_sqrt_float4(mf_float4 x) { return __builtin_elementwise_sqrt(x); }
MF_INLINE mf_float8 mf_sqrt_float8(mf_float8 x) { return __builtin_elementwise_sqrt(x); }
MF_INLINE mf_float16 mf_sqrt_float16(mf_float16 x) { return __builtin_elementwise_sqrt(x); }
MF_INLINE mf_double2 mf_sqrt_double2(mf_double2 x) { return __builtin_elementwise_sqrt(x); }
MF_INLINE mf_double4 mf_sqrt_double4(mf_double4 x) { return __builtin_elementwise_sqrt(x); }
MF_INLINE mf_double8 mf_sqrt_double8(mf_double8 x) { return __builtin_elementwise_sqrt(x); }
MF_INLINE mf_double16 mf_sqrt_double16(mf_double16 x) { return __builtin_elementwise_sqrt(x); }

// The size in bytes of the widest vector registers the code being compiled may use: 64 when the
// build targets AVX-512 (`-Xswiftc -target-cpu -Xswiftc native -Xcc -march=native` on such a CPU),
// 32 for AVX or AVX2, else 16 (SSE2, x86-64's baseline; NEON on 64-bit ARM).
MF_INLINE int mf_vector_register_bytes(void) {
#if defined(__AVX512F__)
    return 64;
#elif defined(__AVX__)
    return 32;
#else
    return 16;
#endif
}

#endif

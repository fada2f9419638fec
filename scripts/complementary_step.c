// MotionFusion's ComplementaryFilter (6D) in C, float and double, for scripts/compare_speed.py: how fast
// compiled C runs the same arithmetic on one stream. Everything a usual step does is here, operation for
// operation and with the same grouping: the stores of the last errors, the checks, the gain cache (the
// gain's series and the coefficients' sums as ComplementaryFilter.gain and rotationSeriesCoefficients
// write them), the series for exp(½ωΔt), p = q ⊗ e, g = p â p*, the two series in y = sin²(θ/2) for
// the fraction 1 − e^(−Δt/τ) of the tilt angle, and the Newton factor. Built without fused
// multiply-adds (x86-64 without -march, or -ffp-contract=off), a usual step gives the same bits as the
// Swift filter's. The rare other steps (large rotations or tilt errors) use libm and agree to a few
// ulps.
//
//   complementary_step SAMPLES.bin REPEATS [MIN_SECONDS]
//
// SAMPLES.bin: int64 n, double tau (s), 4 doubles q0 = the filter's attitude after its first sample
// (sensor → NWU, w x y z), then n rows of 7 doubles (dt gx gy gz ax ay az; s, rad/s, m/s²); row 0 is
// the initialization sample and is skipped. A run passes over rows 1 … n−1 from q0 again and again
// until MIN_SECONDS (default 0.3) have passed; the time per sample of the fastest of REPEATS runs is
// printed as "complementary 6D <float|double> <ns>" (as `motion bench` times ours), then
// "final <float|double> w x y z" (the attitude after a pass) and "general <float|double> N" (how many
// steps of a pass were not the usual one). Tests/MotionFusionTests/ComplementaryCTwinTests.swift
// checks it against the Swift filter.
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define DEFINE(T, SQRT, SIN, COS, ATAN2, EXPM1, FABS, SINGLE, NAME)                                \
typedef struct {                                                                                  \
    T w, x, y, z;                                                                                 \
    T tilt_x, tilt_y, tilt_cos, heading_x, heading_y;                                             \
    T tau_key, tau, gain_step, gain, inverse_tau;                                                 \
    T s[8], c[8];                                                                                 \
    long general;                                                                                 \
} filter_##NAME;                                                                                  \
                                                                                                  \
/* The series' coefficients for the fraction k (ComplementaryFilter.rotationSeriesCoefficients). */ \
static void coefficients_##NAME(filter_##NAME *f, T k) {                                          \
    T v = k * k * (T)0.25, a[8];                                                                  \
    a[0] = k;                                                                                     \
    a[1] = a[0] * ((T)0.25 - v) * (T)(2.0 / 3);                                                   \
    a[2] = a[1] * ((T)2.25 - v) * (T)(1.0 / 5);                                                   \
    a[3] = a[2] * ((T)6.25 - v) * (T)(2.0 / 21);                                                  \
    a[4] = a[3] * ((T)12.25 - v) * (T)(1.0 / 18);                                                 \
    a[5] = a[4] * ((T)20.25 - v) * (T)(2.0 / 55);                                                 \
    a[6] = a[5] * ((T)30.25 - v) * (T)(1.0 / 39);                                                 \
    a[7] = a[6] * ((T)42.25 - v) * (T)(2.0 / 105);                                                \
    f->c[0] = 1;                                                                                  \
    f->c[1] = -2 * v;                                                                             \
    f->c[2] = f->c[1] * (1 - v) * (T)(1.0 / 3);                                                   \
    f->c[3] = f->c[2] * (4 - v) * (T)(2.0 / 15);                                                  \
    f->c[4] = f->c[3] * (9 - v) * (T)(1.0 / 14);                                                  \
    f->c[5] = f->c[4] * (16 - v) * (T)(2.0 / 45);                                                 \
    f->c[6] = f->c[5] * (25 - v) * (T)(1.0 / 33);                                                 \
    f->c[7] = f->c[6] * (36 - v) * (T)(2.0 / 91);                                                 \
    const T e0 = (T)(1.0 / 2), e1 = (T)(1.0 / 4), e2 = (T)(3.0 / 16), e3 = (T)(5.0 / 32);             \
    const T e4 = (T)(35.0 / 256), e5 = (T)(63.0 / 512), e6 = (T)(231.0 / 2048), e7 = (T)(429.0 / 4096); \
    f->s[0] = a[0] * e0;                                                                          \
    f->s[1] = a[0] * e1 + a[1] * e0;                                                              \
    f->s[2] = (a[0] * e2 + a[1] * e1) + a[2] * e0;                                                \
    f->s[3] = (a[0] * e3 + a[1] * e2) + (a[2] * e1 + a[3] * e0);                                  \
    f->s[4] = ((a[0] * e4 + a[1] * e3) + (a[2] * e2 + a[3] * e1)) + a[4] * e0;                    \
    f->s[5] = ((a[0] * e5 + a[1] * e4) + (a[2] * e3 + a[3] * e2)) + (a[4] * e1 + a[5] * e0);      \
    f->s[6] = ((a[0] * e6 + a[1] * e5) + (a[2] * e4 + a[3] * e3)) + ((a[4] * e2 + a[5] * e1) + a[6] * e0); \
    f->s[7] = ((a[0] * e7 + a[1] * e6) + (a[2] * e5 + a[3] * e4))                                 \
              + ((a[4] * e3 + a[5] * e2) + (a[6] * e1 + a[7] * e0));                              \
}                                                                                                 \
                                                                                                  \
/* 1 − e^(−x) (ComplementaryFilter.gain): the series to x¹⁰ for 0 ≤ x ≤ 1/16, else expm1. */        \
static T gain_##NAME(T x) {                                                                       \
    if (x >= 0 && x <= (T)0.0625) {                                                               \
        T c8 = 1 - x * (T)(1.0 / 10);                                                             \
        T c7 = 1 - x * (T)(1.0 / 9) * c8;                                                         \
        T c6 = 1 - x * (T)(1.0 / 8) * c7;                                                         \
        T c5 = 1 - x * (T)(1.0 / 7) * c6;                                                         \
        T c4 = 1 - x * (T)(1.0 / 6) * c5;                                                         \
        T c3 = 1 - x * (T)(1.0 / 5) * c4;                                                         \
        T c2 = 1 - x * (T)(1.0 / 4) * c3;                                                         \
        T c1 = 1 - x * (T)(1.0 / 3) * c2;                                                         \
        return x * (1 - x * (T)(1.0 / 2) * c1);                                                   \
    }                                                                                             \
    return -EXPM1(-x);                                                                            \
}                                                                                                 \
                                                                                                  \
/* Every step the usual one does not cover (out of line, as in Swift), with libm. */              \
__attribute__((noinline)) static void general_##NAME(filter_##NAME *f, const T *g, const T *acc,  \
                                                     T dt) {                                      \
    f->general++;                                                                                 \
    T vx = g[0] * dt / 2, vy = g[1] * dt / 2, vz = g[2] * dt / 2;                                 \
    T t = SQRT(vx * vx + vy * vy + vz * vz);                                                      \
    T k = t > 0 ? SIN(t) / t : 1, ew = COS(t);                                                    \
    T ex = vx * k, ey = vy * k, ez = vz * k;                                                      \
    if (!isfinite(ew) || !isfinite(ex) || !isfinite(ey) || !isfinite(ez)) {                      \
        ew = 1; ex = 0; ey = 0; ez = 0;                                                           \
    }                                                                                             \
    T w = f->w, x = f->x, y = f->y, z = f->z;                                                     \
    T n = (3 - (w * w + x * x + y * y + z * z)) / 2;                                              \
    ew *= n; ex *= n; ey *= n; ez *= n;                                                           \
    T pw = w * ew - x * ex - y * ey - z * ez, px = w * ex + x * ew + y * ez - z * ey;             \
    T py = w * ey - x * ez + y * ew + z * ex, pz = w * ez + x * ey - y * ex + z * ew;             \
    T a2 = acc[0] * acc[0] + acc[1] * acc[1] + acc[2] * acc[2];                                   \
    if (isnormal(a2)) {                                                                           \
        T r = 1 / SQRT(a2), ax = acc[0] * r, ay = acc[1] * r, az = acc[2] * r;                    \
        T ux = 2 * (py * az - pz * ay), uy = 2 * (pz * ax - px * az), uz = 2 * (px * ay - py * ax); \
        T gx = ax + pw * ux + (py * uz - pz * uy);                                                \
        T gy = ay + pw * uy + (pz * ux - px * uz);                                                \
        T gz = az + pw * uz + (px * uy - py * ux);                                                \
        f->tilt_x = gx; f->tilt_y = gy; f->tilt_cos = gz;                                         \
        T s2 = gx * gx + gy * gy;                                                                 \
        if (s2 > 0) {                                                                             \
            T s = SQRT(s2), half = f->gain * ATAN2(s, gz) / s / 2;                                \
            T cx = gy * half, cy = -gx * half, angle = SQRT(cx * cx + cy * cy);                   \
            T cw = COS(angle), ck = angle > 0 ? SIN(angle) / angle : 1;                           \
            cx *= ck; cy *= ck;                                                                   \
            /* (cw, cx, cy, 0) ⊗ p */                                                             \
            T rw = cw * pw - cx * px - cy * py, rx = cw * px + cx * pw + cy * pz;                 \
            T ry = cw * py + cy * pw - cx * pz, rz = cw * pz + cx * py - cy * px;                 \
            pw = rw; px = rx; py = ry; pz = rz;                                                   \
        }                                                                                         \
    }                                                                                             \
    f->w = pw; f->x = px; f->y = py; f->z = pz;                                                   \
}                                                                                                 \
                                                                                                  \
static inline __attribute__((always_inline)) void update_##NAME(filter_##NAME *f, const T *g,    \
                                                               const T *acc, T dt) {              \
    f->tilt_x = 0; f->tilt_y = 0; f->tilt_cos = 1; f->heading_x = 1; f->heading_y = 0;            \
    if (!(dt > 0 && isfinite(dt) && isfinite(g[0]) && isfinite(g[1]) && isfinite(g[2]))) return; \
    if (f->tau != f->tau_key) {                                                                   \
        f->tau_key = f->tau; f->inverse_tau = 1 / f->tau; f->gain_step = NAN;                     \
    }                                                                                             \
    if (!(FABS(dt - f->gain_step) <= f->gain_step * ((T)1 / (T)1000000))) {                       \
        f->gain_step = dt;                                                                        \
        T k = gain_##NAME(dt * f->inverse_tau);                                                   \
        f->gain = k >= 0 ? (k < 1 ? k : 1) : 0;                                                   \
        coefficients_##NAME(f, f->gain);                                                          \
    }                                                                                             \
    T half = dt / 2, vx = g[0] * half, vy = g[1] * half, vz = g[2] * half;                        \
    T t2 = (vx * vx + vy * vy) + vz * vz;                                                         \
    T an2 = (acc[0] * acc[0] + acc[1] * acc[1]) + acc[2] * acc[2];                                \
    if (!(t2 < (T)0.0025 && isnormal(an2))) { general_##NAME(f, g, acc, dt); return; }           \
    T ew, k;                                                                                      \
    if (SINGLE) {                                                                                 \
        ew = 1 + t2 * ((T)(-1.0 / 2) + t2 * (T)(1.0 / 24));                                       \
        k = 1 + t2 * ((T)(-1.0 / 6) + t2 * (T)(1.0 / 120));                                       \
    } else {                                                                                      \
        ew = 1 + t2 * ((T)(-1.0 / 2) + t2 * ((T)(1.0 / 24) + t2 * ((T)(-1.0 / 720)                \
                 + t2 * (T)(1.0 / 40320))));                                                      \
        k = 1 + t2 * ((T)(-1.0 / 6) + t2 * ((T)(1.0 / 120) + t2 * ((T)(-1.0 / 5040)               \
                + t2 * (T)(1.0 / 362880))));                                                      \
    }                                                                                             \
    T ex = vx * k, ey = vy * k, ez = vz * k;                                                      \
    T ra = 1 / SQRT(an2);                                                                         \
    T ax = acc[0] * ra, ay = acc[1] * ra, az = acc[2] * ra;                                       \
    T w = f->w, x = f->x, y = f->y, z = f->z;                                                     \
    T fn = (3 - ((w * w + x * x) + (y * y + z * z))) * (T)0.5;                                    \
    T pw = (w * ew - x * ex) - (y * ey + z * ez);                                                 \
    T px = (w * ex + x * ew) + (y * ez - z * ey);                                                 \
    T py = (w * ey - x * ez) + (y * ew + z * ex);                                                 \
    T pz = (w * ez + x * ey) + (z * ew - y * ex);                                                 \
    T ux = 2 * (py * az - pz * ay), uy = 2 * (pz * ax - px * az), uz = 2 * (px * ay - py * ax);   \
    T gx = ax + (pw * ux + (py * uz - pz * uy));                                                  \
    T gy = ay + (pw * uy + (pz * ux - px * uz));                                                  \
    T gz = az + (pw * uz + (px * uy - py * ux));                                                  \
    if (!(gz >= (T)0.98)) { general_##NAME(f, g, acc, dt); return; }                             \
    T dw = gx * py - gy * px, dx = gy * pw - gx * pz;                                             \
    T dy = -(gx * pw + gy * pz), dz = gy * py + gx * px;                                          \
    T yy = (1 - gz) * (T)0.5, y2 = yy * yy;                                                       \
    const T *s = f->s, *c = f->c;                                                                 \
    T sine = (s[0] + s[1] * yy) + y2 * (s[2] + s[3] * yy);                                        \
    T cosine = (1 + c[1] * yy) + y2 * (c[2] + c[3] * yy);                                         \
    if (!SINGLE) {                                                                                \
        T y4 = y2 * y2;                                                                           \
        sine = sine + y4 * ((s[4] + s[5] * yy) + y2 * (s[6] + s[7] * yy));                       \
        cosine = cosine + y4 * ((c[4] + c[5] * yy) + y2 * (c[6] + c[7] * yy));                   \
    }                                                                                             \
    T fs = sine * fn, fc = cosine * fn;                                                           \
    f->tilt_x = gx; f->tilt_y = gy; f->tilt_cos = gz;                                             \
    f->w = fc * pw + fs * dw; f->x = fc * px + fs * dx;                                           \
    f->y = fc * py + fs * dy; f->z = fc * pz + fs * dz;                                           \
}                                                                                                 \
                                                                                                  \
__attribute__((noinline)) static void run_##NAME(filter_##NAME *f, const T *g, const T *a,       \
                                                 const T *dt, long n) {                           \
    for (long i = 1; i < n; i++) update_##NAME(f, g + 4 * i, a + 4 * i, dt[i]);                  \
}                                                                                                 \
                                                                                                  \
static void measure_##NAME(const double *rows, long n, const double *q0, double tau, int repeats, \
                           double min_seconds) {                                                  \
    T *g = malloc(sizeof(T) * 4 * (size_t)n), *a = malloc(sizeof(T) * 4 * (size_t)n);              \
    T *dt = malloc(sizeof(T) * (size_t)n);                                                        \
    if (!g || !a || !dt) { fprintf(stderr, "complementary_step: out of memory\n"); exit(1); }     \
    for (long i = 0; i < n; i++) {                                                                \
        dt[i] = (T)rows[7 * i];                                                                   \
        for (int j = 0; j < 3; j++) {                                                             \
            g[4 * i + j] = (T)rows[7 * i + 1 + j];                                                \
            a[4 * i + j] = (T)rows[7 * i + 4 + j];                                                \
        }                                                                                         \
        g[4 * i + 3] = 0; a[4 * i + 3] = 0;                                                       \
    }                                                                                             \
    filter_##NAME start = {0}, f = {0};                                                           \
    start.w = (T)q0[0]; start.x = (T)q0[1]; start.y = (T)q0[2]; start.z = (T)q0[3];               \
    start.tilt_cos = 1; start.heading_x = 1; start.tau = (T)tau; start.tau_key = NAN;             \
    start.gain_step = NAN;                                                                        \
    double best = INFINITY;                                                                       \
    for (int r = 0; r < repeats; r++) {                                                           \
        struct timespec t0, t1;                                                                   \
        double elapsed = 0;                                                                       \
        long passes = 0;                                                                          \
        clock_gettime(CLOCK_MONOTONIC, &t0);                                                      \
        do {                                                                                      \
            f = start;                                                                            \
            run_##NAME(&f, g, a, dt, n);                                                          \
            passes++;                                                                             \
            clock_gettime(CLOCK_MONOTONIC, &t1);                                                  \
            elapsed = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;  \
        } while (elapsed < min_seconds);                                                          \
        double ns = elapsed * 1e9 / ((double)passes * (double)(n - 1));                           \
        if (ns < best) best = ns;                                                                 \
    }                                                                                             \
    printf("complementary 6D %s %.3f\n", #T, best);                                               \
    printf("final %s %.17g %.17g %.17g %.17g\n", #T, (double)f.w, (double)f.x, (double)f.y, (double)f.z); \
    printf("general %s %ld\n", #T, f.general);                                                    \
    free(g); free(a); free(dt);                                                                   \
}

DEFINE(float, sqrtf, sinf, cosf, atan2f, expm1f, fabsf, 1, f)
DEFINE(double, sqrt, sin, cos, atan2, expm1, fabs, 0, d)

int main(int argc, char **argv) {
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: complementary_step SAMPLES.bin REPEATS [MIN_SECONDS]\n");
        return 2;
    }
    FILE *file = fopen(argv[1], "rb");
    int repeats = atoi(argv[2]);
    double min_seconds = argc == 4 ? atof(argv[3]) : 0.3;
    long long n64 = 0;
    double header[5];
    if (!file || fread(&n64, sizeof n64, 1, file) != 1 || fread(header, sizeof(double), 5, file) != 5
        || n64 < 2 || repeats < 1 || !(header[0] > 0) || !(min_seconds >= 0)) {
        fprintf(stderr, "complementary_step: cannot read %s (or REPEATS < 1, MIN_SECONDS < 0)\n", argv[1]);
        return 1;
    }
    long n = (long)n64;
    double *rows = malloc(sizeof(double) * 7 * (size_t)n);
    if (!rows || fread(rows, sizeof(double) * 7, (size_t)n, file) != (size_t)n) {
        fprintf(stderr, "complementary_step: %s is truncated\n", argv[1]);
        return 1;
    }
    fclose(file);
    measure_f(rows, n, header + 1, header[0], repeats, min_seconds);
    measure_d(rows, n, header + 1, header[0], repeats, min_seconds);
    free(rows);
    return 0;
}

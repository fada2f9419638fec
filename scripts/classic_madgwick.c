// The classic Madgwick step (the gradient-descent filter of Madgwick's 2010 report: q̇ from the
// gyroscope minus β times the normalized gradient of the gravity (and, in 9D, the earth-field)
// objective, Euler integration, normalization every step) and plain gyroscope integration, in C,
// float and double, for scripts/compare_speed.py: a same-machine reference for what compiled C does
// with one stream. Written for this project from the report's equations.
//
//   classic_madgwick SAMPLES.bin REPEATS
//
// SAMPLES.bin: int64 n, double dt, then n rows of 9 doubles (gx gy gz ax ay az mx my mz; rad/s,
// m/s², µT). Prints one line per case: "<case> <6D|9D|-> <float|double> <ns per sample>", the
// fastest of REPEATS passes over the samples from the identity attitude.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define DEFINE(T, SQRT, NAME)                                                                     \
typedef struct { T w, x, y, z; } q_##NAME;                                                        \
static inline void integrate_##NAME(q_##NAME *q, const T *g, T dt) {                              \
    T w = q->w, x = q->x, y = q->y, z = q->z;                                                     \
    T h = (T)0.5 * dt;                                                                            \
    w += h * (-x * g[0] - y * g[1] - z * g[2]);                                                   \
    x += h * (q->w * g[0] + y * g[2] - z * g[1]);                                                 \
    y += h * (q->w * g[1] - q->x * g[2] + z * g[0]);                                              \
    z += h * (q->w * g[2] + q->x * g[1] - q->y * g[0]);                                           \
    T n = (T)1 / SQRT(w * w + x * x + y * y + z * z);                                             \
    q->w = w * n; q->x = x * n; q->y = y * n; q->z = z * n;                                       \
}                                                                                                 \
static inline void madgwick6_##NAME(q_##NAME *q, const T *g, const T *a, T beta, T dt) {          \
    T q0 = q->w, q1 = q->x, q2 = q->y, q3 = q->z;                                                 \
    T d0 = (T)0.5 * (-q1 * g[0] - q2 * g[1] - q3 * g[2]);                                         \
    T d1 = (T)0.5 * (q0 * g[0] + q2 * g[2] - q3 * g[1]);                                          \
    T d2 = (T)0.5 * (q0 * g[1] - q1 * g[2] + q3 * g[0]);                                          \
    T d3 = (T)0.5 * (q0 * g[2] + q1 * g[1] - q2 * g[0]);                                          \
    T an = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];                                               \
    if (an > 0) {                                                                                 \
        T r = (T)1 / SQRT(an);                                                                    \
        T ax = a[0] * r, ay = a[1] * r, az = a[2] * r;                                            \
        T f0 = 2 * (q1 * q3 - q0 * q2) - ax;                                                      \
        T f1 = 2 * (q0 * q1 + q2 * q3) - ay;                                                      \
        T f2 = 2 * ((T)0.5 - q1 * q1 - q2 * q2) - az;                                             \
        T s0 = -2 * q2 * f0 + 2 * q1 * f1;                                                        \
        T s1 = 2 * q3 * f0 + 2 * q0 * f1 - 4 * q1 * f2;                                           \
        T s2 = -2 * q0 * f0 + 2 * q3 * f1 - 4 * q2 * f2;                                          \
        T s3 = 2 * q1 * f0 + 2 * q2 * f1;                                                         \
        T sn = s0 * s0 + s1 * s1 + s2 * s2 + s3 * s3;                                             \
        if (sn > 0) {                                                                             \
            T k = beta / SQRT(sn);                                                                \
            d0 -= k * s0; d1 -= k * s1; d2 -= k * s2; d3 -= k * s3;                               \
        }                                                                                         \
    }                                                                                             \
    q0 += d0 * dt; q1 += d1 * dt; q2 += d2 * dt; q3 += d3 * dt;                                   \
    T n = (T)1 / SQRT(q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3);                                     \
    q->w = q0 * n; q->x = q1 * n; q->y = q2 * n; q->z = q3 * n;                                   \
}                                                                                                 \
static inline void madgwick9_##NAME(q_##NAME *q, const T *g, const T *a, const T *m, T beta, T dt) { \
    T q0 = q->w, q1 = q->x, q2 = q->y, q3 = q->z;                                                 \
    T d0 = (T)0.5 * (-q1 * g[0] - q2 * g[1] - q3 * g[2]);                                         \
    T d1 = (T)0.5 * (q0 * g[0] + q2 * g[2] - q3 * g[1]);                                          \
    T d2 = (T)0.5 * (q0 * g[1] - q1 * g[2] + q3 * g[0]);                                          \
    T d3 = (T)0.5 * (q0 * g[2] + q1 * g[1] - q2 * g[0]);                                          \
    T an = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];                                               \
    T mn = m[0] * m[0] + m[1] * m[1] + m[2] * m[2];                                               \
    if (an > 0 && mn > 0) {                                                                       \
        T r = (T)1 / SQRT(an), rm = (T)1 / SQRT(mn);                                              \
        T ax = a[0] * r, ay = a[1] * r, az = a[2] * r;                                            \
        T mx = m[0] * rm, my = m[1] * rm, mz = m[2] * rm;                                         \
        /* earth-frame field h = q m q*, reference b = (|h_xy|, 0, h_z) */                        \
        T hx = mx * (q0*q0 + q1*q1 - q2*q2 - q3*q3) + 2 * my * (q1*q2 - q0*q3) + 2 * mz * (q1*q3 + q0*q2); \
        T hy = 2 * mx * (q1*q2 + q0*q3) + my * (q0*q0 - q1*q1 + q2*q2 - q3*q3) + 2 * mz * (q2*q3 - q0*q1); \
        T hz = 2 * mx * (q1*q3 - q0*q2) + 2 * my * (q2*q3 + q0*q1) + mz * (q0*q0 - q1*q1 - q2*q2 + q3*q3); \
        T bx = SQRT(hx * hx + hy * hy), bz = hz;                                                  \
        T f0 = 2 * (q1 * q3 - q0 * q2) - ax;                                                      \
        T f1 = 2 * (q0 * q1 + q2 * q3) - ay;                                                      \
        T f2 = 2 * ((T)0.5 - q1 * q1 - q2 * q2) - az;                                             \
        T f3 = 2 * bx * ((T)0.5 - q2 * q2 - q3 * q3) + 2 * bz * (q1 * q3 - q0 * q2) - mx;         \
        T f4 = 2 * bx * (q1 * q2 - q0 * q3) + 2 * bz * (q0 * q1 + q2 * q3) - my;                  \
        T f5 = 2 * bx * (q0 * q2 + q1 * q3) + 2 * bz * ((T)0.5 - q1 * q1 - q2 * q2) - mz;         \
        T s0 = -2*q2*f0 + 2*q1*f1 - 2*bz*q2*f3 + (-2*bx*q3 + 2*bz*q1)*f4 + 2*bx*q2*f5;            \
        T s1 = 2*q3*f0 + 2*q0*f1 - 4*q1*f2 + 2*bz*q3*f3 + (2*bx*q2 + 2*bz*q0)*f4 + (2*bx*q3 - 4*bz*q1)*f5; \
        T s2 = -2*q0*f0 + 2*q3*f1 - 4*q2*f2 + (-4*bx*q2 - 2*bz*q0)*f3 + (2*bx*q1 + 2*bz*q3)*f4 + (2*bx*q0 - 4*bz*q2)*f5; \
        T s3 = 2*q1*f0 + 2*q2*f1 + (-4*bx*q3 + 2*bz*q1)*f3 + (-2*bx*q0 + 2*bz*q2)*f4 + 2*bx*q1*f5; \
        T sn = s0 * s0 + s1 * s1 + s2 * s2 + s3 * s3;                                             \
        if (sn > 0) {                                                                             \
            T k = beta / SQRT(sn);                                                                \
            d0 -= k * s0; d1 -= k * s1; d2 -= k * s2; d3 -= k * s3;                               \
        }                                                                                         \
    }                                                                                             \
    q0 += d0 * dt; q1 += d1 * dt; q2 += d2 * dt; q3 += d3 * dt;                                   \
    T n = (T)1 / SQRT(q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3);                                     \
    q->w = q0 * n; q->x = q1 * n; q->y = q2 * n; q->z = q3 * n;                                   \
}

DEFINE(float, sqrtf, f)
DEFINE(double, sqrt, d)

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

#define BENCH(T, NAME, CASE, MODE, CALL)                                                         \
    {                                                                                            \
        double best = 1e30;                                                                      \
        volatile T sink = 0;                                                                     \
        for (int rep = 0; rep < repeats; rep++) {                                                \
            q_##NAME q = {1, 0, 0, 0};                                                           \
            double t0 = now();                                                                   \
            for (long i = 0; i < n; i++) { CALL; }                                               \
            double t = (now() - t0) / n * 1e9;                                                   \
            sink = sink + q.w;                                                                   \
            if (t < best) best = t;                                                              \
        }                                                                                        \
        printf("%s %s %s %.3f\n", CASE, MODE, #T, best);                                          \
    }

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: classic_madgwick SAMPLES.bin REPEATS\n");
        return 2;
    }
    FILE *file = fopen(argv[1], "rb");
    int repeats = atoi(argv[2]);
    long long n64 = 0;
    double dtd = 0;
    if (!file || fread(&n64, sizeof n64, 1, file) != 1 || fread(&dtd, sizeof dtd, 1, file) != 1 || n64 <= 0 || repeats < 1) {
        fprintf(stderr, "classic_madgwick: cannot read %s\n", argv[1]);
        return 1;
    }
    long n = (long)n64;
    double *rows = malloc(sizeof(double) * 9 * n);
    if (!rows || fread(rows, sizeof(double) * 9, n, file) != (size_t)n) {
        fprintf(stderr, "classic_madgwick: %s is truncated\n", argv[1]);
        return 1;
    }
    fclose(file);
    double *gd = malloc(sizeof(double) * 3 * n), *ad = malloc(sizeof(double) * 3 * n), *md = malloc(sizeof(double) * 3 * n);
    float *gf = malloc(sizeof(float) * 3 * n), *af = malloc(sizeof(float) * 3 * n), *mf = malloc(sizeof(float) * 3 * n);
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            gd[3 * i + k] = rows[9 * i + k];
            ad[3 * i + k] = rows[9 * i + 3 + k];
            md[3 * i + k] = rows[9 * i + 6 + k];
            gf[3 * i + k] = (float)gd[3 * i + k];
            af[3 * i + k] = (float)ad[3 * i + k];
            mf[3 * i + k] = (float)md[3 * i + k];
        }
    }
    float dtf = (float)dtd;
    BENCH(float, f, "gyro-integration", "-", integrate_f(&q, gf + 3 * i, dtf))
    BENCH(double, d, "gyro-integration", "-", integrate_d(&q, gd + 3 * i, dtd))
    BENCH(float, f, "classic-madgwick", "6D", madgwick6_f(&q, gf + 3 * i, af + 3 * i, 0.1f, dtf))
    BENCH(double, d, "classic-madgwick", "6D", madgwick6_d(&q, gd + 3 * i, ad + 3 * i, 0.1, dtd))
    BENCH(float, f, "classic-madgwick", "9D", madgwick9_f(&q, gf + 3 * i, af + 3 * i, mf + 3 * i, 0.1f, dtf))
    BENCH(double, d, "classic-madgwick", "9D", madgwick9_d(&q, gd + 3 * i, ad + 3 * i, md + 3 * i, 0.1, dtd))
    return 0;
}

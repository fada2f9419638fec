// Times x-io Fusion's C AHRS (FusionAhrs, from imufusion 1.3.3's source distribution, fetched by
// scripts/compare_speed.py into a temporary folder and compiled beside this file; never kept here)
// on the same samples as `motion bench --input`, for scripts/compare_speed.py. Written for this
// project; it only calls Fusion's public API.
//
//   fusion_ahrs_bench SAMPLES.bin REPEATS
//
// SAMPLES.bin: int64 n, double dt, then n rows of 9 doubles (gx gy gz ax ay az mx my mz; rad/s,
// m/s², µT), converted once, before any timing, to Fusion's units (deg/s, g, µT) in float. The
// settings are those scripts/compare_speed.py gives imufusion: ENU, gain 0.5, gyroscope range
// 2000 deg/s, acceleration and magnetic rejection 10 deg, rejection timeout 5 s, sample rate 1/dt.
// A pass runs FusionAhrsUpdateNoMagnetometer (6D) or FusionAhrsUpdate (9D) over every sample
// from a freshly initialised AHRS; a run repeats passes until 0.3 s have gone and gives its time
// per sample; the fastest of REPEATS runs counts, as `motion bench` times ours. Prints "fusion-ahrs <6D|9D> float <ns per
// sample>" and the final quaternion (so that the work cannot be optimised away) on stderr.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "Fusion.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static FusionQuaternion pass(const FusionAhrsSettings *settings, const FusionVector *g, const FusionVector *a,
                             const FusionVector *m, int64_t n, int magnetometer) {
    FusionAhrs ahrs;
    FusionAhrsInitialise(&ahrs);
    FusionAhrsSetSettings(&ahrs, settings);
    if (magnetometer) {
        for (int64_t k = 0; k < n; k++) FusionAhrsUpdate(&ahrs, g[k], a[k], m[k]);
    } else {
        for (int64_t k = 0; k < n; k++) FusionAhrsUpdateNoMagnetometer(&ahrs, g[k], a[k]);
    }
    return FusionAhrsGetQuaternion(&ahrs);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: fusion_ahrs_bench SAMPLES.bin REPEATS\n");
        return 2;
    }
    FILE *file = fopen(argv[1], "rb");
    int64_t n = 0;
    double dt = 0;
    if (!file || fread(&n, sizeof n, 1, file) != 1 || fread(&dt, sizeof dt, 1, file) != 1 || n <= 0 || !(dt > 0)) {
        fprintf(stderr, "fusion_ahrs_bench: cannot read the header of %s\n", argv[1]);
        return 1;
    }
    int repeats = atoi(argv[2]);
    if (repeats < 1) repeats = 1;
    FusionVector *g = malloc(sizeof *g * (size_t)n), *a = malloc(sizeof *a * (size_t)n), *m = malloc(sizeof *m * (size_t)n);
    if (!g || !a || !m) return 1;
    for (int64_t k = 0; k < n; k++) {
        double row[9];
        if (fread(row, sizeof row, 1, file) != 1) {
            fprintf(stderr, "fusion_ahrs_bench: %s ends at row %lld of %lld\n", argv[1], (long long)k, (long long)n);
            return 1;
        }
        const double degrees = 57.29577951308232, gravity = 9.80665;
        g[k] = (FusionVector){.axis = {(float)(row[0] * degrees), (float)(row[1] * degrees), (float)(row[2] * degrees)}};
        a[k] = (FusionVector){.axis = {(float)(row[3] / gravity), (float)(row[4] / gravity), (float)(row[5] / gravity)}};
        m[k] = (FusionVector){.axis = {(float)row[6], (float)row[7], (float)row[8]}};
    }
    fclose(file);
    const FusionAhrsSettings settings = {
        .sampleRate = (float)(1.0 / dt),
        .convention = FusionConventionEnu,
        .gain = 0.5f,
        .gyroscopeRange = 2000.0f,
        .accelerationRejection = 10.0f,
        .magneticRejection = 10.0f,
        .rejectionTimeout = 5.0f,  // seconds: FusionAhrsSetSettings multiplies it by the rate
    };
    for (int magnetometer = 0; magnetometer <= 1; magnetometer++) {
        double best = 1e300;
        FusionQuaternion q = {.element = {1, 0, 0, 0}};
        for (int r = 0; r < repeats; r++) {
            int64_t samples = 0;
            double start = now(), elapsed = 0;
            do {
                q = pass(&settings, g, a, m, n, magnetometer);
                samples += n;
                elapsed = now() - start;
            } while (elapsed < 0.3);
            if (elapsed / (double)samples < best) best = elapsed / (double)samples;
        }
        printf("fusion-ahrs %s float %.3f\n", magnetometer ? "9D" : "6D", 1e9 * best);
        fprintf(stderr, "fusion-ahrs %s final quaternion %.6f %.6f %.6f %.6f\n", magnetometer ? "9D" : "6D",
                q.element.w, q.element.x, q.element.y, q.element.z);
    }
    free(g);
    free(a);
    free(m);
    return 0;
}

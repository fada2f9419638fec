// Drives MotionFusionWeb's C-style exports over a recording, for scripts/web: built once for
// WebAssembly (wasm32-wasi, run under wasmkit) and once for the host, from the same Swift, so that
// compare.py can hold the two outputs to each other.
//
//   driver FRAME < SAMPLES.bin > OUTPUTS.bin
//
// SAMPLES.bin: int64 n, then n rows of 10 doubles (t gx gy gz ax ay az mx my mz; s, rad/s, m/s², µT;
// NaN magnetometer: none). OUTPUTS.bin: mf_output_count() as a double, then per sample that many
// doubles (mf_output), the number of events e as a double and e × 4 doubles (mf_event).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void *mf_create(int32_t frame);
void mf_destroy(void *session);
int32_t mf_update(void *session, double t, double gx, double gy, double gz, double ax, double ay, double az,
                  double mx, double my, double mz);
int32_t mf_output_count(void);
void mf_output(void *session, double *out);
int32_t mf_event(void *session, int32_t index, double *out);

int main(int argc, char **argv) {
    int frame = argc > 1 ? atoi(argv[1]) : 2;
    int64_t n = 0;
    if (fread(&n, sizeof n, 1, stdin) != 1 || n < 0) {
        fprintf(stderr, "driver: no sample count on stdin\n");
        return 1;
    }
    void *session = mf_create(frame);
    if (!session) {
        fprintf(stderr, "driver: mf_create(%d) refused\n", frame);
        return 1;
    }
    int32_t count = mf_output_count();
    if (count < 1 || count > 64) return 1;
    double out[64], event[4], row[10], header = count;
    fwrite(&header, sizeof header, 1, stdout);
    for (int64_t k = 0; k < n; k++) {
        if (fread(row, sizeof row[0], 10, stdin) != 10) {
            fprintf(stderr, "driver: the samples end at row %lld of %lld\n", (long long)k, (long long)n);
            return 1;
        }
        int32_t events = mf_update(session, row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8],
                                   row[9]);
        mf_output(session, out);
        fwrite(out, sizeof out[0], (size_t)count, stdout);
        double e = events;
        fwrite(&e, sizeof e, 1, stdout);
        for (int32_t i = 0; i < events; i++) {
            if (!mf_event(session, i, event)) return 1;
            fwrite(event, sizeof event[0], 4, stdout);
        }
    }
    mf_destroy(session);
    return 0;
}

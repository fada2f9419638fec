// Drives MotionFusionWeb's C-style exports over a recording, for scripts/web: built once for
// WebAssembly (wasm32-wasi, run under wasmkit) and once for the host, from the same Swift, so that
// web.py can hold the two outputs to each other. The recording's file is read by the module itself
// (mf_recording_open: the reader every command uses), as the web page has it read; each sample as
// read (mf_recording_sample) also goes through a session of its own (mf_create, mf_update: what the
// page's live mode and a program with its own samples use), whose outputs and events must equal the
// recording's bit for bit (else the driver fails).
//
//   driver FRAME NAME < RECORDING.csv > OUTPUTS.bin
//
// OUTPUTS.bin: mf_output_count() as a double, then per sample that many doubles (mf_output), the
// number of events e as a double and e × 4 doubles (mf_event). An error or a warning goes to
// standard error with the module's words; an error exits 1.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *mf_recording_open(int32_t frame, const char *name, int32_t nameLength, const uint8_t *bytes, int32_t count);
int32_t mf_recording_next(void *recording);
void *mf_recording_session(void *recording);
int32_t mf_recording_message(void *recording, char *out, int32_t capacity);
void mf_recording_destroy(void *recording);
void mf_recording_sample(void *recording, double *out);
void *mf_create(int32_t frame);
void mf_destroy(void *session);
int32_t mf_update(void *session, double t, double gx, double gy, double gz, double ax, double ay, double az,
                  double mx, double my, double mz);
int32_t mf_output_count(void);
void mf_output(void *session, double *out);
int32_t mf_event_count(void *session);
int32_t mf_event(void *session, int32_t index, double *out);

static void report(void *recording) {
    static char message[4096];
    int32_t length = mf_recording_message(recording, message, sizeof message - 1);
    if (length <= 0) return;
    message[length < (int32_t)sizeof message - 1 ? length : (int32_t)sizeof message - 1] = 0;
    fputs(message, stderr);
    if (message[strlen(message) - 1] != '\n') fputc('\n', stderr);
}

int main(int argc, char **argv) {
    int frame = argc > 1 ? atoi(argv[1]) : 2;
    const char *name = argc > 2 ? argv[2] : "recording";
    size_t size = 0, capacity = 1 << 20;
    uint8_t *bytes = malloc(capacity);
    for (size_t got; bytes && (got = fread(bytes + size, 1, capacity - size, stdin)) > 0;) {
        size += got;
        if (size == capacity) bytes = realloc(bytes, capacity *= 2);
    }
    if (!bytes || size > INT32_MAX) {
        fprintf(stderr, "driver: cannot hold the recording\n");
        return 1;
    }
    void *recording = mf_recording_open(frame, name, (int32_t)strlen(name), bytes, (int32_t)size);
    free(bytes);
    if (!recording) {
        fprintf(stderr, "driver: mf_recording_open(%d) refused\n", frame);
        return 1;
    }
    void *session = mf_recording_session(recording);
    void *own = mf_create(frame);
    int32_t count = mf_output_count();
    if (!own || count < 1 || count > 64) return 1;
    double out[64], ownOut[64], event[4], ownEvent[4], sample[10], header = count;
    fwrite(&header, sizeof header, 1, stdout);
    int32_t status;
    long long k = 0;
    for (; (status = mf_recording_next(recording)) == 1; k++) {
        mf_recording_sample(recording, sample);
        int32_t ownEvents = mf_update(own, sample[0], sample[1], sample[2], sample[3], sample[4], sample[5],
                                      sample[6], sample[7], sample[8], sample[9]);
        mf_output(session, out);
        mf_output(own, ownOut);
        int32_t events = mf_event_count(session);
        // Bit for bit (memcmp: NaN outputs before initialization compare by their bits too).
        if (memcmp(out, ownOut, sizeof out[0] * (size_t)count) != 0 || ownEvents != events) {
            fprintf(stderr, "driver: sample %lld: mf_update's outputs differ from the recording's\n", k);
            return 1;
        }
        fwrite(out, sizeof out[0], (size_t)count, stdout);
        double e = events;
        fwrite(&e, sizeof e, 1, stdout);
        for (int32_t i = 0; i < events; i++) {
            if (!mf_event(session, i, event) || !mf_event(own, i, ownEvent) || memcmp(event, ownEvent, sizeof event) != 0) {
                fprintf(stderr, "driver: sample %lld: event %d differs between the two sessions\n", k, i);
                return 1;
            }
            fwrite(event, sizeof event[0], 4, stdout);
        }
    }
    mf_destroy(own);
    report(recording);
    mf_recording_destroy(recording);
    return status < 0 ? 1 : 0;
}

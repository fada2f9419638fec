// The C side of scripts/embedded: one driver for every firmware (and the host check), selected at
// compile time.
//   MF_FILTER  MF_NONE (the baseline: no filter), MF_DEFAULT (InertialFrameFilter), MF_MADGWICK,
//              MF_COMPLEMENTARY, MF_CALIBRATED (the default filter behind the online magnetometer
//              calibration), MF_STEPS (StepDetector: the four values are the count, the last step's
//              time, the cadence and whether walking), MF_ACTIVITY (ActivityClassifier: the step
//              count, the activity, its confidence and its start time; these six from
//              FilterRuns.swift) or MF_FUSION
//              (x-io Fusion's C AHRS)
//   MF_READ    time the run with the quaternion read after every update (as an application does)
//   MF_TRACE   print every output quaternion (bit patterns in hex) instead of timing the run
//   MF_HOST    build for the host (trace only; no SysTick, no semihosting)
// Timing: SysTick runs from the processor clock; under `qemu-system-arm -icount shift=0` that is one
// tick per 40 instructions, which the calibration loop below checks on every run. The filter's
// whole loop over the samples (its construction included) is timed; the stack high-water mark and
// the allocation count are read right after it, before anything is printed, so that printf's own
// stack does not hide the filter's.
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MF_NONE 0
#define MF_DEFAULT 1
#define MF_MADGWICK 2
#define MF_COMPLEMENTARY 3
#define MF_FUSION 4
#define MF_CALIBRATED 5
#define MF_STEPS 6
#define MF_ACTIVITY 7

#if MF_FILTER == MF_FUSION
#define MF_FUSION_UNITS 1  // samples.h: gyroscope in °/s, accelerometer in g, as Fusion expects
#endif
#include "samples.h"

#ifdef MF_READ
#define MF_READ_EVERY 1
#else
#define MF_READ_EVERY 0
#endif

typedef void mf_run_function(const float *samples, int32_t count, float dt, float *quaternion);

#if MF_FILTER == MF_NONE
#define MF_NAME "none"
// Keeps the samples referenced and does nothing else.
__attribute__((noipa)) static void none_run(const float *samples, int32_t count, float dt, float *q) {
    (void)samples, (void)count, (void)dt;
    q[0] = 1, q[1] = q[2] = q[3] = 0;
}
#define MF_RUN none_run
#define MF_RUN_TRACE none_run

#elif MF_FILTER == MF_FUSION
#define MF_NAME "fusion"
#include "Fusion.h"
// FusionAhrsUpdate with Fusion's default settings (gain 0.5, NWU, no rejection, no gyroscope range)
// at the data's sample period. The samples are already in Fusion's units.
// `read`: 0, the last quaternion only; 1, the quaternion after every update, into out[0…3]; 2, the
// quaternion after every update i into out[4 i…].
static inline void fusion_loop(const float *s, int32_t count, float dt, float *out, int read) {
    FusionAhrs ahrs;
    FusionAhrsInitialise(&ahrs);
    FusionAhrsSettings settings = fusionAhrsDefaultSettings;
    settings.sampleRate = 1.0f / dt;
    FusionAhrsSetSettings(&ahrs, &settings);
    FusionAhrsSetSamplePeriod(&ahrs, dt);
    for (int32_t i = 0; i < count; i++, s += 9) {
        const FusionVector g = {.axis = {s[0], s[1], s[2]}};
        const FusionVector a = {.axis = {s[3], s[4], s[5]}};
        const FusionVector m = {.axis = {s[6], s[7], s[8]}};
        FusionAhrsUpdate(&ahrs, g, a, m);
        if (read) memcpy(out + (read == 2 ? 4 * i : 0), FusionAhrsGetQuaternion(&ahrs).array, 16);
    }
    if (!read) memcpy(out, FusionAhrsGetQuaternion(&ahrs).array, 16);
}
#if defined(MF_TRACE)
__attribute__((noinline)) static void fusion_trace(const float *s, int32_t n, float dt, float *out) {
    fusion_loop(s, n, dt, out, 2);
}
#define MF_RUN_TRACE fusion_trace
#elif defined(MF_READ)
__attribute__((noinline)) static void fusion_read(const float *s, int32_t n, float dt, float *q) {
    fusion_loop(s, n, dt, q, 1);
}
#define MF_RUN fusion_read
#else
__attribute__((noinline)) static void fusion_run(const float *s, int32_t n, float dt, float *q) {
    fusion_loop(s, n, dt, q, 0);
}
#define MF_RUN fusion_run
#endif

#else
#if MF_FILTER == MF_DEFAULT
#define MF_NAME "default"
#define MF_SWIFT(kind) mf_default_##kind
#elif MF_FILTER == MF_MADGWICK
#define MF_NAME "madgwick"
#define MF_SWIFT(kind) mf_madgwick_##kind
#elif MF_FILTER == MF_COMPLEMENTARY
#define MF_NAME "complementary"
#define MF_SWIFT(kind) mf_complementary_##kind
#elif MF_FILTER == MF_CALIBRATED
#define MF_NAME "calibrated"
#define MF_SWIFT(kind) mf_calibrated_##kind
#elif MF_FILTER == MF_STEPS
#define MF_NAME "steps"
#define MF_SWIFT(kind) mf_steps_##kind
#elif MF_FILTER == MF_ACTIVITY
#define MF_NAME "activity"
#define MF_SWIFT(kind) mf_activity_##kind
#else
#error "MF_FILTER must be MF_NONE, MF_DEFAULT, MF_MADGWICK, MF_COMPLEMENTARY, MF_CALIBRATED, MF_STEPS, MF_ACTIVITY or MF_FUSION"
#endif
extern mf_run_function MF_SWIFT(run), MF_SWIFT(read), MF_SWIFT(trace);
#ifdef MF_READ
#define MF_RUN MF_SWIFT(read)
#else
#define MF_RUN MF_SWIFT(run)
#endif
#define MF_RUN_TRACE MF_SWIFT(trace)
#endif

#ifdef MF_TRACE
static float trace[MF_SAMPLE_COUNT * 4];

static uint32_t bits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static int run_trace(void) {
    MF_RUN_TRACE(mf_samples, MF_SAMPLE_COUNT, MF_SAMPLE_PERIOD, trace);
    for (int i = 0; i < MF_SAMPLE_COUNT; i++) {
        const float *q = trace + 4 * i;
        printf("%08lx %08lx %08lx %08lx\n", (unsigned long)bits(q[0]), (unsigned long)bits(q[1]),
               (unsigned long)bits(q[2]), (unsigned long)bits(q[3]));
    }
    return 0;
}
#endif

#ifdef MF_HOST
int main(void) { return run_trace(); }

#else
extern void initialise_monitor_handles(void);
extern volatile uint32_t mf_systick_wraps;
extern uint32_t mf_alloc_calls, mf_alloc_bytes;
extern uint32_t mf_stack_high_water(void);
extern void mf_stack_paint(void);

#ifndef MF_TRACE
#define SYST_CSR (*(volatile uint32_t *)0xE000E010)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018)

// SysTick from the processor clock, reload 2^24 − 1, wrap interrupt on (startup.c counts the wraps).
// Returns once the counter has loaded the reload value (it reads 0 until the first tick after the
// start), so that the first reading is on the same count as the following ones.
static void systick_start(void) {
    SYST_CSR = 0;
    SYST_RVR = 0xFFFFFF;
    SYST_CVR = 0;
    SYST_CSR = 7;
    while (SYST_CVR == 0) {}
    mf_systick_wraps = 0;
}

static uint64_t ticks_between(uint32_t before, uint32_t after, uint32_t wraps) {
    // The counter counts down and wraps from 0 to 2^24 − 1.
    return (uint64_t)wraps * 0x1000000u + before - (uint64_t)after;
}

// Exactly 2 n instructions: n times (subs, bne).
__attribute__((noinline)) static void spin(uint32_t n) {
    __asm volatile("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n) : : "cc");
}

static uint64_t spin_ticks(uint32_t n) {
    systick_start();
    uint32_t before = SYST_CVR;
    spin(n);
    uint32_t after = SYST_CVR;
    return ticks_between(before, after, mf_systick_wraps);
}

static int run_timed(void) {
    // Calibration: loops of 1,000,000 and 3,000,000 instructions.
    uint64_t short_loop = spin_ticks(500000), long_loop = spin_ticks(1500000);

    float q[4];
    uint32_t calls = mf_alloc_calls, bytes = mf_alloc_bytes;
    int live = mallinfo().uordblks;
    mf_stack_paint();
    systick_start();
    uint32_t before = SYST_CVR;
    MF_RUN(mf_samples, MF_SAMPLE_COUNT, MF_SAMPLE_PERIOD, q);
    uint32_t after = SYST_CVR;
    uint64_t ticks = ticks_between(before, after, mf_systick_wraps);
    uint32_t stack = mf_stack_high_water();
    calls = mf_alloc_calls - calls, bytes = mf_alloc_bytes - bytes;
    live = mallinfo().uordblks - live;  // heap bytes still allocated after the run
    // The same run over one sample, untimed: as many allocations means none of them is per sample.
    uint32_t calls1 = mf_alloc_calls;
    float q1[4];
    MF_RUN(mf_samples, 1, MF_SAMPLE_PERIOD, q1);
    calls1 = mf_alloc_calls - calls1;

    if (ticks > 0xFFFFFFFFu) ticks = 0xFFFFFFFFu;  // (printed as 32 bits; 171e9 instructions)
    printf("calibration loop1=1000000 ticks1=%lu loop2=3000000 ticks2=%lu\n", (unsigned long)short_loop,
           (unsigned long)long_loop);
    printf("result filter=%s read=%d samples=%d ticks=%lu stack=%lu allocations=%lu allocated=%lu"
           " allocations_1=%lu heap_kept=%d q=%.9g,%.9g,%.9g,%.9g\n",
           MF_NAME, MF_READ_EVERY, MF_SAMPLE_COUNT, (unsigned long)ticks, (unsigned long)stack, (unsigned long)calls,
           (unsigned long)bytes, (unsigned long)calls1, live, (double)q[0], (double)q[1], (double)q[2], (double)q[3]);
    return 0;
}
#endif

int main(void) {
    initialise_monitor_handles();
#ifdef MF_TRACE
    return run_trace();
#else
    return run_timed();
#endif
}
#endif

// Reset and vector table for QEMU's mps2-an386 (Cortex-M4F), from shared/recipes/embedded-cortex-m4,
// plus what scripts/embedded measures: the stack is painted at reset and again before the run to
// measure (driver.c scans it for the high-water mark), SysTick wraps are counted (so a run longer
// than 2^24 ticks is still timed), and every allocation the Embedded Swift runtime asks for
// (posix_memalign) is counted.
#include <errno.h>
#include <malloc.h>
#include <stdint.h>

#define STACK_PAINT 0xC5C5C5C5u

extern uint32_t _estack, _sstack, _sidata, _sdata, _edata, _sbss, _ebss;
extern int main(void);
extern void exit(int);
extern void __libc_init_array(void);

volatile uint32_t mf_systick_wraps;
uint32_t mf_alloc_calls, mf_alloc_bytes;

void Reset_Handler(void) {
    uint32_t *s = &_sidata, *d = &_sdata;
    while (d < &_edata) *d++ = *s++;
    for (d = &_sbss; d < &_ebss;) *d++ = 0;
    // Paint the stack below this frame, 64 bytes clear of the stack pointer (volatile: no memset
    // call, whose own frame would lie in the painted area).
    volatile uint32_t *sp, *v;
    __asm volatile("mov %0, sp" : "=r"(sp));
    for (v = &_sstack; v < sp - 16;) *v++ = STACK_PAINT;
    *(volatile uint32_t *)0xE000ED88 |= (0xFu << 20);  // CPACR: full access to CP10 and CP11 (the FPU)
    __asm volatile("dsb; isb");
    __libc_init_array();
    exit(main());
}

// Paints the free stack again, below the caller's frame (called right before the run to measure).
__attribute__((noinline)) void mf_stack_paint(void) {
    volatile uint32_t *sp, *v;
    __asm volatile("mov %0, sp" : "=r"(sp));
    for (v = &_sstack; v < sp - 16;) *v++ = STACK_PAINT;
}

// Bytes of the stack used since the last painting: from the top down to the deepest word that is
// no longer paint.
uint32_t mf_stack_high_water(void) {
    uint32_t *p = &_sstack;
    while (p < &_estack && *p == STACK_PAINT) p++;
    return (uint32_t)((uintptr_t)&_estack - (uintptr_t)p);
}

void SysTick_Handler(void) { mf_systick_wraps++; }
void Default_Handler(void) { for (;;); }

__attribute__((section(".isr_vector"))) const void *vectors[16] = {
    &_estack, Reset_Handler, Default_Handler, Default_Handler, Default_Handler, Default_Handler,
    Default_Handler, 0, 0, 0, 0, Default_Handler, Default_Handler, 0, Default_Handler, SysTick_Handler,
};

int posix_memalign(void **p, unsigned int a, unsigned int n) {
    mf_alloc_calls++;
    mf_alloc_bytes += n;
    *p = memalign(a < 4 ? 4 : a, n);
    return *p ? 0 : ENOMEM;
}

void _init(void) {}
void _fini(void) {}

/* The run-time probe of the CPU's extensions, once per process: the
 * vector code asks cpu_has_avx2 (simd.h) per call, which then costs one
 * load. Threads that race on the first call store the same word. */
#include "simd.h"

unsigned adexp_cpu_flags;

unsigned adexp_cpu_probe(void)
{
    unsigned f = CPU_PROBED;
#if SIMD_AVX2
    __builtin_cpu_init();      /* may run before the constructors that do it */
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
        __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt"))
        f |= CPU_AVX2;
    __atomic_store_n(&adexp_cpu_flags, f, __ATOMIC_RELAXED);
#else
    adexp_cpu_flags = f;
#endif
    return f;
}

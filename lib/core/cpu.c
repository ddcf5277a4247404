/* The run-time probe of the CPU's extensions, once per process: the
 * vector code asks cpu_has_avx2 (simd.h) per call, which then costs one
 * load. Threads that race on the first call store the same word.
 *
 * glibc (2.33 on) has read the CPU as its loader started: its answer is
 * asked, where libgcc's __builtin_cpu_supports would pull in libgcc's CPU
 * model, whose constructor runs a score of cpuid instructions in every
 * process, each a trap to the hypervisor on a virtual machine (a tenth of
 * an empty run's time, measured). Without glibc's header, libgcc's. */
#include "adexp.h"
#include "simd.h"

#if SIMD_AVX2 && defined(__has_include)
#if __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h>
#define GLIBC_CPU_FEATURES 1
#endif
#endif

unsigned adexp_cpu_flags;

#if SIMD_AVX2
/* Whether the CPU has every extension of AVX2_TARGET and the OS saves the
 * YMM registers ("active" in glibc's words). */
static int has_avx2_target(void)
{
#ifdef GLIBC_CPU_FEATURES
    return CPU_FEATURE_ACTIVE(AVX2) && CPU_FEATURE_ACTIVE(BMI1) && CPU_FEATURE_ACTIVE(BMI2) &&
           CPU_FEATURE_ACTIVE(POPCNT);
#else
    __builtin_cpu_init();      /* may run before the constructors that do it */
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
           __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
#endif
}

/* Whether it has AVX512_TARGET's extensions too (and the OS saves the ZMM
 * and mask registers). */
static int has_avx512_target(void)
{
#ifdef GLIBC_CPU_FEATURES
    return CPU_FEATURE_ACTIVE(AVX512F) && CPU_FEATURE_ACTIVE(AVX512BW);
#else
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
#endif
}
#endif

unsigned adexp_cpu_probe(void)
{
    unsigned f = CPU_PROBED;
#if SIMD_AVX2
    if (has_avx2_target())
        f |= CPU_AVX2 | (has_avx512_target() ? CPU_AVX512 : 0);
#endif
    __atomic_store_n(&adexp_cpu_flags, f, __ATOMIC_RELAXED);
    return f;
}

const char *adexp_vector_code(void)
{
    if (cpu_has_avx512())
        return "avx2+avx512bw";
    return cpu_has_avx2() ? "avx2" : SIMD_SSE2 ? "sse2" : "none";
}

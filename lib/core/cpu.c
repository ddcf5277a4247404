/* The run-time probe of the CPU's extensions, once per process: the
 * vector code asks cpu_has_avx2 (simd.h) per call, which then costs one
 * load. Threads that race on the first call store the same word.
 *
 * Not by __builtin_cpu_supports: that pulls in libgcc's CPU model, whose
 * constructor runs a score of cpuid instructions in every process, each a
 * trap to the hypervisor on a virtual machine (a tenth of an empty run's
 * time, measured). glibc has read the CPU already, as its loader starts:
 * its answer is asked where the header is there (glibc 2.33 on), and the
 * few cpuid leaves needed are read here elsewhere. */
#include "adexp.h"
#include "simd.h"

#if SIMD_AVX2
#if defined(__has_include)
#if __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h>
#define GLIBC_CPU_FEATURES 1
#endif
#endif
#ifndef GLIBC_CPU_FEATURES
#include <cpuid.h>
#endif
#endif

unsigned adexp_cpu_flags;

#if SIMD_AVX2
/* Whether the CPU has every extension of AVX2_TARGET and the OS saves the
 * YMM registers: "active" in glibc's words; else by cpuid leaves 1 and 7
 * (every CPU with AVX has leaf 7) and XCR0's SSE and AVX bits. */
static int has_avx2_target(void)
{
#ifdef GLIBC_CPU_FEATURES
    return CPU_FEATURE_ACTIVE(AVX2) && CPU_FEATURE_ACTIVE(BMI1) && CPU_FEATURE_ACTIVE(BMI2) &&
           CPU_FEATURE_ACTIVE(POPCNT);
#else
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    const unsigned popcnt = 1u << 23, osxsave = 1u << 27, avx = 1u << 28;
    if ((c & (popcnt | osxsave | avx)) != (popcnt | osxsave | avx))
        return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6)
        return 0;
    __cpuid_count(7, 0, a, b, c, d);
    const unsigned bmi = 1u << 3, avx2 = 1u << 5, bmi2 = 1u << 8;
    return (b & (bmi | avx2 | bmi2)) == (bmi | avx2 | bmi2);
#endif
}
#endif

unsigned adexp_cpu_probe(void)
{
    unsigned f = CPU_PROBED;
#if SIMD_AVX2
    if (has_avx2_target())
        f |= CPU_AVX2;
#endif
    __atomic_store_n(&adexp_cpu_flags, f, __ATOMIC_RELAXED);
    return f;
}

const char *adexp_vector_code(void)
{
    return cpu_has_avx2() ? "avx2" : SIMD_SSE2 ? "sse2" : "none";
}

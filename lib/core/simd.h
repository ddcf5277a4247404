/* The vector instructions every layer uses, in one place: the intrinsics'
 * headers, what the compiler can build (SIMD_SSE2, SIMD_AVX2), the target
 * attribute of the AVX2 code, the run-time probe that picks it
 * (cpu_has_avx2, cpu.c) and the small helpers the vector loops share.
 * SSE2 is always there on x86-64; AVX2 code is compiled for AVX2_TARGET
 * with a function attribute and taken only where the CPU has every
 * extension of it; the same for the AVX-512 code (AVX512_TARGET,
 * cpu_has_avx512). Not installed. */
#ifndef ADEXP_SIMD_H
#define ADEXP_SIMD_H

#if defined(__SSE2__)
#define SIMD_SSE2 1
#include <emmintrin.h>
#else
#define SIMD_SSE2 0
#endif

#if SIMD_SSE2 && defined(__x86_64__) && (defined(__clang__) || __GNUC__ >= 5)
#define SIMD_AVX2 1
#include <immintrin.h>
#else
#define SIMD_AVX2 0
#endif

#if SIMD_SSE2
/* The 16 bytes at p. */
static inline __m128i simd_load16(const void *p)
{
    return _mm_loadu_si128((const __m128i *)p);
}

/* The bytes of v equal to c, as movemask bits. */
static inline unsigned simd_eq16(__m128i v, char c)
{
    return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c)));
}
#endif

/* The CPU's extensions (CPU_*), probed once (cpu.c): 0 until then. */
#define CPU_PROBED 1u
#define CPU_AVX2 2u                /* every extension of AVX2_TARGET */
#define CPU_AVX512 4u              /* and every one of AVX512_TARGET */
extern unsigned adexp_cpu_flags;
unsigned adexp_cpu_probe(void);

#if SIMD_AVX2
/* The extensions of the AVX2 code: every CPU with AVX2 has the others. */
#define AVX2_TARGET "avx2,bmi,bmi2,popcnt"
#define AVX2_INLINE __attribute__((target(AVX2_TARGET), always_inline)) static inline

/* Whether this CPU runs the AVX2_TARGET code: one load where it is
 * asked per field or per call. */
static inline int cpu_has_avx2(void)
{
    unsigned f = __atomic_load_n(&adexp_cpu_flags, __ATOMIC_RELAXED);
    return ((f ? f : adexp_cpu_probe()) & CPU_AVX2) != 0;
}

/* The extensions of the few AVX-512 loops (64 bytes a step, the tests'
 * results in mask registers): AVX2_TARGET's and AVX-512's byte
 * instructions. */
#define AVX512_TARGET AVX2_TARGET ",avx512f,avx512bw"

/* Whether this CPU runs the AVX512_TARGET code (then it runs the AVX2
 * code too). */
static inline int cpu_has_avx512(void)
{
    unsigned f = __atomic_load_n(&adexp_cpu_flags, __ATOMIC_RELAXED);
    return ((f ? f : adexp_cpu_probe()) & CPU_AVX512) != 0;
}

/* The 32 bytes at p. */
AVX2_INLINE __m256i simd_load32(const void *p)
{
    return _mm256_loadu_si256((const __m256i *)p);
}

/* The bytes of v equal to c, as movemask bits. */
AVX2_INLINE unsigned simd_eq32(__m256i v, char c)
{
    return (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(c)));
}
#else
static inline int cpu_has_avx2(void)
{
    return 0;
}

static inline int cpu_has_avx512(void)
{
    return 0;
}
#endif

#endif

/* Batch driver: a NUL byte inside a message is that message's error.
 *
 * The parser keeps a NUL byte as value text; a file holding one is not
 * refused as binary as long as it holds ADEXP messages (see batch_file.c).
 * Each message whose bytes hold a NUL gets a NUL_BYTE error at the first
 * one, with its line and column in the file, so that it is reported and
 * counted failed while the other messages come out as usual. The search
 * for a NUL (batch_find_nul) is also the binary probe of files and streams.
 */
#include <string.h>

#include "batch_internal.h"
#include "simd.h"

#if SIMD_AVX2
/* The unsigned minimum of each byte place over the 256 bytes at p. */
__attribute__((target(AVX2_TARGET))) static inline __m256i min256(const char *p)
{
    __m256i m = simd_load32(p);
    for (int k = 1; k < 8; k++)
        m = _mm256_min_epu8(m, simd_load32(p + 32 * k));
    return m;
}

__attribute__((target(AVX2_TARGET))) static inline int has_zero(__m256i m)
{
    return !_mm256_testz_si256(_mm256_cmpeq_epi8(m, _mm256_setzero_si256()),
                               _mm256_set1_epi8(-1));
}

/* Whether p[0..n), n >= 32, holds a NUL byte: the unsigned minimum of 512
 * bytes at a time (then 256) is compared with zero once, where memchr
 * compares each 32 (a file's probe is most of its worker's time outside
 * the parse). The last block overlaps the one before it. */
__attribute__((target(AVX2_TARGET))) static int has_nul_avx2(const char *p, size_t n)
{
    const char *end = p + n;
    if (n >= 256) {
        for (; end - p >= 512; p += 512)
            if (has_zero(_mm256_min_epu8(min256(p), min256(p + 256))))
                return 1;
        if (end - p >= 256) {
            if (has_zero(min256(p)))
                return 1;
            p += 256;
        }
        return p < end && has_zero(min256(end - 256));
    }
    __m256i m = simd_load32(end - 32);
    for (; end - p > 32; p += 32)
        m = _mm256_min_epu8(m, simd_load32(p));
    return has_zero(m);
}
#endif

const char *batch_find_nul(const char *p, size_t n)
{
#if SIMD_AVX2
    if (n >= 32 && cpu_has_avx2() && !has_nul_avx2(p, n))
        return NULL;
#endif
    return memchr(p, '\0', n);
}

int batch_mark_nul(adexp_arena *arena, lines_cursor *c, const char *in, adexp_msg *m)
{
    const char *nul = batch_find_nul(in + m->offset, m->length);
    if (!nul)
        return 0;
    size_t off = (size_t)(nul - in), at = 0;
    adexp_error *v = adexp_arena_alloc(arena, (m->nerrors + 1) * sizeof *v);
    if (!v)
        return 0;
    while (at < m->nerrors && m->errors[at].offset <= off)
        at++;
    if (m->nerrors) {   /* errors is NULL when there are none */
        memcpy(v, m->errors, at * sizeof *v);
        memcpy(v + at + 1, m->errors + at, (m->nerrors - at) * sizeof *v);
    }
    v[at].code = ADEXP_E_NUL_BYTE;
    v[at].message = adexp_status_message(ADEXP_E_NUL_BYTE);
    v[at].offset = off;
    /* messages come in order of offset: a file is scanned once */
    lines_locate(c, in, m->offset + m->length, off, &v[at].line, &v[at].column);
    m->errors = v;
    m->nerrors++;
    m->nerrors_total++;
    return 1;
}

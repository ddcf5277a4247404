/* The quick fields' pieces (json.c) for CPUs with AVX2, checked at run
 * time: a field's head copied in one 32-byte move, a short value loaded
 * and stored in two moves, and its bytes tested with one byte shuffle,
 * with the three-operand instructions that need no register copies. The
 * same bytes as the SSE2 pieces (json_runs.h); lib/json/json_test.c checks
 * the two writers against each other. Off with ADEXP_JSON_SCALAR or
 * ADEXP_JSON_NO_AVX2. Not installed. */
#ifndef ADEXP_JSON_AVX2_H
#define ADEXP_JSON_AVX2_H

#include "json_runs.h"

#if JSON_STRING_SSE2 && SIMD_AVX2 && !defined(ADEXP_JSON_NO_AVX2)
#define JSON_AVX2 1

/* A head or an opening (json_head: 32 bytes) at o. */
AVX2_INLINE void copy_head_avx2(char *o, const void *h)
{
    _mm256_storeu_si256((__m256i *)(void *)o, _mm256_loadu_si256((const __m256i *)h));
}

/* The lanes of x that end a quick value: not plain (0x21 to 0x7F but '"'
 * and '\\'). A byte is '"' or '\\' if it equals the entry of its low
 * nibble here (the others are control bytes, which end it anyway, and a
 * byte from 0x80 shuffles to 0). */
AVX2_INLINE unsigned not_plain_avx2(__m128i x)
{
    const __m128i esc = _mm_setr_epi8(0, 1, '"', 3, 4, 5, 6, 7, 8, 9, 10, 11, '\\', 13, 14, 15);
    __m128i low = _mm_cmpgt_epi8(_mm_set1_epi8(0x21), x);    /* signed: from 0x80 too */
    __m128i e = _mm_cmpeq_epi8(_mm_shuffle_epi8(esc, x), x);
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(low, e));
}

/* plain_upto16 (json_runs.h), the same answers and the same bytes at o:
 * the value loaded and stored as two halves that overlap (of 8 bytes,
 * sse2_halves; of 4 or 2 here; one byte alone), in the vector's first
 * lanes (own), the others zero and not tested. */
AVX2_INLINE int plain_upto16_avx2(const unsigned char *p, size_t n, char *o)
{
    __m128i x;
    unsigned own, h;           /* own: the lanes of the value's bytes */
    if (n >= 8) {
        if (n > 16)
            return -1;
        x = sse2_halves(p, n, o, &h);
        own = 0xFFFF;
    } else if (n >= 4) {       /* sse2_halves, with one insert for the unpack */
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        memcpy(o, &a, 4);
        memcpy(o + n - 4, &b, 4);
        x = _mm_insert_epi32(_mm_cvtsi32_si128((int)a), (int)b, 1);
        own = 0xFF;
    } else if (n >= 2) {
        uint16_t a, b;
        memcpy(&a, p, 2);
        memcpy(&b, p + n - 2, 2);
        memcpy(o, &a, 2);
        memcpy(o + n - 2, &b, 2);
        x = _mm_cvtsi32_si128((int)(a | (unsigned)b << 16));
        own = 0xF;
    } else {
        if (n == 0)
            return 1;
        o[0] = (char)p[0];
        x = _mm_cvtsi32_si128(p[0]);
        own = 0x1;
    }
    unsigned stop = not_plain_avx2(x) & own;
    if (!stop)
        return 1;
    /* its spaces, as plain_upto16 takes them: ends are the value's first
     * and last lanes, pairs the lanes whose right neighbour is the byte
     * after them in the value (not the seam between two halves); loaded
     * from a table here, so that no register is set for them on the way
     * of the plain values */
    static const uint16_t ends[17] = {0, 0x1, 0x9, 0x9, 0x81, 0x81, 0x81, 0x81, 0x8001, 0x8001,
                                      0x8001, 0x8001, 0x8001, 0x8001, 0x8001, 0x8001, 0x8001};
    static const uint16_t pairs[17] = {0, 0, 0x5, 0x5, 0x77, 0x77, 0x77, 0x77, 0x7F7F, 0x7F7F,
                                       0x7F7F, 0x7F7F, 0x7F7F, 0x7F7F, 0x7F7F, 0x7F7F, 0x7FFF};
    unsigned sp = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')));
    return ((stop & ~sp) | (sp & ((stop >> 1 & pairs[n]) | ends[n]))) == 0;
}

/* sse2_stops (json_runs.h) for 32 bytes, as a 32-bit mask. */
AVX2_INLINE unsigned avx2_stops(__m256i x, unsigned next, int fold)
{
    const __m256i esc = _mm256_setr_epi8(0, 1, '"', 3, 4, 5, 6, 7, 8, 9, 10, 11, '\\', 13, 14,
                                         15, 0, 1, '"', 3, 4, 5, 6, 7, 8, 9, 10, 11, '\\', 13,
                                         14, 15);
    __m256i below = _mm256_cmpgt_epi8(_mm256_set1_epi8(0x21), x);   /* signed: from 0x80 too */
    __m256i e = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(esc, x), x);   /* '"' and '\\' */
    unsigned sp = (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, _mm256_set1_epi8(' ')));
    unsigned np = (unsigned)_mm256_movemask_epi8(_mm256_or_si256(below, e));
    unsigned stop = np & ~sp;
    if (fold)
        stop |= sp & ((np >> 1) | next << 31);
    if (fold & RUN_LEAD)
        stop |= sp & 1;
    return stop;
}

/* run_sse2 32 bytes at a time: for the long values (routes, texts).
 * Below 32 bytes, run_sse2. Stores nothing past p[n)'s place at o but
 * what run_sse2 does. */
AVX2_INLINE size_t run_avx2(const unsigned char *p, size_t n, char *o, int fold)
{
    if (n < 32)
        return run_sse2(p, n, o, fold);
    __m256i x;
    unsigned m;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        x = _mm256_loadu_si256((const __m256i *)(const void *)(p + i));
        _mm256_storeu_si256((__m256i *)(void *)(o + i), x);
        if ((m = avx2_stops(x, not_plain_at(p, i + 32, n), fold)))
            return i + (size_t)__builtin_ctz(m);
    }
    if (i == n)
        return n;
    /* the last n - i bytes: the 32 that end at n, their first ones done */
    x = _mm256_loadu_si256((const __m256i *)(const void *)(p + n - 32));
    _mm256_storeu_si256((__m256i *)(void *)(o + n - 32), x);
    m = avx2_stops(x, 1, fold) >> (i - (n - 32));
    return m ? i + (size_t)__builtin_ctz(m) : n;
}

/* json_string with run_avx2 (json_string.c), and its rest. */
char *json_string_avx2(char *o, adexp_slice s, int fold);
rest_fn json_string_rest_avx2;
#else
#define JSON_AVX2 0
#endif

#endif

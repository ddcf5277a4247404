/* Line breaks: LF, CRLF and a lone CR each end a line. Counted over ranges
 * of a buffer by SIMD where the machine has it, the start of the line that
 * holds a byte, and from the two the line and column of a byte, for parse
 * errors, validation findings, NUL bytes and the batch driver's pieces. */
#include <stdint.h>
#include <stdlib.h>

#include "lines.h"
#include "simd.h"

/* Whether the CR at in[i] ends a line: no LF after it. */
static int lone_cr(const char *in, size_t len, size_t i)
{
    return i + 1 == len || in[i + 1] != '\n';
}

#if SIMD_SSE2
/* The CRs that no LF follows in in[j..j+16). */
static uint64_t lone_crs16(const char *in, size_t len, size_t j)
{
    __m128i v = simd_load16(in + j);
    unsigned mc = simd_eq16(v, '\r'), ml = simd_eq16(v, '\n');
    uint64_t n = (mc >> 15) && lone_cr(in, len, j + 15);
    for (unsigned lone = mc & ~(ml >> 1) & 0x7fffu; lone; lone &= lone - 1)
        n++;
    return n;
}
#endif

#if SIMD_AVX2
/* The line breaks in in[*at..to), 128 bytes a turn while they last (*at
 * moved on past them), then 32 a turn and the last ones in one masked
 * load (*at = to, unless there is a CR among them), where the machine has
 * AVX2 (a finding's line is
 * counted from the buffer's start: half the instructions of the 64-byte
 * SSE2 turns, whose loads cannot be folded into the compares). The LFs
 * summed in byte lanes (at most 4 a turn, 63 turns, then added up); the
 * CRs looked at only where there is one, 16 bytes at a time. */
__attribute__((target(AVX2_TARGET))) static uint64_t count_lines_avx2(const char *in, size_t len,
                                                               size_t *at, size_t to)
{
    uint64_t n = 0;
    size_t i = *at;
    const __m256i lf = _mm256_set1_epi8('\n'), cr = _mm256_set1_epi8('\r');
    while (i + 128 <= to) {
        size_t stop = to - i > 128 * 63 ? i + 128 * 63 : to;
        __m256i acc = _mm256_setzero_si256();
        for (; i + 128 <= stop; i += 128) {
            const __m256i *p = (const __m256i *)(const void *)(in + i);
            __m256i v0 = _mm256_loadu_si256(p), v1 = _mm256_loadu_si256(p + 1);
            __m256i v2 = _mm256_loadu_si256(p + 2), v3 = _mm256_loadu_si256(p + 3);
            __m256i l01 = _mm256_add_epi8(_mm256_cmpeq_epi8(v0, lf), _mm256_cmpeq_epi8(v1, lf));
            __m256i l23 = _mm256_add_epi8(_mm256_cmpeq_epi8(v2, lf), _mm256_cmpeq_epi8(v3, lf));
            acc = _mm256_sub_epi8(acc, _mm256_add_epi8(l01, l23));
            __m256i c = _mm256_or_si256(
                _mm256_or_si256(_mm256_cmpeq_epi8(v0, cr), _mm256_cmpeq_epi8(v1, cr)),
                _mm256_or_si256(_mm256_cmpeq_epi8(v2, cr), _mm256_cmpeq_epi8(v3, cr)));
            if (!_mm256_testz_si256(c, c))
                for (size_t j = i; j < i + 128; j += 16)
                    n += lone_crs16(in, len, j);
        }
        __m256i sum = _mm256_sad_epu8(acc, _mm256_setzero_si256());
        __m128i s2 = _mm_add_epi64(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        n += (uint64_t)_mm_cvtsi128_si64(s2) + (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(s2, s2));
    }
    for (; i + 32 <= to; i += 32) {        /* the rest, 32 bytes a turn */
        __m256i v = simd_load32(in + i);
        unsigned ml = simd_eq32(v, '\n');
        n += (unsigned)__builtin_popcount(ml);
        if (simd_eq32(v, '\r'))
            n += lone_crs16(in, len, i) + lone_crs16(in, len, i + 16);
    }
    if (i < to) {                          /* the last bytes: the 32 up to to */
        __m256i v = simd_load32(in + to - 32);
        unsigned keep = 0xFFFFFFFFu << (32 - (to - i));
        unsigned ml = simd_eq32(v, '\n') & keep;
        if (!(simd_eq32(v, '\r') & keep)) {
            n += (unsigned)__builtin_popcount(ml);
            i = to;
        }                                  /* else a CR: left to the caller's loops */
    }
    *at = i;
    return n;
}
#endif

uint64_t lines_count(const char *in, size_t len, size_t from, size_t to)
{
    uint64_t n = 0;
    size_t i = from;
#if SIMD_AVX2
    if (to - from >= 128 && cpu_has_avx2()) {
        n = count_lines_avx2(in, len, &i, to);
        if (i == to)
            return n;
    }
#endif
#if SIMD_SSE2
    /* 64 bytes at a time: the LFs summed in byte lanes (at most 4 a turn, 63
     * turns, then added up; no popcount, a libgcc call without -mpopcnt), the
     * CRs that no LF follows, looked for only where there is a CR. */
    const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'), zero = _mm_setzero_si128();
    while (i + 64 <= to) {
        size_t stop = to - i > 64 * 63 ? i + 64 * 63 : to;
        __m128i acc = zero;
        for (; i + 64 <= stop; i += 64) {
            const __m128i *p = (const __m128i *)(const void *)(in + i);
            __m128i v0 = _mm_loadu_si128(p), v1 = _mm_loadu_si128(p + 1);
            __m128i v2 = _mm_loadu_si128(p + 2), v3 = _mm_loadu_si128(p + 3);
            __m128i l01 = _mm_add_epi8(_mm_cmpeq_epi8(v0, lf), _mm_cmpeq_epi8(v1, lf));
            __m128i l23 = _mm_add_epi8(_mm_cmpeq_epi8(v2, lf), _mm_cmpeq_epi8(v3, lf));
            acc = _mm_sub_epi8(acc, _mm_add_epi8(l01, l23));
            __m128i c = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v0, cr), _mm_cmpeq_epi8(v1, cr)),
                                     _mm_or_si128(_mm_cmpeq_epi8(v2, cr), _mm_cmpeq_epi8(v3, cr)));
            if (_mm_movemask_epi8(c))
                n += lone_crs16(in, len, i) + lone_crs16(in, len, i + 16) +
                     lone_crs16(in, len, i + 32) + lone_crs16(in, len, i + 48);
        }
        __m128i sum = _mm_sad_epu8(acc, zero);
        n += (uint64_t)_mm_cvtsi128_si32(sum) + (uint64_t)_mm_cvtsi128_si32(_mm_srli_si128(sum, 8));
    }
    for (; i + 16 <= to; i += 16) {        /* the rest, 16 bytes a turn */
        __m128i v = simd_load16(in + i);
        unsigned ml = simd_eq16(v, '\n');
        for (; ml; ml &= ml - 1)
            n++;
        if (simd_eq16(v, '\r'))
            n += lone_crs16(in, len, i);
    }
    if (i < to && to >= 16) {              /* the last bytes: the 16 up to to */
        __m128i v = simd_load16(in + to - 16);
        unsigned keep = 0xFFFFu << (16 - (to - i));
        unsigned ml = simd_eq16(v, '\n') & keep;
        if (!(simd_eq16(v, '\r') & keep)) {
            for (; ml; ml &= ml - 1)
                n++;
            return n;
        }
    }
#endif
    for (; i < to; i++)
        n += in[i] == '\n' || (in[i] == '\r' && lone_cr(in, len, i));
    return n;
}

static size_t line_start_byte(const char *in, size_t len, size_t at);

size_t line_start(const char *in, size_t len, size_t at)
{
    size_t s = line_start_byte(in, len, at), bom = lines_bom(in, len);
    return s < bom && at >= bom ? bom : s;
}

/* The byte after the line end before in[at], or 0. */
static size_t line_start_byte(const char *in, size_t len, size_t at)
{
    size_t i = at;
#if SIMD_SSE2
    /* 16 bytes a turn back to the last LF or CR before i: an LF ends a
     * line; a CR is left to the byte loop (it may be a CRLF's) */
    while (i >= 16) {
        __m128i v = simd_load16(in + i - 16);
        unsigned ml = simd_eq16(v, '\n');
        unsigned mc = simd_eq16(v, '\r');
        if (ml | mc) {
            unsigned top = 31u - (unsigned)__builtin_clz(ml | mc);
            if (!(mc >> top & 1))
                return i - 16 + top + 1;
            i = i - 16 + top + 1;          /* the CR: the byte loop from it */
            break;
        }
        i -= 16;
    }
#endif
    for (; i > 0; i--) {
        char c = in[i - 1];
        if (c == '\n' || (c == '\r' && (i == len || in[i] != '\n')))
            return i;
    }
    return 0;
}

void lines_locate(lines_cursor *c, const char *in, size_t len, size_t off, uint32_t *line,
                  uint32_t *column)
{
    if (off >= c->off) {
        uint64_t ends = lines_count(in, len, c->off, off);
        c->line += (uint32_t)ends;
        if (ends)
            c->bol = line_start(in, len, off);
    } else if (off < c->bol) {
        c->line -= (uint32_t)lines_count(in, len, off, c->bol);
        c->bol = line_start(in, len, off);
        if (c->bol < c->start)
            c->bol = c->start;
    }
    c->off = off;
    *line = c->line;
    *column = (uint32_t)(off - c->bol + 1);
}

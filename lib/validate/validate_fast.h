/* The specialised matchers of validation's fast path: the most frequent
 * value classes (gen_validate.py's fast_kind: runs of one class; times,
 * dates and date-times, their ranges compared as two-digit numbers or, for
 * VK_DT12, as ASCII pairs; flight levels; coordinates; ATSRT's and DCT's
 * words; texts of any length) tested a word (or an SSE2 vector) at a time
 * instead of a byte a DFA step. Each accepts exactly what its rule's DFA
 * accepts (validate_test.c: fast_paths_agree_with_dfa, dt12_sweep,
 * words_sweep, chars_sweep); a value any of them rejects goes to the
 * matcher that says why. Values are read only inside [s, s + n): two
 * overlapping loads when n is not a word (but for a route point the parser
 * read whole, vf_point_bytes_n). */
#ifndef ADEXP_VALIDATE_FAST_H
#define ADEXP_VALIDATE_FAST_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "simd.h"
#include "validate_table.h"

#define VF_ONES 0x0101010101010101ull
#define VF_HIGH 0x8080808080808080ull
/* the matchers are inlined where the walk calls them: their kind's constants fold */
#define VF_INLINE static inline __attribute__((always_inline))

VF_INLINE uint64_t vf_load8(const char *s)
{
    uint64_t x;
    memcpy(&x, s, 8);
    return x;
}

VF_INLINE uint64_t vf_load4(const char *s)
{
    uint32_t x;
    memcpy(&x, s, 4);
    return x;
}

VF_INLINE uint64_t vf_load2(const char *s)
{
    uint16_t x;
    memcpy(&x, s, 2);
    return x;
}

/* s[0..n), 1 <= n <= 8, as a word each of whose bytes is one of s's. */
VF_INLINE uint64_t vf_word(const char *s, size_t n)
{
    if (n >= 4)
        return vf_load4(s) | vf_load4(s + n - 4) << 32;
    if (n >= 2) {
        uint64_t x = vf_load2(s) | vf_load2(s + n - 2) << 16;
        return x | x << 32;
    }
    return (unsigned char)s[0] * VF_ONES;
}

/* s[0..n), 1 <= n <= 16, as two words each of whose bytes is one of s's. */
VF_INLINE void vf_span(const char *s, size_t n, uint64_t *a, uint64_t *b)
{
    if (n >= 8) {
        *a = vf_load8(s);
        *b = vf_load8(s + n - 8);
    } else {
        *a = *b = vf_word(s, n);
    }
}

/* Bit 7 of each byte of x that is below 0x80 and outside lo..hi
 * (0x30 <= lo <= hi < 0x80: no carry leaves such a byte; the other bytes
 * give any bit, and the callers reject x for them anyway). */
VF_INLINE uint64_t vf_outside(uint64_t x, unsigned lo, unsigned hi)
{
    uint64_t ge = x + (0x80u - lo) * VF_ONES;     /* bit 7: x >= lo */
    uint64_t gt = x + (0x7Fu - hi) * VF_ONES;     /* bit 7: x > hi */
    return (~ge | gt) & VF_HIGH;
}

/* Bit 7 of each byte of x that is not of the class (nonzero: reject). */
VF_INLINE uint64_t vf_not_digit(uint64_t x)
{
    return (x | vf_outside(x, '0', '9')) & VF_HIGH;
}

VF_INLINE uint64_t vf_not_alpha(uint64_t x)
{
    return (x | vf_outside(x, 'A', 'Z')) & VF_HIGH;
}

VF_INLINE uint64_t vf_not_alnum(uint64_t x)
{
    return (x | (vf_outside(x, 'A', 'Z') & vf_outside(x, '0', '9'))) & VF_HIGH;
}

/* lo to hi bytes (wb's VR_RUN), 1 <= lo, hi <= 16, all of not_class's
 * class. */
VF_INLINE int vf_run(uint32_t wb, const char *s, size_t n,
                                                       uint64_t (*not_class)(uint64_t))
{
    size_t lo = (wb >> VR_PARAM_SHIFT) & 0xFF, hi = wb >> 24;
    if (n < lo || n > hi)
        return 0;
    if (n <= 8)
        return !not_class(n == 8 ? vf_load8(s) : vf_word(s, n));
    return !(not_class(vf_load8(s)) | not_class(vf_load8(s + n - 8)));
}

/* Bit 7 of each byte of x that may not be LIM_CHAR: all but A-Z, 0-9,
 * space and '/', the bytes of most texts (the others are looked up). */
VF_INLINE uint64_t vf_not_usual_text(uint64_t x)
{
    uint64_t sp = x ^ (' ' * VF_ONES), sl = x ^ ('/' * VF_ONES);
    /* bit 7 of a byte that is zero, exactly (no borrow between bytes) */
    uint64_t is_sp = ~(((sp & ~VF_HIGH) + ~VF_HIGH) | sp) & VF_HIGH;
    uint64_t is_sl = ~(((sl & ~VF_HIGH) + ~VF_HIGH) | sl) & VF_HIGH;
    return (x | (vf_outside(x, 'A', 'Z') & vf_outside(x, '0', '9') & ~is_sp & ~is_sl)) &
           VF_HIGH;
}

#if SIMD_SSE2
/* The bytes of x from lo to lo + n - 1 (0xFF each): x - lo moved so that
 * lo is the lowest signed byte, one signed compare. */
#define VF_IN(x, lo, n)                                                                    \
    _mm_cmplt_epi8(_mm_add_epi8((x), _mm_set1_epi8((char)(-128 - (lo)))),                  \
                   _mm_set1_epi8((char)(-128 + (n))))

/* Whether the 16 bytes of x are all of the bytes of most texts
 * (vf_not_usual_text's: A-Z, 0-9, space and '/'). */
VF_INLINE int vf_usual_bytes(__m128i x)
{
    __m128i ok = _mm_or_si128(_mm_or_si128(VF_IN(x, 'A', 26), VF_IN(x, '/', 11)),   /* '/' 0-9 */
                              _mm_cmpeq_epi8(x, _mm_set1_epi8(' ')));
    return _mm_movemask_epi8(ok) == 0xFFFF;
}
#endif

/* Whether the n bytes at s are all of LIM_CHAR (the ADEXP character set
 * but '-'): eight at a time, a word with any other byte than the usual
 * ones by the table. */
VF_INLINE int vf_lim_chars(const char *s, size_t n)
{
    size_t i = 0;
#if SIMD_SSE2
    /* sixteen usual bytes a step, the last step's overlapping the one before */
    for (; n >= 16; i += 16) {
        const char *p = i + 16 <= n ? s + i : s + n - 16;
        if (!vf_usual_bytes(_mm_loadu_si128((const __m128i *)(const void *)p)))
            for (size_t k = 0; k < 16; k++)
                if (!vlim_char[(unsigned char)p[k]])
                    return 0;
        if (i + 16 >= n)
            return 1;
    }
#endif
    for (; i + 8 <= n; i += 8)
        if (vf_not_usual_text(vf_load8(s + i)))
            for (size_t k = i; k < i + 8; k++)
                if (!vlim_char[(unsigned char)s[k]])
                    return 0;
    unsigned ok = 1;
    for (; i < n; i++)
        ok &= vlim_char[(unsigned char)s[i]];
    return (int)ok;
}

/* vf_lim_chars for n of more than 32, out of line (validate_match.c): the
 * long texts, a ROUTE's, with AVX2 where the CPU has it. */
int vwalk_long_text(const char *s, size_t n);

/* Any text of LIM_CHAR of 1 (0 with VR_TEXT_EMPTY) to max bytes (VK_TEXT:
 * max is wb's parameter, up to 0xFFFF, no bound). */
VF_INLINE int vf_text(uint32_t wb, const char *s, size_t n)
{
    if (n == 0)
        return (wb & VR_TEXT_EMPTY) != 0;
    if (n - 1 >= (wb >> VR_PARAM_SHIFT))
        return 0;
    return n > 32 ? vwalk_long_text(s, n) : vf_lim_chars(s, n);
}

/* Whether byte c is of LIM_CHAR or, with dash, of CHARACTER (LIM_CHAR and
 * '-'). */
VF_INLINE unsigned vf_char_of(unsigned char c, int dash)
{
    return vlim_char[c] | (unsigned)(dash & (c == '-'));
}

/* Whether the n bytes at s are all of LIM_CHAR or, with dash, of
 * CHARACTER, by the table. */
VF_INLINE int vf_class_bytes(const char *s, size_t n, int dash)
{
    unsigned ok = 1;
    for (size_t i = 0; i < n; i++)
        ok &= vf_char_of((unsigned char)s[i], dash);
    return (int)ok;
}

#if SIMD_SSE2
/* Whether the 16 bytes of x are all of the usual bytes of long texts (A-Z,
 * '+' to ':' (digits, '/', '.', ',', '-'), '\'' to ')', space, LF), none
 * of them equal to the bytes of no ('-' where '-' is not of the class,
 * else 0: a NUL is of neither class). */
VF_INLINE int vf_long_text_bytes(__m128i x, __m128i no)
{
    __m128i ok = _mm_or_si128(_mm_or_si128(VF_IN(x, 'A', 26), VF_IN(x, '+', 16)),
                              _mm_or_si128(VF_IN(x, '\'', 3), _mm_cmpeq_epi8(x, _mm_set1_epi8(' '))));
    ok = _mm_or_si128(ok, _mm_cmpeq_epi8(x, _mm_set1_epi8('\n')));
    return _mm_movemask_epi8(_mm_andnot_si128(_mm_cmpeq_epi8(x, no), ok)) == 0xFFFF;
}

/* vf_class_bytes for n >= 8: sixteen bytes a step (the last step's
 * overlapping the one before; below sixteen bytes, two loads that
 * overlap), sixteen with other bytes than the usual ones by the table. */
VF_INLINE int vf_class_chars(const char *s, size_t n, int dash)
{
    const __m128i no = dash ? _mm_setzero_si128() : _mm_set1_epi8('-');
    if (n < 16) {
        __m128i x = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)s),
                                       _mm_loadl_epi64((const __m128i *)(const void *)(s + n - 8)));
        return vf_long_text_bytes(x, no) || vf_class_bytes(s, n, dash);
    }
    for (size_t i = 0;; i += 16) {
        const char *p = i + 16 <= n ? s + i : s + n - 16;
        if (!vf_long_text_bytes(_mm_loadu_si128((const __m128i *)(const void *)p), no) &&
            !vf_class_bytes(p, 16, dash))
            return 0;
        if (i + 16 >= n)
            return 1;
    }
}
#else
#define vf_class_chars vf_class_bytes
#endif

/* VK_CHARS: any text of LIM_CHAR, with VR_CHARS_DASH of CHARACTER, of at
 * least one byte (with VR_TEXT_EMPTY, of any length). */
VF_INLINE int vf_chars(uint32_t wb, const char *s, size_t n)
{
    int dash = (wb & VR_CHARS_DASH) != 0;
    if (n < 8)
        return (n || (wb & VR_TEXT_EMPTY)) && vf_class_bytes(s, n, dash);
    return vf_class_chars(s, n, dash);
}

#if SIMD_SSE2
/* Whether s[0..n), 1 <= n <= 16, is all of the bytes of most texts
 * (vf_not_usual_text's: A-Z, 0-9, space and '/'), in one vector; 0: the
 * table is to say. */
VF_INLINE int vf_usual_text16(const char *s, size_t n)
{
    __m128i x;
    if (n >= 8) {                      /* two loads that overlap, no word moved */
        x = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)s),
                               _mm_loadl_epi64((const __m128i *)(const void *)(s + n - 8)));
    } else {
        x = _mm_cvtsi64_si128((long long)vf_word(s, n));
        x = _mm_unpacklo_epi64(x, x);
    }
    return vf_usual_bytes(x);
}
#else
VF_INLINE int vf_usual_text16(const char *s, size_t n)
{
    uint64_t a, b;
    vf_span(s, n, &a, &b);
    return !(vf_not_usual_text(a) | vf_not_usual_text(b));
}
#endif

/* Whether the eight bytes at a and the eight at b are all of the bytes of
 * most texts (two texts of eight bytes, an ADDR's FACs, in one vector). */
VF_INLINE int vf_usual_pair8(const char *a, const char *b)
{
#if SIMD_SSE2
    return vf_usual_bytes(_mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)a),
                                             _mm_loadl_epi64((const __m128i *)(const void *)b)));
#else
    return !(vf_not_usual_text(vf_load8(a)) | vf_not_usual_text(vf_load8(b)));
#endif
}

/* A text of 1 to 16 usual bytes (vf_usual_text16) that wb's VK_TEXT rule
 * takes: 1; 0 means vf_text is to say. */
VF_INLINE int vf_usual_text(uint32_t wb, const char *s, size_t n)
{
    return n - 1 < 16 && n - 1 < (wb >> VR_PARAM_SHIFT) && vf_usual_text16(s, n);
}

/* Two-digit numbers: each 16-bit lane of the digits d (one a byte, the
 * tens first) as its value. */
VF_INLINE uint64_t vf_pairs(uint64_t d)
{
    return (d & 0x00FF00FF00FF00FFull) * 10 + ((d >> 8) & 0x00FF00FF00FF00FFull);
}

/* The n digits of s (n = 4, 6, 10 or 12) as two-digit numbers: pair i in
 * the 16-bit lane i of p[i / 4]. 0 if n is another length or a byte is not
 * a digit. */
VF_INLINE int vf_digit_pairs(const char *s, size_t n,
                                                               size_t want, uint64_t p[2])
{
    const uint64_t zeros = '0' * VF_ONES;
    uint64_t a, b = zeros;
    if (n != want)
        return 0;
    if (n == 4)
        a = vf_load4(s) | zeros << 32;
    else if (n == 6)
        a = vf_load4(s) | vf_load2(s + 4) << 32 | zeros << 48;
    else if (n == 10)
        a = vf_load8(s), b = vf_load2(s + 8) | zeros << 16;
    else
        a = vf_load8(s), b = vf_load4(s + 8) | zeros << 32;
    if (vf_not_digit(a) | vf_not_digit(b))
        return 0;
    p[0] = vf_pairs(a - zeros);
    p[1] = vf_pairs(b - zeros);
    return 1;
}

VF_INLINE unsigned vf_lane(const uint64_t p[2], unsigned i)
{
    return (unsigned)(p[i / 4] >> (16 * (i % 4))) & 0xFFFF;
}

/* A day that exists in month mm of two-digit year yy (years as
 * adexp_decode_date reads them: 00-69 are 20xx, so a year is leap when its
 * two digits are a multiple of 4). */
VF_INLINE int vf_day_exists(unsigned yy, unsigned mm, unsigned dd)
{
    static const uint8_t mdays[16] = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (mm - 1u >= 12)
        return 0;
    return dd - 1u < mdays[mm] || (mm == 2 && dd == 29 && yy % 4 == 0);
}

/* HHMM: hours 00-23, minutes 00-59. */
VF_INLINE int vf_hhmm(const char *s, size_t n)
{
    uint64_t p[2];
    return vf_digit_pairs(s, n, 4, p) && vf_lane(p, 0) <= 23 && vf_lane(p, 1) <= 59;
}

/* An elapsed HHMM: any hours, minutes 00-59. */
VF_INLINE int vf_elapsed(const char *s, size_t n)
{
    return n == 4 && !vf_not_digit(vf_load4(s) | 0x3030303000000000ull) && s[2] <= '5';
}

/* DDHHMM: a day 01-31, then HHMM. */
VF_INLINE int vf_ddhhmm(const char *s, size_t n)
{
    uint64_t p[2];
    return vf_digit_pairs(s, n, 6, p) && vf_lane(p, 0) - 1u < 31 && vf_lane(p, 1) <= 23 &&
           vf_lane(p, 2) <= 59;
}

/* YYMMDD: a day that exists. */
VF_INLINE int vf_date(const char *s, size_t n)
{
    uint64_t p[2];
    return vf_digit_pairs(s, n, 6, p) && vf_day_exists(vf_lane(p, 0), vf_lane(p, 1), vf_lane(p, 2));
}

/* YYMMDDHHMM (VK_DT10; VK_DT12 is vf_dt12's). */
VF_INLINE int vf_dt10(const char *s, size_t n)
{
    uint64_t p[2];
    return vf_digit_pairs(s, n, 10, p) && vf_lane(p, 3) <= 23 && vf_lane(p, 4) <= 59 &&
           vf_day_exists(vf_lane(p, 0), vf_lane(p, 1), vf_lane(p, 2));
}

/* Two-digit numbers compared as their ASCII bytes: a word whose 16-bit
 * lanes each hold one pair of digits, the tens in the high byte (the bytes
 * of a value swapped), is ordered as the numbers are. Bit 15 of each lane
 * whose pair is outside lo..hi, lo and hi the lanes' bounds as such pairs
 * (the lanes are at most "99", 0x3939: no lane carries into the next). */
#define VF_LANES(a, b, c, d) \
    ((uint64_t)(a) | (uint64_t)(b) << 16 | (uint64_t)(c) << 32 | (uint64_t)(d) << 48)
#define VF_PAIR(s) ((unsigned)((s)[0]) << 8 | (unsigned)((s)[1]))
#define VF_ANY_LO 0u                   /* a lane with no bound */
#define VF_ANY_HI 0x7FFFu
VF_INLINE uint64_t vf_lanes_outside(uint64_t x, uint64_t lo, uint64_t hi)
{
    uint64_t ge = x + (VF_LANES(0x8000, 0x8000, 0x8000, 0x8000) - lo);  /* bit 15: x >= lo */
    uint64_t gt = x + (VF_LANES(0x7FFF, 0x7FFF, 0x7FFF, 0x7FFF) - hi);  /* bit 15: x > hi */
    return (~ge | gt) & VF_LANES(0x8000, 0x8000, 0x8000, 0x8000);
}

/* Bit 7 of each byte of x (below 0x80) outside its own bounds: the bytes
 * of lo and hi (0x30 <= lo <= hi < 0x80; vf_outside's test, a bound a byte). */
VF_INLINE uint64_t vf_bytes_outside(uint64_t x, uint64_t lo, uint64_t hi)
{
    uint64_t ge = x + (0x8080808080808080ull - lo);      /* bit 7: x >= lo */
    uint64_t gt = x + (0x7F7F7F7F7F7F7F7Full - hi);      /* bit 7: x > hi */
    return (x | ~ge | gt) & VF_HIGH;
}

/* The bytes of s[0..8) as a word, low first, for bounds. */
#define VF_BYTES(s)                                                                        \
    ((uint64_t)(unsigned char)(s)[0] | (uint64_t)(unsigned char)(s)[1] << 8 |              \
     (uint64_t)(unsigned char)(s)[2] << 16 | (uint64_t)(unsigned char)(s)[3] << 24 |       \
     (uint64_t)(unsigned char)(s)[4] << 32 | (uint64_t)(unsigned char)(s)[5] << 40 |       \
     (uint64_t)(unsigned char)(s)[6] << 48 | (uint64_t)(unsigned char)(s)[7] << 56)

/* A route point's usual bytes (validate.c's usual_point): pt, a point's
 * 2 to 5 bytes and '0's, all letters or digits; lt, a flight level F and
 * three digits, then the last four bytes of an ETO, minutes 00-59 and
 * seconds 00-59. One vector, two ranges a byte (the same twice where a byte
 * has one). vf_point_bytes_n: the same for a point of n bytes at s (2 <= n
 * <= 5), the level's four at fl and the minutes and seconds at mmss; it
 * reads s[0..8), past the point's value, for a point the parser read whole
 * (ADEXP_FIELD_USUAL_POINT: its level and ETO follow it in the same text),
 * and tests only its first n. */
#if SIMD_SSE2
#define VF_BIAS(lo) ((char)(-128 - (lo)))
#define VF_TOP(n) ((char)(-128 + (n)))
/* The lanes of x (pt, lt) in their ranges, as bits (0xFFFF: all). */
VF_INLINE unsigned vf_point_lanes(__m128i x)
{
#define VF_8(v) v, v, v, v, v, v, v, v
    __m128i r1 = _mm_cmplt_epi8(
        _mm_add_epi8(x, _mm_setr_epi8(VF_8(VF_BIAS('A')), VF_BIAS('F'), VF_BIAS('0'),
                                      VF_BIAS('0'), VF_BIAS('0'), VF_BIAS('0'), VF_BIAS('0'),
                                      VF_BIAS('0'), VF_BIAS('0'))),
        _mm_setr_epi8(VF_8(VF_TOP(26)), VF_TOP(1), VF_TOP(10), VF_TOP(10), VF_TOP(10),
                      VF_TOP(6), VF_TOP(10), VF_TOP(6), VF_TOP(10)));
    __m128i r2 = _mm_cmplt_epi8(
        _mm_add_epi8(x, _mm_setr_epi8(VF_8(VF_BIAS('0')), VF_BIAS('F'), VF_BIAS('0'),
                                      VF_BIAS('0'), VF_BIAS('0'), VF_BIAS('0'), VF_BIAS('0'),
                                      VF_BIAS('0'), VF_BIAS('0'))),
        _mm_setr_epi8(VF_8(VF_TOP(10)), VF_TOP(1), VF_TOP(10), VF_TOP(10), VF_TOP(10),
                      VF_TOP(6), VF_TOP(10), VF_TOP(6), VF_TOP(10)));
#undef VF_8
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(r1, r2));
}

VF_INLINE int vf_point_bytes(uint64_t pt, uint64_t lt)
{
    return vf_point_lanes(_mm_set_epi64x((long long)lt, (long long)pt)) == 0xFFFF;
}

VF_INLINE int vf_point_bytes_n(const char *s, const char *fl, const char *mmss, size_t n)
{
    static const uint8_t past[6] = {0, 0, 0xFC, 0xF8, 0xF0, 0xE0};  /* lanes n to 7 */
    __m128i lt = _mm_unpacklo_epi32(_mm_cvtsi32_si128((int)vf_load4(fl)),
                                    _mm_cvtsi32_si128((int)vf_load4(mmss)));
    __m128i x = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)s), lt);
    return (vf_point_lanes(x) | past[n]) == 0xFFFF;
}
#else
VF_INLINE int vf_point_bytes(uint64_t pt, uint64_t lt)
{
    uint64_t digits = (lt & ~0xFFull) | '0';
    return (lt & 0xFF) == 'F' && !(vf_not_alnum(pt) | vf_not_digit(digits)) &&
           !vf_bytes_outside((lt & 0xFFFFFFFF00000000ull) | 0x30303030u, VF_BYTES("00000000"),
                             VF_BYTES("99995959"));
}

VF_INLINE int vf_point_bytes_n(const char *s, const char *fl, const char *mmss, size_t n)
{
    uint64_t keep = ~0ull >> (64 - 8 * n);
    return vf_point_bytes((vf_load8(s) & keep) | (0x3030303030303030ull & ~keep),
                          vf_load4(fl) | vf_load4(mmss) << 32);
}
#endif

/* A day from 29 on in the lanes x (valid digits, the month 01-12, the day
 * at most 31; lanes 1, 2, 3 the day, month and year as VF_PAIRs): whether
 * it exists, by the month's last day as a pair (February 29: a year whose
 * two digits are a multiple of 4, as vf_day_exists says). */
VF_INLINE int vf_late_day_exists(uint64_t x)
{
    static const uint16_t last[16] = {
        0, 0x3331, 0x3238, 0x3331, 0x3330, 0x3331, 0x3330,    /* "31" "28" ... as VF_PAIR */
        0x3331, 0x3331, 0x3330, 0x3331, 0x3330, 0x3331};
    unsigned dd = (unsigned)(x >> 16) & 0xFFFF, mt = (unsigned)(x >> 32) & 0xFFFF,
             yy = (unsigned)(x >> 48);
    unsigned mm = (mt & 0xF) + ((mt >> 8) & 1) * 10;
    if (dd <= last[mm])
        return 1;
    return mm == 2 && dd == VF_PAIR("29") && (((yy >> 8) & 0xF) * 2 + (yy & 0xF)) % 4 == 0;
}

/* YYMMDDHHMMSS's syntax (VK_DT12's DFA without its ranges): twelve bytes,
 * each a digit under its place's bound (months' tens to 1, days' to 3,
 * hours' to 2, minutes' and seconds' to 5). */
VF_INLINE int vf_dt12_syntax(const char *s, size_t n)
{
    return n == 12 &&
           !(vf_bytes_outside(vf_load8(s), VF_BYTES("00000000"), VF_BYTES("99193929")) |
             vf_bytes_outside(vf_load4(s + 8) | 0x3030303000000000ull, VF_BYTES("00000000"),
                              VF_BYTES("59599999")));
}

/* YYMMDDHHMMSS (VK_DT12): its syntax, then the month, the day and the hour
 * by their ASCII pairs (vf_lanes_outside), and a day from 29 on by its
 * month. */
VF_INLINE int vf_dt12(const char *s, size_t n)
{
    if (!vf_dt12_syntax(s, n))
        return 0;
    uint64_t x = __builtin_bswap64(vf_load8(s));   /* lanes, low first: HH DD MM YY */
    if (vf_lanes_outside(x, VF_LANES(VF_PAIR("00"), VF_PAIR("01"), VF_PAIR("01"), VF_ANY_LO),
                         VF_LANES(VF_PAIR("23"), VF_PAIR("31"), VF_PAIR("12"), VF_ANY_HI)))
        return 0;
    return ((x >> 16) & 0xFFFF) <= VF_PAIR("28") || vf_late_day_exists(x);
}

/* The usual EETFIR value, four letters, one space and HHMM elapsed
 * (minutes 00-59): 1; 0 means the DFA is to say (another separator, more
 * than one, or a bad value). */
VF_INLINE int vf_fir_time(const char *s, size_t n)
{
    if (n != 9)
        return 0;
    uint64_t a = vf_load8(s);
    uint64_t bad = (vf_not_alpha(a) & 0x80808080u) | (vf_not_digit(a) & 0x8080800000000000ull);
    return !bad && s[4] == ' ' && s[7] <= '5' && (unsigned char)(s[8] - '0') < 10;
}

/* The usual values of the kinds that fall back to the DFA (1; 0: the DFA
 * is to say). A speed: K or N and four digits. */
VF_INLINE int vf_speed(const char *s, size_t n)
{
    return n == 5 && (s[0] == 'N' || s[0] == 'K') && !vf_not_digit(vf_load4(s + 1) | 0x3030303000000000ull);
}

/* An aircraft type: a letter and one to three letters or digits. */
VF_INLINE int vf_actype(const char *s, size_t n)
{
    return n - 2 <= 2 && (unsigned char)(s[0] - 'A') < 26 && !vf_not_alnum(vf_word(s, n));
}

/* IFPLID: two letters, eight digits. */
VF_INLINE int vf_ifplid(const char *s, size_t n)
{
    if (n != 10)
        return 0;
    uint64_t a = vf_load8(s), b = vf_load8(s + 2);
    return !((vf_not_alpha(a) & 0x8080u) | vf_not_digit(b));
}

/* A geoname: GEO and two digits. */
VF_INLINE int vf_geoname(const char *s, size_t n)
{
    return n == 5 && memcmp(s, "GEO", 3) == 0 &&
           !vf_not_digit(vf_load2(s + 3) | 0x3030303030300000ull);
}

/* An SSR code: A and four octal digits. */
VF_INLINE int vf_ssr(const char *s, size_t n)
{
    if (n != 5 || s[0] != 'A')
        return 0;
    uint64_t x = vf_load4(s + 1) | 0x3030303000000000ull;
    return !((x | vf_outside(x, '0', '7')) & VF_HIGH);
}

/* Bit 7 of each byte of x that is a space (exact: no borrow between bytes). */
VF_INLINE uint64_t vf_spaces(uint64_t x)
{
    uint64_t t = x ^ (' ' * VF_ONES);
    return ~(((t & 0x7F7F7F7F7F7F7F7Full) + 0x7F7F7F7F7F7F7F7Full) | t) & VF_HIGH;
}

/* The bits 7 of z's bytes (bit 7 or nothing in each) as a byte: bit i for
 * byte i (the products of the other bytes fall on distinct bits below). */
VF_INLINE unsigned vf_mask8(uint64_t z)
{
    return (unsigned)(((z >> 7) * 0x0102040810204080ull) >> 56);
}

/* The spaces of s[0..n), 5 <= n <= 16, as bits (bit i for s[i]); ~0 if a
 * byte is neither a space nor a letter or digit. A word at a time. */
VF_INLINE unsigned vf_word_spaces_swar(const char *s, size_t n)
{
    uint64_t a, b, za, zb;
    unsigned sp;                       /* the spaces: bit i for s[i] */
    if (n >= 8) {
        a = vf_load8(s);
        b = vf_load8(s + n - 8);
        za = vf_spaces(a);
        zb = vf_spaces(b);
        if ((vf_not_alnum(a) & ~za) | (vf_not_alnum(b) & ~zb))
            return ~0u;
        sp = vf_mask8(za) | vf_mask8(zb) << (n - 8);
    } else {
        a = vf_load4(s) | vf_load4(s + n - 4) << 32;
        za = vf_spaces(a);
        if (vf_not_alnum(a) & ~za)
            return ~0u;
        unsigned m = vf_mask8(za);
        sp = (m & 0xF) | (m >> 4) << (n - 4);
    }
    return sp;
}

#if SIMD_SSE2
/* The bytes of x that are spaces (*sp) and those that are spaces, letters
 * or digits (returned), as movemask bits. */
VF_INLINE unsigned vf_word_classes(__m128i x, unsigned *sp)
{
    __m128i s = _mm_cmpeq_epi8(x, _mm_set1_epi8(' '));
    *sp = (unsigned)_mm_movemask_epi8(s);
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(s, _mm_or_si128(VF_IN(x, 'A', 26),
                                                                    VF_IN(x, '0', 10))));
}

/* vf_word_spaces_swar with SSE2, the two words in one vector; and for 17 to
 * 32 bytes (n > 16: two vectors). */
VF_INLINE unsigned vf_word_spaces(const char *s, size_t n)
{
    unsigned m, ok;
    if (n > 16) {
        unsigned m2, ok2 = vf_word_classes(_mm_loadu_si128((const __m128i *)(s + n - 16)), &m2);
        ok = vf_word_classes(_mm_loadu_si128((const __m128i *)s), &m);
        return (ok & ok2) != 0xFFFF ? ~0u : m | m2 << (n - 16);
    }
    if (n >= 8) {
        ok = vf_word_classes(_mm_set_epi64x((long long)vf_load8(s + n - 8), (long long)vf_load8(s)), &m);
        return ok != 0xFFFF ? ~0u : (m & 0xFF) | (m >> 8) << (n - 8);
    }
    ok = vf_word_classes(_mm_cvtsi64_si128((long long)(vf_load4(s) | vf_load4(s + n - 4) << 32)), &m);
    return (ok & 0xFF) != 0xFF ? ~0u : (m & 0xF) | ((m >> 4) & 0xF) << (n - 4);
}
#define VF_WORDS_MAX 32
#else
#define vf_word_spaces vf_word_spaces_swar
#define VF_WORDS_MAX 16
#endif

/* k words (2 or 3) of letters and digits, one space between: the first of
 * 2 to hi1 bytes, the others of 2 to 5 (ATSRT: a route and two points;
 * DCT: two points). 1; 0 means the DFA is to say (other separators, a
 * value longer than VF_WORDS_MAX bytes, a bad value). */
VF_INLINE int vf_words(const char *s, size_t n, unsigned k, unsigned hi1)
{
    if (n < 5 || n > VF_WORDS_MAX)
        return 0;
    unsigned sp = vf_word_spaces(s, n);
    if (sp == ~0u)
        return 0;
    unsigned later = sp & (sp - 1);    /* the spaces after the first */
    if (!sp || (k == 2 ? later != 0 : !later || (later & (later - 1))))
        return 0;
    unsigned i = (unsigned)__builtin_ctz(sp), j = k == 2 ? i : (unsigned)__builtin_ctz(later);
    return i - 2 <= hi1 - 2 && (k == 2 || j - i - 3 <= 3) && n - j - 3 <= 3;
}

/* A latitude DDMMSS and N or S: minutes and seconds 00-59, at most 90
 * degrees (90 only with 0 minutes and seconds). */
VF_INLINE int vf_lat(const char *s, size_t n)
{
    uint64_t p[2];
    if (n != 7 || (s[6] != 'N' && s[6] != 'S') || !vf_digit_pairs(s, 6, 6, p))
        return 0;
    unsigned d = vf_lane(p, 0), m = vf_lane(p, 1), sec = vf_lane(p, 2);
    return m <= 59 && sec <= 59 && (d < 90 || (d == 90 && !m && !sec));
}

/* A longitude DDDMMSS and E or W: as a latitude, at most 180 degrees. */
VF_INLINE int vf_long(const char *s, size_t n)
{
    uint64_t p[2];
    if (n != 8 || (s[7] != 'E' && s[7] != 'W') || (unsigned char)(s[0] - '0') > 9 ||
        !vf_digit_pairs(s + 1, 6, 6, p))
        return 0;
    unsigned d = (unsigned)(s[0] - '0') * 100 + vf_lane(p, 0), m = vf_lane(p, 1),
             sec = vf_lane(p, 2);
    return m <= 59 && sec <= 59 && (d < 180 || (d == 180 && !m && !sec));
}

/* F or A and three digits, S or M and four. */
VF_INLINE int vf_flevel(const char *s, size_t n)
{
    if (n == 4) {
        if (s[0] != 'F' && s[0] != 'A')
            return 0;
    } else if (n != 5 || (s[0] != 'S' && s[0] != 'M')) {
        return 0;
    }
    /* the last four bytes, the letter made a digit when n is 4 */
    uint64_t x = vf_load4(s + n - 4) | 0x3030303000000000ull;
    if (n == 4)
        x = (x & ~0xFFull) | '0';
    return !vf_not_digit(x);
}

#endif

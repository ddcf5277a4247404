/* Runs (json_string.h): the longest prefix of a string that the JSON
 * string rule copies as it is, found and copied 16 bytes (SSE2), 8 bytes
 * (SWAR) or one byte at a time; and string_first, a string that is one run
 * written inline. Shared by json_string.c and the field writer (json.c),
 * which inlines string_first for its values; its word and vector helpers
 * serve the view, CSV and ADEXP writers too. Not installed. */
#ifndef ADEXP_JSON_RUNS_H
#define ADEXP_JSON_RUNS_H

#include <string.h>

#include "json_string.h"


/* The word-at-a-time runs need GNU C on a little-endian target (the first
 * byte of a word is its lowest); elsewhere they are the byte loop. */
#if !defined(ADEXP_JSON_SCALAR) && defined(__GNUC__) && defined(__BYTE_ORDER__) &&     \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SWAR_RUNS 1
#else
#define SWAR_RUNS 0
#endif

#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif
enum { J_PLAIN = 0, J_SEP, J_QUOTE, J_CTRL, J_HIGH };
/* Byte classes for JSON strings: copied as is, separator, escaped with a
 * backslash, control byte, byte >= 0x80 (json_string.c). */
extern const unsigned char json_class[256];

/* ---------------------------------------------------------------- runs
 *
 * A run at p[0..n): the longest prefix the rule copies as it is. Its bytes
 * are plain (0x21 to 0x7F but '"' and '\\') or spaces; with fold, a space
 * belongs to the run only if a plain byte follows it (a space before
 * another separator, a byte to escape or the end is left to the byte loop,
 * which folds or trims it). Each run function copies its run to o (and
 * may store up to JSON_STRING_SLACK bytes past it) and returns its length.
 * fold is 0, RUN_FOLD, or RUN_FOLD | RUN_LEAD for a string's first run,
 * where a space at p[0] is left to the byte loop too (which trims it). */
enum { RUN_FOLD = 1, RUN_LEAD = 2 };

typedef size_t run_fn(const unsigned char *p, size_t n, char *o, int fold);

static inline size_t run_bytes(const unsigned char *p, size_t n, char *o, int fold)
{
    size_t r = 0;
    for (; r < n; r++) {
        unsigned char c = p[r];
        if (json_class[c] != J_PLAIN &&
            (c != ' ' || (fold && (r + 1 == n || json_class[p[r + 1]] != J_PLAIN ||
                                   (r == 0 && (fold & RUN_LEAD))))))
            break;
        o[r] = (char)c;
    }
    return r;
}

/* Whether p[i] (i < n) ends a run's last word with a byte that is not
 * plain, or i is the end: what a space at the word's last byte needs. */
static ALWAYS_INLINE unsigned not_plain_at(const unsigned char *p, size_t i, size_t n)
{
    return i == n || json_class[p[i]] != J_PLAIN;
}

#if SWAR_RUNS
#define ONES 0x0101010101010101u
#define HIGHS 0x8080808080808080u

/* The high bit of each byte of x equal to c. Exact in every byte (no
 * borrow crosses bytes), which the space pairs below need. */
static ALWAYS_INLINE uint64_t swar_eq(uint64_t x, unsigned char c)
{
    uint64_t t = x ^ (ONES * c);
    return ~(((t & ~HIGHS) + ~HIGHS) | t) & HIGHS;
}

/* The bytes of x (8 bytes, first lowest) that end a run, as high bits;
 * next: whether the byte after them is not plain (or the end). */
static ALWAYS_INLINE uint64_t swar_stops(uint64_t x, unsigned next, int fold)
{
    uint64_t sp = swar_eq(x, ' ');
    /* below 0x21 (the space too) or from 0x80, then the two escapes */
    uint64_t np = ((x | ~((x & ~HIGHS) + ONES * (0x80 - 0x21))) & HIGHS) |
                  swar_eq(x, '"') | swar_eq(x, '\\');
    uint64_t stop = np & ~sp;
    if (fold)
        stop |= sp & ((np >> 8) | (uint64_t)next << 63);
    if (fold & RUN_LEAD)
        stop |= sp & 0x80;
    return stop;
}

/* p[0..n), 0 < n < 8, in a word's first n bytes; the rest are zero (a
 * control byte, which ends every run). No byte outside p[0..n) is read. */
static ALWAYS_INLINE uint64_t swar_load_short(const unsigned char *p, size_t n)
{
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        return a | ((uint64_t)b >> (8 * (8 - n))) << 32;
    }
    return p[0] | (uint64_t)p[n >> 1] << (8 * (n >> 1)) | (uint64_t)p[n - 1] << (8 * (n - 1));
}

static ALWAYS_INLINE size_t run_swar(const unsigned char *p, size_t n, char *o, int fold)
{
    uint64_t x, m;
    size_t i = 0;
    if (n < 8) {
        x = swar_load_short(p, n);
        memcpy(o, &x, 8);
        m = swar_stops(x, 1, fold);
        return (size_t)__builtin_ctzll(m) >> 3;     /* the zero bytes stop it */
    }
    for (; i + 8 <= n; i += 8) {
        memcpy(&x, p + i, 8);
        memcpy(o + i, &x, 8);
        if ((m = swar_stops(x, not_plain_at(p, i + 8, n), fold)))
            return i + ((size_t)__builtin_ctzll(m) >> 3);
    }
    if (i == n)
        return n;
    /* the last n - i bytes: the word that ends at n, its first bytes done */
    memcpy(&x, p + n - 8, 8);
    memcpy(o + n - 8, &x, 8);
    m = swar_stops(x, 1, fold) >> (8 * (i - (n - 8)));
    return m ? i + ((size_t)__builtin_ctzll(m) >> 3) : n;
}
#else
#define run_swar run_bytes
#endif

#if JSON_STRING_SSE2
/* swar_stops for 16 bytes, as a 16-bit mask. */
static ALWAYS_INLINE unsigned sse2_stops(__m128i x, unsigned next, int fold)
{
    __m128i below = _mm_cmplt_epi8(x, _mm_set1_epi8(0x21));   /* signed: from 0x80 too */
    __m128i esc = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
                               _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
    unsigned sp = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')));
    unsigned np = (unsigned)_mm_movemask_epi8(_mm_or_si128(below, esc));
    unsigned stop = np & ~sp;
    if (fold)
        stop |= sp & ((np >> 1) | next << 15);
    if (fold & RUN_LEAD)
        stop |= sp & 1;
    return stop;
}

/* p[0..n), 0 < n < 16, in the first n bytes; the rest are zero. */
static ALWAYS_INLINE __m128i sse2_load_short(const unsigned char *p, size_t n)
{
    uint64_t lo, hi = 0;
    if (n >= 8) {
        memcpy(&lo, p, 8);
        if (n > 8) {
            memcpy(&hi, p + n - 8, 8);
            hi >>= 8 * (16 - n);
        }
    } else {
        lo = swar_load_short(p, n);
    }
    return _mm_set_epi64x((long long)hi, (long long)lo);
}

/* p[0..n), 4 <= n <= 16, copied to o and loaded as two halves of *h
 * bytes (8, or 4 if n < 8), p[0..h) and p[n-h..n), which overlap, in the
 * vector's first 2h lanes (the others zero). Every pair of neighbours is
 * in one half (n <= 2h), so a byte's follower is its neighbour in the
 * vector but at the seam between the halves (lane h - 1), which is not a
 * pair. Fewer instructions than sse2_load_short, for short values. */
static ALWAYS_INLINE __m128i sse2_halves(const unsigned char *p, size_t n, char *o, unsigned *h)
{
    if (n >= 8) {
        __m128i a = _mm_loadl_epi64((const __m128i *)(const void *)p);
        __m128i b = _mm_loadl_epi64((const __m128i *)(const void *)(p + n - 8));
        _mm_storel_epi64((__m128i *)(void *)o, a);
        _mm_storel_epi64((__m128i *)(void *)(o + n - 8), b);
        *h = 8;
        return _mm_unpacklo_epi64(a, b);
    }
    uint32_t a, b;
    memcpy(&a, p, 4);
    memcpy(&b, p + n - 4, 4);
    memcpy(o, &a, 4);
    memcpy(o + n - 4, &b, 4);
    *h = 4;
    return _mm_unpacklo_epi32(_mm_cvtsi32_si128((int)a), _mm_cvtsi32_si128((int)b));
}

/* Whether p[0..n), 4 <= n < 16, is all one run, copied to o (sse2_halves). */
static ALWAYS_INLINE int sse2_short_run(const unsigned char *p, size_t n, char *o, int fold)
{
    unsigned h;
    __m128i x = sse2_halves(p, n, o, &h);
    unsigned valid = (1u << 2 * h) - 1, seam = 1u << (h - 1), last = 1u << (2 * h - 1);
    __m128i below = _mm_cmplt_epi8(x, _mm_set1_epi8(0x21));
    __m128i esc = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
                               _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
    unsigned sp = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')));
    unsigned np = (unsigned)_mm_movemask_epi8(_mm_or_si128(below, esc));
    unsigned bad = np & ~sp;
    if (fold)
        bad |= sp & (((np >> 1) & ~seam) | last);
    if (fold & RUN_LEAD)
        bad |= sp & 1;
    return (bad & valid) == 0;
}

static ALWAYS_INLINE size_t run_sse2(const unsigned char *p, size_t n, char *o, int fold)
{
    __m128i x;
    unsigned m;
    size_t i = 0;
    if (n < 16) {
        if (n >= 4 && sse2_short_run(p, n, o, fold))
            return n;
        x = sse2_load_short(p, n);
        _mm_storeu_si128((__m128i *)(void *)o, x);
        return (size_t)__builtin_ctz(sse2_stops(x, 1, fold));   /* the zero bytes stop it */
    }
    for (; i + 16 <= n; i += 16) {
        x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        _mm_storeu_si128((__m128i *)(void *)(o + i), x);
        if ((m = sse2_stops(x, not_plain_at(p, i + 16, n), fold)))
            return i + (size_t)__builtin_ctz(m);
    }
    if (i == n)
        return n;
    x = _mm_loadu_si128((const __m128i *)(const void *)(p + n - 16));
    _mm_storeu_si128((__m128i *)(void *)(o + n - 16), x);
    m = sse2_stops(x, 1, fold) >> (i - (n - 16));
    return m ? i + (size_t)__builtin_ctz(m) : n;
}
#endif
/* Whether p[0..n), n <= 16, is all plain bytes (no space either: a
 * value with one takes the run rule, which folds), copied to o (in
 * o[0..n)). One vector (sse2_halves; below 4 bytes, the first, middle and
 * last), every lane filled, with fewer tests than sse2_short_run: most
 * short values have no space. */
static ALWAYS_INLINE int plain_short(const unsigned char *p, size_t n, char *o)
{
#if JSON_STRING_SSE2
    __m128i x;
    if (n < 4) {
        if (n == 0)
            return 1;
        unsigned a = p[0], b = p[n >> 1], c = p[n - 1];
        o[0] = (char)a, o[n >> 1] = (char)b, o[n - 1] = (char)c;
        x = _mm_set1_epi32((int)(a | b << 8 | c << 16 | c << 24));
    } else {
        unsigned h;
        x = sse2_halves(p, n, o, &h);
        if (h == 4)            /* the 8 bytes twice: every lane is tested */
            x = _mm_unpacklo_epi64(x, x);
    }
    __m128i plain = _mm_cmpgt_epi8(x, _mm_set1_epi8(0x20));   /* signed: 0x21 to 0x7F */
    __m128i esc = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
                               _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
    return _mm_movemask_epi8(_mm_andnot_si128(esc, plain)) == 0xFFFF;
#else
    return n == 0 || run_swar(p, n, o, RUN_FOLD | RUN_LEAD) == n;
#endif
}

/* Whether the string rule with fold writes p[0..n) as it is, for a
 * value of any length: 1 if it is plain bytes and single spaces between
 * plain bytes, copied to o (o[0..n)); 0 if not (copied too); -1 if n > 16
 * (nothing copied). Its lengths are tested longest first (8 to 16 bytes,
 * then 4 to 7, then fewer), here and not apart: for the quick fields. One
 * vector, loaded as plain_short loads it; if not all plain, its spaces: in
 * each layout, own are the lanes of the value's bytes, ends its first and
 * last (a space there is trimmed), pairs the lanes whose right neighbour
 * is the byte after them in the value: not the seam between two halves
 * (the byte there is in the second half too, with its follower) but at
 * 16 bytes. */
static ALWAYS_INLINE int plain_upto16(const unsigned char *p, size_t n, char *o)
{
#if JSON_STRING_SSE2
    __m128i x;
    if (n >= 8) {
        if (n > 16)
            return -1;
        unsigned h;
        x = sse2_halves(p, n, o, &h);
    } else if (n >= 4) {
        unsigned h;
        x = sse2_halves(p, n, o, &h);
        x = _mm_unpacklo_epi64(x, x);   /* the 8 bytes twice: every lane is tested */
    } else {
        if (n == 0)
            return 1;
        unsigned a = p[0], b = p[n >> 1], c = p[n - 1];
        o[0] = (char)a, o[n >> 1] = (char)b, o[n - 1] = (char)c;
        x = _mm_set1_epi32((int)(a | b << 8 | c << 16 | c << 24));
    }
    __m128i plain = _mm_cmpgt_epi8(x, _mm_set1_epi8(0x20));   /* signed: 0x21 to 0x7F */
    __m128i esc = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
                               _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
    unsigned m = (unsigned)_mm_movemask_epi8(_mm_andnot_si128(esc, plain));
    if (m == 0xFFFF)
        return 1;
    unsigned own = 0xFFFF, ends = 0x8001, pairs = n == 16 ? 0x7FFF : 0x7F7F;
    if (n < 4)
        own = 0x7, ends = 0x5, pairs = 0x3;
    else if (n < 8)
        own = 0xFF, ends = 0x81, pairs = 0x77;
    unsigned sp = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')));
    return ((own & ~(m | sp)) | (sp & ((~m >> 1 & pairs) | ends))) == 0;
#else
    return n > 16 ? -1 : plain_short(p, n, o);
#endif
}

/* The best run of this build. */
#if JSON_STRING_SSE2
#define JSON_RUN run_sse2
#else
#define JSON_RUN run_swar
#endif

/* The rest of a string after its first run (json_string.c): the rule from
 * p[i] on, o the output for it; any: whether a byte was written before. */
typedef char *rest_fn(char *o, const unsigned char *p, size_t i, size_t n, int fold, int any);
rest_fn json_string_rest;      /* with JSON_RUN */

/* Most strings are one run: it is tried first, with few registers live,
 * and string_rest (out of line) goes on after it in the state its loop
 * would have reached there. A separator at the start stops the run (with
 * fold) and is left to the loop, which trims it. */
static ALWAYS_INLINE char *string_first(char *o, adexp_slice s, int fold, run_fn *run,
                                        rest_fn *rest)
{
    const unsigned char *p = (const unsigned char *)s.ptr;
    size_t i = 0, n = s.len;
    *o++ = '"';
    if (n) {
        i = fold ? run(p, n, o, RUN_FOLD | RUN_LEAD) : run(p, n, o, 0);
        o += i;
        if (i == n) {
            *o++ = '"';
            return o;
        }
    }
    return rest(o, p, i, n, fold, i > 0);
}

#endif

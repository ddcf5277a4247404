/* Runs for the ADEXP writer (write.c), each decided 16 bytes (SSE2),
 * 8 bytes (SWAR) or one byte at a time: whether a value that is not ICAO
 * text is written exactly as it is (WRITE_RUN, copied as it is tested),
 * and the shorter test that suffices for most short values (plain words);
 * the prefix of a value that folding keeps (fold runs, for fold_into); and
 * whether an ICAO text surely reads back as itself (WRITE_TEXT_CLOSED).
 * Most values are one run: write.c takes its byte loops (has_dash,
 * fold_into) only for the others. The word and vector helpers are
 * json_runs.h's. Not installed.
 *
 * A value p[0..n), n > 0, is one run when it holds no '-' (which would end
 * it) and either, kept (fold 0), starts and ends with a byte that is not a
 * separator (the parser trims them), or, folded (fold 1), holds no
 * separator but the space (TAB, LF, VT, FF, CR: the bytes 9 to 13), no
 * space at either end and no two spaces in a row (folding would change
 * it). Each run function returns whether p[0..n) is one run; o then
 * holds its copy. In any case it may store up to WRITE_RUN_SLACK bytes at
 * o past n, and it reads no byte outside p[0..n). */
#ifndef ADEXP_WRITE_RUNS_H
#define ADEXP_WRITE_RUNS_H

#include <stdint.h>
#include <string.h>

#include "json_runs.h"
#include "lexer.h"

#define WRITE_RUN_SLACK 16

/* lexer.h's is_sep (the space and the bytes 9 to 13) without the table: a
 * compare the branch predictor learns for the bytes above ' ' that most
 * are. write_test checks both against each other. */
static ALWAYS_INLINE int write_is_sep(unsigned char c)
{
    return c <= ' ' && ((0x100003E00ull >> c) & 1);
}

/* The rule, one byte at a time: the reference, and the run of builds with
 * neither SSE2 nor SWAR. */
static inline int write_run_bytes(const unsigned char *p, size_t n, char *o, int fold)
{
    if (!fold && (write_is_sep(p[0]) || write_is_sep(p[n - 1])))
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        if (c == '-' || (fold && is_sep(c) && (c != ' ' || i == 0 || i + 1 == n ||
                                               p[i + 1] == ' ')))
            return 0;
        o[i] = (char)c;
    }
    return 1;
}

/* n < 4: too short for a word; the three bytes p[0], p[n/2], p[n-1] are
 * all of them. */
static ALWAYS_INLINE int write_run_tiny(const unsigned char *p, size_t n, char *o, int fold)
{
    unsigned char a = p[0], b = p[n >> 1], c = p[n - 1];
    o[0] = (char)a, o[n >> 1] = (char)b, o[n - 1] = (char)c;
    if (a == '-' || b == '-' || c == '-' || write_is_sep(a) || write_is_sep(c))
        return 0;
    return !fold || b == ' ' || !write_is_sep(b);   /* b inside: a space there is alone */
}

#if SWAR_RUNS
/* The separators of x but the space (the bytes 9 to 13), as high bits. */
static ALWAYS_INLINE uint64_t swar_ctl(uint64_t x)
{
    return swar_eq(x, '\t') | swar_eq(x, '\n') | swar_eq(x, '\v') | swar_eq(x, '\f') |
           swar_eq(x, '\r');
}

/* The bytes of x that end a run, as high bits: '-', and with fold the
 * separators but the space and a space before a space (next: the byte
 * after x is one, or x ends the value). */
static ALWAYS_INLINE uint64_t write_swar_stops(uint64_t x, unsigned next, int fold)
{
    uint64_t stop = swar_eq(x, '-');
    if (fold) {
        uint64_t sp = swar_eq(x, ' ');
        stop |= swar_ctl(x) |
                (sp & ((sp >> 8) | (uint64_t)next << 63));
    }
    return stop;
}

static ALWAYS_INLINE int write_run_swar(const unsigned char *p, size_t n, char *o, int fold)
{
    if (n < 4)
        return write_run_tiny(p, n, o, fold);
    if (!fold && (write_is_sep(p[0]) || write_is_sep(p[n - 1])))
        return 0;
    if (fold && (p[0] == ' ' || p[n - 1] == ' '))
        return 0;
    uint64_t x;
    if (n < 8) {
        /* the halves p[0..4) and p[n-4..n), which overlap, in one word:
         * every pair of neighbours is in one of them, so the pair across
         * the seam (bytes 3 and 4 of the word) is none */
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        memcpy(o, &a, 4);
        memcpy(o + n - 4, &b, 4);
        x = a | (uint64_t)b << 32;
        uint64_t stop = swar_eq(x, '-');
        if (fold) {
            uint64_t sp = swar_eq(x, ' ');
            stop |= swar_ctl(x) |
                    (sp & (sp >> 8) & ~(uint64_t)0x80000000u);
        }
        return stop == 0;
    }
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&x, p + i, 8);
        memcpy(o + i, &x, 8);
        if (write_swar_stops(x, i + 8 == n || p[i + 8] == ' ', fold))
            return 0;
    }
    if (i == n)
        return 1;
    memcpy(&x, p + n - 8, 8);          /* the word that ends at n */
    memcpy(o + n - 8, &x, 8);
    return write_swar_stops(x, 1, fold) == 0;
}
#endif

#if JSON_STRING_SSE2
/* The separators of x but the space (the bytes 9 to 13), as a vector:
 * signed compares, which the bytes from 0x80 fail. */
static ALWAYS_INLINE __m128i sse2_ctl(__m128i x)
{
    return _mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8(8)),
                         _mm_cmplt_epi8(x, _mm_set1_epi8(14)));
}

/* write_swar_stops for 16 bytes, as a 16-bit mask; ends: the lanes where
 * a space stops the run with fold, as one before a space does (the
 * value's first and last byte, or lane 15 when the byte after x is a
 * space). */
static ALWAYS_INLINE unsigned write_sse2_stops(__m128i x, unsigned ends, int fold)
{
    __m128i stop = _mm_cmpeq_epi8(x, _mm_set1_epi8('-'));
    if (!fold)
        return (unsigned)_mm_movemask_epi8(stop);
    stop = _mm_or_si128(stop, sse2_ctl(x));
    unsigned sp = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')));
    return (unsigned)_mm_movemask_epi8(stop) | (sp & ((sp >> 1) | ends));
}

/* With fold, a space at either end is one of the stops (its lanes in
 * ends), tested in the vectors and not byte by byte. */
static ALWAYS_INLINE int write_run_sse2(const unsigned char *p, size_t n, char *o, int fold)
{
    if (n < 4)
        return write_run_tiny(p, n, o, fold);
    if (!fold && (write_is_sep(p[0]) || write_is_sep(p[n - 1])))
        return 0;
    __m128i x;
    if (n < 16) {
        /* json_runs.h's two halves: no pair across the seam; the value's
         * last byte is lane 2h - 1 */
        unsigned h;
        x = sse2_halves(p, n, o, &h);
        unsigned seam = 1u << (h - 1), valid = (1u << 2 * h) - 1;
        return (write_sse2_stops(x, 1u | 1u << (2 * h - 1), fold) & ~seam & valid) == 0;
    }
    size_t i = 0;
    unsigned first = 1;                /* lane 0 of the first vector is p[0] */
    for (; i + 16 <= n; i += 16, first = 0) {
        x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        _mm_storeu_si128((__m128i *)(void *)(o + i), x);
        unsigned next = i + 16 == n || p[i + 16] == ' ';
        if (write_sse2_stops(x, first | next << 15, fold))
            return 0;
    }
    if (i == n)
        return 1;
    x = _mm_loadu_si128((const __m128i *)(const void *)(p + n - 16));   /* ends at n */
    _mm_storeu_si128((__m128i *)(void *)(o + n - 16), x);
    return write_sse2_stops(x, 1u << 15, fold) == 0;
}
#endif

/* The best run of this build. */
#if JSON_STRING_SSE2
#define WRITE_RUN write_run_sse2
#elif SWAR_RUNS
#define WRITE_RUN write_run_swar
#else
#define WRITE_RUN write_run_bytes
#endif

/* ---------------------------------------------------------- plain words
 *
 * A plain value: p[0..n), 1 <= n <= 16, without a byte below '!' and
 * without '-'. It is one run, kept or folded, and so are most short
 * values (a route point's). write_plain_stops copies p[0..n) to o (up to
 * 16 bytes stored, no byte outside p[0..n) read) and returns its stops,
 * none (write_stops_none) if it is plain; the stops of several values are
 * joined (write_stops_or) and tested once. The loads: p[0..8) and
 * p[n-8..n), which overlap (n >= 8), or the halves p[0..4) and p[n-4..n)
 * (n >= 4), or p[0], p[n/2] and p[n-1], repeated over the lanes.
 *
 * A value known to hold no '-' (the value of a field that is not ICAO
 * text, in a message the parser read without errors: it ended at the
 * '-'; write_parsed.h) is one run, kept or folded, when its bytes are all
 * from '!' to 0x7F: write_dashless_stops tests that alone, its stops
 * joined by write_stops_or too and tested by write_dashless_none. A byte
 * from 0x80 stops it too (one signed compare): such a value takes the
 * run's path. */
#if JSON_STRING_SSE2
typedef __m128i write_stops;        /* not 0 in the lanes that are not plain */

/* p[0..n) copied to o, in a vector whose every lane is one of its bytes. */
static ALWAYS_INLINE __m128i write_load_word(const unsigned char *p, size_t n, char *o)
{
    __m128i x;
    if (n >= 8) {
        __m128i a = _mm_loadl_epi64((const __m128i *)(const void *)p);
        __m128i b = _mm_loadl_epi64((const __m128i *)(const void *)(p + n - 8));
        _mm_storel_epi64((__m128i *)(void *)o, a);
        _mm_storel_epi64((__m128i *)(void *)(o + n - 8), b);
        x = _mm_unpacklo_epi64(a, b);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        memcpy(o, &a, 4);
        memcpy(o + n - 4, &b, 4);
        x = _mm_cvtsi64_si128((long long)(a | (uint64_t)b << 32));
        x = _mm_unpacklo_epi64(x, x);  /* the 8 bytes twice: every lane is the value's */
    } else {
        unsigned a = p[0], b = p[n >> 1], c = p[n - 1];
        o[0] = (char)a, o[n >> 1] = (char)b, o[n - 1] = (char)c;
        x = _mm_set1_epi32((int)(a | b << 8 | c << 16 | c << 24));
    }
    return x;
}

static ALWAYS_INLINE write_stops write_plain_stops(const unsigned char *p, size_t n, char *o)
{
    __m128i x = write_load_word(p, n, o);
    /* '!' - x, saturated, is not 0 below '!' (one instruction; the bytes
     * from 0x80 pass, as plain as the rule has them) */
    return _mm_or_si128(_mm_subs_epu8(_mm_set1_epi8('!'), x),
                        _mm_cmpeq_epi8(x, _mm_set1_epi8('-')));
}

static ALWAYS_INLINE write_stops write_stops_or(write_stops a, write_stops b)
{
    return _mm_or_si128(a, b);
}

static ALWAYS_INLINE int write_stops_none(write_stops s)
{
    return _mm_movemask_epi8(_mm_cmpeq_epi8(s, _mm_setzero_si128())) == 0xFFFF;
}

/* The stops of a value that holds no '-': 0xFF in the lanes of the bytes
 * below '!' and from 0x80 (signed: one compare); none is a mask's test. */
static ALWAYS_INLINE write_stops write_dashless_stops(const unsigned char *p, size_t n, char *o)
{
    return _mm_cmpgt_epi8(_mm_set1_epi8('!'), write_load_word(p, n, o));
}

static ALWAYS_INLINE int write_dashless_none(write_stops s)
{
    return _mm_movemask_epi8(s) == 0;
}
#else
typedef int write_stops;            /* whether a byte is not plain */

static inline write_stops write_plain_stops(const unsigned char *p, size_t n, char *o)
{
    int stops = 0;
    for (size_t i = 0; i < n; i++) {
        stops |= p[i] <= ' ' || p[i] == '-';
        o[i] = (char)p[i];
    }
    return stops;
}

static inline write_stops write_stops_or(write_stops a, write_stops b)
{
    return a | b;
}

static inline int write_stops_none(write_stops s)
{
    return !s;
}

static inline write_stops write_dashless_stops(const unsigned char *p, size_t n, char *o)
{
    int stops = 0;
    for (size_t i = 0; i < n; i++) {
        stops |= p[i] <= ' ' || p[i] >= 0x80;
        o[i] = (char)p[i];
    }
    return stops;
}

static inline int write_dashless_none(write_stops s)
{
    return !s;
}
#endif

/* ---------------------------------------------------------- fold runs
 *
 * Folding a value that is not folded already (fold_into, write.c): the
 * longest prefix of p[0..n) (n > 0, p[0] no separator) that folding keeps
 * as it is: no separator but the space, and no space that is followed by
 * a separator or ends the value. It is copied to o (up to WRITE_RUN_SLACK
 * bytes more may be stored) and its length returned. */
static inline size_t write_fold_run_bytes(const unsigned char *p, size_t n, char *o)
{
    size_t r = 0;
    for (; r < n; r++) {
        unsigned char c = p[r];
        if (is_sep(c) && (c != ' ' || r + 1 == n || is_sep(p[r + 1])))
            break;
        o[r] = (char)c;
    }
    return r;
}

#if SWAR_RUNS
/* The bytes of x that end a fold run; last: the high bit of a byte whose
 * space ends the run when it is one (the last before the end or a
 * separator), else 0. */
static ALWAYS_INLINE uint64_t write_swar_fold_stops(uint64_t x, uint64_t last)
{
    uint64_t sp = swar_eq(x, ' ');
    uint64_t sep = sp | swar_ctl(x);
    return (sep & ~sp) | (sp & ((sep >> 8) | last));
}

static ALWAYS_INLINE size_t write_fold_run_swar(const unsigned char *p, size_t n, char *o)
{
    uint64_t x, m;
    if (n < 8) {
        x = swar_load_short(p, n);
        memcpy(o, &x, 8);
        m = write_swar_fold_stops(x, (uint64_t)0x80 << (8 * (n - 1)));
        return m ? (size_t)__builtin_ctzll(m) >> 3 : n;   /* the zero bytes pass */
    }
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&x, p + i, 8);
        memcpy(o + i, &x, 8);
        uint64_t last = i + 8 == n || write_is_sep(p[i + 8]) ? (uint64_t)1 << 63 : 0;
        if ((m = write_swar_fold_stops(x, last)))
            return i + ((size_t)__builtin_ctzll(m) >> 3);
    }
    if (i == n)
        return n;
    memcpy(&x, p + n - 8, 8);          /* the word that ends at n */
    memcpy(o + n - 8, &x, 8);
    m = write_swar_fold_stops(x, (uint64_t)1 << 63) >> (8 * (i - (n - 8)));
    return m ? i + ((size_t)__builtin_ctzll(m) >> 3) : n;
}
#endif

#if JSON_STRING_SSE2
/* write_swar_fold_stops for 16 bytes, as a 16-bit mask. */
static ALWAYS_INLINE unsigned write_sse2_fold_stops(__m128i x, unsigned last)
{
    __m128i ctl = sse2_ctl(x);
    unsigned sp = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')));
    unsigned c = (unsigned)_mm_movemask_epi8(ctl);
    return c | (sp & (((sp | c) >> 1) | last));
}

static ALWAYS_INLINE size_t write_fold_run_sse2(const unsigned char *p, size_t n, char *o)
{
    __m128i x;
    unsigned m;
    if (n < 16) {
        x = sse2_load_short(p, n);
        _mm_storeu_si128((__m128i *)(void *)o, x);
        m = write_sse2_fold_stops(x, 1u << (n - 1));
        return m ? (size_t)__builtin_ctz(m) : n;          /* the zero bytes pass */
    }
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        _mm_storeu_si128((__m128i *)(void *)(o + i), x);
        if ((m = write_sse2_fold_stops(x, i + 16 == n || write_is_sep(p[i + 16]) ? 1u << 15 : 0)))
            return i + (size_t)__builtin_ctz(m);
    }
    if (i == n)
        return n;
    x = _mm_loadu_si128((const __m128i *)(const void *)(p + n - 16));   /* ends at n */
    _mm_storeu_si128((__m128i *)(void *)(o + n - 16), x);
    m = write_sse2_fold_stops(x, 1u << 15) >> (i - (n - 16));
    return m ? i + (size_t)__builtin_ctz(m) : n;
}
#endif

#if JSON_STRING_SSE2
#define WRITE_FOLD_RUN write_fold_run_sse2
#elif SWAR_RUNS
#define WRITE_FOLD_RUN write_fold_run_swar
#else
#define WRITE_FOLD_RUN write_fold_run_bytes
#endif

/* ---------------------------------------------------------- ICAO text
 *
 * Whether the ICAO text field "-KEYWORD " p[0..n) (n > 0, p[0] == '('),
 * lexed alone, surely reads back as one field whose value is p[0..n): its
 * '(' is matched (depth counted) with no -TITLE before the ')' (the
 * lexer's match_paren), no '-' comes after that ')' (its next_dash), and
 * p[n - 1] is no separator (its trim). 0 when not sure: write.c then asks
 * the lexer itself. A '-' followed by a 'T' or a separator (what may start
 * a -TITLE) is looked at closely, anywhere in the text. */

/* Whether the '-' at p[i] starts a -TITLE: the lexer's is_title_start. */
static inline int write_title_at(const unsigned char *p, size_t n, size_t i)
{
    size_t j = i + 1;
    while (j < n && write_is_sep(p[j]))
        j++;
    size_t k = j;
    while (j < n && is_alnum(p[j]))
        j++;
    return j - k == 5 && memcmp(p + k, "TITLE", 5) == 0 &&
           (j == n || p[j] == '-' || write_is_sep(p[j]));
}

static inline int write_text_closed_bytes(const unsigned char *p, size_t n)
{
    size_t depth = 0, i = 0;
    for (; i < n; i++) {
        unsigned char c = p[i];
        if (c == '(')
            depth++;
        else if (c == ')' && --depth == 0)
            break;
        else if (c == '-' && write_title_at(p, n, i))
            return 0;
    }
    if (i == n)
        return 0;
    while (++i < n)
        if (p[i] == '-')
            return 0;
    return !write_is_sep(p[n - 1]);
}

#if JSON_STRING_SSE2
/* The bytes of x that are 'T' or a separator, as a 16-bit mask. */
static ALWAYS_INLINE unsigned sse2_t_or_sep(__m128i x)
{
    __m128i m = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('T')),
                             _mm_cmpeq_epi8(x, _mm_set1_epi8(' ')));
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(m, sse2_ctl(x)));
}

/* 16 bytes a step: the parentheses' bits walked in order until the depth
 * is back to 0, the last '-' kept, each '-' before a 'T' or a separator
 * tested (any one that starts a -TITLE: not sure). The last step is the
 * 16 bytes that end at n, its bytes done already shifted out. */
static inline int write_text_closed_sse2(const unsigned char *p, size_t n)
{
    if (n < 16)
        return write_text_closed_bytes(p, n);
    size_t depth = 0, close = 0, last_dash = 0, i = 0;
    int dashes = 0;
    for (;;) {
        size_t at = i + 16 <= n ? i : n - 16;
        unsigned drop = (unsigned)(i - at);            /* bytes done already */
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + at));
        unsigned par = (unsigned)_mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('(')),
                         _mm_cmpeq_epi8(x, _mm_set1_epi8(')'))));
        unsigned dash = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('-')));
        par = par >> drop << drop;
        dash = dash >> drop << drop;
        if (dash) {
            unsigned next = sse2_t_or_sep(x) >> 1;
            if (at + 16 < n && (p[at + 16] == 'T' || write_is_sep(p[at + 16])))
                next |= 1u << 15;
            for (unsigned m = dash & next; m; m &= m - 1)
                if (write_title_at(p, n, at + (size_t)__builtin_ctz(m)))
                    return 0;
            last_dash = at + 31 - (size_t)__builtin_clz(dash);
            dashes = 1;
        }
        for (; par && !close; par &= par - 1) {
            size_t j = at + (size_t)__builtin_ctz(par);
            if (p[j] == '(')
                depth++;
            else if (--depth == 0)
                close = j + 1;
        }
        if (at + 16 == n)
            break;
        i = at + 16;
    }
    return close && (!dashes || last_dash < close) && !write_is_sep(p[n - 1]);
}
#define WRITE_TEXT_CLOSED write_text_closed_sse2
#else
#define WRITE_TEXT_CLOSED write_text_closed_bytes
#endif

#endif

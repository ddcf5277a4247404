/* The usual values' decoders a word at a time: a 10- or 12-digit
 * date-time's check and its ISO 8601 text, an F or A level's feet. One rule
 * for adexp_decode_datetime (decode.c) and for the writers that decode
 * tens of values a message (companion.c, the view's and the rows' usual
 * route point), which inline them. Not installed. */
#ifndef ADEXP_DECODE_WORDS_H
#define ADEXP_DECODE_WORDS_H

#include <stdint.h>
#include <string.h>

#include "simd.h"

#if defined(__GNUC__)
#define DW_INLINE inline __attribute__((always_inline))
#else
#define DW_INLINE inline
#endif

/* Whether the 8 bytes at p are all digits: each byte's high nibble is 3,
 * and stays 3 with 6 added (its low nibble is at most 9; with the high
 * nibble 3 no sum carries into the next byte). */
static DW_INLINE int dw_digits8(const char *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
    const uint64_t high = 0xF0F0F0F0F0F0F0F0u, three = 0x3030303030303030u;
    return (x & high) == three && ((x + 0x0606060606060606u) & high) == three;
}

/* Two digits (checked) as one number that orders as they do: "23" is
 * 0x3233. Ranges of such pairs are compared without their values. */
#define DW_PAIR(a, b) ((unsigned)(a) << 8 | (unsigned)(b))
static DW_INLINE unsigned dw_pair(const char *p)
{
    return DW_PAIR((unsigned char)p[0], (unsigned char)p[1]);
}

/* Whether the 4 bytes at p are all digits (as dw_digits8). */
static DW_INLINE int dw_digits4(const char *p)
{
    uint32_t x;
    memcpy(&x, p, 4);
    return (x & 0xF0F0F0F0u) == 0x30303030u && ((x + 0x06060606u) & 0xF0F0F0F0u) == 0x30303030u;
}

/* Whether the digits YYMMDD at s are a day: the month's own length, and
 * 29 February in leap years (the century rule puts YY in 1970 to 2069,
 * where those are the years YY divisible by 4). */
static DW_INLINE int dw_calendar_ok(const char *s)
{
    /* days a month has, as digit pairs */
    static const uint16_t mdays[13] = {
        0, DW_PAIR('3', '1'), DW_PAIR('2', '9'), DW_PAIR('3', '1'), DW_PAIR('3', '0'),
        DW_PAIR('3', '1'), DW_PAIR('3', '0'), DW_PAIR('3', '1'), DW_PAIR('3', '1'),
        DW_PAIR('3', '0'), DW_PAIR('3', '1'), DW_PAIR('3', '0'), DW_PAIR('3', '1')};
    unsigned mm = dw_pair(s + 2), dd = dw_pair(s + 4);
    if (mm - DW_PAIR('0', '1') > DW_PAIR('1', '2') - DW_PAIR('0', '1'))
        return 0;
    unsigned month = (unsigned)(s[2] - '0') * 10 + (unsigned)(s[3] - '0');
    if (dd - DW_PAIR('0', '1') > mdays[month] - DW_PAIR('0', '1'))
        return 0;
    return dd != DW_PAIR('2', '9') || month != 2 ||
           ((unsigned)(s[0] - '0') * 10 + (unsigned)(s[1] - '0')) % 4 == 0;
}

/* Whether the digits hhmm at s are a time of day. */
static DW_INLINE int dw_clock_ok(const char *s)
{
    return dw_pair(s) <= DW_PAIR('2', '3') && s[2] <= '5';
}

/* Whether YYMMDDhhmm[ss] at s (n: 10 or 12) is a date-time: digits, a
 * day, hh <= 23, mm and ss <= 59. */
static DW_INLINE int dw_datetime_ok(const char *s, size_t n)
{
    return dw_digits8(s) && dw_digits8(s + n - 8) && dw_clock_ok(s + 6) &&
           (n != 12 || s[10] <= '5') && dw_calendar_ok(s);
}

/* Whether YYMMDD at s is a date. */
static DW_INLINE int dw_date_ok(const char *s)
{
    return dw_digits4(s) && dw_digits4(s + 2) && dw_calendar_ok(s);
}

/* Whether hhmm at s is a time. */
static DW_INLINE int dw_time_ok(const char *s)
{
    return dw_digits4(s) && dw_clock_ok(s);
}

/* The year of YY: 1970 to 2069. */
static DW_INLINE int dw_year(const char *s)
{
    int yy = (s[0] - '0') * 10 + (s[1] - '0');
    return yy < 70 ? 2000 + yy : 1900 + yy;
}

#define DW_ISO12_LEN 20
/* "YYYY-MM-" of a checked YYMMDD... at s, as a word (first byte lowest). */
static DW_INLINE uint64_t dw_iso_head(const char *s)
{
    uint64_t a;
    memcpy(&a, s, 8);          /* Y Y M M D D h h */
    uint64_t cc = s[0] < '7' ? DW_PAIR('0', '2') : DW_PAIR('9', '1');   /* "20", "19" */
    return cc | (a & 0xFFFF) << 16 | (uint64_t)'-' << 32 | ((a >> 16) & 0xFFFF) << 40 |
           (uint64_t)'-' << 56;
}

/* "DDThh:mm:ssZ" of a checked YYMMDDhhmmss at s, at o (room: 12): two
 * words shifted into place. */
static DW_INLINE char *dw_iso12_tail(char *o, const char *s)
{
    uint64_t b;
    memcpy(&b, s + 4, 8);      /* D D h h m m s s */
    uint64_t w1 = (b & 0xFFFF) | (uint64_t)'T' << 16 | ((b >> 16) & 0xFFFF) << 24 |
                  (uint64_t)':' << 40 | ((b >> 32) & 0xFFFF) << 48;
    uint32_t w2 = (uint32_t)':' | (uint32_t)((b >> 48) & 0xFFFF) << 8 | (uint32_t)'Z' << 24;
    memcpy(o, &w1, 8);
    memcpy(o + 8, &w2, 4);
    return o + 12;
}

/* YYYY-MM-DDThh:mm:ssZ of a checked YYMMDDhhmmss at s, at o (room: 24):
 * three words shifted into place. */
static DW_INLINE char *dw_iso12(char *o, const char *s)
{
    uint64_t w0 = dw_iso_head(s);
    memcpy(o, &w0, 8);
    return dw_iso12_tail(o + 8, s);
}

/* YYYY-MM-DD of a checked YYMMDD at s, at o (room: 10). */
static DW_INLINE char *dw_iso_date(char *o, const char *s)
{
    uint32_t a;
    memcpy(&a, s, 4);          /* Y Y M M */
    uint64_t cc = s[0] < '7' ? DW_PAIR('0', '2') : DW_PAIR('9', '1');
    uint64_t w0 = cc | (uint64_t)(a & 0xFFFF) << 16 | (uint64_t)'-' << 32 |
                  (uint64_t)(a >> 16) << 40 | (uint64_t)'-' << 56;
    memcpy(o, &w0, 8);
    o[8] = s[4];
    o[9] = s[5];
    return o + 10;
}

/* hh:mm of a checked time hhmm at s, at o (room: 8): one word. */
static DW_INLINE char *dw_iso_clock(char *o, const char *s)
{
    uint32_t t;
    memcpy(&t, s, 4);          /* h h m m */
    uint64_t w = (t & 0xFFFF) | (uint64_t)':' << 16 | (uint64_t)(t >> 16) << 24;
    memcpy(o, &w, 8);
    return o + 5;
}

/* YYYY-MM-DDThh:mm:00Z of a checked date YYMMDD at d and a checked time
 * hhmm at t (EOBT on its EOBD's day), at o (room: 20). */
static DW_INLINE char *dw_iso_day_time(char *o, const char *d, const char *t)
{
    o = dw_iso_date(o, d);
    memcpy(o, "Thh:mm:00Z", 10);
    o[1] = t[0], o[2] = t[1], o[4] = t[2], o[5] = t[3];
    return o + 10;
}

/* An F or A level's feet from the three digits after its unit at l (F390:
 * 39000, A045: 4500, F000: 0): the digits without leading zeros, then 00,
 * as a word *w (first byte lowest) of the returned length; 0 if they are
 * not digits. */
static DW_INLINE unsigned dw_feet_word(const char *l, uint64_t *w)
{
    uint32_t x;
    memcpy(&x, l, 4);
    x >>= 8;                   /* the digits, first lowest */
    if ((x & 0xF0F0F0) != 0x303030 || ((x + 0x060606) & 0xF0F0F0) != 0x303030)
        return 0;
    uint32_t nonzero = x ^ 0x303030;
    if (!nonzero) {
        *w = '0';
        return 1;
    }
#if defined(__GNUC__)
    unsigned lead = (unsigned)__builtin_ctz(nonzero) >> 3;
#else
    unsigned lead = nonzero & 0xFF ? 0 : nonzero & 0xFF00 ? 1 : 2;
#endif
    *w = ((uint64_t)x | (uint64_t)DW_PAIR('0', '0') << 24) >> (8 * lead);
    return 5 - lead;
}

/* The feet of dw_feet_word placed by one 8-byte store at o (room: 8); NULL
 * if the digits are not digits. */
static DW_INLINE char *dw_feet(char *o, const char *l)
{
    uint64_t w;
    unsigned n = dw_feet_word(l, &w);
    if (!n)
        return NULL;
    memcpy(o, &w, 8);
    return o + n;
}

/* LATTD: DDMM[SS] then N or S; LONGTD: DDDMM[SS] then E or W (s, n
 * bytes): its degrees, minutes and seconds, and whether it is south or
 * west. 0 if it is not one, or past the pole or the antimeridian. */
static DW_INLINE int dw_coord_parts(const char *s, size_t len, int *d, int *m, int *sec,
                                    int *neg)
{
    if (len < 5)
        return 0;
    char h = s[len - 1];
    size_t dd = (h == 'N' || h == 'S') ? 2 : (h == 'E' || h == 'W') ? 3 : 0;
    size_t n = len - 1;
    if (dd == 0 || (n != dd + 2 && n != dd + 4))
        return 0;
    const char *p = s + dd;
    if (!dw_digits4(s) || !dw_digits4(s + n - 4))   /* all n digits: 4 <= n <= 7 */
        return 0;
    int top = dd == 2 ? 90 : 180;
    *d = dd == 2 ? (s[0] - '0') * 10 + (s[1] - '0')
                 : (s[0] - '0') * 100 + (s[1] - '0') * 10 + (s[2] - '0');
    *m = (p[0] - '0') * 10 + (p[1] - '0');
    *sec = n == dd + 4 ? (p[2] - '0') * 10 + (p[3] - '0') : 0;
    if (*m > 59 || *sec > 59 || *d > top || (*d == top && (*m || *sec)))
        return 0;
    *neg = h == 'S' || h == 'W';
    return 1;
}

/* The millionths of a degree of dw_coord_parts's parts: t seconds of arc
 * are t * 2500 / 9 millionths, rounded to the nearest. Their fraction, a
 * ninth, is never a half nor near enough to one for the double's error,
 * so this is adexp_decode_coord's degrees rounded to millionths
 * (outputs_test's test_coord_degrees compares the two on every
 * coordinate). */
static DW_INLINE long dw_coord_micro(int d, int m, int sec, int neg)
{
    long t = (long)d * 3600 + m * 60 + sec;
    long u = (t * 5000 + 9) / 18;
    return neg ? -u : u;
}

/* The last F or A level and the last day met in a message's route points,
 * which mostly share their ETO's day and often their level, so that a
 * point with the same bytes checks only its time (the view's and the rows'
 * usual point): the level's 4 bytes | DW_MEMO_SET (or 0), its feet
 * (dw_feet_word) and their length; the YYMMDD of a valid date-time |
 * DW_MEMO_SET (or 0) and its "YYYY-MM-" (dw_iso_head). Start from {0}. */
#define DW_MEMO_SET ((uint64_t)1 << 63)   /* never in an empty memo */
typedef struct dw_point_memo {
    uint64_t fl;
    uint64_t feet;
    uint64_t day;
    uint64_t iso_head;
    unsigned feet_len;
} dw_point_memo;

/* Whether the F or A level fl (4 bytes) decodes, checked against the
 * memo, which it updates. */
static DW_INLINE int dw_memo_level(const char *fl, dw_point_memo *pm)
{
    uint32_t l;
    memcpy(&l, fl, 4);
    if ((l | DW_MEMO_SET) != pm->fl) {
        unsigned n;
        if ((fl[0] != 'F' && fl[0] != 'A') || !(n = dw_feet_word(fl, &pm->feet)))
            return 0;
        pm->fl = l | DW_MEMO_SET;
        pm->feet_len = n;
    }
    return 1;
}

/* The date-time e (12 bytes) against the memo's day: 1 if its YYMMDD is
 * the memo's (its time is left to check: dw_time12_ok), 2 if it is a
 * valid date-time of another day, which the memo takes, 0 if neither. */
static DW_INLINE int dw_memo_day(const char *e, dw_point_memo *pm)
{
    uint64_t day;
    memcpy(&day, e, 8);
    day = (day & 0xFFFFFFFFFFFFu) | DW_MEMO_SET;
    if (day == pm->day)
        return 1;
    if (!dw_datetime_ok(e, 12))
        return 0;
    pm->day = day;
    pm->iso_head = dw_iso_head(e);
    return 2;
}

/* Whether the time of the date-time e (12 bytes), of a valid day, is
 * valid: DDhhmmss digits, hh <= 23, mm and ss <= 59 (as dw_datetime_ok). */
static DW_INLINE int dw_time12_ok(const char *e)
{
    return dw_digits8(e + 4) && dw_clock_ok(e + 6) && e[10] <= '5';
}

/* Whether the F or A level fl (4 bytes) and the date-time e (12 bytes)
 * decode, checked against the memo, which they update. */
static DW_INLINE int dw_memo_decodes(const char *fl, const char *e, dw_point_memo *pm)
{
    if (!dw_memo_level(fl, pm))
        return 0;
    int d = dw_memo_day(e, pm);
    return d == 2 || (d == 1 && dw_time12_ok(e));
}

#if SIMD_AVX2
/* The date-time e (12 bytes) in a vector, for the two below: e[0..8) in
 * lanes 0 to 7, e[4..12) in lanes 8 to 15. */
AVX2_INLINE __m128i dw_datetime_vec(const char *e)
{
    return _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)e),
                              _mm_loadl_epi64((const __m128i *)(const void *)(e + 4)));
}

/* dw_time12_ok of x (dw_datetime_vec(e)): its DDhhmmss, lanes 8 to 15,
 * digits with m and s tens at most 5, in one compare each way (signed: a
 * byte from 0x80 is below '0'); hh by its pair. */
AVX2_INLINE int dw_time12_ok_avx2(__m128i x, const char *e)
{
    const __m128i lo = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, '0' - 1, '0' - 1, '0' - 1, '0' - 1,
                                     '0' - 1, '0' - 1, '0' - 1, '0' - 1);
    const __m128i hi = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, '9' + 1, '9' + 1, '9' + 1, '9' + 1,
                                     '5' + 1, '9' + 1, '5' + 1, '9' + 1);
    __m128i in = _mm_and_si128(_mm_cmpgt_epi8(x, lo), _mm_cmpgt_epi8(hi, x));
    return (_mm_movemask_epi8(in) & 0xFF00) == 0xFF00 && dw_pair(e + 6) <= DW_PAIR('2', '3');
}

/* dw_iso12_tail of x (dw_datetime_vec of a checked date-time) by one byte
 * shuffle, at o (room: 16). */
AVX2_INLINE char *dw_iso12_tail_avx2(char *o, __m128i x)
{
    const __m128i from = _mm_setr_epi8(8, 9, -1, 10, 11, -1, 12, 13, -1, 14, 15, -1, -1, -1,
                                       -1, -1);
    const __m128i marks = _mm_setr_epi8(0, 0, 'T', 0, 0, ':', 0, 0, ':', 0, 0, 'Z', 0, 0, 0, 0);
    __m128i t = _mm_or_si128(_mm_shuffle_epi8(x, from), marks);
    _mm_storeu_si128((__m128i *)(void *)o, t);
    return o + 12;
}
#endif
#endif

/* AFTN envelopes (ICAO Annex 10 Vol II, 4.4.15 and 4.4.16): where one
 * starts, where its text ends, and its heading's parts. The two forms:
 *
 *   ITA-2  ZCZC AAA001 170001          heading: start signal, transmission id
 *          FF LKPREPWC EUCHZMFP        address: priority, addressees (more
 *          EDDFZQZX                      lines of addressees may follow)
 *          170001 EUCHZMFP             origin: filing time DDHHMM, originator
 *          -TITLE IFPL ...             the text
 *          NNNN                        end-of-message signal
 *
 *   IA-5   SOH AAA001 ... CR LF, the same address and origin lines, STX, the
 *          text, then VT ETX (some gateways write NNNN after it, or SOH
 *          before ZCZC: both are read).
 *
 * Blank lines between the lines and CR LF, LF or CR line ends are allowed.
 * Each signal counts only at a line's start (in the text, the byte before
 * it is LF, CR, VT or FF; a heading may also follow SOH, STX or ETX): a
 * plain ADEXP text never holds a line that is ZCZC or NNNN (a line of
 * ADEXP starts with '-' or continues a value), nor one that starts with SOH
 * or ETX (a control byte inside a value is no signal). */
#define _GNU_SOURCE            /* memmem */
#include <string.h>

#include "lexer.h"
#include "lines.h"
#include "simd.h"

enum { SOH = 1, STX = 2, ETX = 3 };

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static int is_upper(unsigned char c) { return c >= 'A' && c <= 'Z'; }
static int is_blank(unsigned char c) { return c == ' ' || c == '\t'; }
static int is_line_end(unsigned char c) { return c == '\n' || c == '\r'; }

/* i starts a line: the input's start, or after a line end, VT, FF or one of
 * the framing characters; or right after a UTF-8 byte order mark at the
 * input's start, as an editor saves it. */
static int at_line_start(const char *b, size_t i)
{
    unsigned char c = i ? (unsigned char)b[i - 1] : '\n';
    return is_line_end(c) || c == '\v' || c == '\f' || c == SOH || c == STX || c == ETX ||
           (i == 3 && lines_bom(b, 3) == 3);
}

/* A field's '-' ends a signal word too: "ZCZC-L", written with its field
 * on the next line, would be "ZCZC" alone. */
int lexer_signal_word(const char *b, size_t len, size_t i, const char *w)
{
    if (len - i < 4 || memcmp(b + i, w, 4) != 0)
        return 0;
    return i + 4 == len || (unsigned char)b[i + 4] <= ' ' || b[i + 4] == '-';
}

/* The 4 letters w ("ZCZC", "NNNN") as a signal at i: a word of their own
 * at a line's start. */
static int signal_at(const char *b, size_t len, size_t i, const char *w)
{
    return lexer_signal_word(b, len, i, w) && at_line_start(b, i);
}

/* The first signal w at or after from, or len. */
static size_t find_signal(const char *b, size_t len, size_t from, const char *w)
{
    for (size_t i = from; i + 4 <= len;) {
        const char *t = memmem(b + i, len - i, w, 4);
        if (!t)
            break;
        size_t at = (size_t)(t - b);
        if (signal_at(b, len, at, w))
            return at;
        i = at + 1;
    }
    return len;
}

/* The first control byte c at a line's start in [from, to), or to. */
static size_t find_control(const char *b, size_t from, size_t to, char c)
{
    for (size_t i = from; i < to; i++) {
        const char *t = memchr(b + i, c, to - i);
        if (!t)
            break;
        i = (size_t)(t - b);
        if (at_line_start(b, i))
            return i;
    }
    return to;
}

int lexer_envelope_at(const char *b, size_t len, size_t i)
{
    return i < len && ((b[i] == SOH && at_line_start(b, i)) || signal_at(b, len, i, "ZCZC") ||
                       lexer_bare_heading(b, len, i, NULL) != (size_t)-1);
}

size_t lexer_next_start(const char *b, size_t len, size_t from, int envelope)
{
    size_t t = lexer_next_title(b, len, from);
    if (!envelope)
        return t;
    if (t < len) {             /* bare lines before it start the message */
        size_t s = lexer_bare_before(b, len, from, t, NULL);
        t = s != (size_t)-1 ? s : t;
    }
    t = find_control(b, from, t, SOH);
    return find_signal(b, t, from, "ZCZC");
}

/* The offset of the first byte c at or after i, or len. */
static size_t next_byte(const char *b, size_t len, size_t i, char c)
{
    const char *p = i < len ? memchr(b + i, c, len - i) : NULL;
    return p ? (size_t)(p - b) : len;
}

static int is_break(unsigned char c)
{
    return is_line_end(c) || c == '\v' || c == '\f';
}

/* The signal that starts at i, a line's start: 1 and *sig, or 0. */
static int signal_kind(const char *b, size_t len, size_t i, lexer_signal *sig)
{
    if (i >= len)
        return 0;
    if (b[i] == 'N' && signal_at(b, len, i, "NNNN"))
        *sig = LEX_SIGNAL_NNNN;
    else if (b[i] == ETX)
        *sig = LEX_SIGNAL_ETX;
    else if (b[i] == SOH || (b[i] == 'Z' && signal_at(b, len, i, "ZCZC")))
        *sig = LEX_SIGNAL_NEXT;
    else
        return 0;
    return 1;
}

#if SIMD_AVX2
/* A byte that may start a signal and a break, told by one shuffle each of
 * these 16 bytes (every vector lane the same): y is N (0x4E), Z (0x5A),
 * SOH or ETX when it equals the entry of signal_lane that its low 4 bits
 * pick: those four differ in their low 4 bits, and no byte equals another
 * entry (1) that it picks; a byte of 0x80 or more picks 0. x is a break
 * the same way: LF, VT, FF and CR are 0x0A to 0x0D, and the other entries
 * (0x80) equal no byte that picks them. */
static const char signal_lane[16] = {1, SOH, 1, ETX, 1, 1, 1, 1, 1, 1, 'Z', 1, 1, 1, 'N', 1};
static const char break_lane[16] = {'\x80', '\x80', '\x80', '\x80', '\x80', '\x80',
                                    '\x80', '\x80', '\x80', '\x80', '\n',   '\v',
                                    '\f',   '\r',   '\x80', '\x80'};

/* A lane of 16 bytes, and that lane in every lane of a vector. */
static inline __m128i lane_load(const char *lane)
{
    return _mm_loadu_si128((const __m128i *)(const void *)lane);
}

__attribute__((target(AVX2_TARGET))) static inline __m256i lanes_avx2(const char *lane)
{
    return _mm256_broadcastsi128_si256(lane_load(lane));
}

/* The candidates among 32 bytes x (y: the 32 from the byte after x's
 * first), as a byte mask: x[k] is a line end, VT or FF and y[k] could
 * start a signal (N, Z, SOH, ETX). */
__attribute__((target(AVX2_TARGET))) static inline __m256i candidates_xy(__m256i x, __m256i y)
{
    __m256i brk = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(lanes_avx2(break_lane), x), x);
    __m256i start = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(lanes_avx2(signal_lane), y), y);
    return _mm256_and_si256(brk, start);
}

/* The candidates among the 32 bytes at p. */
__attribute__((target(AVX2_TARGET))) static inline __m256i candidates_avx2(const char *p)
{
    return candidates_xy(_mm256_loadu_si256((const __m256i *)(const void *)p),
                         _mm256_loadu_si256((const __m256i *)(const void *)(p + 1)));
}

/* The search's last steps, 32 bytes each, from i: the first candidate
 * before len - 33, or where they stopped. */
__attribute__((target(AVX2_TARGET))) static inline size_t signal_candidate_32(const char *b,
                                                                              size_t len,
                                                                              size_t i)
{
    for (; len - i > 33; i += 32) {
        unsigned m = (unsigned)_mm256_movemask_epi8(candidates_avx2(b + i));
        if (m)
            return i + (size_t)__builtin_ctz(m);
    }
    return i;
}

/* The first i in [from, len - 33) that is a candidate, two steps of 32
 * bytes a test (a message's text has no candidate but its end's); or
 * where the search stopped (from there on is left to the byte loop). A
 * framed message's text is searched whole for its end: a memchr per line
 * cost a third of its parse. */
__attribute__((target(AVX2_TARGET))) static size_t signal_candidate_avx2(const char *b,
                                                                         size_t len, size_t from)
{
    size_t i = from;
    for (; len - i > 65; i += 64) {
        __m256i lo = candidates_avx2(b + i), hi = candidates_avx2(b + i + 32);
        __m256i any = _mm256_or_si256(lo, hi);
        if (_mm256_testz_si256(any, any))
            continue;
        uint64_t m = (uint32_t)_mm256_movemask_epi8(lo) |
                     (uint64_t)(uint32_t)_mm256_movemask_epi8(hi) << 32;
        return i + (size_t)__builtin_ctzll(m);
    }
    return signal_candidate_32(b, len, i);
}

/* signal_candidate_avx2 with AVX-512, 64 bytes a step, the tests of
 * candidates_xy (on the same lanes) with their results in mask registers:
 * half the instructions a byte. The same candidates, the same i. */
__attribute__((target(AVX512_TARGET))) static size_t signal_candidate_avx512(const char *b,
                                                                             size_t len,
                                                                             size_t from)
{
    const __m512i set = _mm512_broadcast_i32x4(lane_load(signal_lane));
    const __m512i breaks = _mm512_broadcast_i32x4(lane_load(break_lane));
    size_t i = from;
    for (; len - i > 65; i += 64) {
        __m512i x = _mm512_loadu_si512(b + i), y = _mm512_loadu_si512(b + i + 1);
        __mmask64 brk = _mm512_cmpeq_epi8_mask(_mm512_shuffle_epi8(breaks, x), x);
        __mmask64 m = _mm512_mask_cmpeq_epi8_mask(brk, _mm512_shuffle_epi8(set, y), y);
        if (m)
            return i + (size_t)__builtin_ctzll(m);
    }
    return signal_candidate_32(b, len, i);
}

/* The vector search the CPU runs (the caller checked AVX2). */
static size_t signal_candidate(const char *b, size_t len, size_t from)
{
    return cpu_has_avx512() ? signal_candidate_avx512(b, len, from)
                            : signal_candidate_avx2(b, len, from);
}

/* Whether a candidate i in [from, to - 1) lies among the last 33 bytes
 * before to (to >= 33, to - from <= 33): one step over them, the bytes
 * before from masked off. */
__attribute__((target(AVX2_TARGET))) static int tail_candidate_avx2(const char *b, size_t from,
                                                                   size_t to)
{
    size_t w = to - 33, skip = from - w;
    unsigned m = (unsigned)_mm256_movemask_epi8(candidates_avx2(b + w));
    return skip < 32 && (m >> skip) != 0;
}
#endif

/* A signal starts where the byte before it is a break (LF, CR, VT or FF):
 * the same rule in the AVX2 steps, the byte loop after them and the quick
 * filter, so that where a signal falls in the input never changes whether
 * it is one. With AVX2, 32 bytes a step up to the last 33. */
size_t lexer_envelope_end(const char *b, size_t len, size_t from, lexer_signal *sig)
{
#if SIMD_AVX2
    if (from < len && cpu_has_avx2()) {
        for (;;) {
            size_t i = signal_candidate(b, len, from);
            if (len - i <= 33) {
                from = i;
                break;
            }
            if (signal_kind(b, len, i + 1, sig))
                return i + 1;
            from = i + 1;
        }
    }
#endif
    for (size_t i = from; i + 1 < len; i++)
        if (is_break((unsigned char)b[i]) && signal_kind(b, len, i + 1, sig))
            return i + 1;
    *sig = LEX_SIGNAL_NONE;
    return len;
}

size_t lexer_signal_end(const char *b, size_t len, size_t at, lexer_signal sig)
{
    if (sig == LEX_SIGNAL_NNNN)
        return at + 4;
    if (sig != LEX_SIGNAL_ETX)
        return at;
    size_t i = at + 1, j = i;  /* ETX, and the NNNN some gateways add */
    while (j < len && is_sep((unsigned char)b[j]))
        j++;
    return signal_at(b, len, j, "NNNN") ? j + 4 : i;
}

/* A byte that may start a signal after a break: N, Z, SOH, ETX. */
static int may_start_signal(unsigned char c)
{
    return c == 'N' || c == 'Z' || c == SOH || c == ETX;
}

/* A byte that may start an envelope's line after a break in a message's
 * last value: a signal's, or a digit (the origin line of bare lines, which
 * the next -TITLE follows: lexer_bare_before). */
static int may_start_line(unsigned char c)
{
    return may_start_signal(c) || is_digit(c);
}

int lexer_may_hold_envelope(const char *b, size_t from, size_t to)
{
    /* This runs on every message's last value: with AVX2 the search for
     * the end's candidates (32 bytes a step), then one step over the last
     * 33 bytes; without, byte by byte, or memchr for each break in a long
     * range. */
#if SIMD_AVX2
    if (to >= 33 && cpu_has_avx2()) {
        if (to - from > 33) {
            from = signal_candidate(b, to, from);
            if (is_break((unsigned char)b[from]) && may_start_signal((unsigned char)b[from + 1]))
                return 1;
        }
        return tail_candidate_avx2(b, from, to);
    }
#endif
    if (to - from <= 64) {
        for (size_t i = from; i + 1 < to; i++)
            if (is_break((unsigned char)b[i]) && may_start_signal((unsigned char)b[i + 1]))
                return 1;
        return 0;
    }
    static const char breaks[4] = {'\n', '\r', '\v', '\f'};
    for (int k = 0; k < 4; k++) {
        for (size_t i = next_byte(b, to, from, breaks[k]); i + 1 < to;
             i = next_byte(b, to, i + 1, breaks[k])) {
            if (may_start_signal((unsigned char)b[i + 1]))
                return 1;
        }
    }
    return 0;
}

#if SIMD_AVX2
/* The breaks (LF, CR, VT, FF) among the 32 bytes x, as a bit mask. */
__attribute__((target(AVX2_TARGET))) static inline unsigned breaks_avx2(__m256i x)
{
    __m256i d = _mm256_sub_epi8(x, _mm256_set1_epi8(10));     /* LF, VT, FF, CR: 0 to 3 */
    return (unsigned)_mm256_movemask_epi8(
        _mm256_cmpeq_epi8(_mm256_min_epu8(d, _mm256_set1_epi8(3)), d));
}

/* Whether one of the breaks m (bits k: b[w + k]) is followed by a byte
 * that may start a signal. A value's breaks are few: each is looked at
 * alone, which costs less than a second load and test for every step. */
static int breaks_hold(const char *b, size_t w, uint64_t m)
{
    for (; m; m &= m - 1)
        if (may_start_line((unsigned char)b[w + (size_t)__builtin_ctzll(m) + 1]))
            return 1;
    return 0;
}

/* One step of last_value_avx2 over the 32 bytes at w (with the byte after
 * them): -1 if they hold no '-' (*cand told of their breaks), else the
 * answer, with *from at the last '-'. */
__attribute__((target(AVX2_TARGET), always_inline)) static inline int
last_value_step(const char *b, size_t w, int *cand, size_t *from)
{
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(b + w));
    unsigned c = breaks_avx2(x);
    unsigned d = (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('-')));
    if (d) {
        unsigned top = 31u - (unsigned)__builtin_clz(d);
        *from = w + top;
        return *cand || breaks_hold(b, w, c >> top << top);
    }
    *cand = *cand || (c && breaks_hold(b, w, c));
    return -1;
}

/* lexer_last_value_may_hold with AVX2: back from last, a step of 32 bytes
 * (a last value mostly ends within it), then 64 a step while they are there
 * (two such steps at once), then 32, the breaks and the '-' of each step at
 * once. */
__attribute__((target(AVX2_TARGET))) static int last_value_avx2(const char *b, size_t start,
                                                                size_t last, size_t *from)
{
    int cand = 0, r;
    size_t hi = last;          /* the pairs (i, i + 1) with i < hi - 1 are left */
    if (hi - start >= 33) {
        if ((r = last_value_step(b, hi - 33, &cand, from)) >= 0)
            return r;
        hi -= 32;              /* b[hi - 33] was looked at for a '-' */
    }
    for (; hi - start >= 65; hi -= 64) {
        size_t w = hi - 65;
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(b + w));
        __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(b + w + 32));
        const __m256i dash = _mm256_set1_epi8('-');
        uint64_t c = breaks_avx2(x) | (uint64_t)breaks_avx2(y) << 32;
        uint64_t d = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, dash)) |
                     (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(y, dash)) << 32;
        if (d) {
            unsigned top = 63u - (unsigned)__builtin_clzll(d);
            *from = w + top;
            return cand || breaks_hold(b, w, c >> top << top);
        }
        cand = cand || (c && breaks_hold(b, w, c));
    }
    for (; hi - start >= 33; hi -= 32)
        if ((r = last_value_step(b, hi - 33, &cand, from)) >= 0)
            return r;
    for (size_t i = hi; i-- > start;) {
        if (b[i] == '-') {
            *from = i;
            return cand;
        }
        cand |= i + 1 < last && is_break((unsigned char)b[i]) &&
                may_start_line((unsigned char)b[i + 1]);
    }
    *from = start;
    return cand;
}
#endif

/* lexer_last_value_may_hold without AVX2; out of line, so that the call
 * of last_value_avx2 saves no registers. */
static __attribute__((noinline)) int last_value_plain(const char *b, size_t start, size_t last,
                                                      size_t *from)
{
    const char *d = last > start ? memrchr(b + start, '-', last - start) : NULL;
    *from = d ? (size_t)(d - b) : start;
    for (size_t i = *from; i + 1 < last; i++)
        if (is_break((unsigned char)b[i]) && may_start_line((unsigned char)b[i + 1]))
            return 1;
    return 0;
}

int lexer_last_value_may_hold(const char *b, size_t start, size_t last, size_t *from)
{
    if (last > start && b[last - 1] == '-') {   /* (the steps look at b[last - 1] for pairs only) */
        *from = last - 1;
        return 0;
    }
#if SIMD_AVX2
    if (cpu_has_avx2())
        return last_value_avx2(b, start, last, from);
#endif
    return last_value_plain(b, start, last, from);
}

size_t lexer_text_title(const char *b, size_t len, size_t from)
{
    /* the first '-' at or after from, when it starts a -TITLE, is the first
     * -TITLE: one memchr over the heading's few bytes, not a memmem */
    const char *d = from < len ? memchr(b + from, '-', len - from) : NULL;
    if (d && lexer_title_end(b, len, (size_t)(d - b)))
        return (size_t)(d - b);
    return lexer_next_title(b, len, from);
}

static const char *const form_names[] = {"ita2", "ia5", "bare"};

const char *adexp_envelope_form_name(adexp_envelope_form form)
{
    return (unsigned)form < sizeof form_names / sizeof *form_names ? form_names[form] : NULL;
}

int adexp_envelope_form_of(const char *name, size_t n, adexp_envelope_form *form)
{
    for (unsigned k = 0; k < sizeof form_names / sizeof *form_names; k++) {
        if (strlen(form_names[k]) == n && memcmp(name, form_names[k], n) == 0) {
            *form = (adexp_envelope_form)k;
            return 0;
        }
    }
    return -1;
}

/* ---------------------------------------------------------------- heading */

typedef struct cursor {
    const char *b;
    size_t len, i;
    size_t start;              /* the envelope's */
    size_t bad;                /* first place not of the heading's form */
    size_t rest;               /* the start of its line: the envelope's text
                                  from there on */
    size_t from;               /* the start of the line being read: rest is
                                  never before it, so that a part read from
                                  a line before is never text too (a heading
                                  cut short within its first line) */
    size_t readable;           /* the buffer's bytes that may be loaded */
    int titled;                /* the common shape is taken only when the
                                  text's -TITLE follows it (title_at) */
    size_t title_at;
    lexer_heading_shape *seen; /* the last common heading's, or NULL */
} cursor;

/* The heading's byte classes, one load a byte: what ends a line (LF,
 * CR, STX), what ends a word (those and blanks), and a word's letters
 * and digits (is_upper, is_digit, is_alnum), told as the word is read. */
enum { HC_LINE = 1, HC_WORD = 2, HC_UPPER = 4, HC_DIGIT = 8, HC_ALNUM = 16 };
#define U(c) [c] = HC_UPPER | HC_ALNUM
#define D(c) [c] = HC_DIGIT | HC_ALNUM
static const unsigned char heading_class[256] = {
    ['\n'] = HC_LINE | HC_WORD, ['\r'] = HC_LINE | HC_WORD, [STX] = HC_LINE | HC_WORD,
    [' '] = HC_WORD, ['\t'] = HC_WORD,
    D('0'), D('1'), D('2'), D('3'), D('4'), D('5'), D('6'), D('7'), D('8'), D('9'),
    U('A'), U('B'), U('C'), U('D'), U('E'), U('F'), U('G'), U('H'), U('I'), U('J'),
    U('K'), U('L'), U('M'), U('N'), U('O'), U('P'), U('Q'), U('R'), U('S'), U('T'),
    U('U'), U('V'), U('W'), U('X'), U('Y'), U('Z'),
};
#undef U
#undef D

#if SIMD_AVX2
/* The first LF, CR or STX of the 32 bytes at p, or 32. */
__attribute__((target(AVX2_TARGET))) static unsigned line_end_avx2(const char *p)
{
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i m = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('\n')),
                        _mm256_cmpeq_epi8(x, _mm256_set1_epi8('\r'))),
        _mm256_cmpeq_epi8(x, _mm256_set1_epi8(STX)));
    unsigned bits = (unsigned)_mm256_movemask_epi8(m);
    return bits ? (unsigned)__builtin_ctz(bits) : 32;
}
#endif

/* The end of the line at c->i: its first LF, CR or STX (HC_LINE), or the
 * heading's end. With AVX2, a line of up to 32 bytes in one step. */
static size_t line_end(const cursor *c)
{
    size_t i = c->i;
#if SIMD_AVX2
    /* the heading's last line ends at len, the text's -TITLE, with fewer
     * than 32 bytes left: the step reads on into the text (readable) */
    if (i + 32 <= c->readable && i < c->len && cpu_has_avx2()) {
        size_t k = line_end_avx2(c->b + i);
        if (k < 32 || i + 32 >= c->len)
            return i + k < c->len ? i + k : c->len;
        i += 32;
    }
#endif
    while (i < c->len && !(heading_class[(unsigned char)c->b[i]] & HC_LINE))
        i++;
    return i;
}

/* On from the line ending at end to the next line that is not blank
 * (spaces, VT, FF). */
static void next_line(cursor *c, size_t end)
{
    size_t i = end;            /* the loops step a local: c->i written at
                                  every step cost a store each */
    while (i < c->len && is_sep((unsigned char)c->b[i]))
        i++;
    c->i = c->from = i;
}

static void skip_blanks(cursor *c, size_t end)
{
    size_t i = c->i;
    while (i < end && is_blank((unsigned char)c->b[i]))
        i++;
    c->i = i;
}

/* A word of [c->i, end): its length, and in *all the classes (HC_UPPER,
 * HC_DIGIT, HC_ALNUM) all its bytes are of; c->i moves past it and its
 * blanks. */
static size_t word(cursor *c, size_t end, unsigned *all)
{
    const char *b = c->b;
    size_t k = c->i, i = k;
    unsigned a = HC_UPPER | HC_DIGIT | HC_ALNUM;
    for (; i < end; i++) {
        unsigned t = heading_class[(unsigned char)b[i]];
        if (t & HC_WORD)
            break;
        a &= t;
    }
    *all = a;
    c->i = i;
    skip_blanks(c, end);
    return i - k;
}

static void fail(cursor *c, size_t at)
{
    if (c->bad != (size_t)-1)
        return;
    c->bad = c->rest = at;
    while (c->rest > c->from && !at_line_start(c->b, c->rest))
        c->rest--;
}

static adexp_slice slice(const cursor *c, size_t from, size_t to)
{
    while (to > from && is_sep((unsigned char)c->b[to - 1]))
        to--;
    adexp_slice s = {to > from ? c->b + from : NULL, to - from};
    return s;
}

/* Whether the n bytes at i are all letters (the priority indicator). */
static inline int all_upper(const char *b, size_t i, size_t n)
{
    for (size_t k = i; k < i + n; k++)
        if (!is_upper((unsigned char)b[k]))
            return 0;
    return 1;
}

/* Addressee indicators (8 letters each) from c->i to end; 1 if all are. */
static int addressees(cursor *c, size_t end)
{
    int ok = c->i < end;
    while (c->i < end) {
        unsigned all;
        size_t at = c->i, n = word(c, end, &all);
        if (n != 8 || !(all & HC_UPPER)) {
            c->i = at;
            ok = 0;
            break;
        }
    }
    return ok;
}

/* The heading line's start: [SOH] [ZCZC]. */
static void heading_start(cursor *c)
{
    if (c->i < c->len && c->b[c->i] == SOH)
        c->i++;
    if (signal_at(c->b, c->len, c->i, "ZCZC"))
        c->i += 4;
}

/* Heading line, after its start: transmission id, then any more of the
 * line. */
static void heading_line(cursor *c, adexp_envelope *env)
{
    size_t end = line_end(c);
    skip_blanks(c, end);
    unsigned all;
    size_t at = c->i, n = word(c, end, &all);
    if (n == 0 || !(all & HC_ALNUM)) {
        fail(c, at);           /* the line is the envelope's text */
        return;
    }
    env->transmission_id = slice(c, at, at + n);
    env->text[0] = slice(c, c->i, end);
    next_line(c, end);
}

/* Address line(s): priority indicator, addressees; then lines of more
 * addressees, up to the origin line (which starts with a digit). The
 * parts are kept from whole lines only: a garbled line is the envelope's
 * text from its start (fail), so nothing is held twice. */
static void address_lines(cursor *c, adexp_envelope *env)
{
    size_t end = line_end(c), at = c->i;
    if (end - at < 2 || !all_upper(c->b, at, 2) ||
        (end - at > 2 && !is_blank((unsigned char)c->b[at + 2]))) {
        fail(c, at);
        return;
    }
    c->i += 2;
    skip_blanks(c, end);
    size_t first = c->i, last = end;
    if (!addressees(c, end)) {
        fail(c, c->i);
        return;
    }
    env->priority = slice(c, at, at + 2);
    next_line(c, end);
    while (c->i < c->len && !is_digit((unsigned char)c->b[c->i])) {
        end = line_end(c);
        if (!addressees(c, end)) {
            fail(c, c->i);
            break;
        }
        last = end;
        next_line(c, end);
    }
    env->addressees = slice(c, first, last);
}

/* Origin line: filing time DDHHMM, originator, then any more of the line;
 * its parts kept only when both are of their form (as address_lines'). */
static void origin_line(cursor *c, adexp_envelope *env)
{
    size_t end = line_end(c), at = c->i;
    unsigned all;
    if (word(c, end, &all) != 6 || !(all & HC_DIGIT)) {
        fail(c, at);
        return;
    }
    size_t o = c->i;
    if (word(c, end, &all) != 8 || !(all & HC_UPPER)) {
        fail(c, o);
        return;
    }
    env->filing_time = slice(c, at, at + 6);
    env->originator = slice(c, o, o + 8);
    env->text[1] = slice(c, c->i, end);
    next_line(c, end);
}

/* ------------------------------------------------ the heading's common shape */

/* The common heading, after its start, told whole from the classes of its
 * 64 bytes (one bit a byte) against its form: blanks, the transmission id
 * (letters and digits), blanks and any text; a line of the priority and
 * one to three addressees, one blank before each; a line of the filing
 * time (six digits), one blank, the originator (eight letters), and
 * blanks and any text. Each line ends before the heading's end, and
 * within the 64 bytes. Any other heading is read word by word (the lines'
 * own functions), which reads this one the same. */
typedef struct heading_bits {
    uint64_t upper, digit, blank, end, sep, dash;
} heading_bits;

#if SIMD_AVX2
/* The bytes of x in [lo, lo + n), as a byte mask. */
__attribute__((target(AVX2_TARGET))) static inline __m256i in_range(__m256i x, char lo, char n)
{
    __m256i d = _mm256_sub_epi8(x, _mm256_set1_epi8(lo));
    return _mm256_cmpeq_epi8(_mm256_min_epu8(d, _mm256_set1_epi8((char)(n - 1))), d);
}

/* The classes of the 32 bytes at p, put at bit `at` of m's masks. */
__attribute__((target(AVX2_TARGET))) static inline void half_bits(const char *p,
                                                                 heading_bits *m, int at)
{
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i end = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('\n')),
                        _mm256_cmpeq_epi8(x, _mm256_set1_epi8('\r'))),
        _mm256_cmpeq_epi8(x, _mm256_set1_epi8(STX)));
    __m256i blank = _mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8(' ')),
                                    _mm256_cmpeq_epi8(x, _mm256_set1_epi8('\t')));
    m->upper |= (uint64_t)(uint32_t)_mm256_movemask_epi8(in_range(x, 'A', 26)) << at;
    m->digit |= (uint64_t)(uint32_t)_mm256_movemask_epi8(in_range(x, '0', 10)) << at;
    m->blank |= (uint64_t)(uint32_t)_mm256_movemask_epi8(blank) << at;
    m->end |= (uint64_t)(uint32_t)_mm256_movemask_epi8(end) << at;
    __m256i sep = _mm256_or_si256(in_range(x, '\t', 5), _mm256_cmpeq_epi8(x, _mm256_set1_epi8(' ')));
    m->sep |= (uint64_t)(uint32_t)_mm256_movemask_epi8(sep) << at;
    m->dash |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('-')))
               << at;
}

/* Whether the heading whose lines end at e of m's bytes (from base)
 * holds no '-' and the first '-' after it, among those bytes, starts the
 * text's -TITLE: the envelope's first '-', the -TITLE lexer_text_title
 * finds (whatever lies between is the parser's to keep as text), which is
 * then c->title_at. */
static int title_follows(cursor *c, const heading_bits *m, size_t base, size_t e)
{
    if (!m->dash)
        return 0;
    size_t d = (size_t)__builtin_ctzll(m->dash), i = base + d;
    if (d < e || i >= c->len || !lexer_title_end(c->b, c->len, i))
        return 0;
    c->title_at = i;
    return 1;
}

/* The length of the line at k of m's bytes (up to its LF, CR or STX), or
 * 64 when it does not end within them. */
static inline size_t line_len(const heading_bits *m, size_t k)
{
    uint64_t e = k < 64 ? m->end >> k : 0;
    return e ? (size_t)__builtin_ctzll(e) : 64;
}

/* Past the blanks at k of m's bytes (k < 64). */
static inline size_t past_blanks(const heading_bits *m, size_t k)
{
    return k + (size_t)__builtin_ctzll(~(m->blank >> k));
}

/* The part of n bytes at from (of the heading at b), NULL when empty. */
static adexp_slice part(const char *b, size_t from, size_t n)
{
    adexp_slice s = {n ? b + from : NULL, n};
    return s;
}

/* The parts of the heading at base where sh puts them. */
static void heading_parts(const char *b, adexp_envelope *env, const lexer_heading_shape *sh)
{
    env->transmission_id = part(b, sh->id, sh->id_len);
    env->text[0] = part(b, sh->text0, sh->text0_len);
    env->priority = part(b, sh->addr, 2);
    env->addressees = part(b, sh->addr + 3u, (size_t)(sh->addr_end - sh->addr - 3));
    env->filing_time = part(b, sh->origin, 6);
    env->originator = part(b, sh->origin + 7u, 8);
    env->text[1] = part(b, sh->text1, sh->text1_len);
}

/* The bytes a common heading's form and places are told from: up to its
 * next line's first byte (what follows, the text, is the -TITLE's to tell,
 * title_follows). */
static inline uint64_t shape_span(size_t next)
{
    return ((uint64_t)2 << next) - 1;
}

static int same_classes(const heading_bits *m, const lexer_heading_shape *s)
{
    return (((m->upper ^ s->upper) | (m->digit ^ s->digit) | (m->blank ^ s->blank) |
             (m->end ^ s->end) | (m->sep ^ s->sep)) &
            shape_span(s->next)) == 0;
}

/* The common heading's form checked on m's bytes from base (each line
 * ending before room), its parts' places into *sh; 0 if not of the form. */
static int heading_shape_of(cursor *c, const heading_bits *m, size_t base, size_t room,
                            lexer_heading_shape *sh)
{
    /* the heading line: its end is no blank, letter or digit, so both
     * runs stop at it */
    size_t n = line_len(m, 0);
    if (n >= 64 || n >= room)
        return 0;
    size_t id = past_blanks(m, 0);
    size_t w = (size_t)__builtin_ctzll(~((m->upper | m->digit) >> id));
    if (w == 0 || !((m->blank | m->end) >> (id + w) & 1))
        return 0;
    size_t t0 = past_blanks(m, id + w), e0 = n;
    next_line(c, base + e0);
    /* the address line: letters, and a blank at 2, 11, 20 and 29 */
    size_t a = c->i - base;
    n = line_len(m, a);
    const uint64_t spaces = 1u << 2 | 1u << 11 | 1u << 20 | 1u << 29;
    uint64_t all = ((uint64_t)1 << (n & 63)) - 1;
    if (n < 11 || n > 29 || (n - 2) % 9 != 0 || a + n >= 64 || a + n >= room ||
        (m->upper >> a & all) != (~spaces & all) || (m->blank >> a & all) != (spaces & all))
        return 0;
    size_t e1 = a + n;
    next_line(c, base + e1);
    /* the origin line (no more lines of addressees before it) */
    size_t o = c->i - base;
    n = line_len(m, o);
    if (n < 15 || n >= 64 || o + n >= 64 || o + n >= room || (m->digit >> o & 0x7fu) != 0x3fu ||
        !(m->blank >> (o + 6) & 1) || (m->upper >> (o + 7) & 0xffu) != 0xffu ||
        !((m->blank | m->end) >> (o + 15) & 1))
        return 0;
    size_t e2 = o + n, t1 = past_blanks(m, o + 15);
    next_line(c, base + e2);
    /* the words end with a letter or digit: nothing to trim but the texts */
    adexp_slice t[2] = {slice(c, base + t0, base + e0), slice(c, base + t1, base + e2)};
    *sh = (lexer_heading_shape){
        .id = (uint8_t)id, .id_len = (uint8_t)w, .text0 = (uint8_t)t0,
        .text0_len = (uint8_t)t[0].len, .addr = (uint8_t)a, .addr_end = (uint8_t)e1,
        .origin = (uint8_t)o, .text1 = (uint8_t)t1, .text1_len = (uint8_t)t[1].len,
        .lines_end = (uint8_t)e2};
    return 1;
}

__attribute__((target(AVX2_TARGET))) static int heading_quick_avx2(cursor *c,
                                                                  adexp_envelope *env)
{
    heading_bits m = {0, 0, 0, 0, 0, 0};
    half_bits(c->b + c->i, &m, 0);
    half_bits(c->b + c->i + 32, &m, 32);
    size_t base = c->i, room = c->len - base;   /* each line ends before c->len */
    lexer_heading_shape sh, *seen = c->seen;
    /* the same classes as the last's, up to its next line (a zeroed one has
     * no letters, which a heading has): the same form, the same places, as
     * its next line is a byte that is no separator before room (so were its
     * lines' ends and the next lines' starts) */
    int known = seen && seen->upper && same_classes(&m, seen) && seen->next < room;
    size_t next;
    if (known) {
        sh = *seen;
        next = sh.next;
    } else if (heading_shape_of(c, &m, base, room, &sh)) {
        next = c->i - base;
    } else {
        return 0;
    }
    if (c->titled && !title_follows(c, &m, base, sh.lines_end))
        return 0;
    if (!known && seen && next < 64 && !(m.sep >> next & 1)) {
        *seen = sh;
        seen->next = (uint8_t)next;
        uint64_t span = shape_span(next);
        seen->upper = m.upper & span, seen->digit = m.digit & span;
        seen->blank = m.blank & span, seen->end = m.end & span, seen->sep = m.sep & span;
    }
    heading_parts(c->b + base, env, &sh);
    c->i = c->from = base + next;
    return 1;
}
#endif

/* 1 when the heading at c->i (after its start) is of the common shape,
 * its parts read and c->i past it; 0 with c and env as they were. */
static int heading_quick(cursor *c, adexp_envelope *env)
{
#if SIMD_AVX2
    if (c->i + 64 <= c->readable && c->i < c->len && cpu_has_avx2()) {
        size_t at = c->i, from = c->from;
        if (heading_quick_avx2(c, env))
            return 1;
        c->i = at;
        c->from = from;
    }
#endif
    (void)c;
    (void)env;
    return 0;
}

size_t lexer_envelope_heading(const char *b, size_t len, size_t readable, size_t start,
                              adexp_envelope *env, size_t *bad)
{
    cursor c = {b, len, start, start, (size_t)-1, (size_t)-1, start, readable, 0, 0, NULL};
    env->present = 1;
    env->form = b[start] == SOH ? ADEXP_FORM_IA5 : ADEXP_FORM_ITA2;
    heading_start(&c);
    if (!heading_quick(&c, env)) {
        heading_line(&c, env);
        if (c.bad == (size_t)-1)
            address_lines(&c, env);
        if (c.bad == (size_t)-1)
            origin_line(&c, env);
    }
    if (c.bad != (size_t)-1) {
        c.i = c.rest;          /* the rest is the envelope's text */
    } else if (c.i < len && b[c.i] == STX) {
        c.i++;
    }
    *bad = c.bad;
    return c.i;
}

size_t lexer_envelope_text(const char *b, size_t end, size_t readable, size_t start,
                           adexp_envelope *env, size_t *bad, size_t *first,
                           lexer_heading_shape *seen)
{
    /* the common heading followed by the text's -TITLE: both from one
     * classification of its bytes, not a search for the '-' as well */
    cursor c = {b, end, start, start, (size_t)-1, (size_t)-1, start, readable, 1, 0, seen};
    heading_start(&c);
    if (heading_quick(&c, env)) {
        env->present = 1;
        env->form = b[start] == SOH ? ADEXP_FORM_IA5 : ADEXP_FORM_ITA2;
        if (c.i < end && b[c.i] == STX)
            c.i++;
        *bad = (size_t)-1;
        *first = c.title_at;
        return c.i;
    }
    *first = lexer_text_title(b, end, start + 1);
    return lexer_envelope_heading(b, *first, readable, start, env, bad);
}

/* ------------------------------------------------------------- bare lines */

/* A log may keep an envelope's address and origin lines but neither its
 * heading nor its end (ADEXP_FORM_BARE):
 *
 *          FF LKPREPWC EUCHZMFP
 *          170001 EUCHZMFP
 *          -TITLE IFPL ...
 *
 * With no signal to mark them, such lines are an envelope only when they
 * are of their form throughout and the text's -TITLE follows them (blank
 * lines between allowed): the priority one of the five indicators (SS,
 * DD, FF, GG, KK), each addressee 8 letters (on the address line and any
 * lines after it), the filing time a day, hour and minute, the originator
 * 8 letters, and no '-' in any of the lines, so that they lie in the last
 * value of the message before them, where lexer_bare_before finds them.
 * Any other lines are ADEXP text, as without recognition. */

static int is_priority(const char *b, size_t len, size_t i)
{
    char c = b[i];
    return (c == 'S' || c == 'D' || c == 'F' || c == 'G' || c == 'K') && len - i >= 3 &&
           b[i + 1] == c && is_blank((unsigned char)b[i + 2]);
}

/* Six digits DDHHMM: a day of the month, an hour and a minute. */
static int is_ddhhmm(const char *t)
{
    int d = (t[0] - '0') * 10 + t[1] - '0', h = (t[2] - '0') * 10 + t[3] - '0',
        m = (t[4] - '0') * 10 + t[5] - '0';
    return d >= 1 && d <= 31 && h <= 23 && m <= 59;
}

/* lexer_bare_heading past its first test: out of line, so that a start
 * that is none (every framed message's ZCZC or SOH) costs that test. */
static __attribute__((noinline)) size_t bare_lines(const char *b, size_t len, size_t start,
                                                   adexp_envelope *env)
{
    if (!at_line_start(b, start))
        return (size_t)-1;
    adexp_envelope e = {0};
    cursor c = {b, len, start, start, (size_t)-1, (size_t)-1, start, 0, 0, 0, NULL};
    address_lines(&c, &e);
    if (c.bad == (size_t)-1)
        origin_line(&c, &e);
    size_t t = c.i;            /* past the lines and the blank ones after */
    if (c.bad != (size_t)-1 || !is_ddhhmm(e.filing_time.ptr) ||
        memchr(b + start, '-', t - start) || t >= len || b[t] != '-' ||
        !lexer_title_end(b, len, t))
        return (size_t)-1;
    if (env) {
        e.present = 1;
        e.form = ADEXP_FORM_BARE;
        *env = e;
    }
    return t;
}

size_t lexer_bare_heading(const char *b, size_t len, size_t start, adexp_envelope *env)
{
    if (start >= len || !is_priority(b, len, start))
        return (size_t)-1;
    return bare_lines(b, len, start, env);
}

/* Whether the line [i, end), after its blanks, is one of addressees: its
 * first word of 8 letters. */
static int addressee_like(const char *b, size_t i, size_t end)
{
    return end - i >= 8 && all_upper(b, i, 8) && (end - i == 8 || is_blank((unsigned char)b[i + 8]));
}

size_t lexer_bare_before(const char *b, size_t len, size_t from, size_t title,
                         adexp_envelope *env)
{
    /* back over the blank lines, then line by line: the origin line (it
     * starts with a digit), then lines of addressees up to the one that
     * starts with the priority (the lines after it may start with blanks,
     * it may not); what is found is then read forward by the rule itself,
     * lexer_bare_heading */
    size_t j = title;
    for (int n = 0;; n++) {
        while (j > from && is_sep((unsigned char)b[j - 1]))
            j--;
        size_t ls = j;
        while (ls > from && !is_line_end((unsigned char)b[ls - 1]))
            ls--;
        if (ls <= from || ls == j)
            return (size_t)-1;
        if (n > 0 && is_priority(b, len, ls))
            return lexer_bare_heading(b, len, ls, env) == title ? ls : (size_t)-1;
        size_t w = ls;
        while (is_sep((unsigned char)b[w]))
            w++;               /* (j ends the line with a byte that is none) */
        if (n == 0 ? !is_digit((unsigned char)b[w]) : !addressee_like(b, w, j))
            return (size_t)-1;
        j = ls;
    }
}

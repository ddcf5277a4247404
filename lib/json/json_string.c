/* JSON strings (json_string.h): one rule, written byte by byte in
 * json_string_scalar, and the same rule with its common case, a run of
 * bytes copied as they are, taken many bytes at a time. */
#include <string.h>

#include "json_avx2.h"
#include "json_out.h"
#include "json_runs.h"

/* Byte classes for JSON strings: copied as is, separator, escaped with a
 * backslash, control byte, byte >= 0x80. */
const unsigned char json_class[256] = {
    [0x00] = J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL,
    [0x08] = J_CTRL, J_SEP, J_SEP, J_CTRL, J_CTRL, J_SEP, J_CTRL, J_CTRL,
    [0x10] = J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL,
    [0x18] = J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL,
    [' '] = J_SEP, ['"'] = J_QUOTE, ['\\'] = J_QUOTE,
    [0x80] = J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
};

#define LIT(o, s) (memcpy((o), (s), sizeof(s) - 1), (o) + sizeof(s) - 1)

/* A control byte as \u00XX; a byte >= 0x80 that is not UTF-8 as \udcXX,
 * a lone low surrogate (the "surrogateescape" scheme of Python and of the
 * JSON's source), so that the bytes can be told from the characters
 * U+0080 to U+00FF and come back (adexp-write, Python's
 * s.encode("utf-8", "surrogateescape")). */
static char *escape_byte(char *o, unsigned char c)
{
    static const char hex[] = "0123456789abcdef";
    o = c < 0x80 ? LIT(o, "\\u00") : LIT(o, "\\udc");
    *o++ = hex[c >> 4];
    *o++ = hex[c & 15];
    return o;
}

/* A byte that is not plain at p[*i] (kind k): a quote or backslash escaped,
 * a valid UTF-8 sequence copied, any other byte as \udcXX. */
static ALWAYS_INLINE char *put_special(char *o, const unsigned char *p, size_t *i, size_t n,
                                       unsigned k)
{
    if (k == J_QUOTE) {
        *o++ = '\\';
        *o++ = (char)p[(*i)++];
        return o;
    }
    size_t u = k == J_HIGH ? json_utf8_len(p + *i, n - *i) : 0;
    if (!u)
        return escape_byte(o, p[(*i)++]);
    memcpy(o, p + *i, u);
    *i += u;
    return o + u;
}

/* The rule, byte by byte. With fold, runs of separators become one space
 * and the ends are trimmed; without, only the space is kept as is. */
char *json_string_scalar(char *o, adexp_slice s, int fold)
{
    const unsigned char *p = (const unsigned char *)s.ptr;
    size_t i = 0, n = s.len;
    int pending = 0, any = 0;
    *o++ = '"';
    while (i < n) {
        unsigned char c = p[i];
        unsigned k = json_class[c];
        if (k == J_SEP && fold) {
            pending = any;
            i++;
            continue;
        }
        if (pending)
            *o++ = ' ';
        pending = 0;
        any = 1;
        if (k == J_PLAIN || c == ' ') {
            do
                *o++ = (char)p[i++];
            while (i < n && json_class[p[i]] == J_PLAIN);
        } else {
            o = put_special(o, p, &i, n, k);
        }
    }
    *o++ = '"';
    return o;
}

/* The rule of json_string_scalar with its runs copied by run, from p[i]
 * on, o the output for it; any: whether a byte was written before. */
static ALWAYS_INLINE char *string_rest(char *o, const unsigned char *p, size_t i, size_t n,
                                       int fold, int any, run_fn *run)
{
    int pending = 0;
    while (i < n) {
        unsigned char c = p[i];
        unsigned k = json_class[c];
        if (k == J_SEP && fold) {
            pending = any;
            i++;
            continue;
        }
        if (pending)
            *o++ = ' ';
        pending = 0;
        any = 1;
        if (k == J_PLAIN || c == ' ') {
            size_t r = run(p + i, n - i, o, fold);   /* at least p[i] */
            o += r;
            i += r;
        } else {
            o = put_special(o, p, &i, n, k);
        }
    }
    *o++ = '"';
    return o;
}

/* Each writer: its first run inline, the rest out of line, each with
 * fold known to the compiler. */
#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif
#define REST(rest, run)                                                                \
    NOINLINE char *rest(char *o, const unsigned char *p, size_t i, size_t n, int fold,   \
                        int any)                                                       \
    {                                                                                  \
        return fold ? string_rest(o, p, i, n, 1, any, run)                             \
                    : string_rest(o, p, i, n, 0, any, run);                            \
    }
#define WRITER(name, run, rest)                                                        \
    char *name(char *o, adexp_slice s, int fold)                                       \
    {                                                                                  \
        return string_first(o, s, fold, run, rest);                                    \
    }

static REST(rest_bytes, run_bytes)
WRITER(json_string_bytes, run_bytes, rest_bytes)
static REST(rest_swar, run_swar)
WRITER(json_string_swar, run_swar, rest_swar)
REST(json_string_rest, JSON_RUN)
WRITER(json_string, JSON_RUN, json_string_rest)
#if JSON_STRING_SSE2
WRITER(json_string_sse2, run_sse2, json_string_rest)
#endif
#if JSON_AVX2
__attribute__((target(AVX2_TARGET))) REST(json_string_rest_avx2, run_avx2)
__attribute__((target(AVX2_TARGET))) WRITER(json_string_avx2, run_avx2, json_string_rest_avx2)
#endif

/* The count of decimal digits of v: from its count of bits (the log of 2
 * as 1233 / 4096), then one comparison with a power of ten. */
static size_t decimal_digits(uint64_t v)
{
#if defined(__GNUC__)
    static const uint64_t pow10[20] = {
        1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u,
        1000000000u, 10000000000u, 100000000000u, 1000000000000u, 10000000000000u,
        100000000000000u, 1000000000000000u, 10000000000000000u, 100000000000000000u,
        1000000000000000000u, 10000000000000000000u};
    unsigned t = (unsigned)(64 - __builtin_clzll(v | 1)) * 1233 >> 12;   /* 0 to 19 */
    return t + ((v | 1) >= pow10[t]);
#else
    size_t n = 1;
    for (; v >= 10; v /= 10)
        n++;
    return n;
#endif
}

/* v in decimal at o (at most 20 bytes): its digits counted first, then
 * written from the last, two a turn; in 32 bits once v fits (a cheaper
 * division by 100). */
char *adexp_json_u64_at(char *o, uint64_t v)
{
    static const char pairs[] = "00010203040506070809101112131415161718192021222324"
                                "25262728293031323334353637383940414243444546474849"
                                "50515253545556575859606162636465666768697071727374"
                                "75767778798081828384858687888990919293949596979899";
    size_t n = decimal_digits(v);
    char *end = o + n;
    for (; v > UINT32_MAX; v /= 100)
        memcpy(end -= 2, pairs + 2 * (v % 100), 2);
    uint32_t w = (uint32_t)v;
    for (; w >= 100; w /= 100)
        memcpy(end -= 2, pairs + 2 * (w % 100), 2);
    if (w >= 10)
        memcpy(end - 2, pairs + 2 * w, 2);
    else
        end[-1] = (char)('0' + w);
    return o + n;
}

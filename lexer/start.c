/* Where a message starts: the one rule for the parser, the splitter of big
 * inputs, the stream reader and the binary probe (see lexer.h). */
#define _GNU_SOURCE            /* memmem */
#include <string.h>

#include "lexer.h"
#include "simd.h"

size_t lexer_title_end(const char *buf, size_t len, size_t dash)
{
    size_t i = dash + 1;
    while (i < len && is_sep((unsigned char)buf[i]))
        i++;
    if (len - i < 5 || memcmp(buf + i, "TITLE", 5) != 0)
        return 0;
    i += 5;
    /* the keyword ends here: TITLEX or TITLE1 is another keyword */
    return i == len || buf[i] == '-' || is_sep((unsigned char)buf[i]) ? i : 0;
}

/* The '-' before the "TITLE" at t, over separators, or len if there is none. */
static size_t dash_before(const char *buf, size_t len, size_t t)
{
    while (t > 0 && is_sep((unsigned char)buf[t - 1]))
        t--;
    return t > 0 && buf[t - 1] == '-' ? t - 1 : len;
}

int lexer_title_quoted(const char *buf, size_t dash)
{
    while (dash > 0 && is_sep((unsigned char)buf[dash - 1]))
        dash--;
    return dash > 0 && buf[dash - 1] == '(';
}

#if SIMD_AVX2
/* The first "TIT" starting in the 32-byte steps from *i while 34 bytes
 * are left (its third byte loaded too), or (size_t)-1 with *i where they
 * end. Three compares a step: memmem's search for a word of 5 bytes took
 * 3 instructions a byte. */
__attribute__((target(AVX2_TARGET))) static size_t tit_avx2(const char *b, size_t len, size_t *i)
{
    const __m256i t = _mm256_set1_epi8('T'), c = _mm256_set1_epi8('I');
    for (; len - *i >= 34; *i += 32) {
        const char *p = b + *i;
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
        __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(p + 1));
        __m256i z = _mm256_loadu_si256((const __m256i *)(const void *)(p + 2));
        __m256i m = _mm256_and_si256(_mm256_and_si256(_mm256_cmpeq_epi8(x, t),
                                                      _mm256_cmpeq_epi8(y, c)),
                                     _mm256_cmpeq_epi8(z, t));
        unsigned bits = (unsigned)_mm256_movemask_epi8(m);
        if (bits)
            return *i + (size_t)__builtin_ctz(bits);
    }
    return (size_t)-1;
}
#endif

/* The first "TITLE" at or after i (i <= len), or len. */
static size_t next_title_word(const char *buf, size_t len, size_t i)
{
#if SIMD_AVX2
    if (cpu_has_avx2()) {
        for (size_t k; (k = tit_avx2(buf, len, &i)) != (size_t)-1; i = k + 1)
            if (len - k >= 5 && memcmp(buf + k, "TITLE", 5) == 0)
                return k;
    }
#endif
    const char *t = i < len ? memmem(buf + i, len - i, "TITLE", 5) : NULL;
    return t ? (size_t)(t - buf) : len;
}

size_t lexer_next_title(const char *buf, size_t len, size_t from)
{
    /* "TITLE" is rarer than '-' (a field in every line): look for it, then
     * back for its '-' */
    for (size_t i = from; i < len;) {
        size_t at = next_title_word(buf, len, i);
        if (at == len)
            break;
        size_t dash = dash_before(buf, len, at);
        if (dash < len && dash >= from && lexer_title_end(buf, len, dash))
            return dash;
        i = at + 1;
    }
    return len;
}

/* One rule for what is valid UTF-8, shared by the writers of names. Not
 * installed. */
#ifndef ADEXP_UTF8_H
#define ADEXP_UTF8_H

#include <stddef.h>

/* Length (2 to 4) of the valid multi-byte UTF-8 sequence at s[0..n), or 0
 * (overlong forms, surrogates and code points above U+10FFFF are not
 * valid). *cp gets its code point. */
static inline size_t adexp_utf8_seq(const unsigned char *s, size_t n, unsigned *cp)
{
    unsigned char c = s[0];
    size_t len;
    unsigned min, v;
    if (c >= 0xC2 && c <= 0xDF) len = 2, min = 0x80, v = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF) len = 3, min = 0x800, v = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4) len = 4, min = 0x10000, v = c & 0x07;
    else return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return len;
}

#endif

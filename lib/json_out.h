/* The JSON writer's pieces shared by the library's other JSON outputs
 * (the typed view, validation warnings, ...): one escaping rule for every
 * string the library writes. Not installed. */
#ifndef ADEXP_JSON_OUT_H
#define ADEXP_JSON_OUT_H

#include "adexp.h"

/* Appends n bytes. Returns 0 when out of memory (out unchanged). */
int adexp_buf_put(adexp_buf *out, const char *s, size_t n);
/* Appends s as a JSON string, quotes included, escaped as adexp_json_write
 * does; fold: separator runs become one space and the ends are trimmed.
 * Returns 0 when out of memory (out unchanged). */
int adexp_json_put_string(adexp_buf *out, adexp_slice s, int fold);

/* json_name.c: `source`, lossless when the name is not UTF-8. */
int adexp_json_name_is_utf8(adexp_slice s);
/* Writes s as a JSON string at o (room: 6 * s.len + 2); returns the end. */
char *adexp_json_name_at(char *o, adexp_slice s);
/* Appends s so; returns 0 when out of memory (out unchanged). */
int adexp_json_put_name(adexp_buf *out, adexp_slice s);
/* A pointer to n free bytes at b->data + b->len (len unchanged), or NULL
 * when out of memory (b unchanged): for writers that reserve a piece's
 * worst case once and then write without checks. May move b->data. */
char *adexp_buf_room(adexp_buf *b, size_t n);

/* Length of the valid UTF-8 sequence at s[0..n) (n > 0), or 0: no
 * overlong forms, no surrogates, at most U+10FFFF. What every output
 * takes as UTF-8; inline, as the JSON string writer's slow path calls it. */
static inline size_t json_utf8_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len;
    unsigned min;
    unsigned cp;
    if (c >= 0xC2 && c <= 0xDF) len = 2, min = 0x80, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF) len = 3, min = 0x800, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4) len = 4, min = 0x10000, cp = c & 0x07;
    else return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

#endif

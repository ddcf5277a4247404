/* The output buffer (adexp_buf) every writer appends to: the JSON lines,
 * the typed view, CSV, ADEXP again, the batch driver's output. A writer
 * reserves a piece's worst case once (room), then writes without checks.
 * Not installed. */
#ifndef ADEXP_BUF_H
#define ADEXP_BUF_H

#include <stddef.h>

#include "adexp.h"

/* b grown for n more bytes after b->len: a pointer to them (len
 * unchanged), or NULL when out of memory (b unchanged). May move b->data. */
char *adexp_buf_grow(adexp_buf *b, size_t n);

/* A pointer to n free bytes at b->data + b->len (len unchanged), or NULL
 * when out of memory (b unchanged). May move b->data. */
static inline char *adexp_buf_room(adexp_buf *b, size_t n)
{
    return b->cap - b->len >= n ? b->data + b->len : adexp_buf_grow(b, n);
}

/* adexp_buf_room for a writer that stops at its first failure: NULL once
 * *ok is 0, and *ok set to 0 when out of memory. */
static inline char *adexp_buf_room_ok(adexp_buf *b, size_t n, int *ok)
{
    char *o = *ok ? adexp_buf_room(b, n) : NULL;
    if (!o)
        *ok = 0;
    return o;
}

/* For a writer whose cursor o (in b->data) runs ahead of b->len, which it
 * sets at its end: whether n bytes fit at o. */
static inline int adexp_buf_fits_at(const adexp_buf *b, const char *o, size_t n)
{
    return (size_t)(b->data + b->cap - o) >= n;
}

/* b->len set to o's offset and b grown for n more bytes: o's place in
 * the grown buffer, or NULL when out of memory. */
char *adexp_buf_grow_at(adexp_buf *b, char *o, size_t n);

/* Appends n bytes. Returns 0 when out of memory (out unchanged). */
int adexp_buf_put(adexp_buf *out, const char *s, size_t n);

#endif

/* The output buffer: grown by doubling, from 4 KiB. */
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "internal.h"

void adexp_buf_init(adexp_buf *b, const adexp_allocator *hooks)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->a = hooks ? *hooks : adexp_default_allocator();
}

void adexp_buf_free(adexp_buf *b)
{
    if (!b)
        return;
    if (b->data)
        b->a.free(b->a.ctx, b->data, b->cap);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* The allocator has no realloc: copy on growth, which doubling keeps
 * rare. */
char *adexp_buf_grow(adexp_buf *b, size_t n)
{
    if (b->cap - b->len >= n)
        return b->data + b->len;
    if (n > SIZE_MAX / 2 - b->len)
        return NULL;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap - b->len < n)
        cap *= 2;
    char *d = b->a.alloc(b->a.ctx, cap);
    if (!d)
        return NULL;
    if (b->data) {
        memcpy(d, b->data, b->len);
        b->a.free(b->a.ctx, b->data, b->cap);
    }
    b->data = d;
    b->cap = cap;
    return d + b->len;
}

char *adexp_buf_grow_at(adexp_buf *b, char *o, size_t n)
{
    b->len = (size_t)(o - b->data);
    return adexp_buf_grow(b, n);
}

int adexp_buf_put(adexp_buf *out, const char *s, size_t n)
{
    if (n == 0)
        return 1;
    char *o = adexp_buf_room(out, n);
    if (!o)
        return 0;
    memcpy(o, s, n);
    out->len += n;
    return 1;
}

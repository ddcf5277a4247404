/* Room at the end of an adexp_buf for writers that reserve a piece's worst
 * case once and then write without checks (the view and CSV writers). It
 * grows the buffer as adexp_buf_put does: doubling through its allocator,
 * which has no realloc. */
#include <string.h>

#include "adexp.h"
#include "out_room.h"

char *adexp__buf_room(adexp_buf *b, size_t n)
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

/* Batch driver: the numbers of a message parsed from a piece of an input
 * (a cut of a big file, the tail of a stream) made those of the whole
 * input, so that the output does not depend on where the input was cut.
 * Offsets, lines and columns are known when the piece is parsed; the index
 * of a piece's messages is known only when the pieces before it are done,
 * so the writer patches it in the piece's output (batch_patch_numbers). */
#include <stdlib.h>
#include <string.h>

#include "batch_internal.h"
#include "json_out.h"

uint64_t batch_count_lines(const char *in, size_t len, size_t from, size_t to)
{
    uint64_t n = 0;
    for (size_t i = from; i < to; i++)
        n += in[i] == '\n';
    /* A CR ends a line unless an LF follows (then the LF was counted). */
    for (const char *p = in + from, *e = in + to;
         (p = memchr(p, '\r', (size_t)(e - p))) != NULL; p++)
        n += (size_t)(p - in) + 1 == len || p[1] != '\n';
    return n;
}

size_t batch_line_start(const char *in, size_t len, size_t at)
{
    for (size_t i = at; i > 0; i--) {
        char c = in[i - 1];
        if (c == '\n' || (c == '\r' && (i == len || in[i] != '\n')))
            return i;
    }
    return 0;
}

static void rebase_fields(adexp_field *f, size_t offset)
{
    for (; f; f = f->next) {
        f->offset += offset;
        rebase_fields(f->child, offset);
    }
}

void batch_rebase_msg(adexp_msg *m, const batch_base *base, int fields)
{
    m->offset += base->offset;
    m->index += base->index;
    for (size_t i = 0; i < m->nerrors; i++) {
        adexp_error *e = &m->errors[i];
        if (e->line == 1)
            e->column += (uint32_t)base->column0;
        e->line += (uint32_t)(base->line - 1);
        e->offset += base->offset;
    }
    if (fields)
        rebase_fields(m->fields, base->offset);
}

int batch_mark(batch_marks *mk, size_t pos)
{
    if (mk->n == mk->cap) {
        size_t cap = mk->cap ? mk->cap * 2 : 1024;
        size_t *v = realloc(mk->v, cap * sizeof *v);
        if (!v)
            return -1;
        mk->v = v;
        mk->cap = cap;
    }
    mk->v[mk->n++] = pos;
    return 0;
}

int batch_patch_numbers(adexp_buf *out, const char *data, size_t len,
                        const batch_marks *mk, uint64_t add)
{
    size_t at = 0;
    out->len = 0;
    for (size_t i = 0; i < mk->n; i++) {
        size_t p = mk->v[i], q = p;
        uint64_t v = 0;
        while (q < len && data[q] >= '0' && data[q] <= '9')
            v = v * 10 + (uint64_t)(data[q++] - '0');
        char digits[24];
        int nd = 0;
        v += add;
        do
            digits[sizeof digits - 1 - nd++] = (char)('0' + v % 10);
        while ((v /= 10) != 0);
        if (!adexp_buf_put(out, data + at, p - at) ||
            !adexp_buf_put(out, digits + sizeof digits - nd, (size_t)nd))
            return -1;
        at = q;
    }
    return adexp_buf_put(out, data + at, len - at) ? 0 : -1;
}

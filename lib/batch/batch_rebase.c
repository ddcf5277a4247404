/* Batch driver: the numbers of a message parsed from a piece of an input
 * (a cut of a big file, the tail of a stream) made those of the whole
 * input, so that the output does not depend on where the input was cut.
 * Offsets, lines and columns are known when the piece is parsed; the index
 * of a piece's messages is known only when the pieces before it are done,
 * so the writer patches it in the piece's output (batch_patch_numbers). */
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "batch_internal.h"
#include "json_out.h"

static void rebase_fields(adexp_field *f, size_t offset)
{
    for (; f; f = f->next) {
        f->offset += offset;
        rebase_fields(f->child, offset);
    }
}

void batch_rebase_fields(adexp_msg *m, size_t offset)
{
    rebase_fields(m->fields, offset);
}

void batch_rebase_findings(adexp_findings *f, const batch_base *base)
{
    for (size_t i = 0; i < f->n; i++) {
        lines_rebase(&f->v[i].line, &f->v[i].column, base->line, base->column0);
        f->v[i].offset += base->offset;
    }
}

void batch_rebase_msg(adexp_msg *m, const batch_base *base)
{
    m->offset += base->offset;
    m->index += base->index;
    for (size_t i = 0; i < m->nerrors; i++) {
        adexp_error *e = &m->errors[i];
        lines_rebase(&e->line, &e->column, base->line, base->column0);
        e->offset += base->offset;
    }
}

static int mark_room(batch_marks *mk, int with_num)
{
    if (mk->n < mk->cap)
        return 0;
    size_t cap = mk->cap ? mk->cap * 2 : 1024;
    size_t *v = realloc(mk->v, cap * sizeof *v);
    if (!v)
        return -1;
    mk->v = v;
    if (with_num) {
        uint64_t *num = realloc(mk->num, cap * sizeof *num);
        if (!num)
            return -1;     /* v grown, cap not: the next call grows again */
        mk->num = num;
    }
    mk->cap = cap;
    return 0;
}

int batch_mark(batch_marks *mk, size_t pos)
{
    if (mark_room(mk, 0) != 0)
        return -1;
    mk->v[mk->n++] = pos;
    return 0;
}

int batch_mark_number(batch_marks *mk, size_t pos, uint64_t value)
{
    if (mark_room(mk, 1) != 0)
        return -1;
    mk->v[mk->n] = pos;
    mk->num[mk->n++] = value;
    return 0;
}

void batch_marks_free(batch_marks *mk)
{
    free(mk->v);
    free(mk->num);
}

/* The number at mark i of data[0..len): *end set past its digits. */
static uint64_t number_at(const char *data, size_t len, const batch_marks *mk, size_t i,
                          size_t *end)
{
    size_t q = mk->v[i];
    uint64_t v = 0;
    if (mk->num) {         /* known: its digits are not read back (a cache miss each) */
        v = mk->num[i];
        uint64_t x = v;
        do
            q++;
        while ((x /= 10) != 0);
    } else {
        while (q < len && data[q] >= '0' && data[q] <= '9')
            v = v * 10 + (uint64_t)(data[q++] - '0');
    }
    *end = q;
    return v;
}

int batch_patch_numbers(adexp_buf *out, const char *data, size_t len,
                        const batch_marks *mk, uint64_t add)
{
    size_t at = 0;
    out->len = 0;
    for (size_t i = 0; i < mk->n; i++) {
        size_t p = mk->v[i], q;
        char digits[24];
        size_t nd = (size_t)(adexp_json_u64_at(digits, number_at(data, len, mk, i, &q) + add) -
                             digits);
        if (!adexp_buf_put(out, data + at, p - at) || !adexp_buf_put(out, digits, nd))
            return -1;
        at = q;
    }
    return adexp_buf_put(out, data + at, len - at) ? 0 : -1;
}

uint64_t batch_patch_lines(batch_patch_pos from, batch_patch_pos to, size_t len)
{
    uint64_t marks = to.mark - from.mark;
    uint64_t first = from.mark == 0 && marks > 0;     /* mark 0 ends no line */
    uint64_t tail = to.at == len && from.at < len && to.mark > 0;
    return marks - first + tail;
}

size_t batch_patch_iov(const char *data, size_t len, const batch_marks *mk,
                       batch_patch_pos *pos, uint64_t add, struct iovec *iov,
                       char (*digits)[24], size_t max)
{
    size_t n = 0;
    while (n + 2 <= max && pos->mark < mk->n) {
        size_t p = mk->v[pos->mark], q;
        char *d = digits[n / 2];
        iov[n].iov_base = (void *)(data + pos->at);
        iov[n].iov_len = p - pos->at;
        iov[n + 1].iov_base = d;
        iov[n + 1].iov_len =
            (size_t)(adexp_json_u64_at(d, number_at(data, len, mk, pos->mark, &q) + add) - d);
        n += 2;
        pos->at = q;
        pos->mark++;
    }
    if (n < max && pos->mark == mk->n && pos->at < len) {
        iov[n].iov_base = (void *)(data + pos->at);
        iov[n++].iov_len = len - pos->at;
        pos->at = len;
    }
    return n;
}

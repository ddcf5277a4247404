/* Batch driver: a NUL byte inside a message is that message's error.
 *
 * The parser keeps a NUL byte as value text; a file holding one is not
 * refused as binary as long as it holds ADEXP messages (see batch_file.c).
 * Each message whose bytes hold a NUL gets a NUL_BYTE error at the first
 * one, with its line and column in the file, so that it is reported and
 * counted failed while the other messages come out as usual.
 */
#include <string.h>

#include "batch_internal.h"

/* Line of in[off], counted on from the cursor (messages come in order of
 * offset, so a file is scanned once). */
static uint32_t line_at(batch_lines *c, const char *in, size_t off)
{
    for (const char *p = in + c->pos, *end = in + off;
         (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) {
        c->line++;
        c->line_start = (size_t)(p - in) + 1;
    }
    c->pos = off;
    return c->line;
}

int batch_mark_nul(adexp_arena *arena, batch_lines *c, const char *in, adexp_msg *m)
{
    const char *nul = memchr(in + m->offset, '\0', m->length);
    if (!nul)
        return 0;
    size_t off = (size_t)(nul - in), at = 0;
    adexp_error *v = adexp_arena_alloc(arena, (m->nerrors + 1) * sizeof *v);
    if (!v)
        return 0;
    while (at < m->nerrors && m->errors[at].offset <= off)
        at++;
    if (m->nerrors) {   /* errors is NULL when there are none */
        memcpy(v, m->errors, at * sizeof *v);
        memcpy(v + at + 1, m->errors + at, (m->nerrors - at) * sizeof *v);
    }
    v[at].code = ADEXP_E_NUL_BYTE;
    v[at].message = adexp_status_message(ADEXP_E_NUL_BYTE);
    v[at].offset = off;
    v[at].line = line_at(c, in, off);
    v[at].column = (uint32_t)(off - c->line_start + 1);
    m->errors = v;
    m->nerrors++;
    m->nerrors_total++;
    return 1;
}

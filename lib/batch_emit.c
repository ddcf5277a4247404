/* Batch driver: what a worker writes for one parsed message, by output
 * format. Each format's writer lives in its own file; this is the one
 * place that chooses between them. */
#include "batch_internal.h"

/* A message the writer refuses (only one the parser flagged: the text of a
 * message parsed without error always reads back) is left out, said so with
 * the field's path; NOMEM goes back to the caller. */
static adexp_status emit_adexp(batch_worker *w, const char *path, const adexp_msg *m)
{
    adexp_write_error err;
    adexp_status st = adexp_write(&w->out, m, &w->b->o.adexp, &err);
    if (st == ADEXP_OK || st == ADEXP_E_NOMEM)
        return st;
    batch_str_printf(&w->err, "%s: message %zu not written as ADEXP: %s at %s: %s\n", path,
                     m->index, adexp_status_name(st), err.path, adexp_status_message(st));
    return m->nerrors_total ? ADEXP_OK : st;
}

static adexp_status emit_format(batch_worker *w, const char *path, const adexp_msg *m)
{
    switch (w->b->o.format) {
    case ADEXP_BATCH_JSON:
        return adexp_json_write(&w->out, m, path);
    case ADEXP_BATCH_ADEXP:
        return emit_adexp(w, path, m);
    case ADEXP_BATCH_SUMMARY:
    default:
        return ADEXP_OK;
    }
}

/* Appends the output of message m of input path to w->out. Returns
 * ADEXP_OK, or the writer's status (the caller reports it). */
adexp_status batch_emit(batch_worker *w, const char *path, const adexp_msg *m)
{
    if (!w->b->o.validate)
        return emit_format(w, path, m);
    adexp_status st = batch_validate(w, path, m);
    adexp_status out = emit_format(w, path, m);
    if (out == ADEXP_OK && w->b->o.format == ADEXP_BATCH_JSON)
        out = batch_json_warnings(w);
    return st != ADEXP_OK ? st : out;
}

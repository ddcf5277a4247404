/* Batch driver: what a worker writes for one parsed message, by output
 * format. Each format's writer lives in its own file; this is the one
 * place that chooses between them. */
#include <errno.h>
#include <unistd.h>

#include "batch_internal.h"
#include "csv.h"
#include "json_out.h"
#include "write_parsed.h"

/* A message the writer refuses (only one the parser flagged: the text of a
 * message parsed without error always reads back) is left out, said so with
 * the field's path; NOMEM goes back to the caller. */
static adexp_status emit_adexp(batch_worker *w, const char *path, const adexp_msg *m)
{
    adexp_write_error err;
    adexp_status st = write_parsed(&w->res.out, m, &w->b->o.adexp, &err);
    if (st == ADEXP_OK || st == ADEXP_E_NOMEM)
        return st;
    batch_put_head(w, path, 0, 0, BATCH_ERROR);
    batch_str_printf(&w->res.err, "message ");
    if (w->index_marks && batch_mark(w->index_marks, w->res.err.len) != 0)
        return ADEXP_E_NOMEM;
    batch_str_printf(&w->res.err, "%zu not written as ADEXP: %s at %s: %s\n", m->index,
                     adexp_status_name(st), err.path, adexp_status_message(st));
    return m->nerrors_total ? ADEXP_OK : st;
}

/* Writes m in the batch's format; *rows gets the CSV and TSV rows written
 * (the other formats leave it). */
static adexp_status emit_format(batch_worker *w, const char *path, const adexp_msg *m,
                                uint64_t *rows)
{
    const adexp_select *sel = w->b->o.select;
    switch (w->b->o.format) {
    case ADEXP_BATCH_JSON: {
        adexp_slice src = batch_json_source(w, path);
        if (!src.ptr)
            return ADEXP_E_NOMEM;
        if (!adexp_select_has_fields(sel))
            return adexp_json_write_quoted(&w->res.out, m, src);
        adexp_msg trimmed;
        adexp_status st = adexp_select_trim(sel, m, &w->arena, &trimmed);
        return st != ADEXP_OK ? st : adexp_json_write_quoted(&w->res.out, &trimmed, src);
    }
    case ADEXP_BATCH_ADEXP:
        return emit_adexp(w, path, m);
    case ADEXP_BATCH_VIEW: {
        adexp_slice src = batch_json_source(w, path);
        return src.ptr ? adexp_view_json_write_quoted(&w->res.out, m, src, sel) : ADEXP_E_NOMEM;
    }
    case ADEXP_BATCH_CSV:
        return csv_write_rows(&w->res.out, m, path, sel, ',', rows);
    case ADEXP_BATCH_TSV:
        return csv_write_rows(&w->res.out, m, path, sel, '\t', rows);
    case ADEXP_BATCH_SQLITE:
        return batch_sqlite_rows(w, path, m);
    case ADEXP_BATCH_SUMMARY:
    default:
        return ADEXP_OK;
    }
}

/* Appends the output of message m of input path to w->res.out. Returns
 * ADEXP_OK, or the writer's status (the caller reports it). Messages of
 * titles the selection leaves out are counted, not written. */
adexp_status batch_emit(batch_worker *w, const char *path, adexp_msg *m,
                        const batch_base *base)
{
    if (batch_gives_items(&w->b->o)) {     /* the items' messages carry every offset */
        if (base)
            batch_rebase_fields(m, base->offset);
        return batch_item_message(w, path, m);
    }
    if (!adexp_select_keeps(w->b->o.select, m)) {
        w->messages_left_out++;
        return ADEXP_OK;
    }
    if (w->b->o.format == ADEXP_BATCH_SUMMARY && !base)   /* nothing to write */
        return w->b->o.validate ? batch_validate(w, path, m, NULL) : ADEXP_OK;
    size_t from = w->res.out.len;
    adexp_status st = ADEXP_OK, out;
    /* validated before the fields' offsets move on (validation finds the
     * buffer by them); JSON writes none */
    if (w->b->o.validate)
        st = batch_validate(w, path, m, base);
    if (base && w->b->o.format != ADEXP_BATCH_JSON)
        batch_rebase_fields(m, base->offset);
    uint64_t rows = 0;
    out = emit_format(w, path, m, &rows);
    if (w->b->o.validate) {
        int f = w->b->o.format;
        if (out == ADEXP_OK && (f == ADEXP_BATCH_JSON || f == ADEXP_BATCH_VIEW))
            out = batch_json_warnings(w);
        if (out == ADEXP_OK && (f == ADEXP_BATCH_CSV || f == ADEXP_BATCH_TSV))
            out = batch_row_warnings(w, from, f == ADEXP_BATCH_CSV ? ',' : '\t');
    }
    w->res.lines += batch_rows_each(w->b) ? rows : w->res.out.len > from;
    return st != ADEXP_OK ? st : out;
}

/* JSON escapes every newline in a value; so does the view. */
int batch_line_each(const adexp_batch *b)
{
    return b->o.format == ADEXP_BATCH_JSON || b->o.format == ADEXP_BATCH_VIEW;
}

/* CSV and TSV fold every value, so a row ends at its only newline; the
 * warnings cell of --validate is left to the count as written. */
int batch_rows_each(const adexp_batch *b)
{
    return (b->o.format == ADEXP_BATCH_CSV || b->o.format == ADEXP_BATCH_TSV) &&
           !b->o.validate;
}

/* A block's lines are res->lines: JSON and the view's (a message a line),
 * CSV and TSV rows, and ADEXP in the line layout, values folded and no
 * envelope, which is a message a line too (folding takes every line end out
 * of its values; its index is not written, so it has no mark). */
int batch_lines_known(const adexp_batch *b)
{
    const adexp_write_options *a = &b->o.adexp;
    return batch_line_each(b) || batch_rows_each(b) ||
           (b->o.format == ADEXP_BATCH_ADEXP && a->layout == ADEXP_LAYOUT_LINE && a->fold &&
            !a->envelope);
}

int batch_emit_header(const adexp_batch *b)
{
    int f = b->o.format;
    if ((f != ADEXP_BATCH_CSV && f != ADEXP_BATCH_TSV) || batch_gives_items(&b->o))
        return 0;
    adexp_buf out;
    adexp_buf_init(&out, NULL);
    char sep = f == ADEXP_BATCH_CSV ? ',' : '\t';
    int err = adexp_csv_header(&out, b->o.select, sep) ? ENOMEM : 0;
    if (!err && b->o.validate && !batch_rows_add_cell(&out, 0, sep, "warnings", 8))
        err = ENOMEM;
    if (!err && b->o.on_output && b->o.on_output(b->o.output_ctx, out.data, out.len) != 0)
        err = ECANCELED;
    for (size_t done = 0; !err && !b->o.on_output && done < out.len;) {
        ssize_t n = write(b->o.out_fd, out.data + done, out.len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            err = errno;
        else
            done += (size_t)n;
    }
    adexp_buf_free(&out);
    return err;
}

/* Batch driver, --format sqlite: what a worker writes for one message, for
 * the one writer that puts it in the database in input order
 * (batch_sqlite.c). The work of a message (its cells, decoded companions,
 * JSON) is done here, on every worker; the writer only binds. Lines:
 *
 *   M TAB length (10 digits) TAB its JSON line TAB offset TAB its TSV row
 *   P TAB count (10 digits), then count TSV rows of --rows RTEPTS
 *   E TAB code TAB line TAB column TAB offset TAB message
 *   W TAB code TAB line TAB column TAB offset TAB field TAB message
 *
 * TSV cells are folded (no tab, no line break) and JSON escapes both, so
 * a line and a cell end where they seem to. */
#include <stdio.h>
#include <string.h>

#include "batch_internal.h"
#include "json_out.h"

static int put(adexp_buf *out, const char *s, size_t n)
{
    return adexp_buf_put(out, s, n);
}

static int put_num(adexp_buf *out, uint64_t v)
{
    char t[24];
    return put(out, t, (size_t)(adexp_json_u64_at(t, v) - t));
}

/* TAB and text with tabs and line breaks made spaces (an error's or a
 * finding's sentence, a field path). */
static int put_text_cell(adexp_buf *out, const char *s)
{
    size_t n = strlen(s);
    if (!put(out, "\t", 1))
        return 0;
    char *o = adexp_buf_room(out, n);
    if (!o)
        return 0;
    for (size_t i = 0; i < n; i++)
        o[i] = s[i] == '\t' || s[i] == '\n' || s[i] == '\r' ? ' ' : s[i];
    out->len += n;
    return 1;
}

/* TAB code TAB line TAB column TAB offset */
static int put_place(adexp_buf *out, char tag, const char *code, uint32_t line,
                     uint32_t col, size_t offset)
{
    char t[2] = {tag, '\t'};
    return put(out, t, 2) && put(out, code, strlen(code)) && put(out, "\t", 1) &&
           put_num(out, line) && put(out, "\t", 1) && put_num(out, col) &&
           put(out, "\t", 1) && put_num(out, offset);
}

/* The count of digits at d (BATCH_SQLITE_DIGITS of them) made v. */
static void fill_count(char *d, uint64_t v)
{
    for (char *p = d + BATCH_SQLITE_DIGITS; p > d; v /= 10)
        *--p = (char)('0' + v % 10);
}

/* M TAB length TAB JSON TAB offset TAB TSV row: the JSON's length first,
 * so that the writer steps over it without reading it for a tab. */
static int message_line(batch_worker *w, const char *path, const adexp_msg *m)
{
    adexp_buf *out = &w->res.out;
    const batch_sqlite *db = w->b->sqlite;
    adexp_slice src = batch_json_source(w, path);
    size_t at = out->len;
    if (!src.ptr || !put(out, "M\t0000000000\t", 3 + BATCH_SQLITE_DIGITS) ||
        adexp_json_write_quoted(out, m, src) != ADEXP_OK)
        return 0;
    size_t json = out->len - at - 3 - BATCH_SQLITE_DIGITS - 1;
    if (json >= 10000000000ULL)
        return 0;
    fill_count(out->data + at + 2, json);
    out->data[out->len - 1] = '\t';   /* the JSON line's LF */
    return put_num(out, m->offset) && put(out, "\t", 1) &&
           adexp_csv_write(out, m, path, batch_sqlite_select(db, 0), '\t') == ADEXP_OK;
}

/* The route points' rows after a count, filled in when they are written. */
static int points(batch_worker *w, const char *path, const adexp_msg *m)
{
    adexp_buf *out = &w->res.out;
    size_t at = out->len;
    if (!put(out, "P\t0000000000\n", 3 + BATCH_SQLITE_DIGITS))
        return 0;
    size_t from = out->len;
    if (adexp_csv_write(out, m, path, batch_sqlite_select(w->b->sqlite, 1), '\t') != ADEXP_OK)
        return 0;
    uint64_t rows = 0;
    for (const char *p = out->data + from, *end = out->data + out->len;
         (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        rows++;
    if (rows == 0) {
        out->len = at;        /* no list: no line */
        return 1;
    }
    fill_count(out->data + at + 2, rows);
    return 1;
}

static int error_lines(adexp_buf *out, const adexp_msg *m)
{
    for (size_t i = 0; i < m->nerrors; i++) {
        const adexp_error *e = &m->errors[i];
        if (!put_place(out, 'E', adexp_status_name(e->code), e->line, e->column, e->offset) ||
            !put_text_cell(out, e->message ? e->message : "") || !put(out, "\n", 1))
            return 0;
    }
    return 1;
}

static int warning_lines(adexp_buf *out, const adexp_findings *fs)
{
    for (size_t i = 0; i < fs->n; i++) {
        const adexp_finding *f = &fs->v[i];
        if (!put_place(out, 'W', adexp_finding_name(f->code), f->line, f->column, f->offset) ||
            !put_text_cell(out, f->field) || !put_text_cell(out, f->message) ||
            !put(out, "\n", 1))
            return 0;
    }
    return 1;
}

adexp_status batch_sqlite_rows(batch_worker *w, const char *path, const adexp_msg *m)
{
    adexp_buf *out = &w->res.out;
    size_t start = out->len;
    int ok = message_line(w, path, m) && points(w, path, m) && error_lines(out, m) &&
             (!w->b->o.validate || warning_lines(out, &w->findings));
    if (!ok) {
        out->len = start;
        return ADEXP_E_NOMEM;
    }
    return ADEXP_OK;
}

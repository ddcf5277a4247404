/* Batch driver: validation of each message when the batch asks for it
 * (adexp_batch_options.validate): a line per finding on the error
 * descriptor, PATH:LINE:COL: warning: CODE: FIELD: message, the count of
 * warned messages, and the findings in the output: the "warnings" member
 * of the message's JSON or view line, a "warnings" cell (CODE:FIELD joined
 * by ';') at the end of each of its CSV or TSV rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_internal.h"
#include "batch_warnings.h"
#include "json_out.h"

/* The value as it reads on one line, cut to a width that keeps the line
 * readable ("..." marks a cut). */
static void short_value(adexp_slice v, char *dst, size_t cap)
{
    size_t n = adexp_fold_copy(v, dst, cap);
    if (n >= cap && cap > 4)
        memcpy(dst + cap - 4, "...", 4);
}

adexp_status batch_report_findings(batch_worker *w, const char *path, const adexp_msg *m,
                                   const batch_base *base, adexp_status st)
{
    if (base)
        batch_rebase_findings(&w->findings, base);
    const adexp_findings *fs = &w->findings;
    if (fs->n)
        w->messages_warned++;
    for (size_t i = 0; i < fs->n; i++) {
        const adexp_finding *f = &fs->v[i];
        char val[48] = "";
        if (f->value.ptr)
            short_value(f->value, val, sizeof val);
        batch_put_head(w, path, (unsigned)f->line, (unsigned)f->column, BATCH_WARNING);
        batch_str_printf(&w->res.err, "%s: %s: %s%s%s%s%s%s\n",
                         adexp_finding_name(f->code), f->field, f->message,
                         f->value.ptr ? ": '" : "", val, f->value.ptr ? "'" : "",
                         *f->expected ? "; expected " : "", f->expected);
    }
    if (st != ADEXP_OK) {
        batch_put_head(w, path, 0, 0, BATCH_ERROR);
        batch_str_printf(&w->res.err, "out of memory validating message %zu\n", m->index);
    }
    return st;
}

static int put_str(adexp_buf *out, const char *s)
{
    adexp_slice sl = {s, strlen(s)};
    return adexp_json_put_string(out, sl, 0);
}

static int put_finding(adexp_buf *out, const adexp_finding *f)
{
    char num[96];
    if (!adexp_buf_put(out, "{\"code\":", 8) || !put_str(out, adexp_finding_name(f->code)) ||
        !adexp_buf_put(out, ",\"field\":", 9) || !put_str(out, f->field) ||
        !adexp_buf_put(out, ",\"message\":", 11) || !put_str(out, f->message))
        return 0;
    if (*f->expected &&
        (!adexp_buf_put(out, ",\"expected\":", 12) || !put_str(out, f->expected)))
        return 0;
    if (f->value.ptr && (!adexp_buf_put(out, ",\"value\":", 9) ||
                         !adexp_json_put_string(out, f->value, 1)))
        return 0;
    int n = snprintf(num, sizeof num, ",\"line\":%u,\"column\":%u,\"offset\":%zu}",
                     (unsigned)f->line, (unsigned)f->column, f->offset);
    return adexp_buf_put(out, num, (size_t)n);
}

/* The line just written ends in "}\n": the warnings go before them. */
adexp_status batch_json_warnings(batch_worker *w)
{
    adexp_buf *out = &w->res.out;
    if (out->len < 2 || out->data[out->len - 2] != '}' || out->data[out->len - 1] != '\n')
        return ADEXP_OK;
    size_t keep = out->len;
    out->len -= 2;
    int ok = adexp_buf_put(out, ",\"warnings\":[", 13);
    for (size_t i = 0; ok && i < w->findings.n; i++)
        ok = (i == 0 || adexp_buf_put(out, ",", 1)) && put_finding(out, &w->findings.v[i]);
    ok = ok && adexp_buf_put(out, "]}\n", 3);
    if (!ok) {
        out->len = keep - 2;               /* the line as it was */
        memcpy(out->data + out->len, "}\n", 2);
        out->len += 2;
        return ADEXP_E_NOMEM;
    }
    return ADEXP_OK;
}

int batch_rows_add_cell(adexp_buf *out, size_t from, char sep, const char *cell, size_t n)
{
    size_t rows = 0;
    for (size_t i = from; i < out->len; i++)
        rows += out->data[i] == '\n';
    if (rows == 0)
        return 1;
    size_t add = rows * (n + 1);
    if (!adexp_buf_room(out, add))
        return 0;
    /* from the end, each byte moved once: the rows shift right by the
     * cells inserted before them */
    char *d = out->data;
    size_t src = out->len, dst = out->len + add;
    while (src > from) {
        char c = d[--src];
        d[--dst] = c;
        if (c != '\n')
            continue;
        if (src > from && d[src - 1] == '\r')
            d[--dst] = d[--src];
        dst -= n;
        memcpy(d + dst, cell, n);
        d[--dst] = sep;
    }
    out->len += add;
    return 1;
}

char *batch_warnings_cell(const adexp_findings *fs, size_t *len)
{
    size_t n = 0;
    for (size_t i = 0; i < fs->n; i++)
        n += strlen(adexp_finding_name(fs->v[i].code)) + 1 + strlen(fs->v[i].field) + 1;
    char *cell = malloc(n + 1);
    if (!cell)
        return NULL;
    *len = 0;
    cell[0] = '\0';
    for (size_t i = 0; i < fs->n; i++)
        *len += (size_t)sprintf(cell + *len, "%s%s:%s", i ? ";" : "",
                                adexp_finding_name(fs->v[i].code), fs->v[i].field);
    return cell;
}

adexp_status batch_row_warnings(batch_worker *w, size_t from, char sep)
{
    size_t len;
    char *cell = batch_warnings_cell(&w->findings, &len);
    if (!cell)
        return ADEXP_E_NOMEM;
    int ok = batch_rows_add_cell(&w->res.out, from, sep, cell, len);
    free(cell);
    return ok ? ADEXP_OK : ADEXP_E_NOMEM;
}

/* CSV (RFC 4180) and TSV rows: source, index, title, the selection's
 * columns, errors; with --rows, one row per item of that list, the item's
 * columns after the message's. A column holds every field at its path,
 * folded and joined by one space. Cells are valid UTF-8: a byte that is
 * not becomes U+FFFD. */
#include <stdio.h>
#include <string.h>

#include "adexp.h"
#include "csv.h"
#include "decode_words.h"
#include "dict_ids.h"
#include "json_out.h"
#include "json_runs.h"
#include "select.h"

typedef struct cw {
    adexp_buf *b;
    int ok;
    char sep;
} cw;

static inline void raw(cw *w, const char *s, size_t n)
{
    adexp_buf *b = w->b;
    char *o = adexp_buf_room_ok(b, n, &w->ok);
    if (!o)
        return;
    if (n == 1)
        *o = *s;
    else
        memcpy(o, s, n);
    b->len += n;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Appends s folded (separator runs to one space, ends trimmed), and for
 * CSV a '"' doubled. Returns whether the cell needs quotes. */
static int put_folded(cw *w, adexp_slice s, int any)
{
    int quote = 0, pending = any;
    size_t i = 0;
    while (i < s.len && is_space(s.ptr[i]))
        i++;
    if (i == s.len)
        return 0;
    if (pending)
        raw(w, " ", 1);
    while (i < s.len) {
        size_t j = i;
        while (j < s.len && !is_space(s.ptr[j]) && s.ptr[j] != '"' && s.ptr[j] != w->sep &&
               (unsigned char)s.ptr[j] < 0x80)
            j++;
        raw(w, s.ptr + i, j - i);
        if (j == s.len)
            break;
        char c = s.ptr[j];
        if ((unsigned char)c >= 0x80) {
            /* valid UTF-8 as it is; any other byte becomes U+FFFD, so that
             * readers that decode UTF-8 (pandas) never fail on a cell */
            size_t u = json_utf8_len((const unsigned char *)s.ptr + j, s.len - j);
            raw(w, u ? s.ptr + j : "\xEF\xBF\xBD", u ? u : 3);
            j += u ? u : 1;
        } else if (is_space(c)) {
            while (j < s.len && is_space(s.ptr[j]))
                j++;
            if (j < s.len)
                raw(w, " ", 1);
        } else if (w->sep == ',') {
            raw(w, c == '"' ? "\"\"" : ",", c == '"' ? 2 : 1);
            quote = 1;
            j++;
        } else {
            raw(w, &c, 1);   /* TSV: a '"' is a plain byte */
            j++;
        }
        i = j;
    }
    return quote;
}

/* Cells are written unquoted, then wrapped in quotes if a byte needs it:
 * the cell is moved one byte right, which only the rare cell pays. */
static void cell_begin(cw *w, int first, size_t *start)
{
    if (!first)
        raw(w, &w->sep, 1);
    *start = w->b->len;
}

static void cell_end(cw *w, size_t start, int quote)
{
    if (!quote || !w->ok)
        return;
    if (!adexp_buf_put(w->b, "\"\"", 2)) {
        w->ok = 0;
        return;
    }
    char *d = w->b->data;
    size_t n = w->b->len - 2 - start;
    memmove(d + start + 1, d + start, n);
    d[start] = '"';
    d[start + 1 + n] = '"';
}

/* Bytes a plain copy may store past the value (its last word). */
#define PLAIN_SLACK 8

#if SWAR_RUNS
/* The bytes of x that a cell cannot copy as they are (space and control
 * bytes, from 0x80, '"', sep), as high bits. */
static ALWAYS_INLINE uint64_t csv_stops(uint64_t x, char sep)
{
    return ((x | ~((x & ~HIGHS) + ONES * (0x80 - 0x21))) & HIGHS) | swar_eq(x, '"') |
           swar_eq(x, (unsigned char)sep);
}
#endif

/* Copies s to o (room: s.len + PLAIN_SLACK) if every byte is plain, that
 * is what put_folded copies as it is, and returns whether it did: the
 * usual value (F390, 250514013500) with one check a word. */
static ALWAYS_INLINE int put_plain(char *o, adexp_slice s, char sep)
{
    const unsigned char *p = (const unsigned char *)s.ptr;
    size_t n = s.len;
#if SWAR_RUNS
    uint64_t x, y;
    if (n >= 8) {
        size_t i = 0;
        for (; i + 8 < n; i += 8) {
            memcpy(&x, p + i, 8);
            memcpy(o + i, &x, 8);
            if (csv_stops(x, sep))
                return 0;
        }
        memcpy(&x, p + n - 8, 8);
        memcpy(o + n - 8, &x, 8);
        return !csv_stops(x, sep);
    }
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        memcpy(o, &a, 4);
        memcpy(o + n - 4, &b, 4);
        y = a | (uint64_t)b << 32;
        return !csv_stops(y, sep);
    }
#endif
    for (size_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        if (c <= ' ' || c >= 0x80 || c == '"' || c == (unsigned char)sep)
            return 0;
        o[i] = (char)c;
    }
    return 1;
}

/* plain_or_folded's cell when s is not plain, or too long to reserve. */
static void folded_cell(cw *w, int first, adexp_slice s)
{
    size_t start;
    cell_begin(w, first, &start);
    cell_end(w, start, put_folded(w, s, 0));
}

/* A cell of s (a separator before it unless first): copied when plain,
 * else folded and quoted as needed. */
static ALWAYS_INLINE void plain_or_folded(cw *w, int first, adexp_slice s)
{
    if (s.len > SIZE_MAX / 2) {
        folded_cell(w, first, s);
        return;
    }
    adexp_buf *b = w->b;
    size_t n = s.len + 1 + PLAIN_SLACK;
    char *o = adexp_buf_room_ok(b, n, &w->ok);
    if (!o)
        return;
    *o = w->sep;
    if (put_plain(o + !first, s, w->sep))
        b->len += !first + s.len;
    else
        folded_cell(w, first, s);
}

static void text_cell(cw *w, int first, adexp_slice s)
{
    plain_or_folded(w, first, s);
}

/* The day an EOBT's _utc joins: the message's first top-level EOBD, as the
 * typed view holds it (msg->view.eobd), read from the fields so that the
 * rows need not build the view (the driver builds its title alone). */
static adexp_slice eobt_day(const sel_column *c, const adexp_msg *m)
{
    if (c->eobt)
        for (const adexp_field *f = m->fields; f; f = f->next)
            if (f->dict_id == DICT_ID_EOBD && f->value.ptr)
                return f->value;
    return (adexp_slice){0};
}

/* Appends field f's part of a cell (its value or its companion). */
static void field_part(cw *w, const sel_column *c, const adexp_field *f, const adexp_msg *m,
                       int *any, int *quote)
{
    if (c->suffix == SUF_NONE) {
        size_t before = w->b->len;
        *quote |= put_folded(w, f->value, *any);
        *any |= w->b->len != before;
        return;
    }
    char buf[SEL_TEXT_BUF];
    char *end = sel_companion_at(buf, c->suffix, c->value_type, f->value,
                                 eobt_day(c, m));
    if (end) {
        if (*any)
            raw(w, " ", 1);
        raw(w, buf, (size_t)(end - buf));
        *any = 1;
    }
}

/* The envelope's part of column c, folded as a value: the addressees
 * joined by one space, the text's pieces too, the form as the JSON
 * object's ("ita2", "ia5", "bare"); empty for an unframed message or a part the
 * envelope lacks. */
static void envelope_cell(cw *w, const sel_column *c, const adexp_envelope *env)
{
    size_t start;
    int quote = 0, any = 0;
    cell_begin(w, 0, &start);
    const char *form = adexp_envelope_form_name(env->form);
    const adexp_slice parts[] = {
        {form, form ? strlen(form) : 0},
        env->transmission_id, env->priority, env->addressees, env->filing_time,
        env->originator};
    for (int i = 0; env->present && i < 3; i++) {
        adexp_slice s = c->envelope == ENV_TEXT ? env->text[i]
                        : i == 0                ? parts[c->envelope - ENV_FORM]
                                                : (adexp_slice){0};
        size_t before = w->b->len;
        if (s.ptr)
            quote |= put_folded(w, s, any);
        any |= w->b->len != before;
    }
    cell_end(w, start, quote);
}

/* One column's cell: every field at the column's path from first on. A
 * path of one keyword is a scan of the siblings, the common case. */
static void column_cell(cw *w, const sel_column *c, const adexp_field *first,
                        const adexp_msg *m)
{
    size_t start;
    int quote = 0, any = 0;
    if (c->envelope) {
        envelope_cell(w, c, &m->envelope);
        return;
    }
    cell_begin(w, 0, &start);
    if (c->one_part) {
        for (const adexp_field *f = first; f; f = f->next)
            if (c->dict_id != ADEXP_DICT_NONE ? f->dict_id == c->dict_id
                                              : adexp_slice_eq(f->keyword, c->path))
                field_part(w, c, f, m, &any, &quote);
    } else {
        adexp_path_iter it;
        adexp_path_begin_at(&it, first, c->path);
        for (const adexp_field *f; (f = adexp_path_next(&it)) != NULL;)
            field_part(w, c, f, m, &any, &quote);
    }
    cell_end(w, start, quote);
}

static void number_cell(cw *w, uint64_t v)
{
    char t[21];
    t[0] = w->sep;
    raw(w, t, (size_t)(adexp_json_u64_at(t + 1, v) - t));
}

/* CODE at line:column, joined by "; ". */
static void errors_cell(cw *w, const adexp_msg *m)
{
    raw(w, &w->sep, 1);
    for (size_t i = 0; i < m->nerrors; i++) {
        const adexp_error *e = &m->errors[i];
        const char *name = adexp_status_name(e->code);
        char pos[48];
        int n = snprintf(pos, sizeof pos, " at %u:%u", (unsigned)e->line, (unsigned)e->column);
        if (i)
            raw(w, "; ", 2);
        raw(w, name, strlen(name));
        raw(w, pos, n > 0 ? (size_t)n : 0);
    }
    if (m->nerrors_total > m->nerrors) {
        char more[48];
        int n = snprintf(more, sizeof more, "; %zu more", m->nerrors_total - m->nerrors);
        raw(w, more, n > 0 ? (size_t)n : 0);
    }
}

/* A key met twice in a level: its columns scan the level themselves. */
static const adexp_field twice;

/* A column's cell from its one field f. */
static void one_field_cell(cw *w, const sel_column *c, const adexp_field *f, const adexp_msg *m)
{
    if (c->suffix == SUF_NONE) {
        plain_or_folded(w, 0, f->value);
        return;
    }
    adexp_buf *b = w->b;
    char *o = adexp_buf_room_ok(b, 1 + SEL_TEXT_BUF, &w->ok);
    if (!o)
        return;
    *o = w->sep;
    char *end = sel_companion_at(o + 1, c->suffix, c->value_type, f->value,
                                 eobt_day(c, m));
    b->len += end ? (size_t)(end - o) : 1;
}

/* The cells of the message's (item 0) or the item's (1) columns over the
 * fields first, first->next, ...: the fields of the columns' keys
 * (sel->key_of) found in one scan, then each column's cell from its key's
 * field; columns of a path, of an unknown keyword or of a key met twice
 * scan for themselves (column_cell). */
static void columns(cw *w, const adexp_select *sel, const adexp_field *first, int item,
                    const adexp_msg *m)
{
    const adexp_field *hit[UINT8_MAX + 1];
    const uint8_t *key_of = sel->key_of[item];
    memset(hit, 0, (sel->nkeys[item] + 1) * sizeof *hit);
    for (const adexp_field *f = first; f; f = f->next) {
        unsigned k = key_of[f->dict_id & (SEL_ID_TABLE - 1)];
        if (k)
            hit[k] = hit[k] ? &twice : f;
    }
    const sel_column *end = sel->level[item] + sel->nlevel[item];
    for (const sel_column *c = sel->level[item]; c < end; c++) {
        const adexp_field *f = c->key ? hit[c->key] : &twice;
        if (f == &twice)
            column_cell(w, c, first, m);
        else if (f)
            one_field_cell(w, c, f, m);
        else
            raw(w, &w->sep, 1);
    }
}

/* source, index, title, the message's columns. */
static void message_cells(cw *w, const adexp_msg *m, const char *source, const adexp_select *sel)
{
    text_cell(w, 1, (adexp_slice){source, strlen(source)});
    number_cell(w, m->index);
    text_cell(w, 0, m->view.title.ptr ? m->view.title : (adexp_slice){"", 0});
    columns(w, sel, m->fields, 0, m);
}

/* item_index, item, item_value and the item's columns (item NULL: empty). */
static void item_cells(cw *w, const adexp_select *sel, const adexp_field *item, size_t k,
                       const adexp_msg *m)
{
    if (item) {
        number_cell(w, k);
        text_cell(w, 0, item->keyword);
        text_cell(w, 0, item->value);
    } else {
        raw(w, &w->sep, 1);
        raw(w, &w->sep, 1);
        raw(w, &w->sep, 1);
    }
    if (item) {
        columns(w, sel, item->child, 1, m);
        return;
    }
    for (size_t i = 0; i < sel->ncols; i++)
        if (sel->cols[i].item)
            raw(w, &w->sep, 1);
}

static void end_row(cw *w)
{
    if (w->sep == ',')
        raw(w, "\r\n", 2);
    else
        raw(w, "\n", 1);
}

/* The errors cell and the row's end: for a message without errors, one
 * separator and the end in one piece. */
static void row_end(cw *w, const adexp_msg *m)
{
    if (m->nerrors_total == 0 && m->nerrors == 0) {
        char t[2] = {w->sep, '\n'};
        if (w->sep == ',')
            raw(w, ",\r\n", 3);
        else
            raw(w, t, 2);
        return;
    }
    errors_cell(w, m);
    end_row(w);
}

size_t csv_source_cell_len(const char *source, char sep)
{
    adexp_buf b;
    adexp_buf_init(&b, NULL);
    cw w = {&b, 1, sep};
    text_cell(&w, 1, (adexp_slice){source, strlen(source)});
    size_t n = w.ok ? b.len : 0;
    adexp_buf_free(&b);
    return n;
}

adexp_status adexp_csv_header(adexp_buf *out, const adexp_select *sel, char sep)
{
    cw w = {out, 1, sep};
    size_t start = out->len;
    sel = sel_or_default(sel);
    text_cell(&w, 1, (adexp_slice){"source", 6});
    text_cell(&w, 0, (adexp_slice){"index", 5});
    text_cell(&w, 0, (adexp_slice){"title", 5});
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && sel->rows) {
            text_cell(&w, 0, (adexp_slice){"item_index", 10});
            text_cell(&w, 0, (adexp_slice){"item", 4});
            text_cell(&w, 0, (adexp_slice){"item_value", 10});
        }
        for (size_t i = 0; i < sel->ncols; i++)
            if (sel->cols[i].item == pass)
                text_cell(&w, 0, (adexp_slice){sel->cols[i].name, strlen(sel->cols[i].name)});
    }
    text_cell(&w, 0, (adexp_slice){"errors", 6});
    end_row(&w);
    if (!w.ok) {
        out->len = start;
        return ADEXP_E_NOMEM;
    }
    return ADEXP_OK;
}

/* Appends the n bytes at offset from of the output (a row's head). */
static void copy_head(cw *w, size_t from, size_t n)
{
    adexp_buf *b = w->b;
    char *o = adexp_buf_room_ok(b, n, &w->ok);   /* may move data */
    if (!o)
        return;
    memcpy(o, w->b->data + from, n);
    w->b->len += n;
}

/* An item's index at o: most are below 100, two digits at most written
 * here; the others by adexp_json_u64_at. */
static inline char *put_index(char *o, size_t k)
{
    if (k >= 100)
        return adexp_json_u64_at(o, k);
    if (k < 10) {
        *o = (char)('0' + k);
        return o + 1;
    }
    o[0] = (char)('0' + k / 10);
    o[1] = (char)('0' + k % 10);
    return o + 2;
}

#define USUAL_ROW_FIXED 128
#define USUAL_PTID 64

/* The PTID, FL and ETO subfields of point item, each met once, and none of
 * the other item columns' (TO, SFL, LATTD, LONGTD): 1, or 0. The usual
 * order, -PTID -FL -ETO and no more, is taken at once. */
static ALWAYS_INLINE int point_parts(const adexp_field *item, const adexp_field **ptid,
                                     const adexp_field **fl, const adexp_field **eto)
{
    const adexp_field *a = item->child, *b, *c;
    if (a && (b = a->next) && (c = b->next) && !c->next && a->dict_id == DICT_ID_PTID &&
        b->dict_id == DICT_ID_FL && c->dict_id == DICT_ID_ETO) {
        *ptid = a, *fl = b, *eto = c;
        return 1;
    }
    *ptid = *fl = *eto = NULL;
    for (c = a; c; c = c->next) {
        const adexp_field **slot;
        switch (c->dict_id) {
        case DICT_ID_PTID: slot = ptid; break;
        case DICT_ID_FL: slot = fl; break;
        case DICT_ID_ETO: slot = eto; break;
        case DICT_ID_TO: case DICT_ID_SFL: case DICT_ID_LATTD: case DICT_ID_LONGTD: return 0;
        default: continue;   /* not a column's */
        }
        if (*slot)
            return 0;        /* met twice: joined by the columns' scan */
        *slot = c;
    }
    return *ptid && *fl && *eto;
}

/* The usual route point's row under the default item columns
 * (sel->usual_points): a PT of a PTID with a plain value, an F or A level
 * and a 12-digit date-time (nothing else the columns read), in a message
 * without errors. Its cells are
 *   HEAD,k,PT,,PTID,FL,FL_ft,ETO,ETO_utc,,,,,,,,,  then the row's end,
 * written in one reservation: HEAD is the message's cells, copied from
 * offset head (head_len bytes) unless they are in place already (first).
 * The level's feet and the day's "YYYY-MM-" come from the message's memo
 * (dw_point_memo) when its last point had the same. Returns 0, committing
 * nothing, for any other point. */
static int usual_row(cw *w, const adexp_field *item, size_t k, size_t head, size_t head_len,
                     int first, dw_point_memo *pm)
{
    const adexp_field *ptid, *fl, *eto;
    if (item->value.len || item->keyword.len != 2 || memcmp(item->keyword.ptr, "PT", 2) != 0 ||
        !point_parts(item, &ptid, &fl, &eto))
        return 0;
    /* a PTID of at most USUAL_PTID bytes: n below cannot overflow (the
     * head is in memory) */
    if (fl->value.len != 4 || eto->value.len != 12 || ptid->value.len > USUAL_PTID ||
        !dw_memo_decodes(fl->value.ptr, eto->value.ptr, pm))
        return 0;
    adexp_buf *b = w->b;
    size_t at = first ? head + head_len : b->len;
    size_t n = (first ? 0 : head_len) + ptid->value.len + PLAIN_SLACK + USUAL_ROW_FIXED;
    if (b->cap - at < n && (at != b->len || !adexp_buf_grow(b, n)))
        return 0;            /* the general path grows the buffer, or fails */
    char *o = b->data + at, sep = w->sep;
    if (!first) {
        memcpy(o, b->data + head, head_len);
        o += head_len;
    }
    *o++ = sep;
    o = put_index(o, k);
    o[0] = sep, o[1] = 'P', o[2] = 'T', o[3] = sep, o[4] = sep;
    o += 5;
    if (!put_plain(o, ptid->value, sep))
        return 0;
    o += ptid->value.len;
    *o++ = sep;
    memcpy(o, fl->value.ptr, 4);
    o[4] = sep;
    memcpy(o + 5, &pm->feet, 8);
    o += 5 + pm->feet_len;
    *o++ = sep;
    memcpy(o, eto->value.ptr, 12);
    o[12] = sep;
    memcpy(o + 13, &pm->iso_head, 8);
    o = dw_iso12_tail(o + 21, eto->value.ptr);
    /* TO, TO_utc, SFL, SFL_ft, LATTD, LATTD_deg, LONGTD, LONGTD_deg, errors */
    memset(o, sep, 9);
    o += 9;
    if (sep == ',')
        o[0] = '\r', o[1] = '\n', o += 2;
    else
        *o++ = '\n';
    b->len = (size_t)(o - b->data);
    return 1;
}

/* Whether f is a list named list (n bytes, n > 0: adexp_select_new
 * refuses an empty name, so a keyword of n bytes has them). */
static ALWAYS_INLINE int is_rows_list(const adexp_field *f, const char *list, size_t n)
{
    return f->kind == ADEXP_LIST && f->keyword.len == n && memcmp(f->keyword.ptr, list, n) == 0;
}

/* The first top-level list of keyword list (n bytes) with items, or NULL:
 * the rows of --rows start there. */
static const adexp_field *first_rows(const adexp_msg *msg, const char *list, size_t n)
{
    for (const adexp_field *l = msg->fields; l; l = l->next)
        if (l->child && is_rows_list(l, list, n))
            return l;
    return NULL;
}

adexp_status csv_write_rows(adexp_buf *out, const adexp_msg *msg, const char *source,
                            const adexp_select *sel, char sep, uint64_t *nrows)
{
    cw w = {out, 1, sep};
    size_t start = out->len, rows = 1;
    sel = sel_or_default(sel);
    size_t rows_len = sel->rows ? strlen(sel->rows) : 0;
    const adexp_field *lists = sel->rows ? first_rows(msg, sel->rows, rows_len) : NULL;
    if (sel->rows && !lists && !msg->nerrors_total)
        return ADEXP_OK;    /* no row: not even the message's cells */
    if (!sel->rows) {
        message_cells(&w, msg, source, sel);
        row_end(&w, msg);
    } else {
        /* the message's cells once, then copied to the head of each row */
        size_t head = out->len;
        rows = 0;
        message_cells(&w, msg, source, sel);
        size_t head_len = out->len - head;
        int usual = sel->usual_points && msg->nerrors_total == 0 && msg->nerrors == 0 && w.ok;
        dw_point_memo pm = {0, 0, 0, 0, 0};
        out->len = head;
        for (const adexp_field *l = lists; l && w.ok; l = l->next) {
            if (!is_rows_list(l, sel->rows, rows_len))
                continue;
            size_t k = 0;
            for (const adexp_field *item = l->child; item && w.ok; item = item->next, k++) {
                /* the usual rows in a loop of their own (usual_row does not
                 * fail w) */
                while (usual && usual_row(&w, item, k, head, head_len, rows == 0, &pm)) {
                    rows++;
                    k++;
                    if (!(item = item->next))
                        break;
                }
                if (!item)
                    break;
                if (rows)   /* the first row's head is in place already */
                    copy_head(&w, head, head_len);
                else
                    out->len = head + head_len;
                item_cells(&w, sel, item, k, msg);
                row_end(&w, msg);
                rows++;
            }
        }
        /* a failed message is never silently left out */
        if (rows == 0 && msg->nerrors_total) {
            message_cells(&w, msg, source, sel);
            item_cells(&w, sel, NULL, 0, msg);
            row_end(&w, msg);
            rows = 1;
        }
    }
    if (!w.ok) {
        out->len = start;
        return ADEXP_E_NOMEM;
    }
    *nrows += rows;
    return ADEXP_OK;
}

adexp_status adexp_csv_write(adexp_buf *out, const adexp_msg *msg, const char *source,
                             const adexp_select *sel, char sep)
{
    uint64_t rows = 0;
    return csv_write_rows(out, msg, source, sel, sep, &rows);
}

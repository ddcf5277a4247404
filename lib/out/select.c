/* The selection: --fields paths with decoded suffixes, the --rows list and
 * the --title set, parsed once; the decoded companions they name; the
 * trimmed copy of a message for --format json. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adexp.h"
#include "dict_ids.h"
#include "select.h"

/* Columns when --fields is not given. */
#define COL(name, path, top, suf, type, eobt, key) \
    {name, #path, {name, top}, suf, 0, type, eobt, 1, DICT_ID_##path, key, ENV_NONE}
static const sel_column default_cols[] = {
    COL("IFPLID", IFPLID, 6, SUF_NONE, ADEXP_VALUE_OTHER, 0, 1),
    COL("ARCID", ARCID, 5, SUF_NONE, ADEXP_VALUE_OTHER, 0, 2),
    COL("ARCTYP", ARCTYP, 6, SUF_NONE, ADEXP_VALUE_OTHER, 0, 3),
    COL("ADEP", ADEP, 4, SUF_NONE, ADEXP_VALUE_OTHER, 0, 4),
    COL("ADES", ADES, 4, SUF_NONE, ADEXP_VALUE_OTHER, 0, 5),
    COL("EOBD", EOBD, 4, SUF_NONE, ADEXP_VALUE_DATE, 0, 6),
    COL("EOBT", EOBT, 4, SUF_NONE, ADEXP_VALUE_TIME, 1, 7),
    COL("EOBT_utc", EOBT, 4, SUF_UTC, ADEXP_VALUE_TIME, 1, 7),
    COL("RFL", RFL, 3, SUF_NONE, ADEXP_VALUE_LEVEL_POINT, 0, 8),
    COL("RFL_ft", RFL, 3, SUF_FT, ADEXP_VALUE_LEVEL_POINT, 0, 8),
};
#undef COL
#define NDEFAULT (sizeof default_cols / sizeof *default_cols)
static const uint8_t default_keys[SEL_ID_TABLE] = {
    [DICT_ID_IFPLID] = 1, [DICT_ID_ARCID] = 2, [DICT_ID_ARCTYP] = 3, [DICT_ID_ADEP] = 4,
    [DICT_ID_ADES] = 5, [DICT_ID_EOBD] = 6, [DICT_ID_EOBT] = 7, [DICT_ID_RFL] = 8,
};
static const adexp_select default_sel = {
    .cols = default_cols, .ncols = NDEFAULT, .key_of = {default_keys, NULL}, .nkeys = {8, 0},
    .level = {default_cols, NULL}, .nlevel = {NDEFAULT, 0}};
_Static_assert(DICT_COUNT < SEL_ID_TABLE && (ADEXP_DICT_NONE & (SEL_ID_TABLE - 1)) >= DICT_COUNT,
               "unknown fields look up a zero entry");

const adexp_select *sel_or_default(const adexp_select *sel)
{
    return sel ? sel : &default_sel;
}
/* Item columns of --rows RTEPTS: what the typed view keeps of a point. */
static const char default_points[] =
    "PTID,FL,FL_ft,ETO,ETO_utc,TO,TO_utc,SFL,SFL_ft,LATTD,LATTD_deg,LONGTD,LONGTD_deg";

static const char *const suffixes[] = {"", "_ft", "_m", "_utc", "_deg"};

/* A sentence in err (cap bytes, may be 0); returns -1. */
static int fail(char *err, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int fail(char *err, size_t cap, const char *fmt, ...)
{
    if (cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, cap, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* A strdup of s[0..n) into the selection's text block at *pos. */
static char *keep(char **pos, const char *s, size_t n)
{
    char *d = *pos;
    memcpy(d, s, n);
    d[n] = '\0';
    *pos += n + 1;
    return d;
}

/* Whether s[0..n) names the envelope or a part of it (any case). */
static int names_envelope(const char *s, size_t n)
{
    static const char word[] = "envelope";
    size_t k = sizeof word - 1;
    if (n < k || (n > k && s[k] != '.'))
        return 0;
    for (size_t i = 0; i < k; i++)
        if (tolower((unsigned char)s[i]) != word[i])
            return 0;
    return 1;
}

/* A column of the envelope's part s[0..n) (envelope.originator), named
 * as the JSON object's key whatever the case given. */
static int envelope_column(sel_column *c, const char *s, size_t n, char **pos, char *err,
                           size_t cap)
{
    size_t k = sizeof SEL_ENVELOPE_PREFIX - 1;
    int part = sel_envelope_part(s + (n < k ? n : k), n < k ? 0 : n - k, err, cap);
    if (part < 0)
        return -1;
    char name[64];
    size_t len = (size_t)snprintf(name, sizeof name, "%s%.*s", SEL_ENVELOPE_PREFIX,
                                  (int)(n - k), s + k);
    for (size_t i = 0; i < len; i++)
        name[i] = (char)tolower((unsigned char)name[i]);
    c->name = c->path = keep(pos, name, len);
    c->top = (adexp_slice){c->name, k - 1};
    c->suffix = SUF_NONE;
    c->item = c->eobt = c->one_part = 0;
    c->value_type = ADEXP_VALUE_OTHER;
    c->dict_id = ADEXP_DICT_NONE;
    c->envelope = (uint8_t)part;
    return 0;
}

/* One --fields entry s[0..n) into c. Item columns (rows set and the
 * first part naming it) lose that part. Returns 0 or -1 (err set). */
static int parse_column(sel_column *c, const char *s, size_t n, const char *rows,
                        char **pos, char *err, size_t cap)
{
    char buf[256];
    if (n == 0 || n >= sizeof buf)
        return fail(err, cap, "%s", n ? "--fields: an entry is too long" : "--fields: empty entry");
    if (names_envelope(s, n))
        return envelope_column(c, s, n, pos, err, cap);
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *us = strrchr(buf, '_');
    c->suffix = SUF_NONE;
    if (us) {
        for (int k = 1; k <= SUF_DEG; k++)
            if (strcmp(us, suffixes[k]) == 0)
                c->suffix = (uint8_t)k;
        if (c->suffix == SUF_NONE)
            return fail(err, cap, "--fields: unknown suffix '%s' (_ft, _m, _utc or _deg)", us);
        *us = '\0';
    }
    for (char *p = buf; *p; p++) {
        *p = (char)toupper((unsigned char)*p);
        int sep = *p == '.' || *p == '/';
        if (sep)
            *p = '.';
        if (!(isalnum((unsigned char)*p) || sep) || (sep && (p == buf || p[1] == '\0' || p[1] == '.' || p[1] == '/')))
            return fail(err, cap, "--fields: bad path '%s' (keywords joined by '.')", buf);
    }
    if (!buf[0])
        return fail(err, cap, "%s", "--fields: a suffix without a keyword");
    size_t top = strcspn(buf, ".");
    const char *path = buf;
    c->item = rows && strlen(rows) == top && memcmp(buf, rows, top) == 0;
    if (c->item) {
        if (!buf[top])
            return fail(err, cap, "--fields: %s is the --rows list: name a subfield of its items (%s.PTID)", rows, rows);
        path = buf + top + 1;
    }
    char name[300];
    snprintf(name, sizeof name, "%s%s", buf, suffixes[c->suffix]);
    c->name = keep(pos, name, strlen(name));
    c->path = keep(pos, path, strlen(path));
    c->top = (adexp_slice){c->name, top};
    const char *last = strrchr(c->path, '.');
    last = last ? last + 1 : c->path;
    adexp_dict_info info;
    c->value_type = adexp_dict_find(last, &info) ? info.value_type : ADEXP_VALUE_OTHER;
    c->eobt = strcmp(c->path, "EOBT") == 0 && !c->item;
    c->one_part = strchr(c->path, '.') == NULL;
    c->dict_id = c->one_part && adexp_dict_find(c->path, &info) ? info.id : ADEXP_DICT_NONE;
    return 0;
}

/* Entries of a comma-separated list. */
static size_t count_entries(const char *s)
{
    size_t n = 1;
    for (; *s; s++)
        n += *s == ',';
    return n;
}

static int parse_columns(adexp_select *sel, const char *list, int item, char **pos,
                         char *err, size_t cap)
{
    const char *p = list;
    for (;;) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, ",");
        size_t m = n;
        while (m && p[m - 1] == ' ')
            m--;
        sel_column *c = &sel->ccols[sel->ncols];
        char full[300];
        if (item) {   /* a default item column: named as --fields would */
            snprintf(full, sizeof full, "%s.%.*s", sel->rows, (int)m, p);
            if (parse_column(c, full, strlen(full), sel->rows, pos, err, cap) != 0)
                return -1;
        } else if (parse_column(c, p, m, sel->rows, pos, err, cap) != 0) {
            return -1;
        }
        sel->ncols++;
        if (!p[n])
            return 0;
        p += n + 1;
    }
}

/* Default item columns of a list other than RTEPTS: the subfields the
 * dictionary allows in its elements, each with its decoded companion. */
static size_t default_items(const char *rows, char *out, size_t cap)
{
    adexp_dict_info list, el, sub;
    size_t len = 0;
    out[0] = '\0';
    if (!adexp_dict_find(rows, &list))
        return 0;
    for (size_t i = 0; i < list.nsub; i++) {
        if (!adexp_dict_find(adexp_dict_sub(&list, i), &el) || el.kind != ADEXP_COMPOUND)
            continue;
        for (size_t j = 0; j < el.nsub; j++) {
            const char *kw = adexp_dict_sub(&el, j);
            char one[80];
            snprintf(one, sizeof one, ",%s,", kw);
            char probe[4200];
            snprintf(probe, sizeof probe, ",%s,", out);
            if (strstr(probe, one) || !adexp_dict_find(kw, &sub))
                continue;
            unsigned t = sub.value_type;
            const char *suf = t == ADEXP_VALUE_LEVEL || t == ADEXP_VALUE_LEVEL_AB ||
                                      t == ADEXP_VALUE_LEVEL_POINT ? "_ft"
                              : t == ADEXP_VALUE_COORD ? "_deg"
                              : t >= ADEXP_VALUE_DATETIME && t <= ADEXP_VALUE_TIME ? "_utc"
                              : NULL;
            int w = snprintf(out + len, cap - len, "%s%s%s%s%s", len ? "," : "", kw,
                             suf ? "," : "", suf ? kw : "", suf ? suf : "");
            if (w < 0 || (size_t)w >= cap - len) {
                out[len] = '\0';
                return len;
            }
            len += (size_t)w;
        }
    }
    return len;
}

static int parse_titles(adexp_select *sel, const char *titles, char **pos, char *err, size_t cap)
{
    const char *p = titles;
    for (;;) {
        size_t n = strcspn(p, ",");
        if (n == 0)
            return fail(err, cap, "%s", "--title: empty title");
        char *t = keep(pos, p, n);
        for (char *q = t; *q; q++) {
            *q = (char)toupper((unsigned char)*q);
            if (!isalnum((unsigned char)*q))
                return fail(err, cap, "--title: bad title '%s'", t);
        }
        sel->titles[sel->ntitles++] = t;
        if (!p[n])
            return 0;
        p += n + 1;
    }
}

/* The keys of the columns that name one known keyword (key_of). Returns 0
 * when out of memory. */
static int column_keys(adexp_select *sel)
{
    sel->ckey_of = calloc(2, SEL_ID_TABLE);
    sel->clevel = calloc(sel->ncols ? sel->ncols : 1, sizeof *sel->clevel);
    if (!sel->ckey_of || !sel->clevel)
        return 0;
    sel->key_of[0] = sel->ckey_of;
    sel->key_of[1] = sel->ckey_of + SEL_ID_TABLE;
    for (size_t i = 0; i < sel->ncols; i++) {
        sel_column *c = &sel->ccols[i];
        c->key = 0;
        if (!c->one_part || c->dict_id >= DICT_COUNT)
            continue;
        uint8_t *k = &sel->ckey_of[c->item * SEL_ID_TABLE + c->dict_id];
        if (!*k && sel->nkeys[c->item] < UINT8_MAX)
            *k = (uint8_t)++sel->nkeys[c->item];
        c->key = *k;
    }
    /* the message's columns first, then the item's */
    size_t n = 0;
    for (int item = 0; item < 2; item++) {
        sel->level[item] = sel->clevel + n;
        for (size_t i = 0; i < sel->ncols; i++)
            if (sel->cols[i].item == item) {
                sel->clevel[n++] = sel->cols[i];
                sel->nlevel[item]++;
            }
    }
    return 1;
}

adexp_select *adexp_select_new(const char *fields, const char *rows, const char *titles,
                               char *err, size_t cap)
{
    char items[4096] = "", list[64] = "";
    for (size_t i = 0; rows && rows[i] && i + 1 < sizeof list; i++)
        list[i] = (char)toupper((unsigned char)rows[i]);
    if (rows && strcmp(list, "RTEPTS") == 0)
        strcpy(items, default_points);
    else if (rows)
        default_items(list, items, sizeof items);
    size_t ncols = (fields ? count_entries(fields) : NDEFAULT) +
                   (items[0] ? count_entries(items) : 0);
    size_t text = 3 * ((fields ? strlen(fields) : 0) + strlen(items)) + 64 * ncols +
                  2 * ncols * (rows ? strlen(rows) + 1 : 0) +
                  (rows ? strlen(rows) + 1 : 0) + (titles ? 2 * strlen(titles) + 2 : 0);
    adexp_select *sel = calloc(1, sizeof *sel);
    if (sel) {
        sel->cols = sel->ccols = calloc(ncols, sizeof *sel->cols);
        sel->titles = titles ? calloc(count_entries(titles), sizeof *sel->titles) : NULL;
        sel->seen = titles ? calloc(count_entries(titles), 1) : NULL;
        sel->text = malloc(text);
    }
    if (!sel || !sel->cols || !sel->text || (titles && (!sel->titles || !sel->seen))) {
        fail(err, cap, "%s", "out of memory");
        adexp_select_free(sel);
        return NULL;
    }
    char *pos = sel->text;
    sel->has_fields = fields != NULL;
    if (rows) {
        if (!*rows || strlen(rows) >= sizeof list || strcspn(rows, ",./") != strlen(rows)) {
            fail(err, cap, "--rows: '%s' is not one list keyword", rows);
            adexp_select_free(sel);
            return NULL;
        }
        char *r = keep(&pos, rows, strlen(rows));
        for (char *q = r; *q; q++)
            *q = (char)toupper((unsigned char)*q);
        sel->rows = r;
    }
    int rc = 0;
    if (fields)
        rc = parse_columns(sel, fields, 0, &pos, err, cap);
    else
        memcpy(sel->ccols, default_cols, sizeof default_cols), sel->ncols = NDEFAULT;
    int has_items = 0;
    for (size_t i = 0; i < sel->ncols; i++)
        has_items |= sel->cols[i].item;
    /* item columns named in --fields replace the defaults */
    if (rc == 0 && rows && !has_items && items[0])
        rc = parse_columns(sel, items, 1, &pos, err, cap);
    sel->usual_points = rc == 0 && rows && !has_items && strcmp(list, "RTEPTS") == 0;
    if (rc == 0 && titles)
        rc = parse_titles(sel, titles, &pos, err, cap);
    if (rc == 0 && !column_keys(sel))
        rc = fail(err, cap, "%s", "out of memory");
    if (rc != 0) {
        adexp_select_free(sel);
        return NULL;
    }
    return sel;
}

void adexp_select_free(adexp_select *s)
{
    if (!s)
        return;
    free(s->ccols);
    free(s->titles);
    free(s->seen);
    free(s->ckey_of);
    free(s->clevel);
    free(s->text);
    free(s);
}

int adexp_select_keeps(const adexp_select *sel, const adexp_msg *msg)
{
    if (!sel || !sel->titles)
        return 1;
    for (size_t i = 0; i < sel->ntitles; i++)
        if (adexp_slice_eq(msg->view.title, sel->titles[i])) {
            /* read first: the flag's line is then written once, not by
             * every thread for every message */
            if (!__atomic_load_n(&sel->seen[i], __ATOMIC_RELAXED))
                __atomic_store_n(&sel->seen[i], 1, __ATOMIC_RELAXED);
            return 1;
        }
    return 0;
}

int adexp_select_has_fields(const adexp_select *sel)
{
    return sel && sel->has_fields;
}

int sel_keeps_keyword(const adexp_select *sel, adexp_slice kw)
{
    if (!sel || !sel->has_fields)
        return 1;
    for (size_t i = 0; i < sel->ncols; i++) {
        const sel_column *c = &sel->cols[i];
        if (c->item || c->envelope)
            continue;
        if (c->top.len == kw.len && memcmp(c->top.ptr, kw.ptr, kw.len) == 0)
            return 1;
    }
    if (sel->rows)
        return adexp_slice_eq(kw, sel->rows);
    return 0;
}

adexp_status adexp_select_trim(const adexp_select *sel, const adexp_msg *msg,
                               adexp_arena *arena, adexp_msg *out)
{
    *out = *msg;
    if (!adexp_select_has_fields(sel))
        return ADEXP_OK;
    size_t n = 0;
    for (const adexp_field *f = msg->fields; f; f = f->next)
        n += f == msg->fields || sel_keeps_keyword(sel, f->keyword);
    adexp_field *copy = n ? adexp_arena_alloc(arena, n * sizeof *copy) : NULL;
    if (n && !copy)
        return ADEXP_E_NOMEM;
    adexp_field **link = &out->fields;
    for (const adexp_field *f = msg->fields; f; f = f->next)
        if (f == msg->fields || sel_keeps_keyword(sel, f->keyword)) {
            *copy = *f;
            *link = copy;
            link = &copy->next;
            copy++;
        }
    *link = NULL;
    return ADEXP_OK;
}

/* Dictionary extensions: a TSV file in the columns of fields.tsv, loaded
 * at run time, that adds keywords (basic, compound with its subfields, list
 * with its items) and adds subfields or items to known ones. It never
 * removes: a known keyword keeps its level and kind, its subfields and
 * flags become the union, and a value class given replaces its own. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dict_ext.h"
#include "dict_ids.h"

#define SUB_BIT_NONE (DICT_SUB_WORDS * 64 - 1)
#define MAX_KEYWORD 255                /* dict_entry.len is a uint8_t */
#define MAX_ENTRIES ADEXP_DICT_MAX_KEYWORDS
_Static_assert(DICT_COUNT < ADEXP_DICT_MAX_KEYWORDS, "room for new keywords");

/* One row of the file, its cells as slices of the text. */
typedef struct ext_row {
    adexp_slice cell[6];
    unsigned line, col[6];
} ext_row;

typedef struct loader {
    adexp_dictionary *d;
    adexp_dict_error *err;
    ext_row *rows;
    size_t nrows, cap;
    uint8_t *touched;          /* per entry: its subfields changed in this file */
} loader;

static int fail(loader *L, unsigned line, unsigned col, const char *fmt, ...)
{
    if (L->err) {
        L->err->line = line;
        L->err->column = col;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(L->err->message, sizeof L->err->message, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static void *own(adexp_dictionary *d, void *p)
{
    if (!p)
        return NULL;
    if (d->nowned == d->owned_cap) {
        size_t cap = d->owned_cap ? 2 * d->owned_cap : 64;
        void **o = realloc(d->owned, cap * sizeof *o);
        if (!o) {
            free(p);
            return NULL;
        }
        d->owned = o;
        d->owned_cap = cap;
    }
    return d->owned[d->nowned++] = p;
}

static char *own_str(adexp_dictionary *d, const char *s, size_t n)
{
    char *c = own(d, malloc(n + 1));
    if (c) {
        memcpy(c, s, n);
        c[n] = '\0';
    }
    return c;
}

/* ------------------------------------------------------------ the file */

static int cell_is(adexp_slice c, const char *s)
{
    return c.len == strlen(s) && memcmp(c.ptr, s, c.len) == 0;
}

static int good_keyword(adexp_slice k)
{
    if (k.len == 0 || k.len > MAX_KEYWORD)
        return 0;
    for (size_t i = 0; i < k.len; i++)
        if (!((k.ptr[i] >= 'A' && k.ptr[i] <= 'Z') || (k.ptr[i] >= '0' && k.ptr[i] <= '9')))
            return 0;
    return 1;
}

/* Split one line into its six cells; a header line is left out. */
static int read_line(loader *L, const char *s, size_t n, unsigned line)
{
    ext_row r = {.line = line};
    size_t start = 0, k = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && s[i] != '\t')
            continue;
        if (k == 6)
            return fail(L, line, (unsigned)start + 1,
                        "more than 6 tab-separated columns");
        r.cell[k] = (adexp_slice){s + start, i - start};
        r.col[k++] = (unsigned)start + 1;
        start = i + 1;
    }
    if (k < 6)
        return fail(L, line, (unsigned)n + 1,
                    "%zu tab-separated columns, 6 expected "
                    "(keyword level kind flags subfields value_class)", k);
    if (cell_is(r.cell[0], "keyword") && cell_is(r.cell[1], "level"))
        return 0;
    if (L->nrows == L->cap) {
        size_t cap = L->cap ? 2 * L->cap : 64;
        ext_row *rows = realloc(L->rows, cap * sizeof *rows);
        if (!rows)
            return fail(L, line, 1, "out of memory");
        L->rows = rows;
        L->cap = cap;
    }
    L->rows[L->nrows++] = r;
    return 0;
}

static int read_file(loader *L, const char *data, size_t len)
{
    unsigned line = 0;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(data + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - data) : len, n = end - i;
        line++;
        if (n && data[i + n - 1] == '\r')
            n--;
        if (memchr(data + i, '\0', n))
            return fail(L, line, 1, "NUL byte in the line");
        if (n && data[i] != '#' && read_line(L, data + i, n, line) != 0)
            return -1;
        i = end + 1;
    }
    return 0;
}

/* ------------------------------------------------------------ merging */

static int parse_level(adexp_slice c)
{
    static const char *const names[] = {"primary", "subfield", "reserved_primary",
                                        "reserved_subfield"};
    for (int i = 0; i < 4; i++)
        if (cell_is(c, names[i]))
            return i;               /* the order of enum dict_level */
    return -1;
}

static int parse_kind(adexp_slice c)
{
    if (c.len != 1)
        return -1;
    return c.ptr[0] == 'b' ? ADEXP_BASIC : c.ptr[0] == 'c' ? ADEXP_COMPOUND
         : c.ptr[0] == 'l' ? ADEXP_LIST : -1;
}

static int parse_flags(adexp_slice c, unsigned *out)
{
    *out = 0;
    if (cell_is(c, "-"))
        return 0;
    for (size_t i = 0; i < c.len;) {
        const char *comma = memchr(c.ptr + i, ',', c.len - i);
        adexp_slice f = {c.ptr + i, comma ? (size_t)(comma - c.ptr) - i : c.len - i};
        if (cell_is(f, "TEXT"))
            *out |= DICT_TEXT;
        else if (cell_is(f, "MSG_LIST"))
            *out |= DICT_MSG_LIST;
        else
            return -1;
        i += f.len + 1;
    }
    return 0;
}

static uint32_t hash_kw(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static int build_slots(adexp_dictionary *d)
{
    size_t extra = d->count - dict_count;
    if (extra == 0)
        return 0;
    size_t n = 16;
    while (n < 2 * extra)
        n *= 2;
    free(d->slots);
    d->slots = malloc(n * sizeof *d->slots);
    if (!d->slots)
        return -1;
    d->nslots = n;
    for (size_t i = 0; i < n; i++)
        d->slots[i] = ADEXP_DICT_NONE;
    for (size_t id = dict_count; id < d->count; id++) {
        size_t s = hash_kw(d->entries[id].keyword, d->entries[id].len) & (n - 1);
        while (d->slots[s] != ADEXP_DICT_NONE)
            s = (s + 1) & (n - 1);
        d->slots[s] = (uint16_t)id;
    }
    return 0;
}

const dict_entry *dict_ext_lookup(const adexp_dictionary *d, const char *keyword,
                                  size_t len)
{
    const dict_entry *e = dict_lookup(keyword, len);
    if (!d)
        return e;
    if (e)
        return dict_ext_entry(d, e->id);
    if (!d->nslots || !keyword || len == 0 || len > MAX_KEYWORD)
        return NULL;
    for (size_t s = hash_kw(keyword, len) & (d->nslots - 1);;
         s = (s + 1) & (d->nslots - 1)) {
        uint16_t id = d->slots[s];
        if (id == ADEXP_DICT_NONE)
            return NULL;
        const dict_entry *x = &d->entries[id];
        if (x->len == len && memcmp(x->keyword, keyword, len) == 0)
            return x;
    }
}

/* The keywords the grammar is made of rather than fields of it: -TITLE
 * starts a message (and ends the one before), -BEGIN and -END bracket a
 * list. A file may neither extend them nor make them a compound's subfield
 * or a list's item: the parser would no longer find a message's start or a
 * list's end. */
static int is_structural(const dict_entry *e)
{
    return e->level == DICT_SYNTAX || e->id == DICT_ID_TITLE;
}

/* A new keyword of the file: appended with no subfields yet. */
static int add_entry(loader *L, const ext_row *r, int level, int kind, unsigned flags)
{
    adexp_dictionary *d = L->d;
    if (d->count >= MAX_ENTRIES)
        return fail(L, r->line, 1, "too many keywords (at most %u in all, "
                    "the built-in %zu included)", MAX_ENTRIES, dict_count);
    char *kw = own_str(d, r->cell[0].ptr, r->cell[0].len);
    if (!kw)
        return fail(L, r->line, 1, "out of memory");
    d->entries[d->count] = (dict_entry){
        .keyword = kw, .len = (uint8_t)r->cell[0].len, .level = (uint8_t)level,
        .kind = (uint8_t)kind, .flags = (uint8_t)flags, .sub_bit = SUB_BIT_NONE,
        .id = (uint16_t)d->count, .row = dict_sub_rows[0], .value_class = ""};
    d->changed[d->count++] = 1;
    return build_slots(d) == 0 ? 0 : fail(L, r->line, 1, "out of memory");
}

/* First pass: each row's keyword becomes an entry (new) or is checked
 * against the one it extends, so that the second pass can name any of
 * them as a subfield. */
static int apply_heads(loader *L)
{
    for (size_t i = 0; i < L->nrows; i++) {
        const ext_row *r = &L->rows[i];
        int level = parse_level(r->cell[1]), kind = parse_kind(r->cell[2]);
        unsigned flags;
        if (!good_keyword(r->cell[0]))
            return fail(L, r->line, r->col[0],
                        "keyword \"%.*s\": 1 to %d characters of A-Z and 0-9 expected",
                        (int)(r->cell[0].len > 40 ? 40 : r->cell[0].len),
                        r->cell[0].ptr, MAX_KEYWORD);
        if (level < 0)
            return fail(L, r->line, r->col[1], "level: primary, subfield, "
                        "reserved_primary or reserved_subfield expected");
        if (kind < 0)
            return fail(L, r->line, r->col[2], "kind: b, c or l expected");
        if (parse_flags(r->cell[3], &flags) != 0)
            return fail(L, r->line, r->col[3], "flags: TEXT, MSG_LIST "
                        "(comma-separated) or - expected");
        if (kind == ADEXP_BASIC && !cell_is(r->cell[4], "-"))
            return fail(L, r->line, r->col[4], "a basic field has no subfields (-)");
        for (size_t j = 0; j < i; j++)
            if (L->rows[j].cell[0].len == r->cell[0].len &&
                memcmp(L->rows[j].cell[0].ptr, r->cell[0].ptr, r->cell[0].len) == 0)
                return fail(L, r->line, r->col[0], "%.*s is already defined on line %u",
                            (int)r->cell[0].len, r->cell[0].ptr, L->rows[j].line);
        const dict_entry *e = dict_ext_lookup(L->d, r->cell[0].ptr, r->cell[0].len);
        if (!e) {
            if (kind != ADEXP_BASIC && cell_is(r->cell[4], "-") && !(flags & DICT_MSG_LIST))
                return fail(L, r->line, r->col[4], "a new compound or list needs "
                            "its subfields or items");
            if (add_entry(L, r, level, kind, flags) != 0)
                return -1;
            continue;
        }
        if (is_structural(e))
            return fail(L, r->line, r->col[0], "%s is the message's syntax and "
                        "cannot be extended", e->keyword);
        if (e->level != level)
            return fail(L, r->line, r->col[1], "%s is known at another level; "
                        "an extension only adds", e->keyword);
        if (e->kind != kind)
            return fail(L, r->line, r->col[2], "%s is known as another kind; "
                        "an extension only adds", e->keyword);
        dict_entry *x = &L->d->entries[e->id];
        x->flags |= (uint8_t)flags;
        L->d->changed[x->id] = 1;
    }
    return 0;
}

static int cmp_u16(const void *a, const void *b)
{
    return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* Second pass: the subfields of each row, added to its entry's. */
static int apply_subfields(loader *L, const ext_row *r)
{
    adexp_dictionary *d = L->d;
    dict_entry *e = &d->entries[dict_ext_lookup(d, r->cell[0].ptr, r->cell[0].len)->id];
    adexp_slice c = r->cell[4];
    d->changed[e->id] = 1;
    L->touched[e->id] = !cell_is(c, "-");
    if (!cell_is(r->cell[5], "-"))
        if (!(e->value_class = own_str(d, r->cell[5].ptr, r->cell[5].len)))
            return fail(L, r->line, r->col[5], "out of memory");
    if (cell_is(c, "-"))
        return 0;
    size_t n = e->nsub, cap = e->nsub + c.len / 2 + 1;
    if (cap > 255 + 1)
        cap = 255 + 1;
    uint16_t *sub = own(d, malloc(cap * sizeof *sub));
    if (!sub)
        return fail(L, r->line, r->col[4], "out of memory");
    if (n)
        memcpy(sub, e->sub, n * sizeof *sub);
    for (size_t i = 0; i < c.len;) {
        const char *sp = memchr(c.ptr + i, ' ', c.len - i);
        adexp_slice s = {c.ptr + i, sp ? (size_t)(sp - c.ptr) - i : c.len - i};
        unsigned col = r->col[4] + (unsigned)i;
        i += s.len + 1;
        if (s.len == 0)
            continue;
        const dict_entry *x = dict_ext_lookup(d, s.ptr, s.len);
        if (!x)
            return fail(L, r->line, col, "subfield %.*s is not defined in the "
                        "dictionary or this file", (int)(s.len > 40 ? 40 : s.len), s.ptr);
        if (is_structural(x))
            return fail(L, r->line, col, "%s is the message's syntax: it cannot be "
                        "a subfield or a list item", x->keyword);
        uint16_t id = x->id;
        if (!bsearch(&id, sub, n, sizeof *sub, cmp_u16)) {
            if (n == 255)
                return fail(L, r->line, col, "more than 255 subfields");
            sub[n++] = id;
            qsort(sub, n, sizeof *sub, cmp_u16);
        }
    }
    e->sub = sub;
    e->nsub = (uint16_t)n;
    return 0;
}

/* Every entry that is now someone's subfield gets a bit, and every entry
 * whose subfields this file changed gets its row (rows shared when equal). */
static int assign_bits_and_rows(loader *L)
{
    adexp_dictionary *d = L->d;
    unsigned next_bit = 0;
    for (size_t i = 0; i < d->count; i++)
        if (d->entries[i].sub_bit != SUB_BIT_NONE && d->entries[i].sub_bit >= next_bit)
            next_bit = d->entries[i].sub_bit + 1u;
    for (size_t i = 0; i < d->count; i++) {
        const dict_entry *e = &d->entries[i];
        for (size_t k = 0; k < e->nsub; k++) {
            dict_entry *x = &d->entries[e->sub[k]];
            if (x->sub_bit != SUB_BIT_NONE)
                continue;
            if (next_bit >= SUB_BIT_NONE)
                return fail(L, 0, 0, "too many subfield keywords (at most %d)",
                            SUB_BIT_NONE);
            x->sub_bit = (uint8_t)next_bit++;
            d->changed[x->id] = 1;
        }
    }
    for (size_t i = 0; i < d->count; i++) {
        dict_entry *e = &d->entries[i];
        if (!L->touched[i])
            continue;
        uint64_t row[DICT_SUB_WORDS] = {0};
        for (size_t k = 0; k < e->nsub; k++) {
            unsigned b = d->entries[e->sub[k]].sub_bit;
            row[b >> 6] |= (uint64_t)1 << (b & 63);
        }
        size_t r = 0;
        while (r < d->nrows && memcmp(d->rows[r], row, sizeof row) != 0)
            r++;
        if (r == d->nrows)
            memcpy(d->rows[d->nrows++], row, sizeof row);
        e->row = d->rows[r];
    }
    return 0;
}

/* The value check of each entry: its own for an unchanged built-in
 * field; for a new basic field, or a built-in one given another value
 * class, that of the first built-in basic field of the same value class
 * ("timehhmm", "flightlevel"), if there is one. */
static int assign_checks(adexp_dictionary *d)
{
    free(d->check_as);
    d->check_as = malloc(d->count * sizeof *d->check_as);
    if (!d->check_as)
        return -1;
    for (size_t i = 0; i < d->count; i++) {
        const dict_entry *e = &d->entries[i];
        d->check_as[i] = ADEXP_DICT_NONE;
        if (i < dict_count && e->value_class == dict_table[i].value_class) {
            d->check_as[i] = (uint16_t)i;
            continue;
        }
        if (e->kind != ADEXP_BASIC || !e->value_class[0])
            continue;
        for (size_t j = 0; j < dict_count; j++)
            if (dict_table[j].kind == ADEXP_BASIC &&
                strcmp(dict_table[j].value_class, e->value_class) == 0) {
                d->check_as[i] = (uint16_t)j;
                break;
            }
    }
    return 0;
}

/* ------------------------------------------------------------ public */

/* A new dictionary holding base's entries (NULL: the built-in ones), with
 * room for extra more entries and rows. It owns copies of whatever base
 * owned, so that base may be freed first. */
static adexp_dictionary *copy_base(const adexp_dictionary *base, size_t extra)
{
    adexp_dictionary *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    size_t n = base ? base->count : dict_count;
    size_t nrows = base ? base->nrows : 0;
    d->entries = malloc((n + extra) * sizeof *d->entries);
    d->changed = calloc(n + extra, 1);
    d->rows = malloc((nrows + extra + 1) * sizeof *d->rows);
    if (!d->entries || !d->changed || !d->rows)
        goto nomem;
    memcpy(d->entries, base ? base->entries : dict_table, n * sizeof *d->entries);
    d->count = n;
    if (base) {
        memcpy(d->changed, base->changed, n);
        memcpy(d->rows, base->rows, nrows * sizeof *d->rows);
        d->nrows = nrows;
    }
    for (size_t i = 0; i < n; i++) {
        dict_entry *e = &d->entries[i];
        if (!d->changed[i])
            continue;
        if (base && e->row >= base->rows[0] && e->row < base->rows[0] + nrows * DICT_SUB_WORDS)
            e->row = d->rows[(e->row - base->rows[0]) / DICT_SUB_WORDS];
        if (i >= dict_count && !(e->keyword = own_str(d, e->keyword, e->len)))
            goto nomem;
        if (e->value_class != dict_table[i < dict_count ? i : 0].value_class &&
            !(e->value_class = own_str(d, e->value_class, strlen(e->value_class))))
            goto nomem;
        if (e->nsub) {
            uint16_t *s = own(d, malloc(e->nsub * sizeof *s));
            if (!s)
                goto nomem;
            memcpy(s, e->sub, e->nsub * sizeof *s);
            e->sub = s;
        }
    }
    if (build_slots(d) != 0)
        goto nomem;
    return d;
nomem:
    adexp_dict_free(d);
    return NULL;
}

adexp_dictionary *adexp_dict_load(const adexp_dictionary *base, const char *data,
                                  size_t len, adexp_dict_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
    loader L = {.err = err};
    if (!data && len) {
        fail(&L, 0, 0, "no data");
        return NULL;
    }
    int rc = read_file(&L, data, len);
    if (rc == 0) {
        L.d = copy_base(base, L.nrows);
        L.touched = L.d ? calloc(L.d->count + L.nrows, 1) : NULL;
        if (!L.touched)
            rc = fail(&L, 0, 0, "out of memory");
    }
    if (rc == 0)
        rc = apply_heads(&L);
    for (size_t i = 0; rc == 0 && i < L.nrows; i++)
        rc = apply_subfields(&L, &L.rows[i]);
    if (rc == 0)
        rc = assign_bits_and_rows(&L);
    if (rc == 0 && assign_checks(L.d) != 0)
        rc = fail(&L, 0, 0, "out of memory");
    free(L.touched);
    free(L.rows);
    if (rc != 0) {
        adexp_dict_free(L.d);
        return NULL;
    }
    return L.d;
}

adexp_dictionary *adexp_dict_load_file(const adexp_dictionary *base, const char *path,
                                       adexp_dict_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) {
        if (err)
            snprintf(err->message, sizeof err->message, "%s",
                     path ? strerror(errno) : "no path");
        return NULL;
    }
    char *data = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? 2 * cap : 65536;
            char *nd = cap > ((size_t)64 << 20) ? NULL : realloc(data, cap);
            if (!nd) {
                if (err)
                    snprintf(err->message, sizeof err->message,
                             "file too large or out of memory (limit 64 MiB)");
                free(data);
                fclose(f);
                return NULL;
            }
            data = nd;
        }
        size_t got = fread(data + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    adexp_dictionary *d = NULL;
    if (bad) {
        if (err)
            snprintf(err->message, sizeof err->message, "read error");
    } else {
        d = adexp_dict_load(base, data, len, err);
    }
    free(data);
    return d;
}

void adexp_dict_free(adexp_dictionary *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->nowned; i++)
        free(d->owned[i]);
    free(d->owned);
    free(d->entries);
    free(d->changed);
    free(d->check_as);
    free(d->rows);
    free(d->slots);
    free(d);
}

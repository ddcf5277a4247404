/* The ADEXP writer: a message's field tree back to text that the parser
 * reads as the same tree.
 *
 * The parser's tree holds one node per field token, in the order of the
 * tokens (a list's -BEGIN and -END are its node's), and the parser decides
 * everything from those tokens alone. So writing the tokens in that order,
 * each one lexed back as itself, gives the same tree: whatever the grammar
 * decides, it decides it again the same way. What the writer checks is thus
 * that each token reads back as itself (the keyword, the value, where an
 * ICAO text ends); whether a tree made by a program is one that some text
 * reads back as is checked only by the verify option, which asks the parser
 * itself. */
#include <stdint.h>
#include <string.h>

#include "adexp.h"
#include "dict.h"
#include "dict_ext.h"
#include "dict_ids.h"
#include "json_names.h"
#include "json_out.h"
#include "lexer.h"
#include "write_runs.h"

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* Bytes are gathered here and appended to the buffer in blocks: one call
 * for many small pieces. */
#define STAGE_SIZE 4096

typedef struct writer {
    adexp_buf *out;
    size_t staged;
    char stage[STAGE_SIZE];
    const adexp_write_options *o;
    adexp_status code;
    const adexp_field *bad;
    const adexp_field *open_text;  /* the last value written: ICAO text without
                                      brackets, which runs on to the next known
                                      primary field or list bracket */
    int started;                   /* a token of this message is written */
    int fold;                      /* o->fold */
} writer;

adexp_write_options adexp_write_options_default(void)
{
    adexp_write_options o = {ADEXP_LAYOUT_LINE, 0, 2, 0, NULL};
    return o;
}

static int fail(writer *w, adexp_status code, const adexp_field *f)
{
    if (w->code == ADEXP_OK) {
        w->code = code;
        w->bad = f;
    }
    return 0;
}

/* The staged bytes into the buffer (before reading them there, and at the
 * end). */
static int flush(writer *w)
{
    if (w->staged && !adexp_buf_put(w->out, w->stage, w->staged))
        return fail(w, ADEXP_E_NOMEM, NULL);
    w->staged = 0;
    return 1;
}

static int put(writer *w, const char *s, size_t n)
{
    if (n <= STAGE_SIZE - w->staged) {
        memcpy(w->stage + w->staged, s, n);
        w->staged += n;
        return 1;
    }
    if (!flush(w))
        return 0;
    if (n <= STAGE_SIZE)
        return put(w, s, n);
    return adexp_buf_put(w->out, s, n) || fail(w, ADEXP_E_NOMEM, NULL);
}

/* Bytes written so far, staged or not. */
static size_t written(const writer *w)
{
    return w->out->len + w->staged;
}

/* Takes back the last n bytes written. */
static void unput(writer *w, size_t n)
{
    size_t k = n < w->staged ? n : w->staged;
    w->staged -= k;
    w->out->len -= n - k;
}

/* What comes before a token: nothing at the message's start, else a space
 * or, in the IFPS layout when newline is set, a new line indented depth
 * levels. */
static int sep(writer *w, int newline, unsigned depth)
{
    static const char spaces[] = "                                ";
    if (!w->started)
        return w->started = 1;
    if (!newline || w->o->layout != ADEXP_LAYOUT_IFPS)
        return put(w, " ", 1);
    if (!put(w, "\n", 1))
        return 0;
    for (size_t n = (size_t)depth * w->o->indent; n > 0;) {
        size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
        if (!put(w, spaces, k))
            return 0;
        n -= k;
    }
    return 1;
}

/* Whether a token with entry e (NULL: unknown; syntax for -BEGIN, -END)
 * ends the bracket-less ICAO text before it, if any, as the lexer reads it. */
static int ends_open_text(writer *w, const dict_entry *e)
{
    if (!w->open_text)
        return 1;
    if (!e || (e->level != DICT_PRIMARY && e->level != DICT_RESERVED_PRIMARY &&
               e->level != DICT_SYNTAX))
        return fail(w, ADEXP_E_WRITE_VALUE, w->open_text);
    w->open_text = NULL;
    return 1;
}

static int keyword_ok(adexp_slice k)
{
    if (k.len == 0)
        return 0;
    for (size_t i = 0; i < k.len; i++)
        if (!is_alnum((unsigned char)k.ptr[i]))
            return 0;
    return 1;
}

/* v folded into p (room for v.len + WRITE_RUN_SLACK bytes): the runs
 * folding keeps copied at once (write_runs.h), each separator run between
 * them one space; returns the end. */
static char *fold_into(char *p, adexp_slice v)
{
    const unsigned char *s = (const unsigned char *)v.ptr;
    size_t i = 0, n = v.len;
    while (i < n && is_sep(s[i]))
        i++;
    while (i < n) {
        size_t r = WRITE_FOLD_RUN(s + i, n - i, p);
        p += r;
        i += r;
        while (i < n && is_sep(s[i]))
            i++;
        if (i < n)
            *p++ = ' ';
    }
    return p;
}

/* Appends v folded, a word at a time (values longer than the stage). */
static int put_folded_long(writer *w, adexp_slice v)
{
    size_t i = 0;
    int first = 1;
    while (i < v.len) {
        while (i < v.len && is_sep((unsigned char)v.ptr[i]))
            i++;
        size_t j = i;
        while (j < v.len && !is_sep((unsigned char)v.ptr[j]))
            j++;
        if (j > i && ((!first && !put(w, " ", 1)) || !put(w, v.ptr + i, j - i)))
            return 0;
        first = 0;
        i = j;
    }
    return 1;
}

/* Appends v folded: runs of separators one space, none at the ends; in
 * the stage by fold_into when it fits there. */
static int put_folded(writer *w, adexp_slice v)
{
    if (v.len + WRITE_RUN_SLACK > STAGE_SIZE - w->staged) {
        if (!flush(w))
            return 0;
        if (v.len + WRITE_RUN_SLACK > STAGE_SIZE)
            return put_folded_long(w, v);
    }
    w->staged = (size_t)(fold_into(w->stage + w->staged, v) - w->stage);
    return 1;
}

/* Whether v holds a '-': short values without a call. */
static int has_dash(adexp_slice v)
{
    if (v.len > 16)
        return memchr(v.ptr, '-', v.len) != NULL;
    for (size_t i = 0; i < v.len; i++)
        if (v.ptr[i] == '-')
            return 1;
    return 0;
}

/* Whether the value of a field that is not ICAO text reads back as itself:
 * it ends at the next '-', and the parser trims its ends. */
static int plain_value_ok(const writer *w, adexp_slice v)
{
    if (v.len == 0)
        return 1;
    if (has_dash(v))
        return 0;
    return w->o->fold ||
           (!is_sep((unsigned char)v.ptr[0]) && !is_sep((unsigned char)v.ptr[v.len - 1]));
}

/* Whether the ICAO text field written from dash on reads back with its value
 * at [voff, out->len): the lexer itself reads the field alone. Bracket-less
 * text also needs the next token to end it (ends_open_text). */
static int text_value_ok(writer *w, const adexp_field *f, size_t dash, size_t voff)
{
    if (!flush(w))
        return 0;
    const adexp_buf *b = w->out;
    lexer lx;
    lexer_init(&lx, b->data + dash, b->len - dash, UINT32_MAX);
    lexer_use_dictionary(&lx, w->o->dictionary);
    const field_token *t = lexer_next_field(&lx);
    size_t vlen = b->len - voff;
    int same = t->kind == FT_FIELD && t->code == ADEXP_OK && t->value.len == vlen &&
               (vlen == 0 || t->value.ptr == b->data + voff);
    if (!same || lexer_next_field(&lx)->kind != FT_EOF)
        return fail(w, ADEXP_E_WRITE_VALUE, f);
    if (vlen == 0 || b->data[voff] != '(')
        w->open_text = f;
    return 1;
}

/* The separator, -KEYWORD and value of a field that is not ICAO text,
 * straight into the stage when they fit there (most fields): one check of
 * room instead of one per piece. Returns 0 to leave it to the general path
 * (put_field). */
static int put_plain(writer *w, const adexp_field *f, int newline, unsigned depth)
{
    int line = newline && w->o->layout == ADEXP_LAYOUT_IFPS;
    size_t ind = !w->started ? 0 : 1 + (line ? (size_t)depth * w->o->indent : 0);
    size_t k = f->keyword.len, v = f->value.len;
    size_t n = ind + 1 + k + (v ? 1 + v : 0) + WRITE_RUN_SLACK;   /* fold_into's */
    if (n > STAGE_SIZE - w->staged) {
        if (n > STAGE_SIZE || !flush(w))
            return 0;
    }
    char *p = w->stage + w->staged;
    if (ind) {
        *p++ = line ? '\n' : ' ';
        memset(p, ' ', ind - 1);
        p += ind - 1;
    }
    *p++ = '-';
    memcpy(p, f->keyword.ptr, k);
    p += k;
    if (v) {
        *p++ = ' ';
        if (!w->o->fold) {
            memcpy(p, f->value.ptr, v);
            p += v;
        } else {
            char *q = fold_into(p, f->value);
            p = q == p ? p - 1 : q;    /* folded to nothing: no space either */
        }
    }
    w->staged = (size_t)(p - w->stage);
    w->started = 1;
    return 1;
}

/* The dictionary entry of f's keyword, or NULL. The node's dict_id (the
 * parser's and the builder's) is taken when it names that keyword: a
 * compare instead of a lookup. */
static const dict_entry *entry_of(const writer *w, const adexp_field *f)
{
    if (f->dict_id < dict_count) {
        const dict_entry *e = &dict_table[f->dict_id];
        size_t i = 0;
        if (e->len == f->keyword.len)
            while (i < e->len && e->keyword[i] == f->keyword.ptr[i])
                i++;
        if (i == f->keyword.len && i == e->len)
            return e;
    }
    return dict_ext_lookup(w->o->dictionary, f->keyword.ptr, f->keyword.len);
}


/* -KEYWORD value: a basic field, or a compound's own part. Out of line: the
 * fields put_fast leaves (few) need not cost the chain's loop registers. */
static NOINLINE int put_field(writer *w, const adexp_field *f, int newline, unsigned depth)
{
    const dict_entry *e = entry_of(w, f);
    if ((!e && !keyword_ok(f->keyword)) || (e && e->level == DICT_SYNTAX))
        return fail(w, ADEXP_E_WRITE_KEYWORD, f);
    int text = e && (e->flags & DICT_TEXT);
    if (!text && !plain_value_ok(w, f->value))
        return fail(w, ADEXP_E_WRITE_VALUE, f);
    if (!ends_open_text(w, e))
        return 0;
    if (!text && put_plain(w, f, newline, depth))
        return 1;
    if (!sep(w, newline, depth))
        return 0;
    size_t dash = written(w);
    if (!put(w, "-", 1) || !put(w, f->keyword.ptr, f->keyword.len))
        return 0;
    size_t voff = written(w);
    if (f->value.len) {
        if (!put(w, " ", 1))
            return 0;
        voff++;
        if (!(w->o->fold ? put_folded(w, f->value) : put(w, f->value.ptr, f->value.len)))
            return 0;
        if (written(w) == voff) {      /* folded to nothing: no space either */
            unput(w, 1);
            voff--;
        }
    }
    return !text || text_value_ok(w, f, dash, voff);
}

/* What comes before a field on its own line, or after the one before, in
 * put_fast: the first n bytes of s, which has 32 readable. */
typedef struct lead {
    const char *s;
    size_t n;
} lead;

static const char nl_spaces[64] = "\n                                                              ";
static const char spaces[32] = "                               ";

/* The lead of a field on its own line at depth: a space, or in the IFPS
 * layout a new line indented; n SIZE_MAX when too long for put_fast. */
static lead line_lead(const writer *w, unsigned depth)
{
    lead l = {spaces, 1};
    if (w->o->layout == ADEXP_LAYOUT_IFPS) {
        size_t ind = (size_t)w->o->indent;
        l.s = nl_spaces;
        l.n = depth < 32 && ind < 32 && 1 + depth * ind <= 32 ? 1 + depth * ind : SIZE_MAX;
    }
    return l;
}

/* Bytes put_fast may store: its lead, '-', a keyword's 16-byte copy, ' ',
 * the value and its run's slack. */
#define FAST_ROOM (32 + 1 + 16 + 1 + WRITE_RUN_SLACK)

/* Compares a[0..n) and b[0..n), 0 < n <= 16, in words that overlap. */
static ALWAYS_INLINE int same_short(const char *a, const char *b, size_t n)
{
    if (n >= 8) {
        uint64_t x, y, u, v;
        memcpy(&x, a, 8), memcpy(&y, a + n - 8, 8);
        memcpy(&u, b, 8), memcpy(&v, b + n - 8, 8);
        return ((x ^ u) | (y ^ v)) == 0;
    }
    if (n >= 4) {
        uint32_t x, y, u, v;
        memcpy(&x, a, 4), memcpy(&y, a + n - 4, 4);
        memcpy(&u, b, 4), memcpy(&v, b + n - 4, 4);
        return ((x ^ u) | (y ^ v)) == 0;
    }
    if (n >= 2) {
        uint16_t x, y, u, v;
        memcpy(&x, a, 2), memcpy(&y, a + n - 2, 2);
        memcpy(&u, b, 2), memcpy(&v, b + n - 2, 2);
        return ((x ^ u) | (y ^ v)) == 0;
    }
    return a[0] == b[0];
}

/* Most fields, straight into the stage: a field whose dict_id names its
 * keyword's entry (dict_id checked against the table's size, the keyword
 * against the entry's, so that a tree with any dict_id is written as its
 * keyword says), a built-in entry (an extension's new or changed ones are
 * put_field's) that is neither ICAO text nor BEGIN/END, after no open ICAO
 * text, and a value that is one run (write_runs.h). The keyword is
 * copied from json_names, whose 16 bytes past '{"name":"' are readable.
 * (DICT_COUNT is dict_count, the table's size: write_test checks it.) fold
 * is w->fold, a constant where this is inlined. Returns 0 with nothing
 * written for put_field, which decides the rest. */
static ALWAYS_INLINE int put_fast(writer *w, const adexp_field *f, lead l, int fold)
{
    size_t k = f->keyword.len, v = f->value.len;
    const adexp_dictionary *d = w->o->dictionary;
    if (f->dict_id >= DICT_COUNT || w->open_text || l.n == SIZE_MAX ||
        (d && d->changed[f->dict_id]))      /* an extension's entry: put_field's */
        return 0;
    const dict_entry *e = &dict_table[f->dict_id];
    const char *name = json_names[f->dict_id].text + 9;
    if (e->len != k || (e->flags & DICT_TEXT) || e->level == DICT_SYNTAX ||
        !same_short(f->keyword.ptr, name, k))
        return 0;
    if (FAST_ROOM + v > STAGE_SIZE - w->staged &&
        (v > STAGE_SIZE - FAST_ROOM || !flush(w)))
        return 0;
    char *p = w->stage + w->staged;
    if (w->started) {
        memcpy(p, l.s, 32);
        p += l.n;
    }
    *p++ = '-';
    memcpy(p, name, 16);
    p += k;
    if (v) {
        *p++ = ' ';
        if (!WRITE_RUN((const unsigned char *)f->value.ptr, v, p, fold))
            return 0;
        p += v;
    }
    w->staged = (size_t)(p - w->stage);
    w->started = 1;
    return 1;
}

/* Copies n bytes, n <= 16, in words that overlap. */
static ALWAYS_INLINE void copy_short(char *o, const char *s, size_t n)
{
    if (n >= 8) {
        uint64_t x, y;
        memcpy(&x, s, 8), memcpy(&y, s + n - 8, 8);
        memcpy(o, &x, 8), memcpy(o + n - 8, &y, 8);
    } else if (n >= 4) {
        uint32_t x, y;
        memcpy(&x, s, 4), memcpy(&y, s + n - 4, 4);
        memcpy(o, &x, 4), memcpy(o + n - 4, &y, 4);
    } else if (n) {
        o[0] = s[0], o[n >> 1] = s[n >> 1], o[n - 1] = s[n - 1];
    }
}

/* -BEGIN name or -END name (word, n bytes, a constant where inlined): on
 * its own line, in one check of room when its lead and name are short. */
static int put_bracket(writer *w, const char *word, size_t n,
                               const adexp_field *list, unsigned depth)
{
    w->open_text = NULL;               /* a list bracket ends any ICAO text */
    lead l = line_lead(w, depth);
    size_t k = list->keyword.len;
    if (l.n == SIZE_MAX || k > 16 ||
        (32 + n + 16 > STAGE_SIZE - w->staged && !flush(w)))
        return sep(w, 1, depth) && put(w, word, n) && put(w, list->keyword.ptr, k);
    char *p = w->stage + w->staged;
    if (w->started) {
        memcpy(p, l.s, 32);
        p += l.n;
    }
    memcpy(p, word, n);
    copy_short(p + n, list->keyword.ptr, k);
    w->staged = (size_t)(p + n + k - w->stage);
    w->started = 1;
    return 1;
}

static int put_chain(writer *w, const adexp_field *f, unsigned depth, int lines);

static int put_list(writer *w, const adexp_field *f, unsigned depth)
{
    if (!keyword_ok(f->keyword))
        return fail(w, ADEXP_E_WRITE_KEYWORD, f);
    return put_bracket(w, "-BEGIN ", 7, f, depth) && put_chain(w, f->child, depth + 1, 1) &&
           put_bracket(w, "-END ", 5, f, depth);
}

/* The fields of a chain: each on its own line (lines: the message's fields,
 * a list's items), or after the one before (a compound's subfields), but
 * for a list and the field after it. */
static int put_chain(writer *w, const adexp_field *f, unsigned depth, int lines)
{
    int after_list = 0;
    lead own = line_lead(w, depth), next = {spaces, 1};
    for (; f; f = f->next) {
        if (f->kind == ADEXP_LIST) {
            if (!put_list(w, f, depth))
                return 0;
            after_list = 1;
            continue;
        }
        int newline = lines || after_list;
        lead l = newline ? own : next;
        int done = w->fold ? put_fast(w, f, l, 1) : put_fast(w, f, l, 0);
        if (!done && !put_field(w, f, newline, depth))
            return 0;
        if (f->child && !put_chain(w, f->child, depth + 1, 0))
            return 0;
        after_list = 0;
    }
    return 1;
}

/* Parse the text written for msg and compare. Returns 1 if the same. */
static int verify(writer *w, const adexp_msg *msg, size_t start)
{
    adexp_arena arena;
    adexp_arena_init(&arena, &w->out->a);
    adexp_options po = adexp_options_default();
    po.dictionary = w->o->dictionary;
    adexp_parser *p = adexp_parser_new(&po, &w->out->a);
    if (!p)
        return fail(w, ADEXP_E_NOMEM, NULL);
    adexp_parser_reset(p, w->out->data + start, w->out->len - start);
    adexp_msg back;
    const adexp_field *where = NULL;
    adexp_status st = adexp_parser_next(p, &arena, &back);
    int same = 0;
    if (st == ADEXP_E_NOMEM) {
        fail(w, ADEXP_E_NOMEM, NULL);
    } else {
        same = adexp_tree_same(msg->fields, back.fields, w->o->fold ? ADEXP_SAME_FOLD : 0,
                               &where);
        same = same && st == ADEXP_OK && adexp_parser_next(p, &arena, &back) == ADEXP_END;
        if (!same)
            fail(w, ADEXP_E_WRITE_SHAPE, where);
    }
    adexp_parser_free(p);
    adexp_arena_free(&arena);
    return same;
}

adexp_status adexp_write(adexp_buf *out, const adexp_msg *msg,
                         const adexp_write_options *o, adexp_write_error *err)
{
    adexp_write_options def = adexp_write_options_default();
    writer w;
    w.out = out;
    w.staged = 0;
    w.o = o ? o : &def;
    w.code = ADEXP_OK;
    w.bad = w.open_text = NULL;
    w.started = 0;
    w.fold = w.o->fold != 0;
    size_t start = out->len;
    if (put_chain(&w, msg->fields, 0, 1) && put(&w, "\n", 1) && flush(&w) && w.o->verify)
        verify(&w, msg, start);
    if (w.code != ADEXP_OK)
        out->len = start;
    if (err) {
        err->code = w.code;
        err->field = w.bad;
        err->path[0] = '\0';
        if (w.bad)
            adexp_field_path(msg->fields, w.bad, err->path, sizeof err->path);
    }
    return w.code;
}

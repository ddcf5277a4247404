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
#include <string.h>

#include "adexp.h"
#include "dict.h"
#include "json_out.h"
#include "lexer.h"

typedef struct writer {
    adexp_buf *out;
    const adexp_write_options *o;
    adexp_status code;
    const adexp_field *bad;
    const adexp_field *open_text;  /* the last value written: ICAO text without
                                      brackets, which runs on to the next known
                                      primary field or list bracket */
    int started;                   /* a token of this message is written */
} writer;

adexp_write_options adexp_write_options_default(void)
{
    adexp_write_options o = {ADEXP_LAYOUT_LINE, 0, 2, 0};
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

static int put(writer *w, const char *s, size_t n)
{
    return adexp_buf_put(w->out, s, n) || fail(w, ADEXP_E_NOMEM, NULL);
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

/* Appends v folded: runs of separators one space, none at the ends. */
static int put_folded(writer *w, adexp_slice v)
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

/* Whether the value of a field that is not ICAO text reads back as itself:
 * it ends at the next '-', and the parser trims its ends. */
static int plain_value_ok(const writer *w, adexp_slice v)
{
    if (v.len == 0)
        return 1;
    if (memchr(v.ptr, '-', v.len))
        return 0;
    return w->o->fold ||
           (!is_sep((unsigned char)v.ptr[0]) && !is_sep((unsigned char)v.ptr[v.len - 1]));
}

/* Whether the ICAO text field written from dash on reads back with its value
 * at [voff, out->len): the lexer itself reads the field alone. Bracket-less
 * text also needs the next token to end it (ends_open_text). */
static int text_value_ok(writer *w, const adexp_field *f, size_t dash, size_t voff)
{
    const adexp_buf *b = w->out;
    lexer lx;
    lexer_init(&lx, b->data + dash, b->len - dash, UINT32_MAX);
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

/* -KEYWORD value: a basic field, or a compound's own part. */
static int put_field(writer *w, const adexp_field *f, int newline, unsigned depth)
{
    const dict_entry *e = dict_lookup(f->keyword.ptr, f->keyword.len);
    if (!keyword_ok(f->keyword) || (e && e->level == DICT_SYNTAX))
        return fail(w, ADEXP_E_WRITE_KEYWORD, f);
    int text = e && (e->flags & DICT_TEXT);
    if (!text && !plain_value_ok(w, f->value))
        return fail(w, ADEXP_E_WRITE_VALUE, f);
    if (!ends_open_text(w, e) || !sep(w, newline, depth))
        return 0;
    size_t dash = w->out->len;
    if (!put(w, "-", 1) || !put(w, f->keyword.ptr, f->keyword.len))
        return 0;
    size_t voff = w->out->len;
    if (f->value.len) {
        if (!put(w, " ", 1))
            return 0;
        voff++;
        if (!(w->o->fold ? put_folded(w, f->value) : put(w, f->value.ptr, f->value.len)))
            return 0;
        if (w->out->len == voff)
            voff = --w->out->len;      /* folded to nothing: no space either */
    }
    return !text || text_value_ok(w, f, dash, voff);
}

/* -BEGIN name or -END name. */
static int put_bracket(writer *w, const char *word, size_t n, const adexp_field *list,
                       unsigned depth)
{
    w->open_text = NULL;               /* a list bracket ends any ICAO text */
    return sep(w, 1, depth) && put(w, word, n) &&
           put(w, list->keyword.ptr, list->keyword.len);
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
    for (; f; f = f->next) {
        if (f->kind == ADEXP_LIST) {
            if (!put_list(w, f, depth))
                return 0;
            after_list = 1;
            continue;
        }
        if (!put_field(w, f, lines || after_list, depth) ||
            !put_chain(w, f->child, depth + 1, 0))
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
    adexp_parser *p = adexp_parser_new(NULL, &w->out->a);
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
    writer w = {out, o ? o : &def, ADEXP_OK, NULL, NULL, 0};
    size_t start = out->len;
    if (put_chain(&w, msg->fields, 0, 1) && put(&w, "\n", 1) && w.o->verify)
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

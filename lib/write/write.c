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
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "adexp.h"
#include "dict.h"
#include "dict_ext.h"
#include "dict_ids.h"
#include "field_word.h"
#include "json_out.h"
#include "lexer.h"
#include "write_envelope.h"
#include "write_parsed.h"
#include "write_runs.h"

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* What comes before a token: s[0..n), of which LEAD_MAX bytes are
 * readable (n > LEAD_MAX: s[0] then n - 1 spaces). The message's fields: a
 * space, or in the IFPS layout a new line indented; a compound's
 * subfields: a space. The fast paths store LEAD_MAX bytes, one move: a
 * lead as deep as 8 levels of 2 spaces (n 17) takes put_field's. */
typedef struct lead {
    const char *s;
    size_t n;
} lead;

#define LEAD_MAX 16

static const char nl_spaces[64] = "\n                                                              ";
static const char spaces[32] = "                               ";

typedef struct writer writer;
/* A chain of fields at depth (write_chain): the message's fields and a
 * list's items (each on its own line), or a compound's subfields. Returns
 * the cursor, NULL when it failed (w->code). */
typedef char *chain_fn(writer *w, char *o, const adexp_field *f, unsigned depth);

/* The text is written straight into the buffer, at a cursor each function
 * takes and returns (a register, as in json.c); out->len is set at the
 * end. end is where the fast path's room ends: the buffer's, or its start
 * while an ICAO text without brackets is open (open_text), so that its
 * one room check sends the field after such a text to put_field. */
struct writer {
    adexp_buf *out;
    char *end;
    uintptr_t last;                /* FAST_SPAN before end, or 0 (set_end) */
    const adexp_write_options *o;
    const adexp_dictionary *dict;  /* o->dictionary */
    chain_fn *lines, *subfields;   /* this call's instances of write_chain */
    adexp_status code;
    const adexp_field *bad;
    const adexp_field *open_text;  /* the last value written: ICAO text without
                                      brackets, which runs on to the next known
                                      primary field or list bracket */
    int keep_unclosed;             /* the message's errors hold TEXT_UNCLOSED:
                                      its text left open may be written open */
    int unclosed;                  /* open_text is such a text: it runs on to
                                      the message's end, so nothing may follow */
    const adexp_msg *msg;          /* its errors: the lists it left open */
    int left_open;                 /* a list was written without its -END */
    int fold;                      /* o->fold */
    int framed;                    /* the message is written in its envelope */
    int trust;                     /* the tree is the parser's, of a message without
                                      errors, without the extension (write_parsed):
                                      its dict_ids are the lookups, and the values
                                      of the fields that are not ICAO text hold no
                                      '-' (the parser ended them there) */
};

static const adexp_write_options default_options = {ADEXP_LAYOUT_LINE, 0, 2, 0, NULL, 0};

adexp_write_options adexp_write_options_default(void)
{
    return default_options;
}

static char *fail(writer *w, adexp_status code, const adexp_field *f)
{
    if (w->code == ADEXP_OK) {
        w->code = code;
        w->bad = f;
    }
    return NULL;
}

/* Bytes put_fast may store: its lead, the 16 bytes of "-KEYWORD ", and the
 * value's run's slack; and with a value of at most 16 bytes. */
#define FAST_ROOM (LEAD_MAX + 16 + WRITE_RUN_SLACK)
#define FAST_SPAN (FAST_ROOM + 16)

/* w->end, and w->last: FAST_SPAN before it, or below the buffer's start
 * when there is none (w->end at the start, while an ICAO text is open:
 * every cursor is past it). */
static void set_end(writer *w)
{
    w->end = w->out->data + (w->open_text ? 0 : w->out->cap);
    uintptr_t e = (uintptr_t)w->end;
    w->last = e > FAST_SPAN ? e - FAST_SPAN : 0;
}

static void set_open_text(writer *w, const adexp_field *f)
{
    w->open_text = f;
    set_end(w);
}

/* Room for n bytes at o: o, or o in the grown buffer, or NULL when out of
 * memory. */
static NOINLINE char *grow(writer *w, char *o, size_t n)
{
    if (!(o = adexp_buf_grow_at(w->out, o, n)))
        return fail(w, ADEXP_E_NOMEM, NULL);
    set_end(w);
    return o;
}

static inline char *room(writer *w, char *o, size_t n)
{
    return adexp_buf_fits_at(w->out, o, n) ? o : grow(w, o, n);
}

/* Bytes put_lead may store. */
static size_t lead_room(lead l)
{
    return l.n > LEAD_MAX ? l.n : LEAD_MAX;
}

static char *put_lead(char *o, lead l)
{
    if (l.n <= LEAD_MAX) {
        memcpy(o, l.s, LEAD_MAX);
    } else {
        o[0] = l.s[0];
        memset(o + 1, ' ', l.n - 1);
    }
    return o + l.n;
}

/* The lead of a field on its own line at depth. */
static lead line_lead(const writer *w, unsigned depth)
{
    lead l = {spaces, 1};
    if (w->o->layout == ADEXP_LAYOUT_IFPS) {
        l.s = nl_spaces;
        l.n = 1 + (size_t)depth * w->o->indent;
    }
    return l;
}

/* Whether a token with entry e (NULL: unknown; syntax for -BEGIN, -END)
 * ends the bracket-less ICAO text before it, if any, as the lexer reads it. */
static int ends_open_text(writer *w, const dict_entry *e)
{
    if (!w->open_text)
        return 1;
    if (w->unclosed || !e || (e->level != DICT_PRIMARY && e->level != DICT_RESERVED_PRIMARY &&
               e->level != DICT_SYNTAX)) {
        fail(w, ADEXP_E_WRITE_VALUE, w->open_text);
        return 0;
    }
    set_open_text(w, NULL);
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
 * it ends at the next '-', and the parser trims its ends. A parsed
 * message's without errors (trust) does: the parser ended it so. */
static int plain_value_ok(const writer *w, adexp_slice v)
{
    if (v.len == 0 || w->trust)
        return 1;
    if (has_dash(v))
        return 0;
    return w->o->fold ||
           (!is_sep((unsigned char)v.ptr[0]) && !is_sep((unsigned char)v.ptr[v.len - 1]));
}

/* Whether the ICAO text field written at [dash, end) reads back with its
 * value at [voff, end): most texts, a group in brackets, by
 * WRITE_TEXT_CLOSED; the others by the lexer itself, reading the field
 * alone. Bracket-less text also needs the next token to end it
 * (ends_open_text). In a parsed message without errors (trust) a group in
 * brackets is one the lexer matched there (else TEXT_UNCLOSED): the same
 * bytes, or the same folded (folding keeps where separators are, and the
 * lexer's matching and -TITLE test see a run of them as one), match again,
 * as fuzz_roundtrip checks. */
static int text_value_ok(writer *w, const adexp_field *f, const char *dash, const char *voff,
                         const char *end)
{
    size_t vlen = (size_t)(end - voff);
    if (vlen && voff[0] == '(' &&
        (w->trust || WRITE_TEXT_CLOSED((const unsigned char *)voff, vlen)))
        return 1;
    lexer lx;
    lexer_init(&lx, dash, (size_t)(end - dash), UINT32_MAX);
    lexer_use_dictionary(&lx, w->dict);
    const field_token *t = lexer_next_field(&lx);
    /* a '(' never closed, in a message the parser flagged so, is written as
     * it stands: it runs on to the end of the message, as it did */
    int unclosed = t->code == ADEXP_E_TEXT_UNCLOSED && w->keep_unclosed;
    int same = t->kind == FT_FIELD && (t->code == ADEXP_OK || unclosed) &&
               t->value.len == vlen && (vlen == 0 || t->value.ptr == voff);
    if (!same || lexer_next_field(&lx)->kind != FT_EOF) {
        fail(w, ADEXP_E_WRITE_VALUE, f);
        return 0;
    }
    w->unclosed = unclosed;
    if (vlen == 0 || voff[0] != '(' || unclosed)
        set_open_text(w, f);
    return 1;
}

/* The dictionary entry of f's keyword, or NULL. The node's dict_id (the
 * parser's and the builder's) is taken when it names that keyword's
 * built-in entry, unchanged by the extension: a compare instead of a
 * lookup; in a parsed tree (trust) it is the parser's lookup itself. */
static const dict_entry *entry_of(const writer *w, const adexp_field *f)
{
    if (w->trust)
        return f->dict_id < dict_count ? &dict_table[f->dict_id] : NULL;
    if (f->dict_id < dict_count && !(w->dict && w->dict->changed[f->dict_id])) {
        const dict_entry *e = &dict_table[f->dict_id];
        size_t i = 0;
        if (e->len == f->keyword.len)
            while (i < e->len && e->keyword[i] == f->keyword.ptr[i])
                i++;
        if (i == f->keyword.len && i == e->len)
            return e;
    }
    return dict_ext_lookup(w->dict, f->keyword.ptr, f->keyword.len);
}

/* l, then -KEYWORD value: a basic field, or a compound's own part; every
 * check, and any value. The rule the fast path (put_fast) keeps to. */
static NOINLINE char *put_field(writer *w, char *o, const adexp_field *f, lead l)
{
    const dict_entry *e = entry_of(w, f);
    if ((!e && !keyword_ok(f->keyword)) || (e && e->level == DICT_SYNTAX))
        return fail(w, ADEXP_E_WRITE_KEYWORD, f);
    int text = e && (e->flags & DICT_TEXT);
    if (!text && !plain_value_ok(w, f->value))
        return fail(w, ADEXP_E_WRITE_VALUE, f);
    if (!ends_open_text(w, e))
        return NULL;
    size_t k = f->keyword.len, v = f->value.len;
    if (k > SIZE_MAX / 4 || v > SIZE_MAX / 4 || l.n > SIZE_MAX / 4)
        return fail(w, ADEXP_E_NOMEM, NULL);
    if (!(o = room(w, o, lead_room(l) + 2 + k + v + WRITE_RUN_SLACK)))   /* fold_into's */
        return NULL;
    o = put_lead(o, l);
    char *dash = o;
    *o++ = '-';
    memcpy(o, f->keyword.ptr, k);
    o += k;
    char *voff = o;
    if (v) {
        *o++ = ' ';
        voff = o;
        if (!w->fold) {
            memcpy(o, f->value.ptr, v);
            o += v;
        } else if ((o = fold_into(o, f->value)) == voff) {
            o = --voff;                /* folded to nothing: no space either */
        }
    }
    return !text || text_value_ok(w, f, dash, voff, o) ? o : NULL;
}

/* For each dict_id (taken modulo FAST_IDS), "-KEYWORD " NUL-padded and, in
 * its last byte, the keyword's length where the fast path may write the
 * field: a built-in entry of at most FAST_KEYWORD bytes that is neither ICAO
 * text nor BEGIN/END; else 0. Made once (pthread_once). */
#define FAST_IDS 1024
#define FAST_KEYWORD 13

typedef struct fast_name {
    char text[16];
} fast_name;

/* ADEXP_DICT_NONE's slot, the last, is no entry's: a parsed tree's ids
 * are the dictionary's or that one (put_fast's trust). */
_Static_assert(DICT_COUNT < FAST_IDS && (ADEXP_DICT_NONE & (FAST_IDS - 1)) == FAST_IDS - 1,
               "FAST_IDS must cover the dictionary's ids and leave ADEXP_DICT_NONE's slot empty");

static _Alignas(16) fast_name fast_names[FAST_IDS];
static pthread_once_t fast_once = PTHREAD_ONCE_INIT;
static int fast_ready;             /* set (release) once fast_names is made */

static void fast_names_init(void)
{
    for (size_t id = 0; id < dict_count; id++) {
        const dict_entry *e = &dict_table[id];
        char *t = fast_names[id].text;
        if (e->len > FAST_KEYWORD || (e->flags & DICT_TEXT) || e->level == DICT_SYNTAX)
            continue;
        t[0] = '-';
        memcpy(t + 1, e->keyword, e->len);
        t[1 + e->len] = ' ';
        t[15] = (char)e->len;
    }
    __atomic_store_n(&fast_ready, 1, __ATOMIC_RELEASE);
}

/* Whether a[0..n) and b[0..n), n <= 16, differ (n 0: they do), in words
 * that overlap: nonzero if so. The commonest keywords, 2 and 3 bytes (FL,
 * PT, ETO...), first. */
static ALWAYS_INLINE uint64_t differ_short(const char *a, const char *b, size_t n)
{
    if (n - 2 <= 1) {
        uint16_t x, y, u, v;
        memcpy(&x, a, 2), memcpy(&y, a + n - 2, 2);
        memcpy(&u, b, 2), memcpy(&v, b + n - 2, 2);
        return (uint16_t)((x ^ u) | (y ^ v));
    }
    if (n - 4 <= 4) {
        uint32_t x, y, u, v;
        memcpy(&x, a, 4), memcpy(&y, a + n - 4, 4);
        memcpy(&u, b, 4), memcpy(&v, b + n - 4, 4);
        return (x ^ u) | (y ^ v);
    }
    if (n > 8) {
        uint64_t x, y, u, v;
        memcpy(&x, a, 8), memcpy(&y, a + n - 8, 8);
        memcpy(&u, b, 8), memcpy(&v, b + n - 8, 8);
        return (x ^ u) | (y ^ v);
    }
    return n == 1 ? (uint64_t)(a[0] ^ b[0]) : 1;
}

/* The last cursor at which a field with a value of at most 16 bytes has
 * put_fast's room (w->last, made with w->end): one compare a field. The
 * caller's copy is made again after whatever may move w->end. */
static ALWAYS_INLINE uintptr_t fast_last(const writer *w)
{
    return w->last;
}

/* put_field, and *last made again (it may move w->end). */
static ALWAYS_INLINE char *put_slow(writer *w, char *o, const adexp_field *f, lead l,
                                    uintptr_t *last)
{
    o = put_field(w, o, f, l);
    *last = fast_last(w);
    return o;
}

/* The fast paths' l (one space in the line layout; in the IFPS layout at
 * most LEAD_MAX bytes, stored in one move) and "-KEYWORD" of entry nm (k
 * bytes, its 16 bytes stored at once): the end, where the separator and
 * value go. */
static ALWAYS_INLINE char *put_lead_name(char *o, lead l, const fast_name *nm, size_t k,
                                         int ifps)
{
    if (ifps) {
        memcpy(o, l.s, LEAD_MAX);
        o += l.n;
    } else {
        *o++ = ' ';
    }
    memcpy(o, nm->text, 16);
    return o + 1 + k;
}

/* l, then -KEYWORD value, most fields in one room check: a field whose
 * dict_id names its keyword's entry in fast_names (the keyword compared in
 * two overlapping words, so that a tree with any dict_id is written as its
 * keyword says; ext: and that entry not changed by the dictionary's
 * extension), no ICAO text open before it (w->end), a lead of at most
 * LEAD_MAX bytes, and a value that is one run (write_runs.h): with fold
 * plain, as most are, or else by WRITE_RUN (kept, WRITE_RUN's test is the
 * shorter). The rest is put_field's. trust: the tree is the parser's
 * (write_parsed.h), whose dict_id names its keyword, not compared then.
 * fold, ext, ifps and trust are constants where this is inlined (in the
 * line layout l is one space). */
static ALWAYS_INLINE char *put_fast(writer *w, char *o, const adexp_field *f, lead l, int fold,
                                    int ext, int ifps, int trust, uintptr_t *last)
{
    size_t v = f->value.len;
    size_t id = f->dict_id & (FAST_IDS - 1);
    const fast_name *nm = &fast_names[id];
    size_t k = trust ? (unsigned char)nm->text[15] : f->keyword.len;   /* trust: the entry's */
    if ((trust ? k == 0 : (unsigned char)nm->text[15] != k) || (ifps && l.n > LEAD_MAX) ||
        (!trust && differ_short(f->keyword.ptr, nm->text + 1, k)) ||
        (ext && w->dict->changed[id]) ||       /* id < dict_count here */
        (v <= 16 ? (uintptr_t)o > *last : w->end - o < (ptrdiff_t)(FAST_ROOM + v)))
        return put_slow(w, o, f, l, last);
    char *p = put_lead_name(o, l, nm, k, ifps);
    if (v) {
        p++;
        const unsigned char *s = (const unsigned char *)f->value.ptr;
        if (!(fold && v <= 16 && write_stops_none(write_plain_stops(s, v, p))) &&
            !WRITE_RUN(s, v, p, fold))
            return put_slow(w, o, f, l, last);
        p += v;
    }
    return p;
}

/* put_fast for the commonest field of a parsed tree (trust), tested
 * first and in fewer steps: a basic field (in a parsed tree it has no
 * children) with an entry in fast_names and a value of at most 16 bytes
 * that is one run, at a cursor at most last. NULL if f is not one: what
 * was written is written over by the caller's path. ifps: l.n is at most
 * LEAD_MAX (the caller's test). */
static ALWAYS_INLINE char *put_quick(char *o, uintptr_t last, const adexp_field *f, lead l,
                                     int fold, int ifps)
{
    uint32_t word = field_word(f);
    size_t v = f->value.len;
    const fast_name *nm = &fast_names[(word >> 16) & (FAST_IDS - 1)];
    size_t k = (unsigned char)nm->text[15];
    if ((word & 0xFFu) != ADEXP_BASIC || k == 0 || v > 16 || (uintptr_t)o > last)
        return NULL;
    const unsigned char *s = (const unsigned char *)f->value.ptr;
    o = put_lead_name(o, l, nm, k, ifps);
    if (v) {
        o++;
        if (!write_dashless_none(write_dashless_stops(s, v, o)) && !WRITE_RUN(s, v, o, fold))
            return NULL;
        o += v;
    }
    return o;
}

/* The most common compound, a route point as the parser makes most of
 * them: -PT of no value, its subfields exactly -PTID, -FL and -ETO, none
 * with children, each value plain (write_runs.h), so one run folded or
 * not. Its text but the values is fixed: its lead (in the line layout a
 * space, in the IFPS layout one of at most LEAD_MAX bytes), "-PT -PTID ",
 * " -FL " and " -ETO ", each one move, in one room check, the keywords
 * compared in one or two words each (their bytes decide, as in put_fast:
 * the dict_id only picks the candidates), or with trust their dict_ids (as
 * put_fast's trust). Without the dictionary's extension only, which may
 * change these entries. NULL if f is not such a point: what was written
 * is written over by the caller's path. */
#define POINT_VALUE 16
#define POINT_ROOM                                                                        \
    (LEAD_MAX + 16 + POINT_VALUE + 8 + POINT_VALUE + 8 + POINT_VALUE + WRITE_RUN_SLACK)

/* Whether keyword f's k bytes (2 to 4) are kw's, in two words that overlap. */
static ALWAYS_INLINE int point_keyword(const adexp_field *f, const char *kw, size_t k)
{
    uint16_t a, b, x, y;
    if (f->keyword.len != k)
        return 0;
    memcpy(&a, f->keyword.ptr, 2), memcpy(&b, f->keyword.ptr + k - 2, 2);
    memcpy(&x, kw, 2), memcpy(&y, kw + k - 2, 2);
    return ((a ^ x) | (b ^ y)) == 0;
}

/* A field's kind and dict_id as one word (field_word.h), its flags
 * (which the writer does not write) masked out. */
#define KIND_ID(kind, id) FIELD_WORD(kind, 0, id)

static ALWAYS_INLINE uint32_t kind_id(const adexp_field *f)
{
    return field_word(f) & ~FIELD_WORD_FLAGS;
}

/* Whether f is a route point's subfield of dict_id id and keyword kw (k
 * bytes): no list, no children, a value of 1 to POINT_VALUE bytes. With
 * trust a basic field by its kind and dict_id in one word (a basic field
 * of a parsed tree has no children: the parser makes a field with children
 * a compound, as json.c's writer has it, which writes none of a basic
 * field's); else by its keyword's bytes. */
static ALWAYS_INLINE int is_point_sub(const adexp_field *f, uint16_t id, const char *kw,
                                      size_t k, int trust)
{
    if (trust)
        return f && kind_id(f) == KIND_ID(ADEXP_BASIC, id) && f->value.len - 1 < POINT_VALUE;
    return f && f->kind != ADEXP_LIST && point_keyword(f, kw, k) && !f->child &&
           f->value.len - 1 < POINT_VALUE;
}

/* A point's value v copied to o, and its stops: with trust, a clean
 * parsed tree's, whose values here hold no '-' (write_runs.h). */
static ALWAYS_INLINE write_stops point_value(adexp_slice v, char *o, int trust)
{
    const unsigned char *p = (const unsigned char *)v.ptr;
    return trust ? write_dashless_stops(p, v.len, o) : write_plain_stops(p, v.len, o);
}

/* end: where the room ends (w->end, in a local: the stores may alias it
 * for the compiler). With trust, a point the parser read whole
 * (field_point_whole) needs only its values' lengths tested. */
static ALWAYS_INLINE char *put_point(const char *end, char *o, const adexp_field *f, lead l,
                                     int ifps, int trust)
{
    const adexp_field *a = f->child, *b, *c;
    if (end - o < (ptrdiff_t)POINT_ROOM || (ifps && l.n > LEAD_MAX))
        return NULL;
    if (trust && field_point_whole(f)) {
        b = a + 1, c = a + 2;
        if (((a->value.len - 1) | (b->value.len - 1) | (c->value.len - 1)) >= POINT_VALUE)
            return NULL;
    } else if (f->value.len ||
               (trust ? (kind_id(f) & ~(uint32_t)ADEXP_COMPOUND) != KIND_ID(ADEXP_BASIC, DICT_ID_PT)
                      : f->kind == ADEXP_LIST || !point_keyword(f, "PT", 2)) ||
               !is_point_sub(a, DICT_ID_PTID, "PTID", 4, trust) ||
               !is_point_sub(b = a->next, DICT_ID_FL, "FL", 2, trust) ||
               !is_point_sub(c = b->next, DICT_ID_ETO, "ETO", 3, trust) || c->next) {
        return NULL;
    }
    /* read before the stores, which may alias them for the compiler */
    adexp_slice va = a->value, vb = b->value, vc = c->value;
    if (ifps) {
        memcpy(o, l.s, LEAD_MAX);
        o += l.n;
        memcpy(o, "-PT -PTID \0\0\0\0\0\0", 16);
        o += 10;
    } else {
        memcpy(o, " -PT -PTID \0\0\0\0\0", 16);
        o += 11;
    }
    write_stops s = point_value(va, o, trust);
    o += va.len;
    memcpy(o, " -FL \0\0\0", 8);
    o += 5;
    s = write_stops_or(s, point_value(vb, o, trust));
    o += vb.len;
    memcpy(o, " -ETO \0\0", 8);
    o += 6;
    s = write_stops_or(s, point_value(vc, o, trust));
    return (trust ? write_dashless_none(s) : write_stops_none(s)) ? o + vc.len : NULL;
}

/* s[0..k) to o: a list's name, most often short, in two words that
 * overlap (no byte outside s[0..k) read), not a call. */
static ALWAYS_INLINE void copy_name(char *o, const char *s, size_t k)
{
    if (k - 4 <= 12) {
        if (k >= 8) {
            uint64_t a, b;
            memcpy(&a, s, 8), memcpy(&b, s + k - 8, 8);
            memcpy(o, &a, 8), memcpy(o + k - 8, &b, 8);
        } else {
            uint32_t a, b;
            memcpy(&a, s, 4), memcpy(&b, s + k - 4, 4);
            memcpy(o, &a, 4), memcpy(o + k - 4, &b, 4);
        }
    } else {
        memcpy(o, s, k);
    }
}

/* put_bracket but the usual case. */
static NOINLINE char *put_bracket_slow(writer *w, char *o, const char *word, size_t n,
                                       const adexp_field *list, lead l)
{
    size_t k = list->keyword.len;
    if (w->unclosed)
        return fail(w, ADEXP_E_WRITE_VALUE, w->open_text);
    if (w->open_text)
        set_open_text(w, NULL);
    if (k > SIZE_MAX / 4 || l.n > SIZE_MAX / 4)
        return fail(w, ADEXP_E_NOMEM, NULL);
    if (!(o = room(w, o, lead_room(l) + 8 + k)))
        return NULL;
    o = put_lead(o, l);
    memcpy(o, word, 8);
    copy_name(o + n, list->keyword.ptr, k);
    return o + n + k;
}

/* -BEGIN name or -END name (word, n bytes, 8 readable) after l. A list
 * bracket ends any ICAO text. The usual one, here: a name of at most 16
 * bytes after a short lead, in the fast path's room (w->end: no ICAO text
 * open before it). */
static ALWAYS_INLINE char *put_bracket(writer *w, char *o, const char *word, size_t n,
                                       const adexp_field *list, lead l)
{
    size_t k = list->keyword.len;
    if (k > 16 || l.n > LEAD_MAX || w->end - o < (ptrdiff_t)(LEAD_MAX + 8 + 16))
        return put_bracket_slow(w, o, word, n, list, l);
    o = put_lead(o, l);
    memcpy(o, word, 8);
    copy_name(o + n, list->keyword.ptr, k);
    return o + n + k;
}

/* A list on its own lines: -BEGIN after l, its items, -END. */
/* Whether the parser flagged list f LIST_UNCLOSED (the error is at its
 * -BEGIN): such a list runs on to the end of its message, and is written
 * so, without an -END, as it stands. */
static int left_open(const writer *w, const adexp_field *f)
{
    for (size_t i = 0; i < w->msg->nerrors; i++)
        if (w->msg->errors[i].code == ADEXP_E_LIST_UNCLOSED &&
            w->msg->errors[i].offset == f->offset)
            return 1;
    return 0;
}

/* trust: the tree is the parser's, whose dict_id names the keyword: a
 * name of the dictionary is one by its id. */
static ALWAYS_INLINE char *put_list(writer *w, char *o, const adexp_field *f, unsigned depth,
                                    lead l, int trust)
{
    if (!(trust && f->dict_id < dict_count) && !keyword_ok(f->keyword))
        return fail(w, ADEXP_E_WRITE_KEYWORD, f);
    if (!(o = put_bracket(w, o, "-BEGIN  ", 7, f, l)) ||
        !(o = w->lines(w, o, f->child, depth + 1)))
        return NULL;
    if (w->msg->nerrors && left_open(w, f)) {
        w->left_open = 1;
        return o;
    }
    return put_bracket(w, o, "-END    ", 5, f, line_lead(w, depth));
}

/* The fields of a chain: each on its own line (lines: the message's fields,
 * a list's items), or after the one before (a compound's subfields), but
 * for a list and the field after it. sub: the instance for the children. */
static ALWAYS_INLINE char *write_chain(writer *w, char *o, const adexp_field *f,
                                       unsigned depth, int lines, int fold, int ext, int ifps,
                                       int trust, chain_fn *sub)
{
    /* own: the lead of a line at depth, in a compound's subfields only
     * after a list (made there) */
    lead next = {spaces, 1}, own = lines && ifps ? line_lead(w, depth) : next, l = own;
    uintptr_t last = fast_last(w);
    int quick = trust && own.n <= LEAD_MAX;
    for (; f; f = f->next) {
        char *p;
        if (quick && (p = put_quick(o, last, f, l, fold, ifps))) {
            do {                       /* most often followed by another */
                o = p;
                f = f->next;
                if (!lines)
                    l = next;
            } while (f && (p = put_quick(o, last, f, l, fold, ifps)));
            if (!f)
                break;
        }
        if (!ext && f->dict_id == DICT_ID_PT && (p = put_point(w->end, o, f, l, ifps, trust))) {
            const char *end = w->end;
            do {                       /* a route point is most often followed by another */
                o = p;
                f = f->next;
                if (!lines)
                    l = next;
            } while (f && f->dict_id == DICT_ID_PT &&
                     (p = put_point(end, o, f, l, ifps, trust)));
            if (!f)
                break;
        }
        if (f->kind == ADEXP_LIST) {
            if (!lines && ifps) {
                own = line_lead(w, depth);
                quick = quick && own.n <= LEAD_MAX;
            }
            if (!(o = put_list(w, o, f, depth, own, trust)))
                return NULL;
            last = fast_last(w);
            l = own;                   /* the field after a list: on its own line */
            continue;
        }
        if (!(o = put_fast(w, o, f, l, fold, ext, ifps, trust, &last)))
            return NULL;
        const adexp_field *c = f->child;
        if (quick)                     /* a compound's first subfields, most often all */
            while (c && (p = put_quick(o, last, c, next, fold, ifps))) {
                o = p;
                c = c->next;
            }
        if (c) {
            if (!(o = sub(w, o, c, depth + 1)))
                return NULL;
            last = fast_last(w);
        }
        if (!lines)
            l = next;
    }
    return o;
}

/* The instances: in the line layout one for all chains (every lead is a
 * space); in the IFPS layout one for lines, one for subfields; and the
 * same for a parsed tree of a message without errors, without the
 * extension (trust). */
#define CHAIN(name, sub, lines, fold, ext, ifps, trust)                                \
    static char *name(writer *w, char *o, const adexp_field *f, unsigned depth)        \
    {                                                                                  \
        return write_chain(w, o, f, depth, lines, fold, ext, ifps, trust, sub);        \
    }
#define CHAINS(line, ifps_lines, ifps_sub, fold, ext)                                  \
    static chain_fn ifps_sub;                                                          \
    CHAIN(line, line, 1, fold, ext, 0, 0)                                              \
    CHAIN(ifps_lines, ifps_sub, 1, fold, ext, 1, 0)                                    \
    CHAIN(ifps_sub, ifps_sub, 0, fold, ext, 1, 0)
CHAINS(line, ifps_lines, ifps_sub, 0, 0)
CHAINS(line_fold, ifps_lines_fold, ifps_sub_fold, 1, 0)
CHAINS(line_ext, ifps_lines_ext, ifps_sub_ext, 0, 1)
CHAINS(line_fold_ext, ifps_lines_fold_ext, ifps_sub_fold_ext, 1, 1)
#define PARSED_CHAINS(line, ifps_lines, ifps_sub, fold)                                 \
    static chain_fn ifps_sub;                                                          \
    CHAIN(line, line, 1, fold, 0, 0, 1)                                                \
    CHAIN(ifps_lines, ifps_sub, 1, fold, 0, 1, 1)                                      \
    CHAIN(ifps_sub, ifps_sub, 0, fold, 0, 1, 1)
PARSED_CHAINS(line_parsed, ifps_lines_parsed, ifps_sub_parsed, 0)
PARSED_CHAINS(line_fold_parsed, ifps_lines_fold_parsed, ifps_sub_fold_parsed, 1)

/* [ext][fold]: line, IFPS lines, IFPS subfields; and for a parsed tree
 * of a message without errors, without the extension (trust) [fold] */
static chain_fn *const chains[2][2][3] = {
    {{line, ifps_lines, ifps_sub}, {line_fold, ifps_lines_fold, ifps_sub_fold}},
    {{line_ext, ifps_lines_ext, ifps_sub_ext},
     {line_fold_ext, ifps_lines_fold_ext, ifps_sub_fold_ext}},
};
static chain_fn *const parsed_chains[2][3] = {
    {line_parsed, ifps_lines_parsed, ifps_sub_parsed},
    {line_fold_parsed, ifps_lines_fold_parsed, ifps_sub_fold_parsed},
};

/* The message's fields at o. Each is written after its lead, the first
 * too: the message's lead (one byte at depth 0, in both layouts) goes over
 * the byte before the message, put back after. In an empty buffer there is
 * none: the first field is written without a lead, by the general path. */
static char *put_message(writer *w, char *o, const adexp_field *f)
{
    if (!f)
        return o;
    adexp_buf *b = w->out;
    size_t start = (size_t)(o - b->data);
    if (start > 0) {
        char before = o[-1];
        o = w->lines(w, o - 1, f, 0);
        b->data[start - 1] = before;   /* b->data as the growth left it */
        return o;
    }
    lead none = {spaces, 0};
    if (f->kind == ADEXP_LIST)
        o = put_list(w, o, f, 0, none, 0);
    else if ((o = put_field(w, o, f, none)) && f->child)
        o = w->subfields(w, o, f->child, 1);
    return o ? w->lines(w, o, f->next, 0) : NULL;
}

/* Parse the text written for msg and compare. Returns 1 if the same. */
static int verify(writer *w, const adexp_msg *msg, size_t start)
{
    adexp_arena arena;
    adexp_arena_init(&arena, &w->out->a);
    adexp_options po = adexp_options_default();
    po.dictionary = w->dict;
    adexp_parser *p = adexp_parser_new(&po, &w->out->a);
    if (!p) {
        fail(w, ADEXP_E_NOMEM, NULL);
        return 0;
    }
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
        /* what was written open reads back open, and says so */
        if ((st == ADEXP_E_TEXT_UNCLOSED && w->unclosed) ||
            (st == ADEXP_E_LIST_UNCLOSED && w->left_open))
            st = ADEXP_OK;
        if (w->framed)
            same = same && write_envelope_same(&msg->envelope, &back.envelope);
        else
            same = same && !back.envelope.present;
        same = same && st == ADEXP_OK && adexp_parser_next(p, &arena, &back) == ADEXP_END;
        if (!same)
            fail(w, ADEXP_E_WRITE_SHAPE, where);
    }
    adexp_parser_free(p);
    adexp_arena_free(&arena);
    return same;
}

static adexp_status write_msg(adexp_buf *out, const adexp_msg *msg,
                              const adexp_write_options *o, adexp_write_error *err, int parsed)
{
    writer w;
    w.out = out;
    w.o = o ? o : &default_options;
    w.dict = w.o->dictionary;
    w.fold = w.o->fold != 0;
    w.trust = parsed && !w.dict && msg->nerrors == 0;
    chain_fn *const *c = w.trust ? parsed_chains[w.fold] : chains[w.dict != NULL][w.fold];
    int ifps = w.o->layout == ADEXP_LAYOUT_IFPS;
    w.lines = c[ifps];
    w.subfields = c[2 * ifps];
    w.code = ADEXP_OK;
    w.bad = w.open_text = NULL;
    w.keep_unclosed = w.unclosed = w.left_open = 0;
    w.msg = msg;
    for (size_t i = 0; i < msg->nerrors; i++)
        w.keep_unclosed |= msg->errors[i].code == ADEXP_E_TEXT_UNCLOSED;
    /* as it stands: a heading without its NNNN, or an NNNN without heading */
    w.framed = w.o->envelope && (msg->envelope.present || msg->envelope.closed);
    if (!__atomic_load_n(&fast_ready, __ATOMIC_ACQUIRE))   /* a load, not a call, a message */
        pthread_once(&fast_once, fast_names_init);
    size_t start = out->len;
    const char *bad_part = w.framed ? write_envelope_check(&msg->envelope) : NULL;
    char *p = NULL;
    if (bad_part)
        fail(&w, ADEXP_E_WRITE_VALUE, NULL);
    else if (w.framed && msg->envelope.present &&
             write_envelope_head(out, &msg->envelope, w.fold) != ADEXP_OK)
        fail(&w, ADEXP_E_NOMEM, NULL);
    else if (!(p = adexp_buf_room(out, 1)))   /* so that out->data is not NULL */
        fail(&w, ADEXP_E_NOMEM, NULL);
    if (p) {
        set_end(&w);
        if ((p = put_message(&w, p, msg->fields)) && (p = room(&w, p, 1))) {
            *p++ = '\n';
            out->len = (size_t)(p - out->data);
            /* bare lines are read back before verify, so that a part not
             * of their form is named (verify would see another tree) */
            int bare = msg->envelope.present && msg->envelope.form == ADEXP_FORM_BARE;
            if (w.framed && msg->envelope.closed && write_envelope_tail(out, &msg->envelope) != ADEXP_OK)
                fail(&w, ADEXP_E_NOMEM, NULL);
            else if (w.framed && (!w.o->verify || bare) &&
                     write_envelope_reread(out, start, msg, &bad_part) != ADEXP_OK)
                fail(&w, ADEXP_E_NOMEM, NULL);
            else if (bad_part)
                fail(&w, ADEXP_E_WRITE_VALUE, NULL);
            else if (w.o->verify)
                verify(&w, msg, start);
        }
    }
    if (w.code != ADEXP_OK)
        out->len = start;
    if (err) {
        err->code = w.code;
        err->field = w.bad;
        err->path[0] = '\0';
        if (w.bad)
            adexp_field_path(msg->fields, w.bad, err->path, sizeof err->path);
        else if (bad_part)
            snprintf(err->path, sizeof err->path, "%s", bad_part);
    }
    return w.code;
}

adexp_status adexp_write(adexp_buf *out, const adexp_msg *msg,
                         const adexp_write_options *o, adexp_write_error *err)
{
    return write_msg(out, msg, o, err, 0);
}

adexp_status write_parsed(adexp_buf *out, const adexp_msg *msg, const adexp_write_options *o,
                          adexp_write_error *err)
{
    return write_msg(out, msg, o, err, 1);
}

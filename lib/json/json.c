/* The JSON writer: one NDJSON line per message, the CLI's contract.
 * Values are folded (separator runs to one space, trimmed); strings are
 * valid JSON: bytes that are not UTF-8 become \udcXX (json_string.c). */
#include <stddef.h>
#include <string.h>

#include "adexp.h"
#include "field_word.h"
#include "internal.h"
#include "json_avx2.h"
#include "json_names.h"
#include "json_out.h"
#include "json_runs.h"

/* The writer keeps its cursor in a local: each piece reserves its worst
 * case (a string: json_string_room) with room(), then appends without
 * checks; the buffer's length is set once, at the end. */
typedef struct writer {
    adexp_buf *b;
    char *end;                 /* of the buffer's room */
    char *quick_last;          /* the last place a quick field fits (QUICK_ROOM) */
} writer;

/* Room for a quick field (put_quick_run): its head, a value of at most
 * QUICK_MAX bytes as a string, and '},'; and for a route point written
 * straight (put_point: POINT_ROOM), the larger. */
#define QUICK_MAX 16
#define POINT_ROOM 160
#define QUICK_ROOM (sizeof(json_head) + 6 * QUICK_MAX + 2 + 2 > POINT_ROOM                   \
                        ? sizeof(json_head) + 6 * QUICK_MAX + 2 + 2                           \
                        : POINT_ROOM)

/* w's bounds for b's room now. Below QUICK_ROOM of room, quick_last is
 * the buffer's start: a writer is always past it, so no quick field. */
static void set_bounds(writer *w, adexp_buf *b)
{
    w->b = b;
    w->end = b->data + b->cap;
    w->quick_last = b->cap >= QUICK_ROOM ? w->end - QUICK_ROOM : b->data;
}

/* room() when the buffer must grow: o in the grown buffer, or NULL. */
static char *grow(writer *w, char *o, size_t n)
{
    if (!(o = adexp_buf_grow_at(w->b, o, n)))
        return NULL;
    set_bounds(w, w->b);
    return o;
}

/* Room for n bytes at o: o, or o in the grown buffer, or NULL when out of
 * memory (or n is SIZE_MAX). */
static inline char *room(writer *w, char *o, size_t n)
{
    return (size_t)(w->end - o) >= n ? o : grow(w, o, n);
}

#define LIT(o, s) (memcpy((o), (s), sizeof(s) - 1), (o) + sizeof(s) - 1)

int adexp_json_put_string(adexp_buf *out, adexp_slice s, int fold)
{
    size_t need = json_string_room(s.len);
    if (need == SIZE_MAX || !adexp_buf_room(out, need))
        return 0;
    out->len = (size_t)(json_string(out->data + out->len, s, fold) - out->data);
    return 1;
}

/* Bytes a field's own text may take (not its children's), its end
 * included: its two strings at worst (json_string_room) and FIELD_FIXED
 * for the rest; SIZE_MAX if that overflows. */
#define FIELD_FIXED 192
/* The end written after a field's children: ']', its flags' keys, '}'. */
#define END_ROOM 64

static size_t field_room(const adexp_field *f)
{
    size_t n = f->keyword.len + f->value.len;
    return n > (SIZE_MAX - FIELD_FIXED) / 6 ? SIZE_MAX : 6 * n + FIELD_FIXED;
}

/* '{"name":"KEYWORD"'. A dictionary field's keyword is its entry's (the
 * parser and the builder find the entry by these bytes; adexp.h asks the
 * same of trees built by hand): one 32-byte copy of json_names. Only the
 * lengths are compared, a guard against a stray id; the bytes too would
 * cost 7% of the JSON output's instructions. */
static const json_name *dict_name(const adexp_field *f)
{
    if (f->dict_id >= DICT_COUNT)
        return NULL;
    const json_name *jn = &json_names[f->dict_id];
    return jn->len == f->keyword.len + 10 ? jn : NULL;
}

static char *put_name(char *o, const adexp_field *f)
{
    const json_name *jn = dict_name(f);
    if (jn) {
        memcpy(o, jn, sizeof *jn);
        return o + jn->len;
    }
    o = LIT(o, "{\"name\":");
    return json_string(o, f->keyword, 1);
}

/* Every field's object is written with a comma after it: the comma
 * before the next one. A list of fields ends by taking the last one back
 * (unwritten: the '[' before an empty list is not a comma). */
static ALWAYS_INLINE char *unput_comma(char *o)
{
    return o - (o[-1] == ',');
}

/* The end of a field's object: its flags' keys (each one line here, in
 * END_ROOM and FIELD_FIXED), then '}' and the comma. */
static char *put_end(char *o, const adexp_field *f)
{
    if (f->flags & ADEXP_FIELD_UNKNOWN)
        o = LIT(o, ",\"unknown\":true");
    else if (f->flags & ADEXP_FIELD_MISPLACED)
        o = LIT(o, ",\"misplaced\":true");
    return LIT(o, "},");
}

/* The most common fields: basic ones of the dictionary without flags
 * the output shows, with a value of at most 16 bytes, written by a loop
 * of their own with few registers live. A head is one copy of
 * json_heads; a value that the string rule writes as it is (plain bytes
 * and single spaces between them: most are) is copied and checked in one
 * vector; any other goes to the string rule. */

typedef struct quick_run {
    char *o;                   /* the end of what was written */
    const adexp_field *f;      /* the first field not written */
} quick_run;

/* A quick field's field_word: kind BASIC, no flag but TEXT (which the
 * output does not show) and dict_id < DICT_COUNT. With the other bits of
 * kind and flags zero, kfi >> HEAD_SHIFT is the entry's offset in
 * json_heads (the TEXT bit shifted out), and in json_opens (of the same
 * type). A compound opened at once (put_quick_open) is tested so too. */
#define ALL_BUT_TEXT (~((uint32_t)ADEXP_FIELD_TEXT << 8))
#define NOT_TEXT (ALL_BUT_TEXT & 0xFFFFu)   /* of kind and flags only */
#define HEAD_SHIFT 11
_Static_assert(sizeof(json_head) == 1u << (16 - HEAD_SHIFT) &&
                   ADEXP_FIELD_TEXT << 8 < 1u << HEAD_SHIFT,
               "kfi >> HEAD_SHIFT is an entry's offset in json_heads and json_opens");

/* The pieces of the fields' writer of one instruction set: a head's
 * copy, plain_upto16, the rest of json_string after a quick value's first
 * run, and json_string for the other values. */
typedef void head_fn(char *o, const void *h);
typedef int value_fn(const unsigned char *p, size_t n, char *o);
typedef char *string_fn(char *o, adexp_slice s, int fold);

/* json_string, its first run inline. */
static ALWAYS_INLINE char *put_string(char *o, adexp_slice s, int fold)
{
    return string_first(o, s, fold, JSON_RUN, json_string_rest);
}

static ALWAYS_INLINE void copy_head(char *o, const void *h)
{
    memcpy(o, h, sizeof(json_head));
}

/* The quick fields from f on, as long as they fit (o <= last: see
 * set_bounds). */
static ALWAYS_INLINE quick_run put_quick_run(char *o, const char *last, const adexp_field *f,
                                             head_fn *head, value_fn *value, rest_fn *rest)
{
    while (f) {
        uint32_t kfi = field_word(f);
        size_t n = f->value.len;
        if ((kfi & NOT_TEXT) != ADEXP_BASIC || kfi >= (uint32_t)DICT_COUNT << 16 || o > last)
            break;
        const json_head *h = (const json_head *)(const void *)((const char *)json_heads +
                                                              (kfi >> HEAD_SHIFT));
        size_t len = h->len;
        if (len != f->keyword.len + 20)
            break;
        const unsigned char *p = (const unsigned char *)f->value.ptr;
        const adexp_field *next = f->next;
        head(o, h);                /* in the room even if the value is too long */
        int plain = value(p, n, o + len);
        if (plain < 0)
            break;
        o += len;
        if (plain) {
            memcpy(o + n, "\"},", 4);      /* the 4th byte is room, overwritten */
            o += n + 3;
        } else {
            adexp_slice v = {(const char *)p, n};
            o = string_first(o - 1, v, 1, JSON_RUN, rest);   /* over the '"' */
            o = LIT(o, "},");
        }
        f = next;
    }
    return (quick_run){o, f};
}

/* ']', the flags' keys and '}' after a field's children, in END_ROOM:
 * checked against quick_last first, as it is less than QUICK_ROOM. */
_Static_assert(END_ROOM <= QUICK_ROOM, "a field's end fits where a quick field does");

static ALWAYS_INLINE char *put_close(writer *w, char *o, const adexp_field *f)
{
    if (o > w->quick_last && !(o = room(w, o, END_ROOM)))
        return NULL;
    o = unput_comma(o);
    *o++ = ']';
    return put_end(o, f);
}

/* A compound of the dictionary without flags, without a value and with
 * children (a route point): '{"name":"KW","fields":[' at once, one copy
 * of json_opens, in OPEN_ROOM (the caller checks it against quick_last).
 * NULL if f is not one; else *child is its first. As it has no flags and a
 * child, it is closed by "]}," over its last child's comma. */
#define OPEN_ROOM sizeof(json_head)
_Static_assert(OPEN_ROOM <= QUICK_ROOM, "an opening fits where a quick field does");
_Static_assert(_Alignof(adexp_field) >= 2, "a field's address has a free bit 0");

static ALWAYS_INLINE char *put_quick_open(char *o, const adexp_field *f,
                                          const adexp_field **child, head_fn *head)
{
    uint32_t kfi = field_word(f);
    *child = f->child;         /* read before the copy, which may alias it for the compiler */
    if ((kfi & NOT_TEXT) != ADEXP_COMPOUND || kfi >= (uint32_t)DICT_COUNT << 16 ||
        f->value.len || !*child)
        return NULL;
    const json_head *jo = (const json_head *)(const void *)((const char *)json_opens +
                                                           (kfi >> HEAD_SHIFT));
    size_t len = jo->len;      /* read once: the copy below may alias it for the compiler */
    if (len != f->keyword.len + 21)
        return NULL;
    head(o, jo);
    return o + len;
}

/* The most common compound, a route point as the parser makes most of
 * them: -PT of no value and no flag the output shows, its subfields
 * exactly -PTID, -FL and -ETO, each basic, of no such flag either, and
 * of a value of at most QUICK_MAX bytes that the string rule writes as it
 * is (value: plain_upto16). Its text but the values is fixed: written in
 * four pieces of constant bytes (the tail of one subfield and the head of
 * the next in one), with no head looked up and no room or kind tested
 * per subfield. The bytes are those of the quick open, the quick fields
 * and the quick close (json_test checks them against the general path);
 * the keywords' lengths are the guard against a stray id, as in
 * put_quick_run. NULL if f is not such a point (or a value is not so):
 * what was written is written over by the caller's path. */
#define POINT_OPEN "{\"name\":\"PT\",\"fields\":[{\"name\":\"PTID\",\"value\":\""
#define POINT_FL "\"},{\"name\":\"FL\",\"value\":\""
#define POINT_ETO "\"},{\"name\":\"ETO\",\"value\":\""
#define POINT_OPEN_LEN (sizeof POINT_OPEN - 1)
#define POINT_FL_LEN (sizeof POINT_FL - 1)
#define POINT_ETO_LEN (sizeof POINT_ETO - 1)
static const char point_open[64] = POINT_OPEN;   /* copied whole: two 32-byte moves */
static const char point_fl[32] = POINT_FL;
static const char point_eto[32] = POINT_ETO;
/* The pieces' moves and the end's 8 bytes, each after values of 16. */
_Static_assert(POINT_OPEN_LEN + 16 + POINT_FL_LEN + 16 + 32 <= POINT_ROOM &&
                   POINT_OPEN_LEN + 16 + POINT_FL_LEN + 16 + POINT_ETO_LEN + 16 + 8 <= POINT_ROOM,
               "a route point's pieces fit in POINT_ROOM");

/* field_word without the TEXT flag (& ALL_BUT_TEXT), as a point's
 * fields have it. */
#define KFI_OF(kind, id) ((uint32_t)(kind) | (uint32_t)(id) << 16)

static ALWAYS_INLINE int is_point_sub(const adexp_field *f, uint32_t kfi, size_t kwlen)
{
    return f && (field_word(f) & ALL_BUT_TEXT) == kfi && f->keyword.len == kwlen;
}

static ALWAYS_INLINE char *put_point(char *o, const adexp_field *f, head_fn *head,
                                     value_fn *value)
{
    if ((field_word(f) & ALL_BUT_TEXT & ~((uint32_t)ADEXP_FIELD_USUAL_POINT << 8)) !=
            KFI_OF(ADEXP_COMPOUND, DICT_ID_PT) ||
        f->keyword.len != 2 || f->value.len)
        return NULL;
    const adexp_field *a = f->child;
    if (!is_point_sub(a, KFI_OF(ADEXP_BASIC, DICT_ID_PTID), 4))
        return NULL;
    const adexp_field *b = a->next;
    if (!is_point_sub(b, KFI_OF(ADEXP_BASIC, DICT_ID_FL), 2))
        return NULL;
    const adexp_field *c = b->next;
    if (!is_point_sub(c, KFI_OF(ADEXP_BASIC, DICT_ID_ETO), 3) || c->next)
        return NULL;
    /* read before the stores, which may alias them for the compiler */
    adexp_slice va = a->value, vb = b->value, vc = c->value;
    head(o, point_open);
    head(o + 32, point_open + 32);
    o += POINT_OPEN_LEN;
    if (value((const unsigned char *)va.ptr, va.len, o) != 1)
        return NULL;
    o += va.len;
    head(o, point_fl);
    o += POINT_FL_LEN;
    if (value((const unsigned char *)vb.ptr, vb.len, o) != 1)
        return NULL;
    o += vb.len;
    head(o, point_eto);
    o += POINT_ETO_LEN;
    if (value((const unsigned char *)vc.ptr, vc.len, o) != 1)
        return NULL;
    o += vc.len;
    memcpy(o, "\"}]},\0\0", 8);   /* the last 3 bytes are room, overwritten */
    return o + 5;
}

/* A field that is not quick: all of it, or, if it has children to write
 * (*open), up to the '[' before them. NULL when out of memory. */
static ALWAYS_INLINE char *put_other(writer *w, char *o, const adexp_field *f, int *open,
                                     string_fn *string)
{
    *open = 1;
    if (!(o = room(w, o, field_room(f))))
        return NULL;
    o = put_name(o, f);
    int list = f->kind == ADEXP_LIST;
    if (f->kind == ADEXP_BASIC || (!list && f->value.len > 0)) {
        o = LIT(o, ",\"value\":");
        o = string(o, f->value, 1);
        if (f->kind == ADEXP_BASIC || !f->child) {
            *open = 0;
            return put_end(o, f);
        }
    }
    return list ? LIT(o, ",\"items\":[") : LIT(o, ",\"fields\":[");
}

/* Fields f, f->next, ... and their children, each followed by a comma,
 * at o, in one loop: a compound or a list is opened, its children
 * written, and closed when they end (up[] holds the open ones; past
 * UP_MAX deep, the writer recurses). Each field's own text is written in
 * the room reserved once for it. Returns the end, or NULL when out of
 * memory. */
#define UP_MAX 64

typedef char *fields_fn(writer *w, char *o, const adexp_field *f);

static ALWAYS_INLINE char *put_fields(writer *w, char *o, const adexp_field *f, head_fn *head,
                                      value_fn *value, rest_fn *rest, string_fn *string,
                                      fields_fn *self)
{
    uintptr_t up[UP_MAX];      /* the open fields; bit 0: opened at once */
    size_t depth = 0;
    const char *last = w->quick_last;   /* a local: the writes may alias w for the compiler */
    for (;;) {
        quick_run q = put_quick_run(o, last, f, head, value, rest);
        o = q.o, f = q.f;
        char *opened;
        const adexp_field *child;
        int open;
        if (!f) {                  /* the end of a list of children */
            if (depth == 0)
                return o;
            uintptr_t e = up[--depth];
            f = (const adexp_field *)(e & ~(uintptr_t)1);
            if ((e & 1) && o <= last) {
                memcpy(o - 1, "]},", 4);   /* over the last child's comma: it has one */
                o += 2;
                f = f->next;
                continue;
            }
            if (!(o = put_close(w, o, f)))
                return NULL;
        } else if (o <= last && (opened = put_point(o, f, head, value))) {
            do {                   /* a route point is most often followed by another */
                o = opened;
                f = f->next;
            } while (f && o <= last && (opened = put_point(o, f, head, value)));
            continue;
        } else if (depth < UP_MAX && o <= last && (opened = put_quick_open(o, f, &child, head))) {
            o = opened;
            up[depth++] = (uintptr_t)f | 1;
            f = child;
            continue;
        } else if (!(o = put_other(w, o, f, &open, string))) {
            return NULL;
        } else if (open && depth < UP_MAX) {
            up[depth++] = (uintptr_t)f;
            f = f->child;
            last = w->quick_last;
            continue;
        } else if (open && (!(o = self(w, o, f->child)) || !(o = put_close(w, o, f)))) {
            return NULL;
        }
        last = w->quick_last;      /* the buffer may have grown */
        f = f->next;
    }
}

/* put_fields with the SSE2 pieces, and with the AVX2 ones for the CPUs
 * that have it: the same bytes (json_test checks them against each other). */
static char *put_fields_sse2(writer *w, char *o, const adexp_field *f)
{
    return put_fields(w, o, f, copy_head, plain_upto16, json_string_rest, put_string,
                      put_fields_sse2);
}

#if JSON_AVX2
__attribute__((target(AVX2_TARGET))) static char *put_fields_avx2(writer *w, char *o,
                                                                      const adexp_field *f)
{
    return put_fields(w, o, f, copy_head_avx2, plain_upto16_avx2, json_string_rest_avx2,
                      json_string_avx2, put_fields_avx2);   /* long values out of line */
}
#endif

static int use_avx2 = 1;        /* set only by tests, before they write */

void adexp_json_use_avx2(int on)
{
    use_avx2 = on;
}

/* The fields' writer of this CPU. */
static char *put_all_fields(writer *w, char *o, const adexp_field *f)
{
#if JSON_AVX2
    if (use_avx2 && cpu_has_avx2())
        return put_fields_avx2(w, o, f);
#endif
    return put_fields_sse2(w, o, f);
}

static char *put_error(writer *w, char *o, const adexp_error *e)
{
    const char *name = adexp_status_name(e->code);
    size_t nlen = strlen(name), mlen = strlen(e->message);
    if (!(o = room(w, o, nlen + mlen + 128)))
        return NULL;
    o = LIT(o, "{\"code\":\"");
    memcpy(o, name, nlen);
    o = LIT(o + nlen, "\",\"message\":\"");
    memcpy(o, e->message, mlen);
    o = LIT(o + mlen, "\",\"line\":");
    o = adexp_json_u64_at(o, e->line);
    o = LIT(o, ",\"column\":");
    o = adexp_json_u64_at(o, e->column);
    o = LIT(o, ",\"offset\":");
    o = adexp_json_u64_at(o, e->offset);
    *o++ = '}';
    return o;
}

/* One of the envelope's parts: "key":"value" or "key":null, then a comma. */
static char *put_part(writer *w, char *o, const char *key, size_t klen, adexp_slice s)
{
    size_t n = json_string_room(s.len);
    if (n == SIZE_MAX || !(o = room(w, o, klen + n + 8)))
        return NULL;
    *o++ = '"';
    o = (char *)memcpy(o, key, klen) + klen;
    o = LIT(o, "\":");
    o = s.ptr ? json_string(o, s, 1) : LIT(o, "null");
    *o++ = ',';
    return o;
}

#define PART(w, o, key, s) put_part(w, o, key, sizeof key - 1, s)

static int is_space(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* The words of s (separated by spaces and line ends) as a JSON array of
 * strings. */
static char *put_words(writer *w, char *o, adexp_slice s)
{
    if (!(o = room(w, o, 2)))
        return NULL;
    *o++ = '[';
    for (size_t i = 0; i < s.len && o;) {
        while (i < s.len && is_space((unsigned char)s.ptr[i]))
            i++;
        size_t k = i;
        while (i < s.len && !is_space((unsigned char)s.ptr[i]))
            i++;
        adexp_slice word = {s.ptr + k, i - k};
        size_t n = json_string_room(word.len);
        if (k == i || n == SIZE_MAX || !(o = room(w, o, n + 2)))
            continue;
        o = json_string(o, word, 0);
        *o++ = ',';
    }
    if (!o || !(o = room(w, o, 2)))
        return NULL;
    o = unput_comma(o);
    *o++ = ']';
    return o;
}

/* ,"envelope":{...}: the AFTN envelope the message came in (see adexp.h). */
static char *put_envelope(writer *w, char *o, const adexp_envelope *env)
{
    const char *form = adexp_envelope_form_name(env->form);
    size_t n = form ? strlen(form) : 0;
    if (!(o = room(w, o, 40)))
        return NULL;
    o = LIT(o, ",\"envelope\":{\"form\":\"");
    if (n)
        memcpy(o, form, n);
    o = LIT(o + n, "\",");
    if (!(o = PART(w, o, "transmission_id", env->transmission_id)) ||
        !(o = PART(w, o, "priority", env->priority)) || !(o = room(w, o, 16)))
        return NULL;
    o = LIT(o, "\"addressees\":");
    if (!(o = put_words(w, o, env->addressees)) || !(o = room(w, o, 1)))
        return NULL;
    *o++ = ',';
    if (!(o = PART(w, o, "filing_time", env->filing_time)) ||
        !(o = PART(w, o, "originator", env->originator)) || !(o = room(w, o, 16)))
        return NULL;
    o = LIT(o, "\"text\":[");
    for (int i = 0; i < 3 && o; i++) {
        size_t n = json_string_room(env->text[i].len);
        if (!env->text[i].ptr || n == SIZE_MAX || !(o = room(w, o, n + 2)))
            continue;
        o = json_string(o, env->text[i], 1);
        *o++ = ',';
    }
    if (!o || !(o = room(w, o, 4)))
        return NULL;
    o = unput_comma(o);
    return LIT(o, "]}");
}

/* The line's tail: the errors, the envelope if any, and the '\n'. */
static char *put_errors(writer *w, char *o, const adexp_msg *msg)
{
    if (!(o = room(w, o, 16)))
        return NULL;
    o = unput_comma(o);
    o = LIT(o, "],\"errors\":[");
    for (size_t i = 0; i < msg->nerrors && o; i++) {
        if (i)
            *o++ = ',';    /* in the last put_error's room: it used at most 113 of its 128 */
        o = put_error(w, o, &msg->errors[i]);
    }
    if (!o || !(o = room(w, o, 3)))
        return NULL;
    *o++ = ']';
    if (msg->envelope.present && !(o = put_envelope(w, o, &msg->envelope)))
        return NULL;
    if (!(o = room(w, o, 2)))
        return NULL;
    return LIT(o, "}\n");
}

/* The line's head: source, index, offset, title, and "fields":[. The
 * source is a name (src) or, quoted, its JSON string already written. */
static char *put_head(writer *w, char *o, const adexp_msg *msg, adexp_slice src, int quoted)
{
    adexp_slice title = msg->view.title;
    size_t ns = quoted ? src.len : json_string_room(src.len), nt = json_string_room(title.len);
    if (ns == SIZE_MAX || nt == SIZE_MAX || ns + nt > SIZE_MAX - 128 ||
        !(o = room(w, o, ns + nt + 128)))
        return NULL;
    o = LIT(o, "{\"source\":");
    if (quoted)
        o = (char *)memcpy(o, src.ptr, src.len) + src.len;
    else
        o = adexp_json_name_is_utf8(src) ? json_string(o, src, 0) : adexp_json_name_at(o, src);
    o = LIT(o, ",\"index\":");
    o = adexp_json_u64_at(o, msg->index);
    o = LIT(o, ",\"offset\":");
    o = adexp_json_u64_at(o, msg->offset);
    o = LIT(o, ",\"title\":");
    if (!title.ptr) {
        o = LIT(o, "null");
    } else if (title.len <= QUICK_MAX && plain_short((const unsigned char *)title.ptr, title.len, o + 1)) {
        *o = '"';              /* "IFPL": written as a quick field's value */
        o[title.len + 1] = '"';
        o += title.len + 2;
    } else {
        o = json_string(o, title, 1);
    }
    return LIT(o, ",\"fields\":[");
}

static adexp_status write_line(adexp_buf *out, const adexp_msg *msg, adexp_slice src,
                               int quoted)
{
    size_t start = out->len;
    if (!out->data && !adexp_buf_room(out, 1))     /* so that o and end are never NULL */
        return ADEXP_E_NOMEM;
    writer w;
    set_bounds(&w, out);
    char *o = out->data + start;
    if (!(o = put_head(&w, o, msg, src, quoted)) || !(o = put_all_fields(&w, o, msg->fields)) ||
        !(o = put_errors(&w, o, msg))) {
        out->len = start;
        return ADEXP_E_NOMEM;
    }
    out->len = (size_t)(o - out->data);
    return ADEXP_OK;
}

int adexp_json_put_envelope(adexp_buf *out, const adexp_envelope *env)
{
    if (!out->data && !adexp_buf_room(out, 1))
        return -1;
    writer w;
    set_bounds(&w, out);
    char *o = put_envelope(&w, out->data + out->len, env);
    if (!o)
        return -1;
    out->len = (size_t)(o - out->data);
    return 0;
}

adexp_status adexp_json_write(adexp_buf *out, const adexp_msg *msg, const char *source)
{
    adexp_slice src = {source, strlen(source)};
    return write_line(out, msg, src, 0);
}

adexp_status adexp_json_write_quoted(adexp_buf *out, const adexp_msg *msg, adexp_slice quoted)
{
    return write_line(out, msg, quoted, 1);
}

/* The JSON writer: one NDJSON line per message, the CLI's contract.
 * Values are folded (separator runs to one space, trimmed); strings are
 * valid JSON and valid UTF-8: bytes that are not UTF-8 become \u00XX. */
#include <string.h>

#include "adexp.h"
#include "internal.h"
#include "json_names.h"
#include "json_out.h"
#include "json_string.h"

void adexp_buf_init(adexp_buf *b, const adexp_allocator *hooks)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->a = hooks ? *hooks : adexp_default_allocator();
}

void adexp_buf_free(adexp_buf *b)
{
    if (b->data)
        b->a.free(b->a.ctx, b->data, b->cap);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* Room for n more bytes. The allocator has no realloc: copy on growth,
 * which doubling keeps rare. */
static int reserve(adexp_buf *b, size_t n)
{
    if (b->cap - b->len >= n)
        return 1;
    if (n > SIZE_MAX / 2 - b->len)
        return 0;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap - b->len < n)
        cap *= 2;
    char *d = b->a.alloc(b->a.ctx, cap);
    if (!d)
        return 0;
    if (b->data) {
        memcpy(d, b->data, b->len);
        b->a.free(b->a.ctx, b->data, b->cap);
    }
    b->data = d;
    b->cap = cap;
    return 1;
}

/* The writer reserves the worst case of each piece, then appends without
 * checks (a string: json_string_room). */
typedef struct writer {
    adexp_buf *b;
    int ok;
} writer;

/* Room for n more bytes: a pointer to them, or NULL (and the writer fails). */
static inline char *room(writer *w, size_t n)
{
    if (w->b->cap - w->b->len >= n && w->ok)
        return w->b->data + w->b->len;
    if (!w->ok || !reserve(w->b, n)) {
        w->ok = 0;
        return NULL;
    }
    return w->b->data + w->b->len;
}

static void commit(writer *w, const char *end)
{
    w->b->len = (size_t)(end - w->b->data);
}

#define LIT(o, s) (memcpy((o), (s), sizeof(s) - 1), (o) + sizeof(s) - 1)

static char *put_u64(char *o, uint64_t v)
{
    char tmp[20];
    size_t n = 0;
    do
        tmp[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n)
        *o++ = tmp[--n];
    return o;
}

int adexp_buf_put(adexp_buf *out, const char *s, size_t n)
{
    if (!reserve(out, n))
        return 0;
    if (n)
        memcpy(out->data + out->len, s, n);
    out->len += n;
    return 1;
}

int adexp_json_put_string(adexp_buf *out, adexp_slice s, int fold)
{
    size_t need = json_string_room(s.len);
    if (need == SIZE_MAX || !reserve(out, need))
        return 0;
    out->len = (size_t)(json_string(out->data + out->len, s, fold) - out->data);
    return 1;
}

/* Bytes a field's own text may take (not its children's), tail included:
 * its two strings at worst (json_string_room) and FIELD_FIXED for the rest. */
#define FIELD_FIXED 192
/* The tail written after a field's children: ']', its flags' keys, '}'. */
#define TAIL_ROOM 64

static size_t field_room(const adexp_field *f)
{
    size_t n = f->keyword.len + f->value.len;
    return n > (SIZE_MAX - FIELD_FIXED) / 6 ? SIZE_MAX : 6 * n + FIELD_FIXED;
}

/* '{"name":"KEYWORD"'. A dictionary field's keyword is its entry's (the
 * parser found the entry by these bytes): one copy of json_names. */
static char *put_name(char *o, const adexp_field *f)
{
    if (f->dict_id < DICT_COUNT) {
        const json_name *jn = &json_names[f->dict_id];
        if (jn->len == f->keyword.len + 10) {
            memcpy(o, jn, sizeof *jn);
            return o + jn->len;
        }
    }
    o = LIT(o, "{\"name\":");
    return json_string(o, f->keyword, 1);
}

/* The end of a field's object: its flags' keys, then '}'. */
static char *put_end(char *o, const adexp_field *f)
{
    if (f->flags & ADEXP_FIELD_UNKNOWN)
        o = LIT(o, ",\"unknown\":true");
    *o++ = '}';
    return o;
}

static void put_fields(writer *w, const adexp_field *f);

/* One field and its children; sep: the ',' before all but the first. The
 * field's own text is written in the room reserved once for it. */
static void put_field(writer *w, const adexp_field *f, int sep)
{
    size_t need = field_room(f);
    char *o = need == SIZE_MAX ? NULL : room(w, need);
    if (!o) {
        w->ok = 0;
        return;
    }
    *o = ',';
    o = put_name(o + sep, f);
    int list = f->kind == ADEXP_LIST;
    int fields = f->kind == ADEXP_COMPOUND && (f->child || f->value.len == 0);
    if (!list && (f->kind == ADEXP_BASIC || f->value.len > 0)) {
        o = LIT(o, ",\"value\":");
        o = json_string(o, f->value, 1);
    }
    if (!list && !fields) {
        commit(w, put_end(o, f));
        return;
    }
    o = list ? LIT(o, ",\"items\":[") : LIT(o, ",\"fields\":[");
    commit(w, o);
    put_fields(w, f->child);
    if (!(o = room(w, TAIL_ROOM)))
        return;
    *o++ = ']';
    commit(w, put_end(o, f));
}

static void put_fields(writer *w, const adexp_field *f)
{
    for (int sep = 0; f && w->ok; f = f->next, sep = 1)
        put_field(w, f, sep);
}

static void put_error(writer *w, const adexp_error *e)
{
    const char *name = adexp_status_name(e->code);
    size_t nlen = strlen(name), mlen = strlen(e->message);
    char *o = room(w, nlen + mlen + 128);
    if (!o)
        return;
    o = LIT(o, "{\"code\":\"");
    memcpy(o, name, nlen);
    o = LIT(o + nlen, "\",\"message\":\"");
    memcpy(o, e->message, mlen);
    o = LIT(o + mlen, "\",\"line\":");
    o = put_u64(o, e->line);
    o = LIT(o, ",\"column\":");
    o = put_u64(o, e->column);
    o = LIT(o, ",\"offset\":");
    o = put_u64(o, e->offset);
    *o++ = '}';
    commit(w, o);
}

static void put_errors(writer *w, const adexp_msg *msg)
{
    char *o = room(w, 16);
    if (!o)
        return;
    commit(w, LIT(o, "],\"errors\":["));
    for (size_t i = 0; i < msg->nerrors; i++) {
        if (i && (o = room(w, 1)))
            *o++ = ',', commit(w, o);
        put_error(w, &msg->errors[i]);
    }
    if ((o = room(w, 3)))
        commit(w, LIT(o, "]}\n"));
}

/* The line's head: source, index, offset, title, and "fields":[. */
static void put_head(writer *w, const adexp_msg *msg, adexp_slice src)
{
    adexp_slice title = msg->view.title;
    size_t ns = json_string_room(src.len), nt = json_string_room(title.len);
    if (ns == SIZE_MAX || nt == SIZE_MAX || ns + nt > SIZE_MAX - 128) {
        w->ok = 0;
        return;
    }
    char *o = room(w, ns + nt + 128);
    if (!o)
        return;
    o = LIT(o, "{\"source\":");
    o = json_string(o, src, 0);
    o = LIT(o, ",\"index\":");
    o = put_u64(o, msg->index);
    o = LIT(o, ",\"offset\":");
    o = put_u64(o, msg->offset);
    o = LIT(o, ",\"title\":");
    o = title.ptr ? json_string(o, title, 1) : LIT(o, "null");
    commit(w, LIT(o, ",\"fields\":["));
}

adexp_status adexp_json_write(adexp_buf *out, const adexp_msg *msg, const char *source)
{
    writer w = {out, 1};
    size_t start = out->len;
    adexp_slice src = {source, strlen(source)};
    put_head(&w, msg, src);
    put_fields(&w, msg->fields);
    put_errors(&w, msg);
    if (!w.ok) {
        out->len = start;
        return ADEXP_E_NOMEM;
    }
    return ADEXP_OK;
}

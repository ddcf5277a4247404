/* The JSON writer: one NDJSON line per message, the CLI's contract.
 * Values are folded (separator runs to one space, trimmed); strings are
 * valid JSON and valid UTF-8: bytes that are not UTF-8 become \u00XX. */
#include <string.h>

#include "adexp.h"
#include "internal.h"
#include "json_out.h"

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
 * checks: a string of n bytes takes at most 6n + 2 (every byte \u00XX). */
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

/* Length of the valid UTF-8 sequence at s[0..n), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len;
    unsigned min;
    unsigned cp;
    if (c >= 0xC2 && c <= 0xDF) len = 2, min = 0x80, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF) len = 3, min = 0x800, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4) len = 4, min = 0x10000, cp = c & 0x07;
    else return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

enum { J_PLAIN = 0, J_SEP, J_QUOTE, J_CTRL, J_HIGH };

/* Byte classes for JSON strings: copied as is, separator, escaped with a
 * backslash, control byte, byte >= 0x80. */
static const uint8_t json_class[256] = {
    [0x00] = J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL,
    [0x08] = J_CTRL, J_SEP, J_SEP, J_CTRL, J_CTRL, J_SEP, J_CTRL, J_CTRL,
    [0x10] = J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL,
    [0x18] = J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL, J_CTRL,
    [' '] = J_SEP, ['"'] = J_QUOTE, ['\\'] = J_QUOTE,
    [0x80] = J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
    J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH, J_HIGH,
};

static char *escape_byte(char *o, unsigned char c)
{
    static const char hex[] = "0123456789abcdef";
    o = LIT(o, "\\u00");
    *o++ = hex[c >> 4];
    *o++ = hex[c & 15];
    return o;
}

/* A JSON string of s at o (room: 6 * s.len + 2). With fold, runs of
 * separators become one space and the ends are trimmed; without, only
 * the space is kept as is. */
static char *string_at(char *o, adexp_slice s, int fold)
{
    const unsigned char *p = (const unsigned char *)s.ptr;
    size_t i = 0, n = s.len;
    int pending = 0, any = 0;
    *o++ = '"';
    while (i < n) {
        unsigned char c = p[i];
        unsigned k = json_class[c];
        if (k == J_SEP && fold) {
            pending = any;
            i++;
            continue;
        }
        if (pending)
            *o++ = ' ';
        pending = 0;
        any = 1;
        if (k == J_PLAIN || c == ' ') {
            do
                *o++ = (char)p[i++];
            while (i < n && json_class[p[i]] == J_PLAIN);
        } else if (k == J_QUOTE) {
            *o++ = '\\';
            *o++ = (char)c;
            i++;
        } else {
            size_t u = k == J_HIGH ? utf8_len(p + i, n - i) : 0;
            if (u) {
                memcpy(o, p + i, u);
                o += u;
                i += u;
            } else {
                o = escape_byte(o, c);
                i++;
            }
        }
    }
    *o++ = '"';
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
    if (s.len > (SIZE_MAX - 2) / 6 || !reserve(out, 6 * s.len + 2))
        return 0;
    out->len = (size_t)(string_at(out->data + out->len, s, fold) - out->data);
    return 1;
}

/* Worst-case bytes of a field's own text (not its children). */
static size_t field_room(const adexp_field *f)
{
    size_t n = f->keyword.len + f->value.len;
    return n > (SIZE_MAX - 128) / 6 ? SIZE_MAX : 6 * n + 128;
}

static void put_fields(writer *w, const adexp_field *f);

/* One field and its children; sep: the ',' before all but the first. */
static void put_field(writer *w, const adexp_field *f, int sep)
{
    size_t need = field_room(f);
    char *o = need == SIZE_MAX ? NULL : room(w, need);
    if (!o) {
        w->ok = 0;
        return;
    }
    if (sep)
        *o++ = ',';
    o = LIT(o, "{\"name\":");
    o = string_at(o, f->keyword, 1);
    int list = f->kind == ADEXP_LIST;
    int fields = f->kind == ADEXP_COMPOUND && (f->child || f->value.len == 0);
    if (!list && (f->kind == ADEXP_BASIC || f->value.len > 0)) {
        o = LIT(o, ",\"value\":");
        o = string_at(o, f->value, 1);
    }
    if (list)
        o = LIT(o, ",\"items\":[");
    else if (fields)
        o = LIT(o, ",\"fields\":[");
    commit(w, o);
    if (list || fields)
        put_fields(w, f->child);
    if (!(o = room(w, 32)))
        return;
    if (list || fields)
        *o++ = ']';
    if (f->flags & ADEXP_FIELD_UNKNOWN)
        o = LIT(o, ",\"unknown\":true");
    *o++ = '}';
    commit(w, o);
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
    if (src.len > (SIZE_MAX - 256) / 6 - title.len) {
        w->ok = 0;
        return;
    }
    char *o = room(w, 6 * (src.len + title.len) + 256);
    if (!o)
        return;
    o = LIT(o, "{\"source\":");
    o = adexp_json_name_is_utf8(src) ? string_at(o, src, 0) : adexp_json_name_at(o, src);
    o = LIT(o, ",\"index\":");
    o = put_u64(o, msg->index);
    o = LIT(o, ",\"offset\":");
    o = put_u64(o, msg->offset);
    o = LIT(o, ",\"title\":");
    o = title.ptr ? string_at(o, title, 1) : LIT(o, "null");
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

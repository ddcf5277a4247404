/* The JSON writer: one NDJSON line per message, the CLI's contract.
 * Values are folded (separator runs to one space, trimmed); strings are
 * valid JSON and valid UTF-8: bytes that are not UTF-8 become \u00XX. */
#include <stdio.h>
#include <string.h>

#include "adexp.h"
#include "internal.h"

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

typedef struct writer {
    adexp_buf *b;
    int ok;
} writer;

static void put(writer *w, const char *s, size_t n)
{
    if (!w->ok || !reserve(w->b, n)) {
        w->ok = 0;
        return;
    }
    memcpy(w->b->data + w->b->len, s, n);
    w->b->len += n;
}

static void puts_lit(writer *w, const char *s)
{
    put(w, s, strlen(s));
}

static void put_size(writer *w, size_t v)
{
    char tmp[24];
    int n = snprintf(tmp, sizeof tmp, "%zu", v);
    put(w, tmp, (size_t)n);
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

static int is_fold_sep(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* A JSON string of s; with fold, separator runs become one space and the
 * ends are trimmed. */
static void put_json_string(writer *w, adexp_slice s, int fold)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s.ptr;
    if (!w->ok || s.len > (SIZE_MAX - 2) / 6 || !reserve(w->b, s.len * 6 + 2)) {
        w->ok = 0;
        return;
    }
    char *o = w->b->data + w->b->len;
    char *first = o + 1;
    int pending = 0;
    *o++ = '"';
    for (size_t i = 0; i < s.len; i++) {
        unsigned char c = p[i];
        if (fold && is_fold_sep(c)) {
            pending = 1;
            continue;
        }
        if (pending && o != first)
            *o++ = ' ';
        pending = 0;
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            *o++ = (char)c;
        } else if (c == '"' || c == '\\') {
            *o++ = '\\';
            *o++ = (char)c;
        } else {
            size_t n = c >= 0x80 ? utf8_len(p + i, s.len - i) : 0;
            if (n) {
                memcpy(o, p + i, n);
                o += n;
                i += n - 1;
            } else {
                memcpy(o, "\\u00", 4);
                o[4] = hex[c >> 4];
                o[5] = hex[c & 15];
                o += 6;
            }
        }
    }
    *o++ = '"';
    w->b->len = (size_t)(o - w->b->data);
}

static void put_string(writer *w, adexp_slice s)
{
    put_json_string(w, s, 1);
}

static void put_fields(writer *w, const adexp_field *f);

static void put_field(writer *w, const adexp_field *f)
{
    puts_lit(w, "{\"name\":");
    put_string(w, f->keyword);
    if (f->kind == ADEXP_LIST) {
        puts_lit(w, ",\"items\":[");
        put_fields(w, f->child);
        puts_lit(w, "]");
    } else {
        if (f->kind == ADEXP_BASIC || f->value.len > 0) {
            puts_lit(w, ",\"value\":");
            put_string(w, f->value);
        }
        if (f->kind == ADEXP_COMPOUND && (f->child || f->value.len == 0)) {
            puts_lit(w, ",\"fields\":[");
            put_fields(w, f->child);
            puts_lit(w, "]");
        }
    }
    if (f->flags & ADEXP_FIELD_UNKNOWN)
        puts_lit(w, ",\"unknown\":true");
    puts_lit(w, "}");
}

static void put_fields(writer *w, const adexp_field *f)
{
    for (; f; f = f->next) {
        put_field(w, f);
        if (f->next)
            puts_lit(w, ",");
    }
}

static void put_errors(writer *w, const adexp_msg *msg)
{
    puts_lit(w, ",\"errors\":[");
    for (size_t i = 0; i < msg->nerrors; i++) {
        const adexp_error *e = &msg->errors[i];
        if (i)
            puts_lit(w, ",");
        puts_lit(w, "{\"code\":\"");
        puts_lit(w, adexp_status_name(e->code));
        puts_lit(w, "\",\"message\":\"");
        puts_lit(w, e->message);
        puts_lit(w, "\",\"line\":");
        put_size(w, e->line);
        puts_lit(w, ",\"column\":");
        put_size(w, e->column);
        puts_lit(w, ",\"offset\":");
        put_size(w, e->offset);
        puts_lit(w, "}");
    }
    puts_lit(w, "]");
}

adexp_status adexp_json_write(adexp_buf *out, const adexp_msg *msg, const char *source)
{
    writer w = {out, 1};
    size_t start = out->len;
    adexp_slice src = {source, strlen(source)};
    puts_lit(&w, "{\"source\":");
    put_json_string(&w, src, 0);
    puts_lit(&w, ",\"index\":");
    put_size(&w, msg->index);
    puts_lit(&w, ",\"offset\":");
    put_size(&w, msg->offset);
    puts_lit(&w, ",\"title\":");
    if (msg->view.title.ptr)
        put_string(&w, msg->view.title);
    else
        puts_lit(&w, "null");
    puts_lit(&w, ",\"fields\":[");
    put_fields(&w, msg->fields);
    puts_lit(&w, "]");
    put_errors(&w, msg);
    puts_lit(&w, "}\n");
    if (!w.ok) {
        out->len = start;
        return ADEXP_E_NOMEM;
    }
    return ADEXP_OK;
}

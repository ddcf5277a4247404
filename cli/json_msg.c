/* adexp-parse's JSON of a message back into a field tree: each field object
 * has "name" and, by kind, "value" (basic; a compound may have one too),
 * "fields" (compound) or "items" (list). "unknown" is not read: the builder
 * looks every keyword up in the dictionary again. "envelope" is read into
 * the message's envelope. Everything else of the line (source, index,
 * offset, title, errors) is ignored. */
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_msg.h"

typedef struct reader {
    adexp_builder *b;
    char *why;
    size_t cap;
    char at[512];              /* where we are: "fields[4].items[1]" */
    char *bytes;               /* a string's bytes (json_msg_bytes), grown */
    size_t bytes_cap;
    adexp_arena *arena;        /* the envelope's strings */
} reader;

static int bad(reader *r, const char *fmt, ...);

/* A JSON line made readable by jansson, which refuses lone surrogates: each
 * \udcXX escape (XX >= 80: a byte that is not UTF-8, as adexp-parse writes
 * it) becomes \u0000 and the two hex digits, each \u0000 escape \u0000 and
 * "00": every NUL of a string read then starts a byte (string_bytes). */
char *json_msg_line(const char *line, size_t len, size_t *out_len)
{
    if (len > SIZE_MAX / 2)
        return NULL;
    char *o = malloc(2 * len + 1), *p = o;
    if (!o)
        return NULL;
    for (size_t i = 0; i < len; i++) {
        if (line[i] != '\\' || i + 1 == len) {
            *p++ = line[i];
            continue;
        }
        const char *e = line + i;
        size_t left = len - i;
        int byte_esc = left >= 6 && e[1] == 'u' && (e[2] == 'd' || e[2] == 'D') &&
                       (e[3] == 'c' || e[3] == 'C') && strchr("89abcdefABCDEF", e[4]) &&
                       e[4] && isxdigit((unsigned char)e[5]);
        int nul_esc = left >= 6 && memcmp(e, "\\u0000", 6) == 0;
        if (byte_esc || nul_esc) {
            memcpy(p, "\\u0000", 6);
            p[6] = nul_esc ? '0' : e[4];
            p[7] = nul_esc ? '0' : e[5];
            p += 8;
            i += 5;
        } else {                   /* any other escape, as it is */
            *p++ = e[0];
            *p++ = e[1];
            i++;
        }
    }
    *out_len = (size_t)(p - o);
    return o;
}

static int hexval(char c)
{
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* The bytes of JSON string s as json_msg_line marked them, in *out (r's
 * buffer, or s's own text when it has no NUL). */
static int string_bytes(reader *r, const json_t *s, const char **out, size_t *n)
{
    const char *v = json_string_value(s);
    size_t len = json_string_length(s);
    if (!memchr(v, '\0', len)) {
        *out = v, *n = len;
        return 0;
    }
    if (len > r->bytes_cap) {
        char *nb = realloc(r->bytes, len);
        if (!nb)
            return bad(r, "out of memory");
        r->bytes = nb, r->bytes_cap = len;
    }
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        if (v[i] != '\0') {
            r->bytes[k++] = v[i];
        } else if (i + 2 < len && isxdigit((unsigned char)v[i + 1]) &&
                   isxdigit((unsigned char)v[i + 2])) {
            r->bytes[k++] = (char)(hexval(v[i + 1]) << 4 | hexval(v[i + 2]));
            i += 2;
        } else {
            return bad(r, "a NUL byte not written by json_msg_line");
        }
    }
    *out = r->bytes, *n = k;
    return 0;
}

static int bad(reader *r, const char *fmt, ...)
{
    int n = snprintf(r->why, r->cap, "%s: ", r->at[0] ? r->at : "message");
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < r->cap)
        vsnprintf(r->why + n, r->cap - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* A builder failure, said with the field's name. */
static int built(reader *r, adexp_status st, const char *name)
{
    if (st == ADEXP_OK)
        return 0;
    return bad(r, "%s: %s: %s", name, adexp_status_name(st), adexp_status_message(st));
}

static int read_fields(reader *r, const json_t *arr, const char *key, size_t from);

/* A field object: its value (or NULL) and children, by kind. */
static int read_field(reader *r, const json_t *f)
{
    if (!json_is_object(f))
        return bad(r, "a field is not an object");
    const json_t *name = json_object_get(f, "name"), *value = json_object_get(f, "value");
    const json_t *fields = json_object_get(f, "fields"), *items = json_object_get(f, "items");
    if (!json_is_string(name))
        return bad(r, "\"name\" is missing or not a string");
    if (value && !json_is_string(value))
        return bad(r, "\"value\" is not a string");
    if ((fields && !json_is_array(fields)) || (items && !json_is_array(items)))
        return bad(r, "\"fields\" and \"items\" must be arrays");
    if (items && (fields || value))
        return bad(r, "a list (\"items\") has no \"fields\" or \"value\"");
    const char *k, *v = NULL;
    size_t kl, vl = 0;
    if (string_bytes(r, name, &k, &kl))
        return -1;
    char kw[256];              /* the keyword, as the value takes r's buffer */
    if (kl >= sizeof kw)
        return bad(r, "\"name\" is too long");
    memcpy(kw, k, kl);
    kw[kl] = '\0';
    k = kw;
    if (value && string_bytes(r, value, &v, &vl))
        return -1;
    if (items)
        return built(r, adexp_builder_begin_list_n(r->b, k, kl), k) ||
               read_fields(r, items, "items", 0) || built(r, adexp_builder_end_list(r->b), k);
    if (fields)
        return built(r, adexp_builder_begin_compound_n(r->b, k, kl, v, vl), k) ||
               read_fields(r, fields, "fields", 0) ||
               built(r, adexp_builder_end_compound(r->b), k);
    return built(r, adexp_builder_add_n(r->b, k, kl, v, vl), k);
}

/* The fields of array arr (named key in the path) from index from on. */
static int read_fields(reader *r, const json_t *arr, const char *key, size_t from)
{
    size_t base = strlen(r->at);
    for (size_t i = from; i < json_array_size(arr); i++) {
        snprintf(r->at + base, sizeof r->at - base, "%s%s[%zu]", base ? "." : "", key, i);
        if (read_field(r, json_array_get(arr, i)))
            return -1;
    }
    r->at[base] = '\0';
    return 0;
}

static int build(reader *r, const json_t *root, adexp_msg *msg);
static int read_envelope(reader *r, const json_t *env, adexp_envelope *out);

int json_msg_build(const json_t *root, adexp_builder *b, adexp_arena *arena, adexp_msg *msg,
                   char *why, size_t cap)
{
    reader r = {b, why, cap, "", NULL, 0, arena};
    int rc = build(&r, root, msg);
    const json_t *env = json_object_get(root, "envelope");
    if (rc == 0 && env && !json_is_null(env)) {
        strcpy(r.at, "envelope");
        rc = read_envelope(&r, env, &msg->envelope);
    }
    free(r.bytes);
    return rc;
}

/* The strings of JSON value v (a string, null, or with many an array of
 * strings) joined by sep into the arena, as *out; null or absent: none. */
static int envelope_part(reader *r, const json_t *v, const char *key, int many, char sep,
                         adexp_slice *out)
{
    *out = (adexp_slice){NULL, 0};
    if (!v || json_is_null(v))
        return 0;
    if (many ? !json_is_array(v) : !json_is_string(v))
        return bad(r, "\"%s\" is not %s", key, many ? "an array" : "a string or null");
    size_t n = many ? json_array_size(v) : 1, total = 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *s = many ? json_array_get(v, i) : v;
        if (!json_is_string(s))
            return bad(r, "\"%s\" holds a value that is not a string", key);
        total += json_string_length(s) + 1;
    }
    char *d = total ? adexp_arena_alloc(r->arena, total) : NULL;
    if (total && !d)
        return bad(r, "out of memory");
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        const char *b;
        size_t k;
        if (string_bytes(r, many ? json_array_get(v, i) : v, &b, &k))
            return -1;
        if (len)
            d[len++] = sep;
        memcpy(d + len, b, k);
        len += k;
    }
    *out = (adexp_slice){len ? d : NULL, len};
    return 0;
}

/* The "envelope" object (doc/feeds.md) into out ("form" absent: ITA-2,
 * as before the form was kept). Its "text" lists the
 * envelope's pieces of text in input order, not where each stood: they
 * are put back in the heading line, the origin line and before -TITLE in
 * turn, which reads back as the same list; a heading garbled from its
 * first line (no transmission id) is one piece, written as it stood. */
static int read_envelope(reader *r, const json_t *env, adexp_envelope *out)
{
    if (!json_is_object(env))
        return bad(r, "not an object");
    const json_t *form = json_object_get(env, "form");
    if (form && !json_is_null(form)) {
        const char *f = json_is_string(form) ? json_string_value(form) : "";
        if (adexp_envelope_form_of(f, strlen(f), &out->form) != 0)
            return bad(r, "\"form\" is not \"ita2\", \"ia5\" or \"bare\"");
    }
    static const char *const keys[] = {"transmission_id", "priority", "filing_time",
                                       "originator"};
    adexp_slice *parts[] = {&out->transmission_id, &out->priority, &out->filing_time,
                            &out->originator};
    for (int i = 0; i < 4; i++)
        if (envelope_part(r, json_object_get(env, keys[i]), keys[i], 0, 0, parts[i]))
            return -1;
    if (envelope_part(r, json_object_get(env, "addressees"), "addressees", 1, ' ',
                      &out->addressees))
        return -1;
    const json_t *text = json_object_get(env, "text");
    if (text && !json_is_null(text) && !json_is_array(text))
        return bad(r, "\"text\" is not an array");
    size_t n = text ? json_array_size(text) : 0;
    out->present = 1;
    /* bare lines have no end, nor a heading line: their one piece of text
     * is the origin line's rest */
    if (out->form == ADEXP_FORM_BARE) {
        if (n > 1)
            return bad(r, "\"text\" holds more than 1 piece (bare lines)");
        return n ? envelope_part(r, json_array_get(text, 0), "text", 0, 0, &out->text[1]) : 0;
    }
    out->closed = 1;           /* (a line with an ENVELOPE error is not written) */
    if (!out->transmission_id.len)
        return envelope_part(r, text, "text", 1, '\n', &out->text[2]);
    if (n > 3)
        return bad(r, "\"text\" holds more than 3 pieces");
    for (size_t i = 0; i < n; i++)
        if (envelope_part(r, json_array_get(text, i), "text", 0, 0, &out->text[i]))
            return -1;
    return 0;
}

static int build(reader *r, const json_t *root, adexp_msg *msg)
{
    if (!json_is_object(root))
        return bad(r, "not a JSON object");
    const json_t *fields = json_object_get(root, "fields");
    if (!json_is_array(fields) || json_array_size(fields) == 0)
        return bad(r, "\"fields\" is missing, empty or not an array");
    const json_t *first = json_array_get(fields, 0);
    const json_t *name = json_object_get(first, "name"), *title = json_object_get(first, "value");
    strcpy(r->at, "fields[0]");
    if (!json_is_string(name) || strcmp(json_string_value(name), "TITLE") != 0 ||
        json_object_get(first, "fields") || json_object_get(first, "items"))
        return bad(r, "the first field is not a basic TITLE");
    if (title && !json_is_string(title))
        return bad(r, "\"value\" is not a string");
    const char *t = NULL;
    size_t tlen = 0;
    if (title && string_bytes(r, title, &t, &tlen))
        return -1;
    if (built(r, adexp_builder_begin_n(r->b, t, tlen), "TITLE"))
        return -1;
    r->at[0] = '\0';
    if (read_fields(r, fields, "fields", 1))
        return -1;
    return built(r, adexp_builder_finish(r->b, msg), "message");
}

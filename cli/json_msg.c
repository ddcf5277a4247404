/* adexp-parse's JSON of a message back into a field tree: each field object
 * has "name" and, by kind, "value" (basic; a compound may have one too),
 * "fields" (compound) or "items" (list). "unknown" is not read: the builder
 * looks every keyword up in the dictionary again. Everything else of the
 * line (source, index, offset, title, errors) is ignored. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "json_msg.h"

typedef struct reader {
    adexp_builder *b;
    char *why;
    size_t cap;
    char at[512];              /* where we are: "fields[4].items[1]" */
} reader;

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
    const char *k = json_string_value(name), *v = value ? json_string_value(value) : NULL;
    size_t kl = json_string_length(name), vl = value ? json_string_length(value) : 0;
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

int json_msg_build(const json_t *root, adexp_builder *b, adexp_msg *msg, char *why,
                   size_t cap)
{
    reader r = {b, why, cap, ""};
    if (!json_is_object(root))
        return bad(&r, "not a JSON object");
    const json_t *fields = json_object_get(root, "fields");
    if (!json_is_array(fields) || json_array_size(fields) == 0)
        return bad(&r, "\"fields\" is missing, empty or not an array");
    const json_t *first = json_array_get(fields, 0);
    const json_t *name = json_object_get(first, "name"), *title = json_object_get(first, "value");
    strcpy(r.at, "fields[0]");
    if (!json_is_string(name) || strcmp(json_string_value(name), "TITLE") != 0 ||
        json_object_get(first, "fields") || json_object_get(first, "items"))
        return bad(&r, "the first field is not a basic TITLE");
    if (title && (!json_is_string(title) ||
                  strlen(json_string_value(title)) != json_string_length(title)))
        return bad(&r, "\"value\" is not a string without NUL");
    if (built(&r, adexp_builder_begin(b, title ? json_string_value(title) : NULL), "TITLE"))
        return -1;
    r.at[0] = '\0';
    if (read_fields(&r, fields, "fields", 1))
        return -1;
    return built(&r, adexp_builder_finish(b, msg), "message");
}

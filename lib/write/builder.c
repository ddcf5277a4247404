/* The message builder: a field tree made call by call, over an arena, with
 * the kinds and flags the parser would give each keyword, for the writers. */
#include <string.h>

#include "adexp.h"
#include "dict.h"
#include "dict_ext.h"
#include "internal.h"
#include "lexer.h"

/* An open compound or list: where its parent's chain goes on after it. */
typedef struct open_field {
    struct open_field *up;
    adexp_field *node;
    adexp_field **parent_tail;
} open_field;

struct adexp_builder {
    adexp_arena *arena;
    adexp_status code;         /* the first failure, which sticks */
    int begun;
    adexp_field *fields;
    adexp_field **tail;        /* where the next field is linked */
    open_field *open;          /* innermost open compound or list */
    open_field *spare;         /* closed ones, for reuse */
    size_t nfields;
    const adexp_dictionary *dict;   /* NULL: the built-in dictionary */
};

adexp_builder *adexp_builder_new(adexp_arena *arena)
{
    adexp_builder *b = adexp_arena_alloc(arena, sizeof *b);
    if (b) {
        memset(b, 0, sizeof *b);
        b->arena = arena;
        b->tail = &b->fields;
    }
    return b;
}

void adexp_builder_use_dictionary(adexp_builder *b, const adexp_dictionary *d)
{
    b->dict = d;
}

static adexp_status fail(adexp_builder *b, adexp_status code)
{
    if (b->code == ADEXP_OK)
        b->code = code;
    return b->code;
}

static int keyword_ok(const char *k, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!is_alnum((unsigned char)k[i]))
            return 0;
    return 1;
}

/* A copy of s[0..n) in the arena, or NULL (n == 0: an empty slice). */
static int copy(adexp_builder *b, const char *s, size_t n, adexp_slice *out)
{
    out->ptr = NULL;
    out->len = n;
    if (n == 0)
        return 1;
    char *d = adexp_arena_alloc(b->arena, n);
    if (!d)
        return 0;
    memcpy(d, s, n);
    out->ptr = d;
    return 1;
}

/* A new node linked at the end of the current chain, or NULL (b->code
 * says why). */
static adexp_field *add_node(adexp_builder *b, const char *k, size_t klen, const char *v,
                             size_t vlen, adexp_kind kind)
{
    if (b->code != ADEXP_OK)
        return NULL;
    if (!b->begun) {
        fail(b, ADEXP_E_BUILD_ORDER);
        return NULL;
    }
    const dict_entry *e = keyword_ok(k, klen) ? dict_ext_lookup(b->dict, k, klen) : NULL;
    if (!keyword_ok(k, klen) || (kind != ADEXP_LIST && e && e->level == DICT_SYNTAX)) {
        fail(b, ADEXP_E_WRITE_KEYWORD);
        return NULL;
    }
    adexp_field *n = adexp_arena_alloc(b->arena, sizeof *n);
    if (!n || !copy(b, k, klen, &n->keyword) || !copy(b, v, vlen, &n->value)) {
        fail(b, ADEXP_E_NOMEM);
        return NULL;
    }
    if (kind == ADEXP_LIST)
        n->flags = !e || e->kind != ADEXP_LIST ? ADEXP_FIELD_UNKNOWN : 0;
    else
        n->flags = !e ? ADEXP_FIELD_UNKNOWN : (e->flags & DICT_TEXT) ? ADEXP_FIELD_TEXT : 0;
    if (kind == ADEXP_BASIC && e && e->kind == ADEXP_COMPOUND)
        kind = ADEXP_COMPOUND;         /* as the parser reads -ALTNZ EDDV */
    n->kind = (uint8_t)kind;
    n->dict_id = e ? dict_id(e) : ADEXP_DICT_NONE;
    n->child = n->next = NULL;
    n->offset = 0;
    n->nchildren = 0;
    *b->tail = n;
    b->tail = &n->next;
    if (b->open)
        b->open->node->nchildren++;
    b->nfields++;
    return n;
}

/* Makes n the open field: the next ones are its children. */
static adexp_status open_node(adexp_builder *b, adexp_field *n)
{
    if (!n)
        return b->code;
    open_field *o = b->spare;
    if (o)
        b->spare = o->up;
    else if (!(o = adexp_arena_alloc(b->arena, sizeof *o)))
        return fail(b, ADEXP_E_NOMEM);
    o->up = b->open;
    o->node = n;
    o->parent_tail = b->tail;
    b->open = o;
    b->tail = &n->child;
    return ADEXP_OK;
}

static adexp_status close_node(adexp_builder *b, int list)
{
    if (b->code != ADEXP_OK)
        return b->code;
    open_field *o = b->open;
    if (!o || (o->node->kind == ADEXP_LIST) != list)
        return fail(b, ADEXP_E_BUILD_ORDER);
    b->tail = o->parent_tail;
    b->open = o->up;
    o->up = b->spare;
    b->spare = o;
    return ADEXP_OK;
}

adexp_status adexp_builder_begin(adexp_builder *b, const char *title)
{
    return adexp_builder_begin_n(b, title, title ? strlen(title) : 0);
}

adexp_status adexp_builder_begin_n(adexp_builder *b, const char *title, size_t tlen)
{
    while (b->open) {          /* an unfinished message is forgotten */
        open_field *o = b->open;
        b->open = o->up;
        o->up = b->spare;
        b->spare = o;
    }
    b->code = ADEXP_OK;
    b->begun = 1;
    b->fields = NULL;
    b->tail = &b->fields;
    b->nfields = 0;
    add_node(b, "TITLE", 5, title, tlen, ADEXP_BASIC);
    return b->code;
}

adexp_status adexp_builder_add_n(adexp_builder *b, const char *keyword, size_t klen,
                                 const char *value, size_t vlen)
{
    add_node(b, keyword, klen, value, vlen, ADEXP_BASIC);
    return b->code;
}

adexp_status adexp_builder_add(adexp_builder *b, const char *keyword, const char *value)
{
    return adexp_builder_add_n(b, keyword, strlen(keyword), value,
                               value ? strlen(value) : 0);
}

adexp_status adexp_builder_begin_compound_n(adexp_builder *b, const char *keyword,
                                            size_t klen, const char *value, size_t vlen)
{
    return open_node(b, add_node(b, keyword, klen, value, vlen, ADEXP_COMPOUND));
}

adexp_status adexp_builder_begin_compound(adexp_builder *b, const char *keyword,
                                          const char *value)
{
    return adexp_builder_begin_compound_n(b, keyword, strlen(keyword), value,
                                          value ? strlen(value) : 0);
}

adexp_status adexp_builder_end_compound(adexp_builder *b)
{
    return close_node(b, 0);
}

adexp_status adexp_builder_begin_list_n(adexp_builder *b, const char *name, size_t len)
{
    return open_node(b, add_node(b, name, len, NULL, 0, ADEXP_LIST));
}

adexp_status adexp_builder_begin_list(adexp_builder *b, const char *name)
{
    return adexp_builder_begin_list_n(b, name, strlen(name));
}

adexp_status adexp_builder_end_list(adexp_builder *b)
{
    return close_node(b, 1);
}

adexp_status adexp_builder_finish(adexp_builder *b, adexp_msg *msg)
{
    if (b->code != ADEXP_OK)
        return b->code;
    if (!b->begun || b->open)
        return fail(b, ADEXP_E_BUILD_ORDER);
    memset(msg, 0, sizeof *msg);
    msg->fields = b->fields;
    msg->nfields = b->nfields;
    b->begun = 0;
    if (!adexp_view_build(msg, b->arena))
        return fail(b, ADEXP_E_NOMEM);
    return ADEXP_OK;
}

/* The tree being built: a node per field, linked at the end of its frame,
 * and the frame of a node's children. The errors are in build.c too. */
#ifndef ADEXP_BUILD_H
#define ADEXP_BUILD_H

#include "parse_state.h"

/* The arena's bump path inlined for nodes, one per field: what
 * adexp_arena_alloc does when the current chunk has room, since a node's
 * size is a multiple of the arena's alignment (max_align_t). */
_Static_assert(sizeof(adexp_field) % _Alignof(max_align_t) == 0,
               "node size keeps the arena aligned");

static inline adexp_field *node_alloc(adexp_arena *a)
{
    if ((size_t)(a->end - a->ptr) >= sizeof(adexp_field)) {
        adexp_field *n = (adexp_field *)(void *)a->ptr;
        a->ptr += sizeof(adexp_field);
        return n;
    }
    return adexp_arena_alloc(a, sizeof(adexp_field));
}

/* A new node for the current token, linked at the end of frame f, or NULL
 * after a fatal error. The caller's kind, flags and value go into the one
 * store of the whole node; the parent's nchildren is set when its frame ends. */
static ALWAYS_INLINE adexp_field *new_node(adexp_parser *p, frame *f, adexp_kind kind,
                                           unsigned flags, adexp_slice value)
{
    const ftok *t = p->tok;
    if (p->msg->nfields >= p->opt.max_fields) {
        fatal(p, ADEXP_E_FIELD_LIMIT, t->offset);
        return NULL;
    }
    if (f->items >= f->max_items) {
        fatal(p, ADEXP_E_LIST_LIMIT, t->offset);
        return NULL;
    }
    adexp_field *n = node_alloc(p->arena);
    if (!n) {
        fatal(p, ADEXP_E_NOMEM, t->offset);
        return NULL;
    }
    /* member by member: a compound literal is built on the stack, then copied */
    n->keyword = t->keyword;
    n->value = value;
    n->child = n->next = NULL;
    n->offset = t->offset;
    n->nchildren = 0;
    n->kind = (uint8_t)kind;
    n->flags = (uint8_t)flags;
    n->dict_id = t->entry ? dict_id(t->entry) : ADEXP_DICT_NONE;
    *f->tail = n;
    f->tail = &n->next;
    f->items++;
    p->msg->nfields++;
    return n;
}

/* Parse the children of node into a new frame below f. */
void parse_children(adexp_parser *p, frame *f, adexp_field *node, frame_kind kind,
                    const dict_entry *entry);

#endif

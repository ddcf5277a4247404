/* What the runs (run.c) and their AVX2 loop (fused.c) share: the state the
 * loop reads and changes, and the end of a compound. */
#ifndef ADEXP_RUN_H
#define ADEXP_RUN_H

#include "parse_state.h"

/* Compound c ends before ptr: its count is its nodes after it (less those
 * of compounds in it that run_fused read: fused_mend), and the next node
 * is its sibling.
 * Returns NULL, the open compound after it. */
static ALWAYS_INLINE adexp_field *close_compound(adexp_field *c, const char *ptr,
                                                adexp_field ***tail)
{
    c->nchildren = (uint32_t)((size_t)(ptr - (const char *)(c + 1)) / sizeof *c);
    *tail = &c->next;
    return NULL;
}

#if RUN_FUSED
/* What run_fused reads and changes of the run: the lexer (resumed at the
 * field it stops at, unless it stopped at the bound without reading), the
 * bound max_message_size sets, the node space, tail and item count, and the
 * compound being read. */
typedef struct fused_state {
    lexer *lx;
    size_t bound;
    int resumed;
    char *ptr;
    char *lim;                 /* the node space for the frame being read */
    char *end;                 /* the run's, for the limit of a list */
    adexp_field **tail;
    uint32_t items;
    adexp_field *c;
    const uint64_t *crow;
    size_t dash;               /* for run_fused_tail: the field it starts at */
    /* Compounds in a compound (-REFDATA -SENDER -FAC X): the compound c is
     * in while the run stopped inside c (outer, its row outer_row; else
     * NULL), and the nodes of those read in nested_c (nested), which are
     * not nested_c's own: its count is mended when it ends. */
    adexp_field *outer;
    const uint64_t *outer_row;
    adexp_field *nested_c;
    size_t nested;
    field_scan cold;           /* a cold field in such a compound */
    /* A list that run_fused opened (at -BEGIN X, as run_list would) and is
     * reading: its node (NULL: none), its frame, and the frame's item count
     * before it; tail, items, lim, c and crow are then the list's. */
    adexp_field *list;
    uint32_t outer_items;
    frame lf;
} fused_state;

/* fused_loop (fused.c) for the message or a list, and for a compound whose
 * subfields' row is row. */
void run_fused(const adexp_parser *p, const frame *f, fused_state *fs);
void run_fused_in(const adexp_parser *p, const frame *f, fused_state *fs, const uint64_t *row);
#endif

#endif

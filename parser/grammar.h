/* The grammar: what a keyword does in the open frames. Every decision of
 * structure the parser makes is answered here, for both of its paths: the
 * general descent (descent.c) asks at every field; the runs (run.c,
 * fused.c) read a field themselves only where the answer is GR_CHILD for a
 * plain field, and leave every other answer to the descent.
 *
 * A frame is what the fields being read belong to (parse_state.h): the
 * message, a compound, a list, or an unknown field that takes subfields. */
#ifndef ADEXP_GRAMMAR_H
#define ADEXP_GRAMMAR_H

#include "parse_state.h"

typedef enum grammar_step {
    GR_CHILD,      /* a field of the innermost open frame */
    GR_MISPLACED,  /* one too, flagged ADEXP_FIELD_MISPLACED */
    GR_TAKEN,      /* a subfield of the unknown field that is open */
    GR_NEW_ITEM,   /* ends the open list element: the list's next item */
    GR_CLOSE,      /* ends the innermost open frame: the one around decides */
} grammar_step;

static inline int is_subfield_level(const dict_entry *e)
{
    return e->level == DICT_SUBFIELD || e->level == DICT_RESERVED_SUBFIELD;
}

/* Whether e is a known subfield that frame f has no place for. */
static ALWAYS_INLINE int stray_subfield(const frame *f, const dict_entry *e)
{
    return e && is_subfield_level(e) && !(f->entry && dict_allows_entry(f->entry, e));
}

/* Whether a compound standing in frame around is a list element: the
 * compound's own subfields aside, the list decides what ends it. A message
 * list (IFPDLONG) holds a whole message, whose compounds end as at the top. */
static ALWAYS_INLINE int in_element(const frame *around)
{
    return around->kind == FR_LIST &&
           !(around->entry && (around->entry->flags & DICT_MSG_LIST));
}

/* Whether e is a keyword that list l holds directly (PT in RTEPTS, FAC in
 * ADDR), in element ce: the dictionary says which; in a list it does not
 * know, the keyword of the element itself. */
static ALWAYS_INLINE int list_item_keyword(const frame *l, const dict_entry *ce,
                                           const dict_entry *e)
{
    return l->entry ? dict_allows_entry(l->entry, e) : e == ce;
}

/* Whether an unknown field standing in frame f takes field e (entry, NULL
 * if unknown) as its subfield. At the top, S31 4.3.2 skips an unknown field
 * up to the next known primary field that is not within a list: here it
 * takes the known subfields that follow it (a primary or unknown keyword
 * ends it). Inside a list element it takes only what neither its element
 * nor its list has a place for: the list's next element and its -END are
 * never an unknown field's. */
static ALWAYS_INLINE int grammar_unknown_takes(const frame *f, const dict_entry *e)
{
    if (!stray_subfield(f, e))
        return 0;
    return !(f->kind == FR_COMPOUND && in_element(f->up) && list_item_keyword(f->up, f->entry, e));
}

/* Field e (NULL if unknown; not -BEGIN or -END) in compound ce, which stands
 * in frame around (the runs' compounds have no frame of their own).
 * - A compound's own subfields are its children (S31 4.2: it has no end
 *   marker, it ends at the first keyword it does not allow).
 * - In a list element, the list's element keyword ends the element and
 *   starts the list's next item (no compound nested in an element allows
 *   it: dict_test checks); -TITLE starts the next message.
 * - Any other keyword belongs to the element: its known subfields, primary
 *   keywords ("inclusion within a list field is the only occasion when a
 *   primary field may be used as a subfield", S31 4.3.7, example 3: -RFL
 *   after a -PT's subfields) and unknown fields alike.
 * - A compound elsewhere ends at any keyword it does not allow. */
static ALWAYS_INLINE grammar_step grammar_in_compound(const dict_entry *ce, const frame *around,
                                                      const dict_entry *e)
{
    if (e && dict_allows_entry(ce, e))
        return GR_CHILD;
    if (!in_element(around))
        return GR_CLOSE;
    if (e && list_item_keyword(around, ce, e))
        return GR_NEW_ITEM;
    return is_entry(e, DICT_ID_TITLE) ? GR_CLOSE : GR_CHILD;
}

/* The row of dict_sub_rows (or one like it) of the subfields that the
 * message or a list holds directly, for frame.holds: a list its items (PT
 * in RTEPTS; a list the dictionary does not know, any); the message none
 * (list NULL, row 0). */
extern const uint64_t grammar_any_row[DICT_SUB_WORDS];

static inline const uint64_t *frame_row(frame_kind kind, const dict_entry *list)
{
    if (list)
        return list->row;
    return kind == FR_LIST ? grammar_any_row : dict_sub_rows[0];
}

/* Whether frame f, the message or a list, has a place for known subfield
 * e (frame_row). */
static ALWAYS_INLINE int frame_holds(const frame *f, const dict_entry *e)
{
    return dict_row_allows(f->holds, e);
}

/* Field e (NULL if unknown; not -BEGIN or -END) in frame f, the message or a
 * list, with items fields in it so far.
 * - A -TITLE after the first starts the next message (S31 5.2.2: a message
 *   starts with -TITLE): it ends the message, and a list left open; a
 *   message list (IFPDLONG) holds one whole message, its own -TITLE first
 *   (the descent marks it seen).
 * - A known subfield that f has no place for, where no compound is open
 *   (-GEOID with no -GEO), is kept and flagged misplaced.
 * - Any other field is a child (in a list, any primary keyword is an item,
 *   S31 4.3.5). */
static ALWAYS_INLINE grammar_step grammar_in_frame(const frame *f, uint32_t items,
                                                   const dict_entry *e)
{
    if (is_entry(e, DICT_ID_TITLE)) {
        if (f->kind == FR_ROOT)
            return items == 0 ? GR_CHILD : GR_CLOSE;
        if (f->entry && (f->entry->flags & DICT_MSG_LIST) && !f->seen_title)
            return GR_CHILD;
        return GR_CLOSE;
    }
    return e && is_subfield_level(e) && !frame_holds(f, e) ? GR_MISPLACED : GR_CHILD;
}

/* Whether the runs may read field e (known, its id id) in frame f, the
 * message or a list, with items fields so far, as a child with no more to
 * decide: grammar_in_frame's GR_CHILD, less a message list's own -TITLE.
 * (The levels are 0 to 4: the subfields' are the odd ones.) */
static ALWAYS_INLINE int grammar_plain_child(const frame *f, uint32_t items,
                                             const dict_entry *e, unsigned id)
{
    _Static_assert((DICT_SUBFIELD & 1) && (DICT_RESERVED_SUBFIELD & 1) &&
                       !(DICT_PRIMARY & 1) && !(DICT_RESERVED_PRIMARY & 1) &&
                       !(DICT_SYNTAX & 1),
                   "the subfield levels are the odd ones");
    if (e->level & 1)
        return frame_holds(f, e);
    return id != DICT_ID_TITLE || (f->kind == FR_ROOT && items == 0);
}

/* Whether known field e (its id id) is a basic primary field other than
 * -TITLE: one grammar_plain_child takes as a child in any frame, the
 * message or a list, which the runs make a node of with no more to ask.
 * Level and kind, side by side in the entry, are read as one 16-bit word
 * (both 0): one compare for the most frequent case. */
static ALWAYS_INLINE int grammar_plain_basic(const dict_entry *e, unsigned id)
{
    _Static_assert(offsetof(dict_entry, kind) == offsetof(dict_entry, level) + 1 &&
                       DICT_PRIMARY == 0 && ADEXP_BASIC == 0,
                   "level and kind are adjacent bytes, 0 for a basic primary field");
    uint16_t level_kind;
    memcpy(&level_kind, &e->level, sizeof level_kind);
    return level_kind == 0 && id != DICT_ID_TITLE;
}

/* Field e (NULL if unknown; not -BEGIN or -END) in any frame f. */
static inline grammar_step grammar_field(const frame *f, const dict_entry *e)
{
    switch (f->kind) {
    case FR_ROOT:
    case FR_LIST:
        return grammar_in_frame(f, f->items, e);
    case FR_COMPOUND:
        return grammar_in_compound(f->entry, f->up, e);
    case FR_UNKNOWN:
        return grammar_unknown_takes(f->up, e) ? GR_TAKEN : GR_CLOSE;
    }
    return GR_CLOSE;
}

/* -BEGIN X (x: X's entry, NULL if unknown) in compound ce standing in frame
 * around: a list that ce has a place for is its child; in a list element,
 * as a field would be (grammar_in_compound), a list the list holds
 * directly starts its next item and any other belongs to the element;
 * elsewhere it ends ce. */
static ALWAYS_INLINE grammar_step grammar_list_in_compound(const dict_entry *ce,
                                                           const frame *around,
                                                           const dict_entry *x)
{
    if (x && dict_allows_entry(ce, x))
        return GR_CHILD;
    if (!in_element(around))
        return GR_CLOSE;
    return x && list_item_keyword(around, ce, x) ? GR_NEW_ITEM : GR_CHILD;
}

/* -BEGIN X in any frame f: the message and a list hold any list; an
 * unknown field takes subfields only. */
static inline grammar_step grammar_list(const frame *f, const dict_entry *x)
{
    if (f->kind == FR_COMPOUND)
        return grammar_list_in_compound(f->entry, f->up, x);
    return f->kind == FR_UNKNOWN ? GR_CLOSE : GR_CHILD;
}

/* Whether -END ends frame f: every frame but the message does, up to the
 * list it closes (which checks its name); in the message, no list is open
 * and it is reported as having no -BEGIN. */
static inline int grammar_end_closes(const frame *f)
{
    return f->kind != FR_ROOT;
}

#endif

/* The grammar: what a keyword does in the open frames. Every decision of
 * structure the parser makes is answered here, for both of its paths: the
 * general descent (descent.c) asks at every field; the runs (run.c,
 * fused.c) read a field themselves only where the answer is GR_CHILD for a
 * plain field, and leave every other answer to the descent. Every question
 * asked of the dictionary (is X a subfield of Y, a list, text, -BEGIN) is a
 * named predicate below: no other file of the parser asks it directly
 * (grammar_home_test.py checks).
 *
 * The productions, over the lexer's field tokens ("-" KEYWORD value; the
 * sections are those of S31, EUROCONTROL-SPEC-0107 Edition 3.1, whose
 * words basic, compound and list the rules keep). KEYWORD is looked up in
 * the dictionary: which keywords a compound or list allows decides all
 * nesting, as no compound has an end marker.
 *
 *   message   = title { field } ;                      S31 5.2.2
 *   title     = "-TITLE" value ;   a -TITLE after the first starts the next message
 *   field     = basic | compound | list | unknown | misplaced ;
 *   basic     = "-" KEYWORD value ;                    S31 4.2, 5.2.6
 *                 value: up to the next '-', or for a text field (MSGTXT)
 *                 a group in ( ) that may hold '-' (the lexer's)
 *   compound  = "-" KEYWORD { subfield } ;             S31 4.2
 *                 subfield: a keyword KEYWORD allows; the compound ends at
 *                 the first keyword it does not allow
 *   subfield  = basic | compound | list ;
 *   list      = "-BEGIN" NAME { item } "-END" NAME ;   S31 4.2, 5.2; the names equal
 *   item      = element | field ;                      any primary keyword, S31 4.3.5
 *   element   = "-" ELEMENT { subfield } { local } ;   S31 4.3.7, example 3
 *                 ELEMENT: a keyword the list holds (PT in RTEPTS); the
 *                 list's ELEMENT always starts the next element, whatever
 *                 is open, and any other keyword after its subfields,
 *                 primary or unknown, is the element's
 *   local     = field - ELEMENT - title ;
 *   msglist   = "-BEGIN" NAME message "-END" NAME ;    IFPDLONG, RFPDLONG: S31 A.3, A.4
 *   unknown   = "-" UNKNOWN value { stray } ;          S31 4.3
 *                 skipped up to the next known primary keyword that is not
 *                 within a list: it takes the known subfields after it that
 *                 no open compound, element or list has a place for
 *   misplaced = subfield ;  a known subfield where no compound allows it
 *                 (-GEOID with no -GEO): kept, flagged ADEXP_FIELD_MISPLACED
 *
 * A frame is what the fields being read belong to (parse_state.h): the
 * message, a compound, a list, or an unknown field that takes subfields. */
#ifndef ADEXP_GRAMMAR_H
#define ADEXP_GRAMMAR_H

#include "parse_state.h"

/* The dictionary's answers, by name (lib/dict/dict.h): the grammar's words
 * for an entry e. */

/* Whether e is -BEGIN or -END, the list brackets (level DICT_SYNTAX). */
static ALWAYS_INLINE int is_bracket(const dict_entry *e)
{
    return e->level == DICT_SYNTAX;
}

/* Whether e is a subfield keyword (reserved or not), which only a compound
 * or a list has a place for. */
static inline int is_subfield_level(const dict_entry *e)
{
    return e->level == DICT_SUBFIELD || e->level == DICT_RESERVED_SUBFIELD;
}

/* basic, compound, list: the kind of field e is. */
static ALWAYS_INLINE int is_basic(const dict_entry *e)
{
    return e->kind == ADEXP_BASIC;
}

static ALWAYS_INLINE int is_compound(const dict_entry *e)
{
    return e->kind == ADEXP_COMPOUND;
}

static ALWAYS_INLINE int is_list(const dict_entry *e)
{
    return e->kind == ADEXP_LIST;
}

/* Whether e's value is text that may hold '-' (MSGTXT): its node's flag. */
static ALWAYS_INLINE int is_text(const dict_entry *e)
{
    return e->flags & DICT_TEXT;
}

static ALWAYS_INLINE uint8_t node_text_flag(const dict_entry *e)
{
    return is_text(e) ? ADEXP_FIELD_TEXT : 0;
}

/* Whether list e holds whole messages (msglist: IFPDLONG). */
static ALWAYS_INLINE int is_message_list(const dict_entry *e)
{
    return e->flags & DICT_MSG_LIST;
}

/* The row of the subfields compound (or list) ce allows, for row_allows:
 * what the runs keep for the compound they are reading. */
static ALWAYS_INLINE const uint64_t *subfield_row(const dict_entry *ce)
{
    return ce->row;
}

/* Whether the compound or list whose row is row allows known field e. */
static ALWAYS_INLINE int row_allows(const uint64_t *row, const dict_entry *e)
{
    return dict_row_allows(row, e);
}

/* Whether compound or list ce allows known field e: "subfield" in
 * compound, ELEMENT in element. */
static ALWAYS_INLINE int entry_allows(const dict_entry *ce, const dict_entry *e)
{
    return dict_allows_entry(ce, e);
}

/* Whether list frame l is a list the dictionary knows that holds known
 * field e directly (PT in RTEPTS, FAC in ADDR): an ELEMENT. */
static ALWAYS_INLINE int list_holds(const frame *l, const dict_entry *e)
{
    return l->entry && entry_allows(l->entry, e);
}

/* The token: list = "-BEGIN" NAME ... "-END" NAME. -BEGIN X and -END X
 * become FT_BEGIN and FT_END (parser.c); text before the first field is no
 * message (message = title ...). */
void list_bracket(ftok *f, ftok_kind kind);

/* Advance's one change to a token (see ftok, parse_state.h). */
static ALWAYS_INLINE void classify(ftok *f)
{
    if (f->kind == FT_FIELD) {
        /* BEGIN and END are syntax keywords: one test for most fields */
        if (f->entry && is_bracket(f->entry)) {
            if (is_entry(f->entry, DICT_ID_BEGIN))
                list_bracket(f, FT_BEGIN);
            else if (is_entry(f->entry, DICT_ID_END))
                list_bracket(f, FT_END);
        }
    } else if (f->kind == FT_TEXT) {   /* text before the first field */
        f->code = ADEXP_E_NO_TITLE;
    }
}

/* Pull the next field token: p->tok points into the lexer's batch. */
static ALWAYS_INLINE void advance(adexp_parser *p)
{
    ftok *f = p->tok = lexer_next_field(&p->lx);
    classify(f);
    /* a list name in an extended dictionary (list_bracket knows the
     * built-in one) */
    if (p->lx.dict && (f->kind == FT_BEGIN || f->kind == FT_END))
        f->entry = lexer_entry(&p->lx, f->keyword.ptr, f->keyword.len);
}

/* What a keyword does in the open frames. */
typedef enum grammar_step {
    GR_CHILD,      /* a field of the innermost open frame */
    GR_MISPLACED,  /* one too, flagged ADEXP_FIELD_MISPLACED */
    GR_TAKEN,      /* a subfield of the unknown field that is open */
    GR_NEW_ITEM,   /* ends the open list element: the list's next item */
    GR_CLOSE,      /* ends the innermost open frame: the one around decides */
} grammar_step;

/* Whether e is a known subfield that frame f has no place for: the
 *   unknown = "-" UNKNOWN value { stray } ;
 * stray, or else misplaced. */
static ALWAYS_INLINE int stray_subfield(const frame *f, const dict_entry *e)
{
    return e && is_subfield_level(e) && !(f->entry && entry_allows(f->entry, e));
}

/* Whether a compound standing in frame around is a list's
 *   element = "-" ELEMENT { subfield } { local } ;
 * the compound's own subfields aside, the list decides what ends it. A
 *   msglist = "-BEGIN" NAME message "-END" NAME ;
 * (IFPDLONG) holds a whole message, whose compounds end as at the top. */
static ALWAYS_INLINE int in_element(const frame *around)
{
    return around->kind == FR_LIST && !(around->entry && is_message_list(around->entry));
}

/* Whether e is the ELEMENT of list l in element ce (PT in RTEPTS, FAC in
 * ADDR): the dictionary says which (list_holds); in a list it does not
 * know, the keyword of the element itself. */
static ALWAYS_INLINE int list_item_keyword(const frame *l, const dict_entry *ce,
                                           const dict_entry *e)
{
    return l->entry ? entry_allows(l->entry, e) : e == ce;
}

/*   unknown = "-" UNKNOWN value { stray } ;            S31 4.3
 * Whether an unknown field standing in frame f takes field e (entry, NULL
 * if unknown) as its stray subfield. At the top, S31 4.3.2 skips an
 * unknown field up to the next known primary field that is not within a
 * list: here it takes the known subfields that follow it (a primary or
 * unknown keyword ends it). Inside a list element it takes only what
 * neither its element nor its list has a place for: the list's next
 * element and its -END are never an unknown field's. */
static ALWAYS_INLINE int grammar_unknown_takes(const frame *f, const dict_entry *e)
{
    if (!stray_subfield(f, e))
        return 0;
    return !(f->kind == FR_COMPOUND && in_element(f->up) && list_item_keyword(f->up, f->entry, e));
}

/*   compound = "-" KEYWORD { subfield } ;              S31 4.2
 *   element  = "-" ELEMENT { subfield } { local } ;    S31 4.3.7
 *   local    = field - ELEMENT - title ;
 * Field e (NULL if unknown; not -BEGIN or -END) in compound ce, which stands
 * in frame around (the runs' compounds have no frame of their own).
 * - A compound's own subfields are its children (it has no end marker, it
 *   ends at the first keyword it does not allow).
 * - In a list element, the list's ELEMENT ends the element and starts the
 *   list's next item (no compound nested in an element allows it:
 *   dict_test checks); -TITLE starts the next message.
 * - Any other keyword is the element's local: its known subfields, primary
 *   keywords ("inclusion within a list field is the only occasion when a
 *   primary field may be used as a subfield", S31 4.3.7, example 3: -RFL
 *   after a -PT's subfields) and unknown fields alike.
 * - A compound elsewhere ends at any keyword it does not allow. */
static ALWAYS_INLINE grammar_step grammar_in_compound(const dict_entry *ce, const frame *around,
                                                      const dict_entry *e)
{
    if (e && entry_allows(ce, e))
        return GR_CHILD;
    if (!in_element(around))
        return GR_CLOSE;
    if (e && list_item_keyword(around, ce, e))
        return GR_NEW_ITEM;
    return is_entry(e, DICT_ID_TITLE) ? GR_CLOSE : GR_CHILD;
}

/* The row of the subfields that the message or a list holds directly, for
 * frame.holds: a list its ELEMENTs (PT in RTEPTS; a list the dictionary does
 * not know, any: grammar_any_row); the message none (list NULL, row 0). */
static const uint64_t grammar_any_row[DICT_SUB_WORDS] = {~0ull, ~0ull, ~0ull, ~0ull};

static inline const uint64_t *frame_row(frame_kind kind, const dict_entry *list)
{
    if (list)
        return subfield_row(list);
    return kind == FR_LIST ? grammar_any_row : dict_sub_rows[0];
}

/* Whether frame f, the message or a list, has a place for known subfield
 * e (frame_row). */
static ALWAYS_INLINE int frame_holds(const frame *f, const dict_entry *e)
{
    return row_allows(f->holds, e);
}

/*   message   = title { field } ;                      S31 5.2.2
 *   list      = "-BEGIN" NAME { item } "-END" NAME ;
 *   item      = element | field ;                      S31 4.3.5
 *   misplaced = subfield ;
 * Field e (NULL if unknown; not -BEGIN or -END) in frame f, the message or a
 * list, with items fields in it so far.
 * - A -TITLE after the first starts the next message: it ends the message,
 *   and a list left open; a msglist (IFPDLONG) holds one whole message, its
 *   own -TITLE first (the descent marks it seen).
 * - A known subfield that f has no place for, where no compound is open
 *   (-GEOID with no -GEO), is misplaced: kept and flagged.
 * - Any other field is a child (in a list, any primary keyword is an item). */
static ALWAYS_INLINE grammar_step grammar_in_frame(const frame *f, uint32_t items,
                                                   const dict_entry *e)
{
    if (is_entry(e, DICT_ID_TITLE)) {
        if (f->kind == FR_ROOT)
            return items == 0 ? GR_CHILD : GR_CLOSE;
        if (f->entry && is_message_list(f->entry) && !f->seen_title)
            return GR_CHILD;
        return GR_CLOSE;
    }
    return e && is_subfield_level(e) && !frame_holds(f, e) ? GR_MISPLACED : GR_CHILD;
}

/* grammar_in_frame's GR_CHILD, for the runs: whether they may read field e
 * (known, its id id) in frame f, the message or a list, with items fields
 * so far, as a child with no more to decide (less a msglist's own -TITLE).
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

/*   basic = "-" KEYWORD value ;  KEYWORD primary, not TITLE
 * Whether known field e (its id id) is a basic primary field other than
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

/*   field = basic | compound | list | unknown | misplaced ;
 * Field e (NULL if unknown; not -BEGIN or -END) in any frame f. */
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

/*   subfield = basic | compound | list ;
 *   local    = field - ELEMENT - title ;
 * -BEGIN X (x: X's entry, NULL if unknown) in compound ce standing in frame
 * around: a list that ce has a place for is its child; in a list element,
 * as a field would be (grammar_in_compound), a list the list holds
 * directly starts its next item and any other is the element's local;
 * elsewhere it ends ce. */
static ALWAYS_INLINE grammar_step grammar_list_in_compound(const dict_entry *ce,
                                                           const frame *around,
                                                           const dict_entry *x)
{
    if (x && entry_allows(ce, x))
        return GR_CHILD;
    if (!in_element(around))
        return GR_CLOSE;
    return x && list_item_keyword(around, ce, x) ? GR_NEW_ITEM : GR_CHILD;
}

/*   field = ... | list | ... ;
 * -BEGIN X in any frame f: the message and a list hold any list; an
 * unknown field takes subfields only. */
static inline grammar_step grammar_list(const frame *f, const dict_entry *x)
{
    if (f->kind == FR_COMPOUND)
        return grammar_list_in_compound(f->entry, f->up, x);
    return f->kind == FR_UNKNOWN ? GR_CLOSE : GR_CHILD;
}

/*   list = "-BEGIN" NAME { item } "-END" NAME ;
 * Whether -END ends frame f: every frame but the message does, up to the
 * list it closes (which checks its name); in the message, no list is open
 * and it is reported as having no -BEGIN. */
static inline int grammar_end_closes(const frame *f)
{
    return f->kind != FR_ROOT;
}

#endif

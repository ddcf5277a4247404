/* The general descent: reads every shape, field by field, asking the grammar
 * (grammar.h) what each keyword does in the open frames. Where a run of
 * plain fields starts, the runs (run.c) read it first. */
#include "build.h"
#include "grammar.h"

/* The field at p->tok in frame f, its flags with flags added. */
static void add_field(adexp_parser *p, frame *f, unsigned flags)
{
    const dict_entry *e = p->tok->entry;
    adexp_kind kind = e && is_compound(e) ? ADEXP_COMPOUND : ADEXP_BASIC;
    flags |= !e ? ADEXP_FIELD_UNKNOWN : node_text_flag(e);
    adexp_field *n = new_node(p, f, kind, flags, p->tok->value);
    if (!n)
        return;
    if (p->tok->code != ADEXP_OK)
        record_error(p, p->tok->code, p->tok->value_offset);
    advance(p);
    if (n->kind == ADEXP_COMPOUND) {
        parse_children(p, f, n, FR_COMPOUND, e);
    } else if (!e && p->tok->kind == FT_FIELD && grammar_unknown_takes(f, p->tok->entry)) {
        n->kind = ADEXP_COMPOUND;
        parse_children(p, f, n, FR_UNKNOWN, NULL);
    }
}

/* Whether a list named name is open in f or around it. */
static int list_open(const frame *f, adexp_slice name)
{
    for (; f; f = f->up)
        if (f->kind == FR_LIST && same_name(name, f->node->keyword))
            return 1;
    return 0;
}

/* Step over an -END token, reporting text after its list name (-END RTEPTS
 * NNNN: BEGIN_NO_NAME, as for -BEGIN), which would vanish otherwise. */
static void take_end(adexp_parser *p)
{
    if (p->tok->code != ADEXP_OK)
        record_error(p, p->tok->code, p->tok->value_offset);
    advance(p);
}

/* After the items of list n in frame f: its -END, or an error. */
void close_list(adexp_parser *p, const frame *f, const adexp_field *n)
{
    if (p->fatal)
        return;
    if (p->tok->kind != FT_END)
        record_error(p, ADEXP_E_LIST_UNCLOSED, n->offset);
    else if (same_name(p->tok->keyword, n->keyword) || !list_open(f, p->tok->keyword))
        take_end(p);           /* ours, or a mismatch (reported) that closes it */
}

static void add_list(adexp_parser *p, frame *f)
{
    const dict_entry *e = p->tok->entry;
    adexp_slice none = {NULL, 0};
    adexp_field *n = new_node(p, f, ADEXP_LIST,
                              !e || !is_list(e) ? ADEXP_FIELD_UNKNOWN : 0, none);
    if (!n)
        return;
    if (p->tok->code != ADEXP_OK)
        record_error(p, p->tok->code, p->tok->value_offset);
    advance(p);
    parse_children(p, f, n, FR_LIST, e && is_list(e) ? e : NULL);
    close_list(p, f, n);
}

/* An -END token in frame f: returns 1 if it was consumed here, 0 if f ends.
 * -END X inside list Y closes Y with END_MISMATCH: when X is open further out,
 * that list closes too; otherwise -END X takes the place of -END Y. */
static int end_list(adexp_parser *p, const frame *f)
{
    adexp_slice name = p->tok->keyword;
    if (grammar_end_closes(f)) {
        if (f->kind != FR_LIST)
            return 0;
        if (!same_name(name, f->node->keyword))
            record_error(p, ADEXP_E_END_MISMATCH, p->tok->offset);
        return 0;
    }
    record_error(p, ADEXP_E_END_WITHOUT_BEGIN, p->tok->offset);
    take_end(p);
    return 1;
}

/* Read field token t in frame f if it belongs there: returns 0 if f ends
 * before it. */
static int field_here(adexp_parser *p, frame *f, const ftok *t)
{
    switch (grammar_field(f, t->entry)) {
    case GR_CHILD:
        if (f->kind == FR_LIST && is_entry(t->entry, DICT_ID_TITLE))
            f->seen_title = 1;     /* a message list's own -TITLE */
        add_field(p, f, 0);
        return 1;
    case GR_TAKEN:
        add_field(p, f, 0);
        return 1;
    case GR_MISPLACED:
        add_field(p, f, ADEXP_FIELD_MISPLACED);
        return 1;
    case GR_NEW_ITEM:
    case GR_CLOSE:
        break;
    }
    return 0;
}

void parse_body(adexp_parser *p, frame *f)
{
    while (!p->fatal) {
#if !defined(ADEXP_PARSER_NO_RUN)
        /* the runs know the built-in dictionary only */
        if (!p->opt.dictionary)
            run_fields(p, f);
#endif
        if (p->fatal)
            return;
        const ftok *t = p->tok;
        /* a -TITLE that closes this frame (the next message's) counts up to
         * where it starts: its value is that message's size, not this one's */
        int closing_title = t->kind == FT_FIELD && is_entry(t->entry, DICT_ID_TITLE) &&
                            grammar_field(f, t->entry) == GR_CLOSE;
        size_t reach = closing_title ? t->offset : tok_end(t);
        if (reach - p->msg->offset > p->opt.max_message_size) {
            fatal(p, ADEXP_E_SIZE_LIMIT, t->offset);
            return;
        }
        switch (t->kind) {
        case FT_EOF:
            return;
        case FT_ERROR:
        case FT_TEXT:
            record_error(p, t->code, t->offset);
            advance(p);
            break;
        case FT_FIELD:
            if (!field_here(p, f, t))
                return;
            break;
        case FT_BEGIN:
            if (grammar_list(f, t->entry) != GR_CHILD)
                return;
            add_list(p, f);
            break;
        case FT_END:
            if (!end_list(p, f))
                return;
            break;
        }
    }
}

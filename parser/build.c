/* Errors with their line and column, and the frames of a node's children. */
#include "build.h"
#include "grammar.h"

void error_at(adexp_parser *p, adexp_error *e, adexp_status code, size_t offset)
{
    e->code = code;
    e->message = adexp_status_message(code);
    e->offset = offset;
    lines_locate(&p->lc, p->buf, p->len, offset, &e->line, &e->column);
}

void record_error(adexp_parser *p, adexp_status code, size_t offset)
{
    adexp_msg *m = p->msg;
    if (m->nerrors < p->opt.max_errors)
        error_at(p, &p->errors[m->nerrors++], code, offset);
    m->nerrors_total++;
}

void record_stop(adexp_parser *p, adexp_status code, size_t offset)
{
    adexp_msg *m = p->msg;
    if (m->nerrors < p->opt.max_errors + STOP_SLOTS)
        error_at(p, &p->errors[m->nerrors++], code, offset);
    m->nerrors_total++;
}

void fatal(adexp_parser *p, adexp_status code, size_t offset)
{
    record_stop(p, code, offset);
    p->fatal = 1;
    p->stop_at = offset;
}

/* Parse the children of node into a new frame below f. */
void parse_children(adexp_parser *p, frame *f, adexp_field *node, frame_kind kind,
                    const dict_entry *entry)
{
    if (f->depth + 1 > p->opt.max_depth) {
        fatal(p, ADEXP_E_DEPTH_LIMIT, node->offset);
        return;
    }
    frame child = {
        .up = f, .kind = kind, .node = node, .tail = &node->child,
        .entry = entry, .depth = f->depth + 1,
        .max_items = kind == FR_LIST ? p->opt.max_list_items : UINT32_MAX,
        .holds = kind == FR_LIST ? frame_row(kind, entry) : NULL,
    };
    parse_body(p, &child);
    node->nchildren = child.items;
}


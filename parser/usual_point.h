/* What ADEXP_FIELD_USUAL_POINT claims of a route point, as the tests that
 * hold the parser to it check it (paths_test and fuzz_paths against the
 * general parser's tree, fuzz_parser on any input): the fused loop's
 * point_at sets it, adexp_validate trusts it (lib/validate/validate.c's
 * read_whole). */
#ifndef ADEXP_USUAL_POINT_H
#define ADEXP_USUAL_POINT_H

#include "adexp.h"
#include "dict_ids.h"

static inline int usual_point_sub(const adexp_field *n, unsigned id, const adexp_field *next)
{
    return n->kind == ADEXP_BASIC && n->flags == 0 && n->dict_id == id && !n->child &&
           n->nchildren == 0 && n->value.len >= 1 && n->next == next;
}

/* Whether f, flagged, is a -PT of no value whose first subfields are -PTID,
 * -FL and -ETO, basic, not empty, in the array f->child[0..2] (the last
 * of them if nchildren is 3), their values in that order in one text, the
 * -PTID's at least eight bytes before the -ETO's end. */
static inline int usual_point_holds(const adexp_field *f)
{
    const adexp_field *a = f->child;
    return f->kind == ADEXP_COMPOUND && f->dict_id == DICT_ID_PT && f->value.len == 0 &&
           f->nchildren >= 3 && a && usual_point_sub(a, DICT_ID_PTID, a + 1) &&
           usual_point_sub(a + 1, DICT_ID_FL, a + 2) &&
           usual_point_sub(a + 2, DICT_ID_ETO, f->nchildren == 3 ? NULL : a[2].next) &&
           (f->nchildren > 3) == (a[2].next != NULL) &&
           a[0].value.ptr + a[0].value.len < a[1].value.ptr &&
           a[1].value.ptr + a[1].value.len < a[2].value.ptr &&
           a[0].value.ptr + 8 <= a[2].value.ptr + a[2].value.len;
}

#endif

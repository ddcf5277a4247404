/* Validation internals shared by lib/validate*.c and their tests. */
#ifndef ADEXP_VALIDATE_INTERNAL_H
#define ADEXP_VALIDATE_INTERNAL_H

#include <stddef.h>
#include <string.h>

#include "validate_table.h"

/* One match's state. */
typedef struct vmatch {
    const char *end;
    unsigned steps, depth;
    int hooks;                 /* run the semantic checks */
    int gave_up;               /* the budget ran out: no answer */
    const char *why;           /* the first semantic check that failed */
} vmatch;

/* Whether s[0..len) matches node whole (1) or not (0; c->gave_up says
 * whether the budget ran out first). hooks: run the range checks. */
int vmatch_run(vmatch *c, unsigned node, const char *s, size_t len, int hooks);

/* NULL if the text a term with this semantic check matched is in range,
 * else why not. */
const char *vhook_check(unsigned hook, const char *s, size_t len);

/* The fast path: the value's DFA (ranges included), or the bounds of a
 * text. 1: valid. */
static inline int vrule_accepts(const vrule *r, const char *s, size_t n)
{
    if (r->text_max)
        return n >= r->text_min && n <= r->text_max && (n == 0 || !memchr(s, '-', n));
    /* no early exit: the dead state 0 stays dead, and a valid value is read
     * to its end anyway; four bytes a turn; st is a row's offset */
    const uint32_t *next = vdfa_next[0];
    size_t st = (size_t)r->dfa * VDFA_STRIDE, i = 0;
    for (; i + 4 <= n; i += 4) {
        st = next[st + vdfa_class[(unsigned char)s[i]]];
        st = next[st + vdfa_class[(unsigned char)s[i + 1]]];
        st = next[st + vdfa_class[(unsigned char)s[i + 2]]];
        st = next[st + vdfa_class[(unsigned char)s[i + 3]]];
    }
    for (; i < n; i++)
        st = next[st + vdfa_class[(unsigned char)s[i]]];
    return vdfa_accept[st / VDFA_STRIDE];
}

#endif

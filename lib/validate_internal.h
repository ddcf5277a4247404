/* Validation internals shared by lib/validate*.c and their tests. */
#ifndef ADEXP_VALIDATE_INTERNAL_H
#define ADEXP_VALIDATE_INTERNAL_H

#include <stddef.h>

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

#endif

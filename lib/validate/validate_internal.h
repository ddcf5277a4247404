/* Validation internals shared by lib/validate*.c and their tests. */
#ifndef ADEXP_VALIDATE_INTERNAL_H
#define ADEXP_VALIDATE_INTERNAL_H

#include <stddef.h>
#include <string.h>

#include "dict.h"
#include "validate_fast.h"
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

/* What a value its rule's DFA refuses (vexplain assumes it has) is: ADEXP_V_BAD_VALUE,
 * ADEXP_V_OUT_OF_RANGE (*why: the range), ADEXP_V_NOT_CHECKED (the budget
 * ran out), or -1 (valid after all). vexplain_ref runs the matcher with the
 * range checks, then, if one failed, without them; vexplain gives the same
 * answer and reads a short value's syntax by its DFA without the ranges
 * (vrule.dfa_syntax) first, so that a bad value costs no matcher run and
 * one out of range one, for its reason. */
#define VEXPLAIN_DFA_MAX 64
int vexplain_ref(vmatch *c, const vrule *r, const char *s, size_t len, const char **why);
int vexplain(vmatch *c, const vrule *r, const char *s, size_t len, const char **why);
/* vexplain for a rule of kind VK_DT12, without a DFA run. */
int vexplain_dt12(vmatch *c, const vrule *r, const char *s, size_t len, const char **why);

/* NULL if the text a term with this semantic check matched is in range,
 * else why not. */
const char *vhook_check(unsigned hook, const char *s, size_t len);

/* A value's DFA (ranges included) from its start state. 1: accepted. */
static inline int vdfa_accepts(unsigned start, const char *s, size_t n)
{
    /* no early exit: the dead state 0 stays dead, and a valid value is read
     * to its end anyway; four bytes a turn; st is a row's offset */
    const uint32_t *next = vdfa_next[0];
    size_t st = (size_t)start * VDFA_STRIDE, i = 0;
    for (; i + 4 <= n; i += 4) {
        st = next[st + vdfa_class[(unsigned char)s[i]]];
        st = next[st + vdfa_class[(unsigned char)s[i + 1]]];
        st = next[st + vdfa_class[(unsigned char)s[i + 2]]];
        st = next[st + vdfa_class[(unsigned char)s[i + 3]]];
    }
    /* the last one to three bytes without a loop: most values are short */
    if (n & 2) {
        st = next[st + vdfa_class[(unsigned char)s[i]]];
        st = next[st + vdfa_class[(unsigned char)s[i + 1]]];
        i += 2;
    }
    if (n & 1)
        st = next[st + vdfa_class[(unsigned char)s[i]]];
    return vdfa_accept[st / VDFA_STRIDE];
}

/* Whether the DFA from its start accepts the one byte c. */
static inline int vdfa_step_accepts(unsigned start, unsigned char c)
{
    const uint32_t *next = vdfa_next[0];   /* the rows as one array, as vdfa_accepts */
    return vdfa_accept[next[start * VDFA_STRIDE + vdfa_class[c]] / VDFA_STRIDE];
}

/* The reference fast path, which the specialised matchers must equal: the
 * value's DFA, or the bounds of a text. 1: valid (or not checked). */
static inline int vrule_ref_accepts(const vrule *r, const char *s, size_t n)
{
    if (!r->value)
        return 1;
    if (r->text_max)
        return n >= r->text_min && n <= r->text_max && vf_lim_chars(s, n);
    return vdfa_accepts(r->dfa, s, n);
}

/* VK_ATSRT's and VK_DCT's fast paths (vf_words, else the DFA), out of line:
 * inlined, their code would cost the walk's loop registers on every field. */
int vwalk_atsrt(uint32_t wb, const char *s, size_t n);
int vwalk_dct(uint32_t wb, const char *s, size_t n);
/* VK_CHARS's (vf_chars), out of line as they are: long values, few fields. */
int vwalk_chars(uint32_t wb, const char *s, size_t n);

/* The fast path of dictionary entry id's value, wb its vwalk word: the
 * specialised matcher of its kind (validate_fast.h), else its DFA. 1:
 * valid (or not checked). */
_Static_assert(VK_BYTE == 25 && VR_KIND_MASK == 31, "vwalk_accepts has a case for every kind");

static inline __attribute__((always_inline)) int vwalk_accepts(uint32_t wb, unsigned id,
                                                              const char *s, size_t n)
{
    unsigned kind = (wb >> VR_KIND_SHIFT) & VR_KIND_MASK;
    switch (kind) {
    case VK_NONE:
        return 1;
    case VK_DFA:
        return vdfa_accepts(wb >> VR_PARAM_SHIFT, s, n);
    case VK_TEXT:
        return vf_text(wb, s, n);
    case VK_HHMM:
        return vf_hhmm(s, n);
    case VK_DDHHMM:
        return vf_ddhhmm(s, n);
    case VK_DATE:
        return vf_date(s, n);
    case VK_DT10:
        return vf_dt10(s, n);
    case VK_DT12:
        return vf_dt12(s, n);
    case VK_FLEVEL:
        return vf_flevel(s, n);
    case VK_ALPHA:
        return vf_run(wb, s, n, vf_not_alpha);
    case VK_DIGIT:
        return vf_run(wb, s, n, vf_not_digit);
    case VK_ALNUM:
        return vf_run(wb, s, n, vf_not_alnum);
    case VK_FIRTIME:
        return vf_fir_time(s, n) || vdfa_accepts(wb >> VR_PARAM_SHIFT, s, n);
    case VK_LEVEL_PT:
        return vf_flevel(s, n) || vdfa_accepts(wb >> VR_PARAM_SHIFT, s, n);
    case VK_SPEED_PT:
        return vf_speed(s, n) || vdfa_accepts(wb >> VR_PARAM_SHIFT, s, n);
    case VK_ACTYPE:
        return vf_actype(s, n) || vdfa_accepts(wb >> VR_PARAM_SHIFT, s, n);
    case VK_IFPLID:
        return vf_ifplid(s, n) || vdfa_accepts(wb >> VR_PARAM_SHIFT, s, n);
    case VK_GEONAME:
        return vf_geoname(s, n) || vdfa_accepts(wb >> VR_PARAM_SHIFT, s, n);
    case VK_SSR:
        return vf_ssr(s, n) || vdfa_accepts(wb >> VR_PARAM_SHIFT, s, n);
    case VK_LAT:
        return vf_lat(s, n);
    case VK_LONG:
        return vf_long(s, n);
    case VK_ATSRT:
        return vwalk_atsrt(wb, s, n);
    case VK_DCT:
        return vwalk_dct(wb, s, n);
    case VK_CHARS:
        return vwalk_chars(wb, s, n);
    case VK_ELAPSED:
        return vf_elapsed(s, n);
    case VK_BYTE:                      /* the DFA's one step */
        return n == 1 && vdfa_step_accepts(wb >> VR_PARAM_SHIFT, (unsigned char)s[0]);
    /* no such kind is generated: the cases cover every value of the mask,
     * so that the switch's table needs no bounds test */
    case 26: case 27: case 28: case 29: case 30: case 31:
        return vrule_ref_accepts(&vrules[id], s, n);
    }
    return 1;
}

static inline int vrule_accepts(unsigned id, const char *s, size_t n)
{
    return vwalk_accepts(vwalk[id], id, s, n);
}


/* ------------------------------------------------ a compound's subfields */

/* The subfields present, as bits of the dictionary's subfield rows. */
typedef struct present {
    uint64_t w[DICT_SUB_WORDS];
} present;

static inline int has(const present *p, unsigned id)
{
    unsigned b = dict_table[id].sub_bit;
    return (int)((p->w[b >> 6] >> (b & 63)) & 1);
}

/* The first part of formula node id that the subfields p do not satisfy,
 * or 0 when they all are (the general test, and what a finding names). */
unsigned vfirst_missing(const present *p, unsigned id);

/* All the subfields of q (a row of vreq) are in p. */
static inline int has_all(const present *p, const uint64_t *q)
{
    return !(((p->w[0] & q[0]) ^ q[0]) | ((p->w[1] & q[1]) ^ q[1]) |
             ((p->w[2] & q[2]) ^ q[2]) | ((p->w[3] & q[3]) ^ q[3]));
}

/* One of the subfields of q is in p. */
static inline int has_some(const present *p, const uint64_t *q)
{
    return ((p->w[0] & q[0]) | (p->w[1] & q[1]) | (p->w[2] & q[2]) | (p->w[3] & q[3])) != 0;
}

/* All the subfields r's presence needs are in p (0: maybe not; its formula,
 * vfirst_missing, says): a formula that is all of some subfields by its
 * row (one word when they are in one), another by the subfields that are
 * enough for it, if it has them. validate_test.c's presence_fast_path
 * checks that 1 here is never a formula's 0. */
static inline int has_required(const present *p, const vrule *r)
{
    if (!r->req)
        return r->suff_any && has_some(p, vreq[r->suff_any]) &&
               (!r->suff_all || has_all(p, vreq[r->suff_all]));
    const uint64_t *q = vreq[r->req];
    unsigned k = r->req_word;
    if (k < VREQ_WORDS)
        return (p->w[k] & q[k]) == q[k];
    return has_all(p, q);
}

#endif


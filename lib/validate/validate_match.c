/* Validation's matcher: a value against a syntax expression compiled by
 * lib/validate/gen_validate.py into the node table of validate_table.c, matched
 * whole as the specification reads it (backtracking, within a budget of
 * steps and nesting), and the ranges the syntax cannot express. */
#include <stdio.h>
#include <string.h>

#include "adexp.h"
#include "dict.h"
#include "validate_internal.h"
#include "validate_table.h"

/* ---------------------------------------------------------------- matcher */

/* What is left to match once a node has matched: a node's next part (CAT,
 * SEQ: kid i; REP: iteration i begun at start), an empty match from start,
 * or a semantic check of the text from start. */
enum { K_NEXT, K_EMPTY, K_HOOK };

typedef struct kont {
    const struct kont *up;
    const vnode *n;
    const char *start;
    uint16_t i;
    uint8_t kind;
} kont;

static int in_set(unsigned set, unsigned char ch)
{
    return (int)((vsets[set][ch >> 6] >> (ch & 63)) & 1);
}

static int is_sep(char ch)
{
    return ch == ' ' || ch == '\r' || ch == '\n' || ch == '\t';
}

static int match(vmatch *c, unsigned id, const char *p, const kont *k);

static int resume(vmatch *c, const char *p, const kont *k)
{
    if (!k)
        return p == c->end;
    if (k->kind == K_EMPTY)
        return p == k->start && resume(c, p, k->up);
    if (k->kind == K_HOOK) {
        if (c->hooks) {
            const char *why = vhook_check(k->n->hook, k->start, (size_t)(p - k->start));
            if (why) {
                if (!c->why)
                    c->why = why;
                return 0;
            }
        }
        return resume(c, p, k->up);
    }
    const vnode *n = k->n;
    kont nk = *k;
    nk.i++;
    switch (n->op) {
    case VN_CAT:
        if (k->i == n->b)
            return resume(c, p, k->up);
        return match(c, vkids[n->a + k->i], p, &nk);
    case VN_SEQ: {
        if (k->i == n->b)
            return resume(c, p, k->up);
        unsigned kid = vkids[n->a + k->i];
        if (p == k->start)                 /* nothing yet: no separator */
            return match(c, kid, p, &nk);
        const char *q = p;
        while (q < c->end && is_sep(*q))
            q++;
        if (q > p && match(c, kid, q, &nk))
            return 1;
        kont e = {&nk, NULL, p, 0, K_EMPTY};   /* or the part is absent */
        return match(c, kid, p, &e);
    }
    case VN_REP:
        /* Another iteration while under the maximum (and not an empty one
         * once the minimum is reached), then what follows. */
        nk.start = p;
        if (k->i < n->c && (k->i < n->b || k->i == 0 || p != k->start) &&
            match(c, n->a, p, &nk))
            return 1;
        return k->i >= n->b && resume(c, p, k->up);
    default:
        return 0;
    }
}

/* A repetition of one byte's set: the longest run first, then shorter. */
static int match_run(vmatch *c, const vnode *n, const char *p, const kont *k)
{
    unsigned set = vnodes[n->a].a;
    size_t avail = (size_t)(c->end - p), max = n->c == 0xFFFF ? avail : n->c;
    size_t run = 0;
    if (max > avail)
        max = avail;
    while (run < max && in_set(set, (unsigned char)p[run]))
        run++;
    for (size_t j = run + 1; j-- > n->b;) {
        if (resume(c, p + j, k))
            return 1;
        if (c->gave_up)
            return 0;
    }
    return 0;
}

static int match_node(vmatch *c, const vnode *n, const char *p, const kont *k)
{
    switch (n->op) {
    case VN_SET:
        return p < c->end && in_set(n->a, (unsigned char)*p) && resume(c, p + 1, k);
    case VN_LIT:
        return (size_t)(c->end - p) >= n->b && memcmp(p, vstrings[n->a], n->b) == 0 &&
               resume(c, p + n->b, k);
    case VN_EMPTY:
        return resume(c, p, k);
    case VN_CAT:
    case VN_SEQ: {
        kont nk = {k, n, p, 0, K_NEXT};
        return resume(c, p, &nk);
    }
    case VN_ALT:
        for (unsigned i = 0; i < n->b; i++) {
            if (match(c, vkids[n->a + i], p, k))
                return 1;
            if (c->gave_up)
                return 0;
        }
        return 0;
    case VN_REP: {
        if (vnodes[n->a].op == VN_SET)
            return match_run(c, n, p, k);
        kont nk = {k, n, p, 0, K_NEXT};
        return resume(c, p, &nk);
    }
    case VN_HOOK: {
        kont nk = {k, n, p, 0, K_HOOK};
        return match(c, n->a, p, &nk);
    }
    default:
        return 0;
    }
}

static int match(vmatch *c, unsigned id, const char *p, const kont *k)
{
    if (++c->steps > ADEXP_VALIDATE_MAX_STEPS || c->depth >= ADEXP_VALIDATE_MAX_NESTING) {
        c->gave_up = 1;
        return 0;
    }
    c->depth++;
    int ok = match_node(c, &vnodes[id], p, k);
    c->depth--;
    return ok && !c->gave_up;
}

int vmatch_run(vmatch *c, unsigned node, const char *s, size_t len, int hooks)
{
    c->end = s + len;
    c->steps = 0;
    c->depth = 0;
    c->hooks = hooks;
    c->why = NULL;
    c->gave_up = 0;
    return match(c, node, s, NULL);
}

/* ------------------------------------------------------------ explaining */

int vexplain_ref(vmatch *c, const vrule *r, const char *s, size_t len, const char **why)
{
    *why = NULL;
    if (vmatch_run(c, r->value, s, len, 1))
        return -1;
    if (c->gave_up)
        return ADEXP_V_NOT_CHECKED;
    *why = c->why;
    if (*why && vmatch_run(c, r->value, s, len, 0))
        return ADEXP_V_OUT_OF_RANGE;
    *why = NULL;
    return ADEXP_V_BAD_VALUE;
}

/* vhook_check's body (ranges, below). */
static inline const char *hook_check(unsigned hook, const char *s, size_t len);

/* Called once r's DFA (or a fast path equal to it) has refused the value.
 * The DFAs equal the matcher on the values the parser gives (none starts
 * with a separator) while the matcher is within its budget, which no value
 * of VEXPLAIN_DFA_MAX bytes exhausts (validate_test.c's
 * explain_agrees_with_matcher). */
int vexplain(vmatch *c, const vrule *r, const char *s, size_t len, const char **why)
{
    if (!r->dfa || len > VEXPLAIN_DFA_MAX || (len && is_sep(s[0])))
        return vexplain_ref(c, r, s, len, why);
    *why = NULL;
    /* a rule without ranges has one DFA, which has refused the value */
    if (r->dfa_syntax == r->dfa || !vdfa_accepts(r->dfa_syntax, s, len))
        return ADEXP_V_BAD_VALUE;
    /* the syntax holds, a range does not: which one, from the value's
     * layout if it has one (the matcher would check the same places in
     * the same order along its one way through), else the matcher */
    if (r->hooks_at) {
        for (const vhook_at *h = &vhooks_at[r->hooks_at]; h->hook; h++)
            if ((*why = hook_check(h->hook, s + h->at, h->len)))
                return ADEXP_V_OUT_OF_RANGE;
        return -1;
    }
    if (vmatch_run(c, r->value, s, len, 1))
        return -1;
    if (c->gave_up)
        return ADEXP_V_NOT_CHECKED;
    *why = c->why;
    return *why ? ADEXP_V_OUT_OF_RANGE : ADEXP_V_BAD_VALUE;
}

/* vexplain for a rule of kind VK_DT12 (YYMMDDHHMMSS): the same answer, its
 * syntax by vf_dt12's test (vf_dt12_syntax) rather than by its DFA, and its
 * layout's range checks (every VK_DT12 rule's: month, day, date, hours;
 * validate_test.c checks both) in their order. */
int vexplain_dt12(vmatch *c, const vrule *r, const char *s, size_t len, const char **why)
{
    if (!r->dfa || len > VEXPLAIN_DFA_MAX || (len && is_sep(s[0])))
        return vexplain_ref(c, r, s, len, why);
    *why = NULL;
    if (!vf_dt12_syntax(s, len))
        return ADEXP_V_BAD_VALUE;
    if ((*why = hook_check(HOOK_MONTH, s + 2, 2)) || (*why = hook_check(HOOK_DAY, s + 4, 2)) ||
        (*why = hook_check(HOOK_DATE, s, 6)) || (*why = hook_check(HOOK_HHMM, s + 6, 4)))
        return ADEXP_V_OUT_OF_RANGE;
    return -1;
}

/* ---------------------------------------------------------------- ranges */

static int num(const char *s, size_t n)
{
    int v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

/* Two digits' value, or -1 (the hooks' usual case: no loop). */
static inline int num2(const char *s)
{
    unsigned a = (unsigned char)s[0] - '0', b = (unsigned char)s[1] - '0';
    return a > 9 || b > 9 ? -1 : (int)(a * 10 + b);
}

static int days_in(int year, int month)
{
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : days[month - 1];
}

/* yymmdd from s (year as adexp_decode_date reads it: 00-69 are 20xx). */
static const char *date_check(int year, const char *md)
{
    int m = num2(md), d = num2(md + 2);
    if (m < 1 || m > 12)
        return "month not in 01-12";
    if (d < 1 || d > days_in(year, m))
        return "no such day in its month";
    return NULL;
}

/* Degrees, minutes, seconds of dn degree digits, then mn and sn digits of
 * minutes and seconds (0 or 2 each), at most max degrees. */
static inline __attribute__((always_inline)) const char *angle_check(
    const char *s, size_t len, size_t dn, size_t mn, size_t sn, int max, const char *over)
{
    if (len != dn + mn + sn)
        return NULL;
    int d = dn == 2 ? num2(s) : num(s, dn), m = mn == 2 ? num2(s + dn) : mn ? num(s + dn, mn) : 0,
        sec = sn == 2 ? num2(s + dn + mn) : sn ? num(s + dn + mn, sn) : 0;
    if (d < 0 || m < 0 || sec < 0)
        return NULL;
    if (m > 59 || sec > 59)
        return "minutes or seconds over 59";
    if (d > max || (d == max && (m || sec)))
        return over;
    return NULL;
}

/* vhook_check's body, inlined where a layout's checks run one after the
 * other (vexplain, vexplain_dt12). */
static inline __attribute__((always_inline)) const char *hook_check(unsigned hook,
                                                                   const char *s, size_t len)
{
    int v;
    switch (hook) {
    case HOOK_HHMM:
        v = len == 4 ? num2(s) : -1;
        return v > 23 ? "hours over 23" : NULL;
    case HOOK_MONTH:
        v = len == 2 ? num2(s) : 1;
        return v == 0 || v > 12 ? "month not in 01-12" : NULL;
    case HOOK_DAY:
        v = len == 2 ? num2(s) : 1;
        return v == 0 || v > 31 ? "day not in 01-31" : NULL;
    case HOOK_DATE:
        if (len != 6 || (v = num2(s)) < 0 || num2(s + 2) < 0 || num2(s + 4) < 0)
            return NULL;
        return date_check(v < 70 ? 2000 + v : 1900 + v, s + 2);
    case HOOK_FULLDATE:
        if (len != 8 || (v = num(s, 4)) < 0 || num(s + 4, 4) < 0)
            return NULL;
        return date_check(v, s + 4);
    case HOOK_LAT_DMS:
        return angle_check(s, len, 2, 2, 2, 90, "latitude over 90 degrees");
    case HOOK_LONG_DMS:
        return angle_check(s, len, 3, 2, 2, 180, "longitude over 180 degrees");
    case HOOK_LAT_DM:
        return angle_check(s, len, 2, 2, 0, 90, "latitude over 90 degrees");
    case HOOK_LONG_DM:
        return angle_check(s, len, 3, 2, 0, 180, "longitude over 180 degrees");
    case HOOK_LAT_D:
        return angle_check(s, len, 2, 0, 0, 90, "latitude over 90 degrees");
    case HOOK_LONG_D:
        return angle_check(s, len, 3, 0, 0, 180, "longitude over 180 degrees");
    case HOOK_DEGREES:
        return angle_check(s, len, 3, 0, 0, 360, "over 360 degrees");
    default:
        return NULL;
    }
}

const char *vhook_check(unsigned hook, const char *s, size_t len)
{
    return hook_check(hook, s, len);
}

int vwalk_atsrt(uint32_t wb, const char *s, size_t n)
{
    return vf_words(s, n, 3, 7) || vdfa_accepts(wb >> VR_PARAM_SHIFT, s, n);
}

int vwalk_dct(uint32_t wb, const char *s, size_t n)
{
    return vf_words(s, n, 2, 5) || vdfa_accepts(wb >> VR_PARAM_SHIFT, s, n);
}

int vwalk_chars(uint32_t wb, const char *s, size_t n)
{
    return vf_chars(wb, s, n);
}

#if SIMD_AVX2
/* vf_lim_chars for 32 bytes that are not all usual ones: by the table. */
static __attribute__((noinline)) int lim_chars32(const char *p)
{
    return vf_lim_chars(p, 32);
}

/* vf_lim_chars's steps on 32 bytes, the last one's overlapping the one
 * before: each byte moved so that A-Z (and '/' 0-9) are the lowest signed
 * bytes, one signed compare each, as VF_IN; 32 bytes with any other than
 * the usual ones are the table's to say. */
__attribute__((target(AVX2_TARGET))) static int lim_chars_avx2(const char *s, size_t n)
{
    const __m256i to_a = _mm256_set1_epi8((char)(-128 - 'A')), az = _mm256_set1_epi8(-128 + 26);
    const __m256i to_d = _mm256_set1_epi8((char)(-128 - '/')), dz = _mm256_set1_epi8(-128 + 11);
    const __m256i sp = _mm256_set1_epi8(' ');
    for (size_t i = 0;; i += 32) {
        const char *p = i + 32 < n ? s + i : s + n - 32;
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
        __m256i ok = _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpgt_epi8(az, _mm256_add_epi8(x, to_a)),
                            _mm256_cmpgt_epi8(dz, _mm256_add_epi8(x, to_d))),
            _mm256_cmpeq_epi8(x, sp));
        if ((unsigned)_mm256_movemask_epi8(ok) != 0xFFFFFFFFu && !lim_chars32(p))
            return 0;
        if (p == s + n - 32)
            return 1;
    }
}
#endif

int vwalk_long_text(const char *s, size_t n)
{
#if SIMD_AVX2
    if (cpu_has_avx2())
        return lim_chars_avx2(s, n);
#endif
    return vf_lim_chars(s, n);
}

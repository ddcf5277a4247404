/* Validation: the matcher on every auxiliary term (values generated from
 * the term's own nodes, each then broken at every byte), hand-picked edge
 * cases of the terms and fields people use most, the ranges, the structure
 * checks, the paths and positions of findings, and running out of memory. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adexp.h"
#include "dict.h"
#include "dict_ids.h"
#include "validate_internal.h"
#include "validate_table.h"

/* The walk again, with its usual shapes off (VALIDATE_USUAL 0): the general
 * path that usual_shapes_agree compares the library's walk with. */
#define VALIDATE_USUAL 0
#define adexp_validate general_validate
#define adexp_finding_name general_finding_name
#define adexp_findings_init general_findings_init
#define vfirst_missing general_first_missing
unsigned general_first_missing(const present *p, unsigned id);
#include "validate.c"
#undef adexp_validate
#undef adexp_finding_name
#undef adexp_findings_init
#undef vfirst_missing

/* ---------------------------------------------------------------- helpers */

static const vterm *term(const char *name)
{
    for (unsigned i = 0; i < vterm_count; i++)
        if (strcmp(vterms[i].name, name) == 0)
            return &vterms[i];
    fail_msg("no term %s", name);
    return NULL;
}

static int term_ok(const char *name, const char *s)
{
    vmatch m;
    return vmatch_run(&m, term(name)->node, s, strlen(s), 1);
}

/* 1 valid, 0 bad syntax, 2 syntax ok but out of range */
static int classify(unsigned node, const char *s, size_t n)
{
    vmatch m;
    if (vmatch_run(&m, node, s, n, 1))
        return 1;
    return vmatch_run(&m, node, s, n, 0) ? 2 : 0;
}

/* A member of node's language, chosen by seed: each choice (a byte of a
 * set, an alternative, a count) is drawn from it. */
typedef struct gen {
    char buf[512];
    size_t n;
    uint64_t seed;
    int overflow;
} gen;

static unsigned draw(gen *g, unsigned n)
{
    g->seed = g->seed * 6364136223846793005u + 1442695040888963407u;
    return n ? (unsigned)((g->seed >> 33) % n) : 0;
}

static void put(gen *g, const char *s, size_t n)
{
    if (g->n + n >= sizeof g->buf) {
        g->overflow = 1;
        return;
    }
    memcpy(g->buf + g->n, s, n);
    g->n += n;
}

static void generate(gen *g, unsigned id, int depth)
{
    const vnode *n = &vnodes[id];
    if (depth > 40)
        return;
    switch (n->op) {
    case VN_SET: {
        /* printable bytes only, upper case first */
        char pick[256];
        unsigned k = 0;
        for (unsigned ch = 0x20; ch < 0x7F; ch++)
            if ((vsets[n->a][ch >> 6] >> (ch & 63)) & 1)
                pick[k++] = (char)ch;
        if (k)
            put(g, &pick[draw(g, k)], 1);
        break;
    }
    case VN_LIT:
        put(g, vstrings[n->a], n->b);
        break;
    case VN_CAT:
    case VN_SEQ:
        for (unsigned i = 0; i < n->b; i++) {
            size_t before = g->n;
            if (n->op == VN_SEQ && g->n && i)
                put(g, " ", 1);
            size_t at = g->n;
            generate(g, vkids[n->a + i], depth + 1);
            if (g->n == at)
                g->n = before;     /* an absent part takes no separator */
        }
        break;
    case VN_ALT:
        generate(g, vkids[n->a + draw(g, n->b)], depth + 1);
        break;
    case VN_REP: {
        unsigned hi = n->c == 0xFFFF ? n->b + 3u : n->c;
        unsigned count = n->b + draw(g, hi - n->b + 1u);
        for (unsigned i = 0; i < count && !g->overflow; i++)
            generate(g, n->a, depth + 1);
        break;
    }
    case VN_HOOK:
        generate(g, n->a, depth + 1);
        break;
    default:
        break;
    }
}

/* ---------------------------------------------------------------- every term */

/* Every auxiliary term: a generated value that passes (with its ranges)
 * is found within a few draws; each byte of it replaced by '-' (no term
 * but CHARACTER text takes it), and '-' appended, make it fail. */
static void every_term_valid_and_invalid(void **state)
{
    (void)state;
    unsigned with_valid = 0, free_text = 0;
    for (unsigned t = 0; t < vterm_count; t++) {
        unsigned node = vterms[t].node;
        gen g;
        int found = 0;
        for (uint64_t seed = 1; seed <= 400 && !found; seed++) {
            memset(&g, 0, sizeof g);
            g.seed = seed * 7919;
            generate(&g, node, 0);
            if (!g.overflow && classify(node, g.buf, g.n) == 1)
                found = 1;
        }
        if (!found)
            fail_msg("term %s: no valid value generated", vterms[t].name);
        with_valid++;
        char bad[520];
        memcpy(bad, g.buf, g.n);
        bad[g.n] = '-';
        if (classify(node, bad, g.n + 1) == 1) {
            free_text++;           /* CHARACTER text: anything goes */
            continue;
        }
        for (size_t i = 0; i < g.n; i++) {
            memcpy(bad, g.buf, g.n);
            bad[i] = '-';
            if (classify(node, bad, g.n) != 0)
                fail_msg("term %s: '%.*s' accepted", vterms[t].name, (int)g.n, bad);
        }
    }
    assert_int_equal(with_valid, vterm_count);
    assert_true(free_text <= 3);   /* adexpmsg, icaomsg */
    assert_true(vterm_count >= 100);
}

/* ---------------------------------------------------------------- DFA vs matcher */

static void agree(const char *kw, unsigned id, const char *s, size_t n)
{
    const vrule *r = &vrules[id];
    vmatch m;
    /* the parser never starts a value with a separator (fuzz_validate
     * checks it); there a nullable first part lets the DFA skip it */
    if (n && (s[0] == ' ' || s[0] == '\t' || s[0] == '\r' || s[0] == '\n'))
        return;
    int slow = vmatch_run(&m, r->value, s, n, 1);
    if (m.gave_up)
        return;
    if (vrule_ref_accepts(r, s, n) != slow)
        fail_msg("%s '%.*s': DFA says %d, matcher %d", kw, (int)n, s, !slow, slow);
    if (vrule_accepts(id, s, n) != slow)
        fail_msg("%s '%.*s': fast path says %d, matcher %d", kw, (int)n, s, !slow, slow);
}

static const char mutations[] = "0123456789ANSEWFZ /-";

typedef void value_check(const char *kw, unsigned id, const char *s, size_t n);

/* check on 40 values generated from rule id's syntax, and on each of them
 * changed at one of its first 16 bytes. */
static void each_generated(unsigned id, value_check *check)
{
    const char *kw = dict_table[id].keyword;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        gen g;
        memset(&g, 0, sizeof g);
        g.seed = seed * 104729;
        generate(&g, vrules[id].value, 0);
        if (g.overflow)
            continue;
        check(kw, id, g.buf, g.n);
        for (size_t i = 0; i < g.n && i < 16; i++) {
            char save = g.buf[i];
            g.buf[i] = mutations[(seed + i) % (sizeof mutations - 1)];
            check(kw, id, g.buf, g.n);
            g.buf[i] = save;
        }
    }
}

/* The two implementations of every value rule, the DFA (ranges compiled
 * in by gen_validate_dfa.py) and the matcher with the C range checks, agree
 * on generated values and each of them changed at one byte; on every hhmm
 * of EOBT, every yymmdd of EOBD whose month and day start as the syntax
 * allows, and a sample of LATTD and LONGTD. */
static void dfa_agrees_with_matcher(void **state)
{
    (void)state;
    for (unsigned id = 0; id < dict_count; id++)
        if (vrules[id].value)
            each_generated(id, agree);
    char buf[16];
    for (int v = 0; v < 10000; v++) {             /* EOBT: every hhmm */
        snprintf(buf, sizeof buf, "%04d", v);
        agree("EOBT", DICT_ID_EOBT, buf, 4);
    }
    for (int y = 0; y < 100; y++)                 /* EOBD: yymmdd, mm < 20, dd < 40 */
        for (int md = 0; md < 2000; md++) {
            if (md % 100 >= 40)
                continue;
            snprintf(buf, sizeof buf, "%02d%04d", y, md);
            agree("EOBD", DICT_ID_EOBD, buf, 6);
        }
    for (int v = 0; v < 1000000; v += 13) {       /* LATTD: ddmmss N */
        snprintf(buf, sizeof buf, "%06dN", v);
        agree("LATTD", DICT_ID_LATTD, buf, 7);
    }
    for (int v = 0; v < 10000000; v += 101) {     /* LONGTD: dddmmss E */
        snprintf(buf, sizeof buf, "%07dE", v);
        agree("LONGTD", DICT_ID_LONGTD, buf, 8);
    }
}

/* vexplain (the DFAs, then the matcher for a range's reason) and
 * vexplain_ref (the matcher, with the ranges and without) give the same
 * answer on every rule's generated values, each changed at one byte, random
 * texts up to VEXPLAIN_DFA_MAX bytes and the sweeps above; and no value of
 * at most VEXPLAIN_DFA_MAX bytes comes near the matcher's budget, so that
 * vexplain never meets a NOT_CHECKED the DFAs cannot see. */
static unsigned explain_max_steps;
static size_t explain_dt12_checked;
static void explain_same(const char *kw, unsigned id, const char *s, size_t n)
{
    const vrule *r = &vrules[id];
    if (!r->value || (n && (s[0] == ' ' || s[0] == '\t' || s[0] == '\r' || s[0] == '\n')))
        return;
    vmatch m;
    const char *why_ref, *why;
    int ref = vexplain_ref(&m, r, s, n, &why_ref);
    if (n <= VEXPLAIN_DFA_MAX) {
        vmatch_run(&m, r->value, s, n, 0);
        if (m.steps > explain_max_steps)
            explain_max_steps = m.steps;
    }
    if (vrule_ref_accepts(r, s, n)) {        /* valid: nothing to explain */
        if (ref != -1)
            fail_msg("%s '%.*s': the DFA accepts, the matcher says %d", kw, (int)n, s, ref);
        return;
    }
    int got = vexplain(&m, r, s, n, &why);
    if (got != ref || why != why_ref)
        fail_msg("%s '%.*s': vexplain %d (%s), the matcher %d (%s)", kw, (int)n, s, got,
                 why ? why : "-", ref, why_ref ? why_ref : "-");
    if ((vwalk[id] >> VR_KIND_SHIFT & VR_KIND_MASK) != VK_DT12)
        return;
    got = vexplain_dt12(&m, r, s, n, &why);
    if (got != ref || why != why_ref)
        fail_msg("%s '%.*s': vexplain_dt12 %d (%s), the matcher %d (%s)", kw, (int)n, s, got,
                 why ? why : "-", ref, why_ref ? why_ref : "-");
    explain_dt12_checked++;
}

static void explain_agrees_with_matcher(void **state)
{
    (void)state;
    uint64_t x = 88172645463325252u;
    for (unsigned id = 0; id < dict_count; id++) {
        if (!vrules[id].value)
            continue;
        const char *kw = dict_table[id].keyword;
        each_generated(id, explain_same);
        char buf[VEXPLAIN_DFA_MAX + 1];
        for (int k = 0; k < 60; k++) {
            size_t n = (size_t)k % (VEXPLAIN_DFA_MAX + 1);
            for (size_t i = 0; i < n; i++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                buf[i] = mutations[x % (sizeof mutations - 1)];
            }
            explain_same(kw, id, buf, n);
        }
    }
    char buf[16];
    for (int v = 0; v < 10000; v++) {
        snprintf(buf, sizeof buf, "%04d", v);
        explain_same("EOBT", DICT_ID_EOBT, buf, 4);
        snprintf(buf, sizeof buf, "23%04d", v);
        explain_same("EOBD", DICT_ID_EOBD, buf, 6);
        explain_same("FILTIM", DICT_ID_FILTIM, buf, 6);
        snprintf(buf, sizeof buf, "2311%04d0000", v);
        explain_same("ETO", DICT_ID_ETO, buf, 12);
        snprintf(buf, sizeof buf, "23113009%04d", v);
        explain_same("ETO", DICT_ID_ETO, buf, 12);
    }
    for (int v = 0; v < 1000000; v += 7) {
        snprintf(buf, sizeof buf, "%06dN", v);
        explain_same("LATTD", DICT_ID_LATTD, buf, 7);
        snprintf(buf, sizeof buf, "%07dE", v * 10 + v % 10);
        explain_same("LONGTD", DICT_ID_LONGTD, buf, 8);
    }
    for (int v = 0; v < 100000; v += 3) {        /* ETO: hours, minutes, seconds */
        snprintf(buf, sizeof buf, "231130%06d", v * 7 % 1000000);
        explain_same("ETO", DICT_ID_ETO, buf, 12);
        snprintf(buf, sizeof buf, "%02d%02d%02d0000", v % 100, v / 100 % 20, v / 2000 % 40);
        explain_same("ETO", DICT_ID_ETO, buf, 12);
    }
    assert_true(explain_max_steps < ADEXP_VALIDATE_MAX_STEPS / 10);
    assert_true(explain_dt12_checked > 10000);
    /* vexplain_dt12's checks are every VK_DT12 rule's layout */
    static const vhook_at dt12[] = {{2, 2, HOOK_MONTH}, {4, 2, HOOK_DAY}, {0, 6, HOOK_DATE},
                                    {6, 4, HOOK_HHMM}, {0, 0, 0}};
    for (unsigned id = 0; id < dict_count; id++) {
        if ((vwalk[id] >> VR_KIND_SHIFT & VR_KIND_MASK) != VK_DT12)
            continue;
        const vhook_at *h = &vhooks_at[vrules[id].hooks_at];
        assert_int_not_equal(vrules[id].hooks_at, 0);
        for (size_t k = 0; k < 5; k++) {
            assert_int_equal(h[k].at, dt12[k].at);
            assert_int_equal(h[k].len, dt12[k].len);
            assert_int_equal(h[k].hook, dt12[k].hook);
        }
    }
}

/* ---------------------------------------------------------------- edge cases */

static void hand_picked_terms(void **state)
{
    (void)state;
    static const struct {
        const char *term, *value;
        int ok;
    } cases[] = {
        {"flightlevel", "F350", 1}, {"flightlevel", "A045", 1},
        {"flightlevel", "S1130", 1}, {"flightlevel", "M0840", 1},
        {"flightlevel", "F35O", 0}, {"flightlevel", "F35", 0},
        {"flightlevel", "F3500", 0}, {"flightlevel", "S113", 0},
        {"flightlevel", "f350", 0}, {"flightlevel", "", 0},
        {"timehhmm", "0000", 1}, {"timehhmm", "2359", 1},
        {"timehhmm", "2400", 0}, {"timehhmm", "0860", 0},
        {"timehhmm", "3000", 0}, {"timehhmm", "123", 0},
        {"timehhmm_elapsed", "9959", 1}, {"timehhmm_elapsed", "0160", 0},
        {"date", "240229", 1}, {"date", "230229", 0}, {"date", "000229", 1},
        {"date", "700229", 0}, {"date", "720229", 1}, {"date", "231131", 0},
        {"date", "231231", 1}, {"date", "231301", 0}, {"date", "231200", 0},
        {"date", "230100", 0}, {"date", "2301011", 0},
        {"icaoaerodrome", "EDDF", 1}, {"icaoaerodrome", "EDD", 0},
        {"icaoaerodrome", "EDDF1", 0}, {"icaoaerodrome", "ED1F", 0},
        {"aircraftid", "AB", 1}, {"aircraftid", "ABC1234", 1},
        {"aircraftid", "A", 0}, {"aircraftid", "ABC12345", 0},
        {"aircraftid", "ABC 12", 0},
        {"latitudelong", "900000", 1}, {"latitudelong", "895959", 1},
        {"latitudelong", "900001", 0}, {"latitudelong", "916000", 0},
        {"latitudelong", "456000", 0}, {"latitudelong", "45000", 0},
        {"longitudelong", "1800000", 1}, {"longitudelong", "1795959", 1},
        {"longitudelong", "1800100", 0}, {"longitudelong", "0006000", 0},
        {"point", "AB", 1}, {"point", "LIFFY", 1}, {"point", "*1ROL", 0},
        {"point", "A", 0}, {"point", "ABCDEF", 0},
        {"seconds", "59", 1}, {"seconds", "60", 0},
        {"month", "12", 1}, {"month", "13", 0}, {"month", "00", 0},
        {"day", "31", 1}, {"day", "32", 0}, {"day", "00", 0},
        {"fulldate", "20000229", 1}, {"fulldate", "19000229", 0},
        {"spd", "N0450", 1}, {"spd", "K0830", 1}, {"spd", "M082", 0},
        {"machnumber", "M082", 1}, {"machnumber", "M82", 0},
        {"titleid", "IFPL", 1}, {"titleid", "IFPL1", 0},
        {"hexadecimal", "F", 1}, {"hexadecimal", "G", 0}, {"hexadecimal", "", 0},
        {"heading", "360", 1}, {"heading", "361", 0},
        {"surequipment", "N", 1}, {"surequipment", "SB1", 1},
        {"surequipment", "C", 1}, {"surequipment", "EB1B2", 1},
        {"surequipment", "NB1", 0},
        {"icaoaerodromewldcrd", "ED+", 1}, {"performancecategory", "C", 1},
        {"performancecategory", "F", 0}, {"datewldcrd", "23?", 1},
        {"flightplanstatus", "HOSP", 1}, {"flightplanstatus", "T", 0},
        {"atfmmodeltype", "CAL", 1}, {"atfmmodeltype", " CAL", 0},
        {"timeyyyymmddhhmmss", "20231231235959", 1},
        {"timeyyyymmddhhmmss", "20230231235959", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (term_ok(cases[i].term, cases[i].value) != cases[i].ok)
            fail_msg("%s '%s': expected %s", cases[i].term, cases[i].value,
                     cases[i].ok ? "valid" : "invalid");
}

/* ---------------------------------------------------------------- messages */

typedef struct run {
    adexp_arena arena;
    adexp_msg msg;
    adexp_findings f;
} run;

typedef adexp_status validate_fn(const adexp_msg *, adexp_arena *, adexp_findings *);

/* text[0..len) parsed and validated by validate into r: its answer. */
static adexp_status validate_len(run *r, const char *text, size_t len, validate_fn *validate)
{
    adexp_arena_init(&r->arena, NULL);
    adexp_findings_init(&r->f);
    adexp_parse(text, len, &r->arena, &r->msg);
    return validate(&r->msg, &r->arena, &r->f);
}

static void validate_text(run *r, const char *text)
{
    assert_int_equal(validate_len(r, text, strlen(text), adexp_validate), ADEXP_OK);
}

static void run_free(run *r)
{
    adexp_arena_free(&r->arena);
}

#define IFPL                                                                   \
    "-TITLE IFPL\n-ARCID ABC123\n-ARCTYP A320\n-ADEP EDDF\n-ADES LFPG\n"       \
    "-EOBT 0830\n-EOBD 231130\n-RFL F350\n-SSRCODE A1234\n-SPEED N0450\n"      \
    "-FLTRUL I\n-FLTTYP S\n-WKTRC M\n-IFPLID AA12345678\n-FILTIM 301200\n"     \
    "-ROUTE N0450F350 DCT ABC\n-EETFIR LFFF 0045\n"                            \
    "-BEGIN ADDR\n-FAC LFPYZQZX\n-END ADDR\n"                                  \
    "-BEGIN RTEPTS\n-PT -PTID EDDF -FL F000 -ETO 231130083000\n"               \
    "-PT -PTID ABC -FL F350 -ETO 231130090000\n-END RTEPTS\n"                  \
    "-GEO -GEOID GEO01 -LATTD 450000N -LONGTD 0100000E\n"                      \
    "-ESTDATA -PTID ABC -ETO 231130090000 -FL F350\n"

static void valid_ifpl_is_clean(void **state)
{
    (void)state;
    run r;
    validate_text(&r, IFPL);
    for (size_t i = 0; i < r.f.n; i++)
        print_message("%s: %s: %s\n", adexp_finding_name(r.f.v[i].code), r.f.v[i].field,
                      r.f.v[i].message);
    assert_int_equal(r.f.n, 0);
    run_free(&r);
}

/* One bad value in a copy of the valid IFPL: one finding, at its field. */
static void one_bad_value(const char *good, const char *bad, adexp_finding_code code,
                          const char *field)
{
    char text[2048];
    const char *at = strstr(IFPL, good);
    assert_non_null(at);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - IFPL), IFPL, bad, at + strlen(good));
    run r;
    validate_text(&r, text);
    if (r.f.n != 1)
        fail_msg("'%s': %zu findings", bad, r.f.n);
    assert_string_equal(adexp_finding_name(r.f.v[0].code), adexp_finding_name(code));
    assert_string_equal(r.f.v[0].field, field);
    run_free(&r);
}

static void each_bad_value_at_its_field(void **state)
{
    (void)state;
    one_bad_value("-RFL F350", "-RFL F35O", ADEXP_V_BAD_VALUE, "RFL");
    one_bad_value("-EOBT 0830", "-EOBT 0875", ADEXP_V_BAD_VALUE, "EOBT");
    one_bad_value("-EOBT 0830", "-EOBT 2430", ADEXP_V_OUT_OF_RANGE, "EOBT");
    one_bad_value("-EOBD 231130", "-EOBD 231312", ADEXP_V_OUT_OF_RANGE, "EOBD");
    one_bad_value("-EOBD 231130", "-EOBD 230230", ADEXP_V_OUT_OF_RANGE, "EOBD");
    one_bad_value("-ADEP EDDF", "-ADEP EDD", ADEXP_V_BAD_VALUE, "ADEP");
    one_bad_value("-ADES LFPG", "-ADES LFPG1", ADEXP_V_BAD_VALUE, "ADES");
    one_bad_value("-SSRCODE A1234", "-SSRCODE A1289", ADEXP_V_BAD_VALUE, "SSRCODE");
    one_bad_value("-ARCID ABC123", "-ARCID ABC12345", ADEXP_V_BAD_VALUE, "ARCID");
    one_bad_value("-ARCID ABC123", "-ARCID A", ADEXP_V_BAD_VALUE, "ARCID");
    one_bad_value("-FILTIM 301200", "-FILTIM 321200", ADEXP_V_OUT_OF_RANGE, "FILTIM");
    one_bad_value("-EETFIR LFFF 0045", "-EETFIR LFFF0045", ADEXP_V_BAD_VALUE, "EETFIR");
    one_bad_value("-ETO 231130090000\n", "-ETO 231130250000\n", ADEXP_V_OUT_OF_RANGE,
                  "RTEPTS/PT[2]/ETO");
    one_bad_value("-FL F000", "-FL 000", ADEXP_V_BAD_VALUE, "RTEPTS/PT[1]/FL");
    one_bad_value("-PTID ABC -FL F350", "-PTID A -FL F350", ADEXP_V_BAD_VALUE,
                  "RTEPTS/PT[2]/PTID");
    one_bad_value("-LATTD 450000N", "-LATTD 950000N", ADEXP_V_OUT_OF_RANGE, "GEO/LATTD");
    one_bad_value("-LATTD 450000N", "-LATTD 450000E", ADEXP_V_BAD_VALUE, "GEO/LATTD");
    one_bad_value("-LONGTD 0100000E", "-LONGTD 1900000E", ADEXP_V_OUT_OF_RANGE,
                  "GEO/LONGTD");
    one_bad_value("-ESTDATA -PTID ABC -ETO 231130090000", "-ESTDATA -PTID ABC -ETO 231131090000",
                  ADEXP_V_OUT_OF_RANGE, "ESTDATA/ETO");
}

static void structure_checks(void **state)
{
    (void)state;
    run r;
    /* ESTDATA without its ETO; an ETO at the top; ARCID inside ADDR */
    validate_text(&r, "-TITLE IFPL -ESTDATA -PTID ABC -FL F350 "
                      "-BEGIN ADDR -FAC X -ARCID ABC -END ADDR -COORDATA F190\n");
    assert_int_equal(r.f.n, 3);
    assert_string_equal(r.f.v[0].field, "ESTDATA");
    assert_int_equal(r.f.v[0].code, ADEXP_V_MISSING_SUBFIELD);
    assert_string_equal(r.f.v[0].message, "missing subfield ETO");
    assert_string_equal(r.f.v[1].field, "ADDR/ARCID[1]");
    assert_int_equal(r.f.v[1].code, ADEXP_V_NOT_ALLOWED);
    assert_string_equal(r.f.v[2].field, "COORDATA");
    assert_int_equal(r.f.v[2].code, ADEXP_V_UNEXPECTED_VALUE);
    run_free(&r);
    /* the -ETO after the compound ends it: a misplaced subfield */
    validate_text(&r, "-TITLE IFPL -ARCID ABC -ETO 231130090000\n");
    assert_int_equal(r.f.n, 1);
    assert_int_equal(r.f.v[0].code, ADEXP_V_MISPLACED);
    assert_string_equal(r.f.v[0].field, "ETO");
    run_free(&r);
    /* one of two: COORDATA needs TO or STO */
    validate_text(&r, "-TITLE ACT -COORDATA -PTID ABC -TFL F350\n");
    assert_int_equal(r.f.n, 1);
    assert_int_equal(r.f.v[0].code, ADEXP_V_MISSING_SUBFIELD);
    assert_string_equal(r.f.v[0].message, "missing one of (TO | STO)");
    run_free(&r);
}

/* Where the specification's Annex A and its own examples disagree
 * (gen_validate.py's PLAIN_FORMS; doc/validation-decisions.md): a primary
 * field inside a list's element is its subfield (S31 4.3.7: -PT -PTID CMB
 * -ETO 9305091430 -RFL F370), a subfield is not; CFL may be a plain level
 * (-CFL F190, E.4.3) and ALTNZ, DEPZ, DESTZ a plain name, each checked
 * against that form; a plain value beside subfields is still unexpected.
 * With the built-in dictionary and with an extended one (the general
 * walk), the same findings. */
static void spec_forms(void **state)
{
    (void)state;
    static const char text[] =
        "-TITLE IFPL -CFL F190 -ALTNZ EASTERN CREEK -DEPZ -ADNAME X -DESTZ MY FARM\n"
        "-BEGIN RTEPTS -PT -PTID CMB -ETO 930509143000 -RFL F370 -SPEED N0450\n"
        "-PT -PTID ABC -RFL F37 -LATTD 500000N -END RTEPTS\n"
        "-CFL F19X -CFL F190 -PTID ABC -CFL -FL F200 -SFL F210A\n";
    static const struct { const char *field; int code; } want[] = {
        {"RTEPTS/PT[2]/RFL", ADEXP_V_BAD_VALUE},
        {"RTEPTS/PT[2]/LATTD", ADEXP_V_NOT_ALLOWED},
        {"CFL[2]", ADEXP_V_BAD_VALUE},
        {"CFL[3]", ADEXP_V_UNEXPECTED_VALUE},
    };
    const size_t nwant = sizeof want / sizeof *want;
    static const char local[] = "LOCALX\tprimary\tb\t-\t-\t-\n";
    adexp_dictionary *ext = adexp_dict_load(NULL, local, sizeof local - 1, NULL);
    assert_non_null(ext);
    for (int pass = 0; pass < 2; pass++) {
        run r;
        adexp_arena_init(&r.arena, NULL);
        adexp_findings_init(&r.f);
        r.f.dictionary = pass ? ext : NULL;
        adexp_options o = adexp_options_default();
        o.dictionary = r.f.dictionary;
        adexp_parser *p = adexp_parser_new(&o, NULL);
        assert_non_null(p);
        adexp_parser_reset(p, text, sizeof text - 1);
        assert_int_equal(adexp_parser_next(p, &r.arena, &r.msg), ADEXP_OK);
        assert_int_equal(adexp_validate(&r.msg, &r.arena, &r.f), ADEXP_OK);
        for (size_t i = 0; i < r.f.n && i < nwant; i++) {
            assert_string_equal(r.f.v[i].field, want[i].field);
            assert_int_equal(r.f.v[i].code, want[i].code);
        }
        assert_int_equal(r.f.n, nwant);
        adexp_parser_free(p);
        run_free(&r);
    }
    adexp_dict_free(ext);
}

/* A value's characters against the ADEXP character set (S31 5.1.1: A-Z,
 * 0-9, space, ( ) - ? : . , ' = + /, CR and LF; TAB read as a separator):
 * in free text (ROUTE, COMMENT, RMK), in ICAO text (MSGTXT, where '-' is
 * text), in a structured value (PTID); each reported at the character. */
static void character_set(void **state)
{
    (void)state;
    run r;
    validate_text(&r, "-TITLE IFPL -ROUTE N0450F350 DCT ABC\t DCT\n  DEF (X) ?:.,'=+/\n"
                      "-MSGTXT (FPL-ABC123-IS -A320/M)\n-COMMENT OK\n");
    assert_int_equal(r.f.n, 0);
    run_free(&r);
    validate_text(&r, "-TITLE IFPL -ROUTE N0450F350 DCT AB**C -COMMENT lower case\n"
                      "-MSGTXT (FPL-ABC123-IS #1) -RMK A_B -BEGIN RTEPTS -PT -PTID *1ROL\n"
                      "-END RTEPTS -OLDMSG (X-\xe2\x80\x93Y)\n");
    static const struct { const char *field; uint32_t column; } want[] = {
        {"ROUTE", 36}, {"COMMENT", 49}, {"MSGTXT", 24}, {"RMK", 34},
        {"RTEPTS/PT[1]/PTID", 61}, {"OLDMSG", 24},
    };
    assert_int_equal(r.f.n, 6);
    for (size_t i = 0; i < 6; i++) {
        assert_string_equal(r.f.v[i].field, want[i].field);
        assert_int_equal(r.f.v[i].code, ADEXP_V_BAD_VALUE);
        assert_int_equal(r.f.v[i].column, want[i].column);
        assert_string_equal(r.f.v[i].message,
                            "a character outside the ADEXP character set (S31 5.1)");
    }
    run_free(&r);
}

/* The text matchers (a word, a vector at a time) agree with the table of
 * the character set: texts of 1 to 72 usual bytes (past two AVX2 steps of
 * 32 bytes, the last of them overlapping), each byte value at each place,
 * each text at the end of an allocation of its size (a read past it is one
 * past the allocation); vf_usual_text (up to 16 bytes, by one vector)
 * answers 1 only where vf_text does. */
static void text_fast_paths(void **state)
{
    (void)state;
    const uint32_t fac = vwalk[DICT_ID_FAC], route = vwalk[DICT_ID_ROUTE];
    for (size_t n = 1; n <= 72; n++) {
        char *text = malloc(n);
        assert_non_null(text);
        for (size_t at = 0; at < n; at++)
            for (unsigned c = 0; c < 256; c++) {
                for (size_t i = 0; i < n; i++)
                    text[i] = "AZ09 /Q7"[(i * 5 + n) % 8];
                text[at] = (char)c;
                int want = 1;
                for (size_t i = 0; i < n; i++)
                    want &= vlim_char[(unsigned char)text[i]];
                assert_int_equal(vf_lim_chars(text, n), want);
                if (n > 32)       /* AVX2's steps where the CPU has it */
                    assert_int_equal(vwalk_long_text(text, n), want);
                assert_int_equal(vf_text(route, text, n), want);
                assert_int_equal(vf_text(fac, text, n), want && n <= 30);
                if (vf_usual_text(fac, text, n))
                    assert_true(want && n <= 16);
                if (vf_usual_text(route, text, n))
                    assert_true(want && n <= 16);
            }
        free(text);
    }
    assert_true(vf_usual_text(fac, "LFPGZQZX", 8) && vf_usual_text(route, "N0450F350 DCT/B", 15));
}

/* VK_CHARS's texts (ERROR of LIM_CHAR, MSGBODY and MSGTXT of CHARACTER,
 * MSGTXT empty too) against their DFAs, byte by byte: each byte value at
 * each place of texts of 0 to 70 usual bytes, each text at the end of an
 * allocation of its size (a read past it is one past the allocation). */
static void chars_sweep(void **state)
{
    (void)state;
    static const unsigned ids[] = {DICT_ID_ERROR, DICT_ID_MSGBODY, DICT_ID_MSGTXT};
    unsigned checked = 0;
    for (size_t n = 0; n <= 70; n++) {
        char *text = malloc(n ? n : 1);
        assert_non_null(text);
        for (size_t at = 0; at < (n ? n : 1); at++)
            for (unsigned c = 0; c < (n ? 256u : 1u); c++) {
                for (size_t i = 0; i < n; i++)
                    text[i] = "(FPL-AB12/Z 09:'+,.)"[(i * 7 + n) % 20];
                if (n)
                    text[at] = (char)c;
                for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
                    unsigned id = ids[k];
                    assert_int_equal((vwalk[id] >> VR_KIND_SHIFT) & VR_KIND_MASK, VK_CHARS);
                    int ref = vdfa_accepts(vrules[id].dfa, text, n);
                    if (vrule_accepts(id, text, n) != ref)
                        fail_msg("%s '%.*s': VK_CHARS says %d, DFA %d", dict_table[id].keyword,
                                 (int)n, text, !ref, ref);
                    checked++;
                }
            }
        free(text);
    }
    assert_true(checked > 3 * 70 * 70 * 256 / 2);
}

/* vf_point_bytes, byte by byte: each byte value at each of its 16 places,
 * the others of a usual point (-PTID A1B2Z -FL F350, minutes and seconds
 * 5909), against each place's classes. */
static int point_byte_ok(unsigned i, unsigned c)
{
    if (i < 8)
        return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (i == 8)
        return c == 'F';
    if (i == 12 || i == 14)
        return c >= '0' && c <= '5';
    return c >= '0' && c <= '9';
}

static void point_bytes_sweep(void **state)
{
    (void)state;
    static const char usual[16] = "A1B2Z000F3505909";
    for (unsigned i = 0; i < 16; i++)
        for (unsigned c = 0; c < 256; c++) {
            char b[16];
            memcpy(b, usual, 16);
            b[i] = (char)c;
            assert_int_equal(vf_point_bytes(vf_load8(b), vf_load8(b + 8)), point_byte_ok(i, c));
        }
}

/* vf_point_bytes_n the same way, for points of 2 to 5 bytes: a byte at
 * places n to 7, which are no longer the point's, changes nothing. */
static void point_bytes_n_sweep(void **state)
{
    (void)state;
    static const char usual[16] = "A1B2ZQ-FF3505909";
    for (size_t n = 2; n <= 5; n++)
        for (unsigned i = 0; i < 16; i++)
            for (unsigned c = 0; c < 256; c++) {
                char b[16];
                memcpy(b, usual, 16);
                b[i] = (char)c;
                assert_int_equal(vf_point_bytes_n(b, b + 8, b + 12, n),
                                 (i >= n && i < 8) || point_byte_ok(i, c));
            }
}

static void paths_and_positions(void **state)
{
    (void)state;
    run r;
    validate_text(&r, "-TITLE IFPL\r\n-EETFIR LFFF 0045\r\n-EETFIR EDGG 99\n"
                      "\r-BEGIN RTEPTS -PT -PTID AB -PT -PTID CD -ETO x\n-END RTEPTS\n");
    assert_int_equal(r.f.n, 2);
    assert_string_equal(r.f.v[0].field, "EETFIR[2]");
    assert_int_equal(r.f.v[0].line, 3);
    assert_int_equal(r.f.v[0].column, 9);
    assert_int_equal(r.f.v[0].offset, 40);
    assert_int_equal(r.f.v[0].value.len, 7);
    assert_string_equal(r.f.v[0].expected, "firindicator timehhmm_elapsed");
    assert_string_equal(r.f.v[1].field, "RTEPTS/PT[2]/ETO");
    assert_int_equal(r.f.v[1].line, 5);
    run_free(&r);
}

/* A multi-line value: separators between the parts may be line breaks. */
static void separators_and_lines(void **state)
{
    (void)state;
    run r;
    validate_text(&r, "-TITLE IFPL -EETFIR LFFF\n 0045 -RFL F350 LIFFY -SPEED N0450\n");
    assert_int_equal(r.f.n, 0);
    run_free(&r);
}

/* Findings out of offset order (a compound's missing subfield after its
 * subfields' findings) and every kind of line end: each finding's line
 * and column as counted from the buffer's start. */
static void lines_back_and_forth(void **state)
{
    (void)state;
    run r;
    validate_text(&r, "-TITLE IFPL\r\n-BEGIN RTEPTS\r-PT\n -FL F9X9\r\n -ETO 170302032300\n"
                      "-PT -PTID ABC\r\r -FL F390 -ETO 171302032300\n-END RTEPTS\n-RFL F35O\n");
    assert_int_equal(r.f.n, 4);
    static const struct { const char *field; uint32_t line, column; } want[] = {
        {"RTEPTS/PT[1]/FL", 4, 6}, {"RTEPTS/PT[1]", 3, 1},
        {"RTEPTS/PT[2]/ETO", 8, 16}, {"RFL", 10, 6}};
    for (size_t i = 0; i < 4; i++) {
        assert_string_equal(r.f.v[i].field, want[i].field);
        assert_int_equal(r.f.v[i].line, want[i].line);
        assert_int_equal(r.f.v[i].column, want[i].column);
    }
    run_free(&r);
}

/* ---------------------------------------------------------------- fast paths vs DFA */

/* The value at the end of a buffer of its own size's room, so that a read
 * past it is a read past the allocation (ASan, valgrind). */
static char *tail;
enum { TAIL_ROOM = 40 };

static unsigned fast_checked;

static void same(unsigned id, const char *s, size_t n)
{
    char *v = tail + TAIL_ROOM - n;
    memmove(v, s, n);
    int ref = vrule_ref_accepts(&vrules[id], v, n), fast = vrule_accepts(id, v, n);
    if (ref != fast)
        fail_msg("%s '%.*s': fast path says %d, DFA %d", dict_table[id].keyword, (int)n, v,
                 fast, ref);
    fast_checked++;
}

/* Every rule with a specialised matcher (validate_fast.h) accepts exactly
 * what its DFA accepts: on generated values, each changed at every byte to
 * bytes at the classes' edges, on random strings of 0 to 20 bytes, and for
 * the times and dates on every hhmm, ddhhmm, yymmdd and hhmmss (the digits
 * of a month at most 19, of a day 39, of an hour 29, of minutes and seconds
 * 69), and for the coordinates on degrees to 199 (and 900 to 999) with
 * minutes to 69, seconds at their edges and each side, and for the rules
 * of one byte on every byte. */
static void fast_paths_agree_with_dfa(void **state)
{
    (void)state;
    static const char edges[] = "0123456789/:@AFMSZ[`az-  \t\x7f\x80\xb0\xc1\xd0\xff";
    tail = malloc(TAIL_ROOM);
    assert_non_null(tail);
    unsigned kinds = 0, nkeys = 0;
    static uint64_t keys[DICT_COUNT];
    static uint16_t key_max[DICT_COUNT];
    uint64_t x = 88172645463325252u;
    for (unsigned id = 0; id < dict_count; id++) {
        unsigned kind = (vwalk[id] >> VR_KIND_SHIFT) & VR_KIND_MASK;
        if (kind == VK_NONE || kind == VK_DFA)
            continue;
        kinds |= 1u << kind;
        /* an entry with the same fast path and DFA as one before it: done */
        uint64_t key = (uint64_t)(vwalk[id] >> VR_KIND_SHIFT) << 32 | vrules[id].dfa |
                       (uint64_t)vrules[id].text_min << 16;
        int seen = 0;
        for (unsigned k = 0; k < nkeys && !seen; k++)
            seen = keys[k] == key && key_max[k] == vrules[id].text_max;
        if (seen)
            continue;
        keys[nkeys] = key;
        key_max[nkeys++] = vrules[id].text_max;
        for (uint64_t seed = 1; seed <= 20; seed++) {
            gen g;
            memset(&g, 0, sizeof g);
            g.seed = seed * 7919;
            generate(&g, vrules[id].value, 0);
            if (g.overflow || g.n > TAIL_ROOM)
                continue;
            same(id, g.buf, g.n);
            for (size_t i = 0; i < g.n; i++) {
                char save = g.buf[i];
                for (size_t k = 0; k < sizeof edges - 1; k++) {
                    g.buf[i] = edges[k];
                    same(id, g.buf, g.n);
                }
                g.buf[i] = save;
            }
        }
        for (int t = 0; t < 2000; t++) {          /* random strings, edge bytes */
            char buf[24];
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            size_t n = (size_t)(x % 21);
            for (size_t i = 0; i < n; i++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                buf[i] = edges[x % (sizeof edges - 1)];
            }
            same(id, buf, n);
        }
    }
    /* each kind but VK_NONE and VK_DFA has a rule */
    assert_int_equal(kinds, (1u << VK_TEXT) | (1u << VK_DT12) | (1u << VK_FLEVEL) |
                                (1u << VK_ALPHA) | (1u << VK_DIGIT) | (1u << VK_ALNUM) |
                                (1u << VK_HHMM) | (1u << VK_DATE) | (1u << VK_DT10) |
                                (1u << VK_DDHHMM) | (1u << VK_FIRTIME) | (1u << VK_LEVEL_PT) |
                                (1u << VK_SPEED_PT) | (1u << VK_ACTYPE) | (1u << VK_IFPLID) |
                                (1u << VK_GEONAME) | (1u << VK_SSR) | (1u << VK_LAT) |
                                (1u << VK_LONG) | (1u << VK_ATSRT) | (1u << VK_DCT) |
                                (1u << VK_CHARS) | (1u << VK_ELAPSED) | (1u << VK_BYTE));
    char buf[16];
    for (int y = 0; y < 100; y++)                 /* ETO: yymmdd, mm < 20, dd < 40 */
        for (int md = 0; md < 2000; md++) {
            if (md % 100 >= 40)
                continue;
            snprintf(buf, sizeof buf, "%02d%04d235959", y, md);
            same(DICT_ID_ETO, buf, 12);
        }
    for (int t = 0; t < 300000; t++) {            /* ETO: hhmmss, hh < 30, mm, ss < 70 */
        if (t / 10000 >= 30 || t / 100 % 100 >= 70 || t % 100 >= 70)
            continue;
        snprintf(buf, sizeof buf, "240229%06d", t);
        same(DICT_ID_ETO, buf, 12);
    }
    for (int v = 0; v < 10000; v++) {             /* EOBT, TTLEET: every hhmm */
        snprintf(buf, sizeof buf, "%04d", v);
        same(DICT_ID_EOBT, buf, 4);
        same(DICT_ID_TTLEET, buf, 4);
    }
    for (unsigned id = 0; id < dict_count; id++) { /* VK_BYTE: every byte, none, two */
        if (((vwalk[id] >> VR_KIND_SHIFT) & VR_KIND_MASK) != VK_BYTE)
            continue;
        same(id, "", 0);
        for (int c = 0; c < 256; c++) {
            buf[0] = buf[1] = (char)c;
            same(id, buf, 1);
            same(id, buf, 2);
        }
    }
    for (int y = 0; y < 100; y++)                 /* EOBD, ORIGINDT: yymmdd as for ETO */
        for (int md = 0; md < 2000; md++) {
            if (md % 100 >= 40)
                continue;
            snprintf(buf, sizeof buf, "%02d%04d", y, md);
            same(DICT_ID_EOBD, buf, 6);
            snprintf(buf, sizeof buf, "%02d%04d2359", y, md);
            same(DICT_ID_ORIGINDT, buf, 10);
        }
    for (int t = 0; t < 400000; t++) {            /* FILTIM: ddhhmm, dd < 40, hh < 30, mm < 70 */
        if (t / 10000 >= 40 || t / 100 % 100 >= 30 || t % 100 >= 70)
            continue;
        snprintf(buf, sizeof buf, "%06d", t);
        same(DICT_ID_FILTIM, buf, 6);
        snprintf(buf, sizeof buf, "2402%06d", t);     /* ORIGINDT: ddhhmm of a leap February */
        same(DICT_ID_ORIGINDT, buf, 10);
    }
    for (int v = 0; v < 30000; v++) {             /* EETFIR: hhmm, separators, letters */
        static const char *const firs[] = {"EDGG", "EDG1", "edgg", "EDGGX", "EDG"};
        static const char *const seps[] = {" ", "  ", "\t", "\n", "", "-"};
        snprintf(buf, sizeof buf, "%s%s%04d", firs[v % 5], seps[v / 5 % 6], v * 7 % 10000);
        same(DICT_ID_EETFIR, buf, strlen(buf));
    }
    for (int v = 0; v < 40000; v++) {             /* RFL, SPEED, SSRCODE: letters and digits */
        static const char lead[] = "FASMKNX0";
        snprintf(buf, sizeof buf, "%c%0*d", lead[v % 8], 3 + v / 8 % 2, v * 13 % 10000);
        same(DICT_ID_RFL, buf, strlen(buf));
        same(DICT_ID_SPEED, buf, strlen(buf));
        same(DICT_ID_SSRCODE, buf, strlen(buf));
        buf[0] = (char)('A' + v % 26);            /* ARCTYP, GEOID, IFPLID: a letter first */
        same(DICT_ID_ARCTYP, buf, 1 + v % 5);
        same(DICT_ID_GEOID, buf, strlen(buf));
    }
    for (int v = 0; v < 20000; v++) {             /* IFPLID, GEOID */
        snprintf(buf, sizeof buf, "%c%c%08d", "AZa0"[v % 4], "AZ9-"[v / 4 % 4], v * 7919);
        same(DICT_ID_IFPLID, buf, 10);
        snprintf(buf, sizeof buf, "GE%c%02d", "OPo"[v % 3], v / 3 % 100);
        same(DICT_ID_GEOID, buf, 5);
    }
    static const int secs[] = {0, 1, 9, 10, 30, 59, 60, 69};
    for (int d = 0; d < 200; d++)                 /* LATTD, LONGTD: degrees, mm < 70, sides */
        for (int m = 0; m < 70; m++)
            for (int k = 0; k < 8; k++) {
                char side = "NSEWn"[(d + m + k) % 5];
                if (d < 100) {
                    snprintf(buf, sizeof buf, "%02d%02d%02d%c", d, m, secs[k], side);
                    same(DICT_ID_LATTD, buf, 7);
                }
                snprintf(buf, sizeof buf, "%03d%02d%02d%c", d, m, secs[k], side);
                same(DICT_ID_LONGTD, buf, 8);
                snprintf(buf, sizeof buf, "%03d%02d%02d%c", 900 + d % 100, m, secs[k], side);
                same(DICT_ID_LONGTD, buf, 8);
            }
    for (int v = 0; v < 100000; v++) {            /* FL: every letter and digits */
        static const char lead[] = "FASMX0";
        snprintf(buf, sizeof buf, "%c%0*d", lead[v % 6], v % 2 ? 4 : 3, v / 6 % 10000);
        same(DICT_ID_FL, buf, strlen(buf));
    }
    free(tail);
    assert_true(fast_checked > 500000);
}

/* ETO's matcher (vf_dt12: bytes under their places' bounds, pairs as
 * ASCII lanes, a late day by its month) against its DFA: every yymmdd of
 * the two-digit years (the date decoder's whole cycle) with months and days
 * to 39, each at the edges of the time; every hhmmss to 29:69:69 on the
 * last days of February (leap and not), April and December and on a 32nd;
 * and each byte of valid and edge values made every one of the 256. */
static void dt12_sweep(void **state)
{
    (void)state;
    tail = malloc(TAIL_ROOM);
    assert_non_null(tail);
    fast_checked = 0;
    char buf[16];
    static const char *const times[] = {"000000", "235959", "240000", "236000", "235960"};
    for (int y = 0; y < 100; y++)
        for (int m = 0; m < 40; m++)
            for (int d = 0; d < 40; d++)
                for (int t = 0; t < 5; t++) {
                    snprintf(buf, sizeof buf, "%02d%02d%02d%s", y, m, d, times[t]);
                    same(DICT_ID_ETO, buf, 12);
                }
    static const char *const days[] = {"240229", "230229", "000229", "990228", "230430",
                                       "230431", "231231", "231232", "230101", "231300"};
    for (int k = 0; k < 10; k++)
        for (int t = 0; t < 300000; t++) {
            if (t / 10000 >= 30 || t / 100 % 100 >= 70 || t % 100 >= 70)
                continue;
            snprintf(buf, sizeof buf, "%s%06d", days[k], t);
            same(DICT_ID_ETO, buf, 12);
        }
    static const char *const base[] = {"231130084500", "240229235959", "230228000000",
                                       "991231235959", "000101000000", "230131120000"};
    for (int k = 0; k < 6; k++)
        for (int i = 0; i < 12; i++)
            for (int c = 0; c < 256; c++) {
                memcpy(buf, base[k], 12);
                buf[i] = (char)c;
                same(DICT_ID_ETO, buf, 12);
            }
    free(tail);
    assert_true(fast_checked > 900000);
}

/* ATSRT's and DCT's matcher (vf_words: words of letters and digits, one
 * space between) against their DFA: every sequence of up to three words of
 * 0 to 8 bytes each (0 to 6 for the third) with one of seven separators
 * (one space, two, a tab, a line end, none, '-', a letter), each word of
 * letters, digits or one edge byte, and each byte of valid values made every
 * one of the 256; the spaces found by words and by vectors the same. */
static unsigned spaces_checked;

/* same() for ATSRT and DCT, and the word-at-a-time spaces equal to the
 * vector ones (where they are not the same function). */
static void same_words(const char *s, size_t n)
{
    same(DICT_ID_ATSRT, s, n);
    same(DICT_ID_DCT, s, n);
    if (n >= 5 && n <= 16) {
        char *v = tail + TAIL_ROOM - n;
        memmove(v, s, n);
        assert_int_equal(vf_word_spaces(v, n), vf_word_spaces_swar(v, n));
        spaces_checked++;
    }
}

static void words_sweep(void **state)
{
    (void)state;
    tail = malloc(TAIL_ROOM);
    assert_non_null(tail);
    fast_checked = 0;
    static const char *const seps[] = {" ", "  ", "\t", "\n", "", "-", "Q"};
    static const char fill[] = "A9Z0";
    static const char odd[] = "/:@[a\x80 ";
    char buf[40];
    for (int l1 = 0; l1 <= 8; l1++)
        for (int l2 = 0; l2 <= 8; l2++)
            for (int l3 = -1; l3 <= 6; l3++)
                for (int sp = 0; sp < 7 * 7; sp++)
                    for (int o = 0; o <= (int)sizeof odd - 1; o++) {
                        size_t n = 0;
                        for (int i = 0; i < l1; i++)
                            buf[n++] = fill[(i + o) % 4];
                        n += (size_t)sprintf(buf + n, "%s", seps[sp % 7]);
                        for (int i = 0; i < l2; i++)
                            buf[n++] = fill[(i + l1) % 4];
                        if (l3 >= 0) {
                            n += (size_t)sprintf(buf + n, "%s", seps[sp / 7]);
                            for (int i = 0; i < l3; i++)
                                buf[n++] = fill[(i + l2) % 4];
                        } else if (sp >= 7) {
                            continue;
                        }
                        if (o < (int)sizeof odd - 1 && n)   /* one edge byte */
                            buf[(size_t)(o * 7 + l2) % n] = odd[o];
                        same_words(buf, n);
                    }
    static const char *const base[] = {"UM601 JHGYA TXVU", "P619 DIDOT ZTZ", "L9 AB CD",
                                       "ABCDEFG ABCDE ABCDE", "DIDOT ZTZ", "AB CD",
                                       "ABCDE ABCDE", "Y102 TXVU"};
    for (int k = 0; k < 8; k++) {
        size_t n = strlen(base[k]);
        for (size_t i = 0; i < n; i++)
            for (int c = 0; c < 256; c++) {
                memcpy(buf, base[k], n);
                buf[i] = (char)c;
                same_words(buf, n);
            }
    }
    free(tail);
    assert_true(fast_checked > 300000 && spaces_checked > 100000);
}

/* The walk reads an entry's place and kind from its rule: they agree with
 * the dictionary. */
static void rules_agree_with_dictionary(void **state)
{
    (void)state;
    for (size_t id = 0; id < dict_count; id++) {
        const dict_entry *e = &dict_table[id];
        unsigned wb = vwalk[id];
        assert_int_equal(wb & VR_SUB_BIT, e->sub_bit);
        assert_int_equal(!!(wb & VR_STRUCTURED), e->kind != ADEXP_BASIC);
        assert_int_equal(!!(wb & VR_SUBFIELD),
                         e->level == DICT_SUBFIELD || e->level == DICT_RESERVED_SUBFIELD);
    }
}

/* The dictionary ids a presence formula names, at most max of them. */
static size_t formula_fields(unsigned node, unsigned *ids, size_t n, size_t max)
{
    const vnode *v = &vnodes[node];
    if (v->op == VN_FIELD) {
        for (size_t i = 0; i < n; i++)
            if (ids[i] == v->a)
                return n;
        if (n < max)
            ids[n++] = v->a;
        return n;
    }
    if (v->op == VN_ALL || v->op == VN_ANY)
        for (unsigned i = 0; i < v->b; i++)
            n = formula_fields(vkids[v->a + i], ids, n, max);
    return n;
}

/* has_required (the walk's one-word or sufficient test) never says yes
 * where the formula (vfirst_missing) says no, on every set of a rule's
 * subfields, and says yes on some set of every rule that has it (a test
 * that never passes would be no fast path). */
static void presence_fast_path(void **state)
{
    (void)state;
    size_t rules = 0, sets = 0, fast = 0;
    for (size_t id = 0; id < dict_count; id++) {
        const vrule *r = &vrules[id];
        if (!r->presence)
            continue;
        unsigned ids[16];
        size_t n = formula_fields(r->presence, ids, 0, 16);
        assert_true(n > 0 && n < 16);
        size_t said_yes = 0;
        for (uint32_t set = 0; set < (1u << n); set++) {
            present p = {{0}};
            for (size_t i = 0; i < n; i++)
                if (set >> i & 1) {
                    unsigned b = dict_table[ids[i]].sub_bit;
                    p.w[b >> 6] |= (uint64_t)1 << (b & 63);
                }
            int yes = has_required(&p, r);
            if (yes)
                assert_int_equal(vfirst_missing(&p, r->presence), 0);
            said_yes += (size_t)yes;
            sets++;
        }
        if (r->req || r->suff_any) {
            assert_true(said_yes > 0);
            fast++;
        }
        rules++;
    }
    assert_true(rules > 50 && fast > 40 && sets > rules);
}

/* validate.c's usual shapes are true of the dictionary: each subfield is
 * basic and allowed in its compound, the compound not a list of messages,
 * and the subfields together satisfy its formula; the constants of their
 * fast paths are vwalk's words. */
static void usual_shapes_hold(void **state)
{
    (void)state;
    static const unsigned shapes[][4] = {
        {DICT_ID_PT, DICT_ID_PTID, DICT_ID_FL, DICT_ID_ETO},
        {DICT_ID_PT, DICT_ID_PTID, ADEXP_DICT_NONE, ADEXP_DICT_NONE},
        {DICT_ID_GEO, DICT_ID_GEOID, DICT_ID_LATTD, DICT_ID_LONGTD},
        {DICT_ID_ESTDATA, DICT_ID_PTID, DICT_ID_ETO, DICT_ID_FL},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const dict_entry *e = &dict_table[shapes[i][0]];
        assert_false(e->flags & DICT_MSG_LIST);
        present p = {{0}};
        for (size_t k = 1; k < 4 && shapes[i][k] != ADEXP_DICT_NONE; k++) {
            const dict_entry *c = &dict_table[shapes[i][k]];
            assert_int_equal(c->kind, ADEXP_BASIC);
            assert_true(dict_row_allows(e->row, c));
            p.w[c->sub_bit >> 6] |= (uint64_t)1 << (c->sub_bit & 63);
        }
        const vrule *r = &vrules[shapes[i][0]];
        assert_true(!r->presence || vfirst_missing(&p, r->presence) == 0);
    }
    assert_int_equal(VWALK_PTID, vwalk[DICT_ID_PTID]);
    assert_int_equal(VWALK_FL, vwalk[DICT_ID_FL]);
    assert_int_equal(VWALK_ETO, vwalk[DICT_ID_ETO]);
    assert_int_equal(VWALK_GEOID, vwalk[DICT_ID_GEOID]);
    assert_int_equal(VWALK_LATTD, vwalk[DICT_ID_LATTD]);
    assert_int_equal(VWALK_LONGTD, vwalk[DICT_ID_LONGTD]);
}

/* The library's walk (with the usual shapes) and the general one find the
 * same, finding for finding, on random messages of route points, GEO and
 * ESTDATA of the usual shapes and near them (a subfield missing, added,
 * swapped or unknown, a value on the compound, values valid or not, nested
 * in other compounds and lists, at the top), each also cut short at a
 * random byte. */
static const char *const usual_parts[] = {
    " -PTID ABC", " -PTID EDDF", " -PTID A1", " -PTID *1ROL", " -PTID TOOLONGX",
    " -FL F350", " -FL F35O", " -FL A045", " -FL S1130", " -FL F3500", " -FL",
    " -ETO 231130083000", " -ETO 231131095500", " -ETO 231130096000", " -ETO 2311300830",
    " -ETO 231130240000", " -ETO 231130000060", " -ETO 23113008300A", " -ETO 231130235959",
    " -ETO 231201000000", " -ETO 231200000000", " -ETO 2311300830000",
    " -ETO 231130083060", " -ETO 23113008596A", " -ETO 231130086000", " -ETO 231130085959",
    " -GEOID GEO01", " -GEOID GEO1", " -LATTD 450000N", " -LATTD 915000N", " -LATTD 4500N",
    " -LONGTD 0100000E", " -LONGTD 1823000E", " -LONGTD 0100000N", " -SFL F200",
    " -XYZ 12", " -TO 0830", " -ETO", " -PTID",
};

static void put_shape(char *text, size_t *n, size_t cap, uint64_t *x, const char *head,
                      const char *const *usual)
{
    *n += (size_t)snprintf(text + *n, cap - *n, "%s", head);
    for (int k = 0; k < 3; k++) {
        *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
        const char *part = *x % 4 ? usual[k] : usual_parts[*x / 4 % (sizeof usual_parts /
                                                               sizeof usual_parts[0])];
        if (usual[k] && *x % 17 != 1 && *n + 40 < cap)
            *n += (size_t)snprintf(text + *n, cap - *n, "%s", part);
    }
    if (*x % 13 == 2 && *n + 40 < cap)
        *n += (size_t)snprintf(text + *n, cap - *n, " -PTID XY");
    *n += (size_t)snprintf(text + *n, cap - *n, "\n");
}

static void same_findings(const char *text, size_t len)
{
    run ra, rb;
    assert_int_equal(validate_len(&ra, text, len, adexp_validate),
                     validate_len(&rb, text, len, general_validate));
    if (ra.f.n != rb.f.n)
        fail_msg("%zu findings, the general walk %zu: %.*s", ra.f.n, rb.f.n, (int)len, text);
    for (size_t i = 0; i < ra.f.n; i++) {
        const adexp_finding *p = &ra.f.v[i], *q = &rb.f.v[i];
        assert_int_equal(p->code, q->code);
        assert_string_equal(p->field, q->field);
        assert_string_equal(p->message, q->message);
        assert_string_equal(p->expected, q->expected);
        assert_int_equal(p->offset, q->offset);
        assert_int_equal(p->line, q->line);
        assert_int_equal(p->column, q->column);
    }
    run_free(&ra);
    run_free(&rb);
}

static void usual_shapes_agree(void **state)
{
    (void)state;
    static const char *const point[] = {" -PTID ABC", " -FL F350", " -ETO 231130083000"};
    static const char *const lone[] = {" -PTID EDDF", NULL, NULL};
    static const char *const geo[] = {" -GEOID GEO01", " -LATTD 450000N", " -LONGTD 0100000E"};
    static const char *const est[] = {" -PTID ABC", " -ETO 231130090000", " -FL F350"};
    uint64_t x = 2463534242u;
    static char text[8192];
    size_t findings = 0;
    for (int m = 0; m < 3000; m++) {
        size_t n = (size_t)snprintf(text, sizeof text, "-TITLE IFPL\n-ARCID ABC123\n");
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        static const char *const lists[5] = {NULL, "RTEPTS", "ESTDATA", "XYZLIST", NULL};
        const char *list = lists[x % 5];
        if (list)
            n += (size_t)snprintf(text + n, sizeof text - n, "-BEGIN %s\n", list);
        for (int k = (int)(x / 5 % 6); k >= 0 && n + 200 < sizeof text; k--) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            const char *head = x % 7 == 3 ? "-PT F350" : x % 11 == 4 ? "-GEO" : "-PT";
            const char *const *usual = x % 3 == 0 ? lone : x % 5 == 1 ? geo : point;
            if (x % 9 == 5)
                head = "-ESTDATA", usual = est;
            put_shape(text, &n, sizeof text, &x, head, usual);
        }
        if (list)
            n += (size_t)snprintf(text + n, sizeof text - n, "-END %s\n", list);
        n += (size_t)snprintf(text + n, sizeof text - n, "-GEO -GEOID GEO02 -LATTD 450000N "
                                                         "-LONGTD 0100000E\n");
        same_findings(text, n);
        run r;
        validate_text(&r, text);
        findings += r.f.n;
        run_free(&r);
        size_t cut = (size_t)(x % n);     /* the same message cut short */
        same_findings(text, cut);
    }
    assert_true(findings > 1000);
    /* an ETO whose day is six NULs: refused, at its place; one of 000101
     * (the lowest day) with a bad time, then a valid one: the same findings */
    static const char nuls[] = "-TITLE IFPL -BEGIN RTEPTS -PT -PTID ABC -FL F350 "
                               "-ETO \0\0\0\0\0\0" "083000 -END RTEPTS\n";
    same_findings(nuls, sizeof nuls - 1);
    run r;
    assert_int_equal(validate_len(&r, nuls, sizeof nuls - 1, adexp_validate), ADEXP_OK);
    assert_int_equal(r.f.n, 1);
    assert_string_equal(r.f.v[0].field, "RTEPTS/PT[1]/ETO");
    run_free(&r);
    static const char first[] = "-TITLE IFPL -BEGIN RTEPTS -PT -PTID ABC -FL F350 "
                                "-ETO 000101245900 -PT -PTID ABC -FL F350 -ETO 000101235900 "
                                "-END RTEPTS\n";
    same_findings(first, sizeof first - 1);
}

/* Runs of one field (a route's points, an ADDR's FACs, ATSRT, DCT and
 * EETFIR lines, compounds, subfields and unknown fields repeated), a value
 * or a place wrong anywhere in them, at the top, in lists and compounds:
 * the library's walk, which visits a run's values in one loop, and the
 * general one find the same. */
static const char *const run_lines[] = {
    "-FAC LFPGZQZX", "-FAC EDDFZPZX", "-FAC ABCDEFGHIJKLMNOPQRSTUVWXYZ01234", "-FAC",
    "-FAC LF?GZQZX", "-ATSRT UN58 ZUROB GETEZ", "-ATSRT UN58 ZUROB", "-ATSRT UN58  ZUROB GETEZ",
    "-DCT VENEF DLM", "-DCT VENEF", "-DCT VEN-EF DLM", "-EETFIR LGGG 0009", "-EETFIR LGGG 0070",
    "-EETFIR LGGG  0009", "-PTID ABC", "-FL F350", "-XYZ 12", "-ESTDATA -PTID ABC -ETO "
    "231130090000 -FL F350", "-ESTDATA -PTID ABC -ETO 231130096000 -FL F350",
    "-PT -PTID ABC -FL F350 -ETO 231130083000", "-PT -PTID ABC -FL F350 -ETO 231130083060",
    "-PT -PTID AB*C -FL F350 -ETO 231130083000", "-PT -PTID ABC -FL F35 -ETO 231130083000",
    "-PT -PTID ABC -FL F350 -ETO 231130093000", "-PT -PTID A1 -FL A350 -ETO 231130093000",
    "-PT -PTID ABC", "-PT -PTID ABC -FL F350 -ETO 231131093000 -SFL F200",
};

/* Two FACs of eight bytes in a row (tested in one vector), each byte value
 * at each of their sixteen places: the findings are the general walk's. */
static void text_pairs_agree(void **state)
{
    (void)state;
    static const char head[] = "-TITLE IFPL\n-BEGIN ADDR\n-FAC ";
    char text[80];
    size_t at0 = sizeof head - 1, at1 = at0 + 14;
    size_t n = (size_t)snprintf(text, sizeof text, "%sLFPGZQZX\n-FAC EDDF 2/X\n-FAC "
                                "LIRRZQZA\n-END ADDR\n", head);
    for (unsigned i = 0; i < 16; i++)
        for (unsigned c = 0; c < 256; c++) {
            char t[80];
            memcpy(t, text, n + 1);
            t[i < 8 ? at0 + i : at1 + i - 8] = (char)c;
            same_findings(t, n);
        }
}

static void same_runs_agree(void **state)
{
    (void)state;
    static const char *const lists[] = {NULL, "ADDR", "RTEPTS", "ESTDATA", "XYZLIST"};
    uint64_t x = 88172645463325252u;
    static char text[8192];
    size_t findings = 0;
    for (int m = 0; m < 3000; m++) {
        size_t n = (size_t)snprintf(text, sizeof text, "-TITLE IFPL\n-ARCID ABC123\n");
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        const char *list = lists[x % 5];
        if (list)
            n += (size_t)snprintf(text + n, sizeof text - n, "-BEGIN %s\n", list);
        size_t usual = x / 5 % (sizeof run_lines / sizeof run_lines[0]);
        for (int k = (int)(x / 160 % 8); k >= 0 && n + 200 < sizeof text; k--) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            size_t i = x % 5 ? usual : x / 5 % (sizeof run_lines / sizeof run_lines[0]);
            n += (size_t)snprintf(text + n, sizeof text - n, "%s\n", run_lines[i]);
        }
        if (list)
            n += (size_t)snprintf(text + n, sizeof text - n, "-END %s\n", list);
        same_findings(text, n);
        run r;
        validate_text(&r, text);
        findings += r.f.n;
        run_free(&r);
        same_findings(text, (size_t)(x % n));
    }
    assert_true(findings > 1000);
}

/* Route points as the parser reads them (flagged ADEXP_FIELD_USUAL_POINT,
 * which the walk trusts) and the same trees with the flag cleared, and the
 * general walk: the same findings. Each byte value at each place of each
 * value of a point, with lengths around each bound (-PTID 1 to 6 bytes,
 * -FL 3 to 5, -ETO 11 to 13), the point in the middle of a route or its
 * last; returns how many points were flagged. */
static size_t clear_usual_points(adexp_field *f)
{
    size_t n = 0;
    for (; f; f = f->next) {
        n += (f->flags & ADEXP_FIELD_USUAL_POINT) != 0;
        f->flags &= (uint8_t)~ADEXP_FIELD_USUAL_POINT;
        n += clear_usual_points(f->child);
    }
    return n;
}

static void same_finding(const adexp_finding *p, const adexp_finding *q)
{
    assert_int_equal(p->code, q->code);
    assert_string_equal(p->field, q->field);
    assert_string_equal(p->message, q->message);
    assert_string_equal(p->expected, q->expected);
    assert_int_equal(p->value.len, q->value.len);
    assert_ptr_equal(p->value.ptr, q->value.ptr);
    assert_int_equal(p->offset, q->offset);
    assert_int_equal(p->line, q->line);
    assert_int_equal(p->column, q->column);
}

static size_t point_both_ways(const char *text, size_t len)
{
    run r;
    adexp_findings plain, general;
    assert_int_equal(validate_len(&r, text, len, adexp_validate), ADEXP_OK);
    adexp_findings_init(&general);
    assert_int_equal(general_validate(&r.msg, &r.arena, &general), ADEXP_OK);
    size_t flagged = clear_usual_points(r.msg.fields);
    adexp_findings_init(&plain);
    assert_int_equal(adexp_validate(&r.msg, &r.arena, &plain), ADEXP_OK);
    if (r.f.n != plain.n || r.f.n != general.n)
        fail_msg("%zu findings, %zu unflagged, %zu by the general walk: %.*s", r.f.n, plain.n,
                 general.n, (int)len, text);
    for (size_t i = 0; i < r.f.n; i++) {
        same_finding(&r.f.v[i], &plain.v[i]);
        same_finding(&r.f.v[i], &general.v[i]);
    }
    run_free(&r);
    return flagged;
}

/* s[0..n) at *o, moved on. */
static void put_bytes(char **o, const char *s, size_t n)
{
    memcpy(*o, s, n);
    *o += n;
}

static void usual_points_both_ways(void **state)
{
    (void)state;
    /* the longest of each value, cut shorter; the fields before the route
     * and after it keep its points out of the lexer's first tokens and the
     * input's last bytes, which the fused loop does not read */
    static const char *const longest[3] = {"A1B2ZQ", "F3500", "2311300900001"};
    static const size_t lens[3][2] = {{1, 6}, {3, 5}, {11, 13}};
    static const char *const before[3] = {"-PT -PTID ", " -FL ", " -ETO "};
    static const char head[] = "-TITLE IFPL\n-ARCID ABC123\n-ADEP EDDF\n-ADES LFPG\n"
                               "-EOBT 0830\n-BEGIN RTEPTS\n"
                               "-PT -PTID EDDF -FL F000 -ETO 231130083000\n";
    static const char next[] = "-PT -PTID LFPG -FL F350 -ETO 231130093000\n";
    static const char end[] = "-END RTEPTS\n-EOBD 231130\n-RFL F350\n-SSRCODE A1234\n"
                              "-ROUTE N0450F350 DCT ABC\n";
    size_t flagged = 0, texts = 0;
    for (unsigned v = 0; v < 3; v++)
        for (size_t n = lens[v][0]; n <= lens[v][1]; n++)
            for (size_t i = 0; i < n; i++)
                for (unsigned c = 0; c < 256; c++)
                    for (int last = 0; last < 2; last++) {
                        char val[3][16], text[320], *o = text;
                        size_t l[3] = {5, 4, 12};
                        l[v] = n;
                        for (unsigned k = 0; k < 3; k++)
                            memcpy(val[k], longest[k], l[k]);
                        val[v][i] = (char)c;
                        put_bytes(&o, head, sizeof head - 1);
                        for (unsigned k = 0; k < 3; k++) {
                            put_bytes(&o, before[k], strlen(before[k]));
                            put_bytes(&o, val[k], l[k]);
                        }
                        put_bytes(&o, "\n", 1);
                        if (!last)
                            put_bytes(&o, next, sizeof next - 1);
                        put_bytes(&o, end, sizeof end - 1);
                        flagged += point_both_ways(text, (size_t)(o - text));
                        texts++;
                    }
    /* where the CPU runs the fused loop, the first point and the others
     * when usual are read whole */
    if (cpu_has_avx2())
        assert_true(flagged > texts * 2);
}

/* Every arena allocation may fail: ADEXP_E_NOMEM, never a crash. */
static int budget;
static void *failing_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return budget-- > 0 ? malloc(size) : NULL;
}
static void plain_free(void *ctx, void *p, size_t size)
{
    (void)ctx, (void)size;
    free(p);
}

static void out_of_memory(void **state)
{
    (void)state;
    const char *text = "-TITLE IFPL -RFL X -EOBT Y -ADEP Z -ETO 1\n";
    adexp_allocator hooks = {failing_alloc, plain_free, NULL};
    for (int b = 0; b < 10; b++) {
        adexp_arena arena;
        adexp_msg msg;
        adexp_findings f;
        budget = 1 << 20;
        adexp_arena_init(&arena, &hooks);
        arena.chunk_size = 64;
        adexp_findings_init(&f);
        adexp_parse(text, strlen(text), &arena, &msg);
        budget = b;
        adexp_status st = adexp_validate(&msg, &arena, &f);
        assert_true(st == ADEXP_OK || st == ADEXP_E_NOMEM);
        assert_true(st == ADEXP_OK ? f.n == 5 : f.n < 5);
        for (size_t i = 0; i < f.n; i++)
            assert_non_null(f.v[i].field);
        adexp_arena_free(&arena);
    }
}

/* A value that needs more steps than the budget is NOT_CHECKED, fast. */
static void budget_runs_out(void **state)
{
    (void)state;
    static char text[200000];
    size_t n = (size_t)snprintf(text, sizeof text, "-TITLE IFPL -CEQPT ");
    while (n < sizeof text - 10)
        text[n++] = 'S';
    text[n++] = '?';
    text[n] = '\0';
    run r;
    validate_text(&r, text);
    assert_int_equal(r.f.n, 1);
    assert_true(r.f.v[0].code == ADEXP_V_NOT_CHECKED || r.f.v[0].code == ADEXP_V_BAD_VALUE);
    run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_term_valid_and_invalid),
        cmocka_unit_test(hand_picked_terms),
        cmocka_unit_test(dfa_agrees_with_matcher),
        cmocka_unit_test(fast_paths_agree_with_dfa),
        cmocka_unit_test(dt12_sweep),
        cmocka_unit_test(words_sweep),
        cmocka_unit_test(explain_agrees_with_matcher),
        cmocka_unit_test(valid_ifpl_is_clean),
        cmocka_unit_test(each_bad_value_at_its_field),
        cmocka_unit_test(structure_checks),
        cmocka_unit_test(spec_forms),
        cmocka_unit_test(character_set),
        cmocka_unit_test(text_fast_paths),
        cmocka_unit_test(point_bytes_sweep),
        cmocka_unit_test(point_bytes_n_sweep),
        cmocka_unit_test(chars_sweep),
        cmocka_unit_test(paths_and_positions),
        cmocka_unit_test(separators_and_lines),
        cmocka_unit_test(lines_back_and_forth),
        cmocka_unit_test(rules_agree_with_dictionary),
        cmocka_unit_test(presence_fast_path),
        cmocka_unit_test(usual_shapes_hold),
        cmocka_unit_test(usual_shapes_agree),
        cmocka_unit_test(same_runs_agree),
        cmocka_unit_test(usual_points_both_ways),
        cmocka_unit_test(text_pairs_agree),
        cmocka_unit_test(out_of_memory),
        cmocka_unit_test(budget_runs_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Differential tests: the main parser and the two reference parsers
 * (ref_regex.c, ref_split.c) must agree, on folded values, on the fields the
 * references understand, for every message of testdata/messages they can
 * handle and for a generated corpus. testdata is found through the
 * ADEXP_TESTDATA environment variable (set by meson) or argv[1]. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"

static const char *testdata;

/* Inputs of testdata/messages the line-oriented references cannot handle,
 * and why. This list is half of what the benchmark says: the references are
 * only "as good" as the main parser on canonical, one-field-per-line input.
 * The test checks that each of these really does trip a reference (so the
 * list cannot go stale silently) and prints how. */
static const struct skip {
    const char *file;
    const char *why;
} skip_list[] = {
#define ONE_LINE "several fields on one line"
    /* A line holds several fields: a line parser takes the rest of the line
     * as the value of the first one (TITLE = "ACT -REFDATA -SENDER ...") and
     * never sees ARCID, ADEP, ADES... The OLDI samples and the spec's own
     * examples are written like this, and so are whole IFPLs. */
    {"ABI-oneline-SWR88KL.adexp", ONE_LINE},
    {"ACP-eurocontrol-spec31-1.adexp", ONE_LINE},
    {"ACT-eurocontrol-spec31-1.adexp", ONE_LINE},
    {"ACT-oneline-cfl-sfl-SWR88KL.adexp", ONE_LINE},
    {"BFD-oneline-SWR88KL.adexp", ONE_LINE},
    {"CFD-oneline-cfl-sector-SWR88KL.adexp", ONE_LINE},
    {"COD-oneline-SWR88KL.adexp", ONE_LINE},
    {"CRAM-eurocontrol-spec31-1.adexp", ONE_LINE},
    {"HOP-eurocontrol-spec31-1.adexp", ONE_LINE},
    {"IFPL-oneline-oldi-SWR88KL-LSZH-EDDH.adexp", ONE_LINE},
    {"LAM-oneline-SWR88KL.adexp", ONE_LINE},
    {"MAC-oneline-cop-SWR88KL.adexp", ONE_LINE},
    {"PAC-oneline-etot-SWR88KL.adexp", ONE_LINE},
    {"REJ-imsg-1.adexp", ONE_LINE " (the first line)"},
    {"RRV-oneline-OAW6210.adexp", ONE_LINE},
    {"SAM-two-reguls-oneline-VLG73HB.adexp", ONE_LINE},
    {"multi-oldi-oneline-4-messages-SWR88KL.adexp", ONE_LINE},
    {"multi-pretty-and-oneline-3-messages.adexp", ONE_LINE " (the SAM)"},
    {"multi-same-line-back-to-back-3-LAM.adexp", ONE_LINE},
    {"tricky-compound-as-plain-text-CFD-AUA17K.adexp", ONE_LINE},
    {"tricky-misplaced-subfields-lattd-in-PT-BFD-OAW6210.adexp", ONE_LINE},
    {"tricky-no-final-newline-ABI-OAW6210.adexp", ONE_LINE},
    {"tricky-oneline-IFPL-DLH4CK.adexp", ONE_LINE},
    {"tricky-unknown-fields-BFD-OAW6210.adexp", ONE_LINE},
    {"tricky-local-fields-in-route-points-IFPL-CCA1501.adexp", ONE_LINE},
    {"tricky-misplaced-subfields-top-level-IFPL-DLH44.adexp", ONE_LINE},
    {"tricky-primary-and-unknown-in-point-IFPL-AFR77.adexp", ONE_LINE},
    {"tricky-spec-4.3.7-rfl-in-point-IFPL-CMB01.adexp", ONE_LINE},
    {"tricky-unknown-compound-TTO-SRM-EZY12.adexp", ONE_LINE},
    {"multi-bom-ff-vt-3-ACK-SWR12.adexp", ONE_LINE " (and a byte order mark, FF and VT)"},
#undef ONE_LINE
    /* "- TITLE FSA", "-" at the end of a line with the keyword on the next:
     * separators between '-' and the keyword are legal, but the references
     * want the keyword right after the '-' and drop or glue those lines */
    {"CAM-eurocontrol-spec31-1.adexp", "separator between '-' and keyword"},
    {"FSA-eurocontrol-spec31-1.adexp", "separator between '-' and keyword"},
    {"FSA-eurocontrol-spec31-2.adexp", "separator between '-' and keyword"},
    {"tricky-space-after-dash-ACT-AUA17K.adexp", "separator between '-' and keyword"},
    {"tricky-dash-at-line-end-IFPL-SAS1459.adexp", "line break between '-' and keyword"},
    /* -ORIGIN-NETWORKTYPE, -PT-PTID: the keyword pattern wants a space */
    {"tricky-glued-compound-keyword-IFPL-AEE602.adexp", "glued keywords (-PT-PTID)"},
    /* IFPL-BEGIN ADDR-FAC X: fields without a line break or space before '-' */
    {"tricky-no-separator-before-dash-IFPL-IBE3166.adexp", "no separator before '-'"},
    /* the references split lines on LF only */
    {"tricky-cr-only-SAM-EWG9KP.adexp", "lone CR line ends"},
};

static const char *skip_reason(const char *file)
{
    for (size_t i = 0; i < sizeof skip_list / sizeof skip_list[0]; i++)
        if (strcmp(skip_list[i].file, file) == 0)
            return skip_list[i].why;
    return NULL;
}

/* Parse buf with the three parsers. Returns 1 if all agree; else 0 with the
 * first difference in why. */
static int three_agree(const char *buf, size_t len, char *why, size_t cap)
{
    ref_view m, r, s;
    assert_int_equal(ref_main_parse(buf, len, &m), 0);
    int rr = ref_regex_parse(buf, len, &r);
    int rs = ref_split_parse(buf, len, &s);
    int ok = 1;
    char tmp[512];
    if (rr || rs) {
        snprintf(why, cap, "a reference failed (regex %d, split %d)", rr, rs);
        ok = 0;
    } else if (!ref_view_equal(&m, &r, tmp, sizeof tmp)) {
        snprintf(why, cap, "main vs regex: %s", tmp);
        ok = 0;
    } else if (!ref_view_equal(&m, &s, tmp, sizeof tmp)) {
        snprintf(why, cap, "main vs split: %s", tmp);
        ok = 0;
    }
    ref_view_free(&m);
    ref_view_free(&r);
    ref_view_free(&s);
    return ok;
}

/* Split buf into messages with the main parser (the references have no
 * notion of a message boundary) and compare each one. */
static int messages_agree(const char *buf, size_t len, char *why, size_t cap)
{
    adexp_parser *p = adexp_parser_new(NULL, NULL);
    adexp_arena arena;
    adexp_msg msg;
    int ok = 1;
    assert_non_null(p);
    adexp_arena_init(&arena, NULL);
    adexp_parser_reset(p, buf, len);
    while (ok && adexp_parser_next(p, &arena, &msg) != ADEXP_END) {
        char tmp[900];
        if (!three_agree(buf + msg.offset, msg.length, tmp, sizeof tmp)) {
            snprintf(why, cap, "message %zu: %s", msg.index, tmp);
            ok = 0;
        }
        adexp_arena_reset(&arena);
    }
    adexp_arena_free(&arena);
    adexp_parser_free(p);
    return ok;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of dir/\*.adexp; returns the count (0 if no dir). */
static size_t list_adexp(const char *dir, char ***names)
{
    DIR *d = opendir(dir);
    size_t n = 0, cap = 0;
    *names = NULL;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l < 7 || strcmp(e->d_name + l - 6, ".adexp") != 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            *names = realloc(*names, cap * sizeof **names);
            assert_non_null(*names);
        }
        (*names)[n++] = strdup(e->d_name);
    }
    closedir(d);
    if (n)
        qsort(*names, n, sizeof **names, by_name);
    return n;
}

static void test_ref_fold_equal_folds_separator_runs(void **state)
{
    (void)state;
    assert_true(ref_fold_equal("A  B\r\n C", " A B C "));
    assert_true(ref_fold_equal("", "  "));
    assert_true(ref_fold_equal(NULL, NULL));
    assert_false(ref_fold_equal(NULL, ""));
    assert_false(ref_fold_equal("AB", "A B"));
}

static void test_ref_teivah_three_parsers_agree(void **state)
{
    (void)state;
    char why[1024];
    ref_view m;
    assert_int_equal(ref_main_parse(ref_teivah_ifpl, ref_teivah_ifpl_len, &m), 0);
    assert_string_equal(m.arcid, "ACA878");
    assert_int_equal(m.n_rtepts, 5);
    assert_int_equal(m.eetfir.n, 13);
    assert_int_equal(m.n_estdata, 2);
    assert_int_equal(m.n_geo, 3);
    assert_int_equal(m.speed.n, 2);
    assert_string_equal(m.rtepts[3].ptid, "BLM");
    ref_view_free(&m);
    if (!three_agree(ref_teivah_ifpl, ref_teivah_ifpl_len, why, sizeof why))
        fail_msg("teivah: %s", why);
}

static void test_ref_testdata_messages_agree(void **state)
{
    (void)state;
    char dir[4096], path[4096 + 256], why[1024];
    snprintf(dir, sizeof dir, "%s/messages", testdata);
    char **names;
    size_t n = list_adexp(dir, &names), compared = 0, failed = 0;
    if (n == 0) {
        print_message("no %s/*.adexp yet: nothing to compare\n", dir);
        skip();
    }
    for (size_t i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        size_t len;
        char *buf = ref_read_file(path, &len);
        assert_non_null(buf);
        const char *reason = skip_reason(names[i]);
        int agree = messages_agree(buf, len, why, sizeof why);
        if (reason && agree) {
            print_error("%s is on the skip list (%s) but all three agree\n", names[i],
                        reason);
            failed++;
        } else if (reason) {
            print_message("skipped %s (%s): %s\n", names[i], reason, why);
        } else if (!agree) {
            print_error("%s: %s\n", names[i], why);
            failed++;
        } else {
            compared++;
        }
        free(buf);
        free(names[i]);
    }
    free(names);
    print_message("%zu files compared, %zu failed\n", compared, failed);
    assert_int_equal(failed, 0);
    assert_true(compared > 0);
}

/* Broken inputs: the references must not crash, whatever they return. */
static void test_ref_testdata_invalid_no_crash(void **state)
{
    (void)state;
    char dir[4096], path[4096 + 256];
    snprintf(dir, sizeof dir, "%s/invalid", testdata);
    char **names;
    size_t n = list_adexp(dir, &names);
    if (n == 0)
        skip();
    for (size_t i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        size_t len;
        char *buf = ref_read_file(path, &len);
        assert_non_null(buf);
        ref_view v;
        ref_regex_parse(buf, len, &v);
        ref_view_free(&v);
        ref_split_parse(buf, len, &v);
        ref_view_free(&v);
        ref_main_parse(buf, len, &v);
        ref_view_free(&v);
        free(buf);
        free(names[i]);
    }
    free(names);
}

/* ADEXP quoted in a bracketed text over several lines (a REJ's OLDMSG,
 * an ACK's MSGTXT), lines inside starting with '-', -TITLE among them,
 * brackets nested, a field after the closing bracket on its line: one
 * message each, the quote its text's value, as the library reads them
 * (FORMAT.md: a text from its '(' to the matching ')'). */
static void test_ref_quoted_adexp_agrees(void **state)
{
    (void)state;
    static const char src[] =
        "-TITLE REJ\n-MSGTYP IFPL\n-FILTIM 150521\n"
        "-OLDMSG (-TITLE IFPL\n-ARCID KLM1023\n-ADEP EHAM\n"
        "-MSGTXT (FPL-KLM1023-IS\n-B738/M-SDFGIRWY/S\n-EGLL0100))\n"
        "-TITLE ACK\n-MSGTYP IFPL\n-IFPLID AA12345678\n"
        "-MSGTXT (\n-TITLE IFPL\n-ARCID KLM1024 -ADEP EHAM\n-EOBT 0935) -COMMENT QUOTED\n"
        "-ADES EGLL\n";
    char why[1024];
    if (!messages_agree(src, sizeof src - 1, why, sizeof why))
        fail_msg("%s", why);
    ref_view v;
    const char *ack = strstr(src, "-TITLE ACK");
    assert_int_equal(ref_split_parse(src, (size_t)(ack - src), &v), 0);
    assert_null(v.arcid);      /* KLM1023 is the quote's */
    assert_null(v.adep);
    ref_view_free(&v);
    assert_int_equal(ref_regex_parse(ack, strlen(ack), &v), 0);
    assert_true(ref_fold_equal(v.msgtxt, "( -TITLE IFPL -ARCID KLM1024 -ADEP EHAM -EOBT 0935)"));
    assert_string_equal(v.comment, "QUOTED");
    assert_string_equal(v.ades, "EGLL");
    assert_null(v.arcid);
    ref_view_free(&v);
    char path[4096];
    snprintf(path, sizeof path, "%s/feeds/quoted-adexp-REJ-ACK-KLM1023.adexp", testdata);
    size_t len;
    char *buf = ref_read_file(path, &len);
    assert_non_null(buf);
    if (!messages_agree(buf, len, why, sizeof why))
        fail_msg("%s: %s", path, why);
    free(buf);
}

static void test_ref_generated_corpus_agrees(void **state)
{
    (void)state;
    char *buf, why[1024];
    size_t len, *offs, n = 3000, pts = 0;
    assert_int_equal(ref_gen_corpus(42, n, &buf, &len, &offs), 0);
    for (size_t i = 0; i < n; i++) {
        const char *m = buf + offs[i];
        size_t ml = offs[i + 1] - offs[i];
        if (!three_agree(m, ml, why, sizeof why))
            fail_msg("generated message %zu: %s\n%.*s", i, why, (int)ml, m);
        ref_view v;
        assert_int_equal(ref_split_parse(m, ml, &v), 0);
        pts += v.n_rtepts;
        ref_view_free(&v);
    }
    assert_true(pts > n);      /* the corpus does exercise RTEPTS */
    free(buf);
    free(offs);
}

static void test_ref_generated_corpus_is_deterministic(void **state)
{
    (void)state;
    char *a, *b;
    size_t la, lb, *oa, *ob;
    assert_int_equal(ref_gen_corpus(7, 500, &a, &la, &oa), 0);
    assert_int_equal(ref_gen_corpus(7, 500, &b, &lb, &ob), 0);
    assert_int_equal(la, lb);
    assert_memory_equal(a, b, la);
    free(a);
    free(b);
    free(oa);
    free(ob);
}

int main(int argc, char **argv)
{
    testdata = argc > 1 ? argv[1] : getenv("ADEXP_TESTDATA");
    if (!testdata)
        testdata = "testdata";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ref_fold_equal_folds_separator_runs),
        cmocka_unit_test(test_ref_teivah_three_parsers_agree),
        cmocka_unit_test(test_ref_testdata_messages_agree),
        cmocka_unit_test(test_ref_testdata_invalid_no_crash),
        cmocka_unit_test(test_ref_quoted_adexp_agrees),
        cmocka_unit_test(test_ref_generated_corpus_agrees),
        cmocka_unit_test(test_ref_generated_corpus_is_deterministic),
    };
    return cmocka_run_group_tests_name("ref", tests, NULL, NULL);
}

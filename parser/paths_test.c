/* The parser's runs (the loop that reads plain fields with its state in
 * locals) against its general code alone: parser.c, build.c and descent.c built with
 * ADEXP_PARSER_NO_RUN, public symbols renamed general_* (see
 * parser/meson.build), must give the same messages: every node, error,
 * status and span, on testdata, a generated corpus and mutations of it
 * (stray and mismatched -BEGIN/-END, extra -TITLE, unknown keywords,
 * unclosed text, dropped and repeated fields), under default and tight
 * limits, with the arena reset per message and not. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adexp.h"
#include "ref.h"
#include "usual_point.h"

adexp_parser *general_adexp_parser_new(const adexp_options *opts,
                                       const adexp_allocator *hooks);
void general_adexp_parser_free(adexp_parser *p);
void general_adexp_parser_reset(adexp_parser *p, const char *buf, size_t len);
adexp_status general_adexp_parser_next(adexp_parser *p, adexp_arena *arena, adexp_msg *msg);

static const char *testdata;

/* Limits that cut runs short at every place: depth, fields, list items,
 * message size, errors kept, keyword length (around -NETWORKTYPE's 11,
 * which the runs read past the scan's 8); D keeps the default. */
#define D UINT32_MAX
static const uint32_t limit_sets[][6] = {
    {D, D, D, D, D, D},        {2, D, D, D, D, D},     {64, D, D, 500, 1, D},
    {64, D, D, 5000, D, D},    {3, D, 0, D, D, D},     {3, 40, D, D, D, 5},
    {4, 100, 3, D, D, D},      {64, D, 2, D, D, D},    {1, 50, 5, 600, D, D},
    {2, 1000, 0, 2000, 2, D},  {3, 30, D, D, D, D},    {D, 0, D, D, D, D},
    {5, 200, 10, 300, D, D},   {D, D, D, D, D, 4},     {D, D, D, 1000, D, 2},
    {D, D, D, D, D, 10},       {4, 60, 4, D, D, 11},
};
#define NSETS (sizeof limit_sets / sizeof limit_sets[0])

static adexp_options options_of(size_t k)
{
    adexp_options o = adexp_options_default();
    const uint32_t *l = limit_sets[k];
    if (l[0] != D) o.max_depth = l[0];
    if (l[1] != D) o.max_fields = l[1];
    if (l[2] != D) o.max_list_items = l[2];
    if (l[3] != D) o.max_message_size = l[3];
    if (l[4] != D) o.max_errors = l[4];
    if (l[5] != D) o.max_keyword_len = l[5];
    return o;
}
#undef D

static void same_tree(const adexp_field *a, const adexp_field *b)
{
    for (; a || b; a = a->next, b = b->next) {
        assert_non_null(a);
        assert_non_null(b);
        assert_ptr_equal(a->keyword.ptr, b->keyword.ptr);
        assert_int_equal(a->keyword.len, b->keyword.len);
        assert_ptr_equal(a->value.ptr, b->value.ptr);
        assert_int_equal(a->value.len, b->value.len);
        assert_int_equal(a->offset, b->offset);
        assert_int_equal(a->nchildren, b->nchildren);
        assert_int_equal(a->kind, b->kind);
        /* the runs' claim of a point read whole, which the general code
         * never makes: all else the same */
        assert_int_equal(a->flags & ~ADEXP_FIELD_USUAL_POINT, b->flags);
        if (a->flags & ADEXP_FIELD_USUAL_POINT)
            assert_true(usual_point_holds(a));
        assert_int_equal(a->dict_id, b->dict_id);
        same_tree(a->child, b->child);
    }
}

static void same_msg(const adexp_msg *a, const adexp_msg *b)
{
    assert_int_equal(a->nfields, b->nfields);
    assert_int_equal(a->offset, b->offset);
    assert_int_equal(a->length, b->length);
    assert_int_equal(a->index, b->index);
    assert_int_equal(a->nerrors, b->nerrors);
    assert_int_equal(a->nerrors_total, b->nerrors_total);
    for (size_t i = 0; i < a->nerrors; i++) {
        assert_int_equal(a->errors[i].code, b->errors[i].code);
        assert_int_equal(a->errors[i].offset, b->errors[i].offset);
        assert_int_equal(a->errors[i].line, b->errors[i].line);
        assert_int_equal(a->errors[i].column, b->errors[i].column);
    }
    same_tree(a->fields, b->fields);
    assert_int_equal(a->view.n_rtepts, b->view.n_rtepts);
    assert_int_equal(a->view.addr.n, b->view.addr.n);
}

/* Parse an exactly-sized copy of src with both builds under limit set k;
 * returns the number of messages. */
static size_t same_messages(const char *src, size_t len, size_t k, int reset)
{
    adexp_options o = options_of(k);
    char *buf = malloc(len ? len : 1);
    assert_non_null(buf);
    memcpy(buf, src, len);
    adexp_parser *p = adexp_parser_new(&o, NULL), *g = general_adexp_parser_new(&o, NULL);
    assert_non_null(p);
    assert_non_null(g);
    adexp_arena ap, ag;
    adexp_arena_init(&ap, NULL);
    adexp_arena_init(&ag, NULL);
    adexp_parser_reset(p, buf, len);
    general_adexp_parser_reset(g, buf, len);
    size_t n = 0;
    for (;;) {
        adexp_msg mp, mg;
        if (reset) {
            adexp_arena_reset(&ap);
            adexp_arena_reset(&ag);
        }
        adexp_status sp = adexp_parser_next(p, &ap, &mp);
        adexp_status sg = general_adexp_parser_next(g, &ag, &mg);
        assert_int_equal(sp, sg);
        if (sp == ADEXP_END)
            break;
        same_msg(&mp, &mg);
        n++;
    }
    adexp_arena_free(&ap);
    adexp_arena_free(&ag);
    adexp_parser_free(p);
    general_adexp_parser_free(g);
    free(buf);
    return n;
}

static void same_all_limits(const char *src, size_t len)
{
    for (size_t k = 0; k < NSETS; k++)
        same_messages(src, len, k, k % 2);
}

static long check_dir(const char *sub)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", testdata, sub);
    long files = ref_each_adexp(dir, same_all_limits);
    assert_true(files >= 0);
    return files;
}

static void test_paths_testdata(void **state)
{
    (void)state;
    long files = check_dir("messages") + check_dir("invalid") + check_dir("regress");
    if (files == 0)
        skip();
}

static void test_paths_generated_corpus(void **state)
{
    (void)state;
    char *buf;
    size_t len, *offs;
    assert_int_equal(ref_gen_corpus(7, 1000, &buf, &len, &offs), 0);
    for (size_t k = 0; k < NSETS; k++) {
        size_t n = same_messages(buf, len, k, 1);
        if (k == 0)                /* the defaults: every message, whole */
            assert_int_equal(n, 1000);
    }
    free(buf);
    free(offs);
}

/* Pieces spliced into generated messages at field starts. */
static const char *const splices[] = {
    "-BEGIN RTEPTS", "-END RTEPTS", "-BEGIN ADDR", "-END ADDR", "-BEGIN FOO", "-END FOO",
    "-BEGIN", "-END", "-BEGIN RTEPTS X", "-END ADDR Y", "-BEGIN IFPDLONG", "-END IFPDLONG",
    "-BEGIN PT", "-BEGIN ESTDATA", "-TITLE IFPL", "-TITLE", "-PT", "-PTID AB", "-ETO 1",
    "-FL F10", "-GEOID G", "-LATTD 1N", "-ESTDATA", "-GEO", "-ZZZ 1", "-ZZZ", "-FAC X",
    "-ADEP LFPG", "-MSGTXT (ABC", "-MSGTXT (A-B)", "-", "- X", "--",
    "-REFDATA -SENDER -FAC A", "-ORIGIN -NETWORKTYPE X", "-NETWORKTYPE Y", "-SEQNUM 1",
    "-COORDATA -PTID X", "-ARCID", "-BEGIN EQCST", "-END EQCST", "-EQPT W/EQ",
    "-BEGIN RFPDLONG", "-END RFPDLONG",
    /* the shapes of issue 14 */
    "-ISPASS Y", "-RFL F370", "-SPEED N0450", "-XLOC -LATTD 1N -LONGTD 2E", "-TTO -PTID X",
    "-END RTEPTS NNNN", "-GEOID G -LATTD 1N", "\f", "\v", "-PT -PTID A -FL F1 -ETO 1",
};
#define NSPLICES (sizeof splices / sizeof splices[0])

static uint64_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return *s >> 33;
}

/* Message m of the corpus, mutated into out (cap bytes): pieces are the
 * spans that start at a '-' after a separator; some are dropped, repeated,
 * or get a splice before them. Returns the length. */
static size_t mutate(const char *m, size_t len, char *out, size_t cap, uint64_t *s)
{
    size_t starts[2048], n = 0, o = 0;
    for (size_t i = 0; i < len && n < 2047; i++)
        if (m[i] == '-' && (i == 0 || m[i - 1] == ' ' || m[i - 1] == '\n'))
            starts[n++] = i;
    starts[n] = len;
    size_t edits = rnd(s) % 7;
    for (size_t i = 0; i < n; i++) {
        size_t a = starts[i], b = starts[i + 1], times = 1;
        if (edits && rnd(s) % (n / edits + 1) == 0) {
            unsigned r = (unsigned)(rnd(s) % 10);
            if (r < 6)
                o += (size_t)snprintf(out + o, cap - o, "%s%s", splices[rnd(s) % NSPLICES],
                                      r % 2 ? "\n" : " ");
            else
                times = r < 8 ? 0 : 2;
            edits--;
        }
        for (size_t t = 0; t < times && o + (b - a) < cap - 64; t++) {
            memcpy(out + o, m + a, b - a);
            o += b - a;
        }
    }
    return o;
}

static void test_paths_mutated(void **state)
{
    (void)state;
    char *buf;
    size_t len, *offs, nmsg = 300;
    assert_int_equal(ref_gen_corpus(11, nmsg, &buf, &len, &offs), 0);
    static char out[1 << 17];
    uint64_t s = 2026;
    for (int iter = 0; iter < 3000; iter++) {
        size_t o = 0, parts = 1 + rnd(&s) % 4;
        for (size_t k = 0; k < parts; k++) {
            size_t i = rnd(&s) % nmsg;
            o += mutate(buf + offs[i], offs[i + 1] - offs[i], out + o, sizeof out - o, &s);
        }
        same_all_limits(out, o);
    }
    free(buf);
    free(offs);
}

/* Each case after a message's first fields, on one line and on lines of
 * its own, under every limit set. */
static void same_cases(const char *const *cases, size_t ncases)
{
    char in[512];
    for (size_t i = 0; i < ncases; i++)
        for (int form = 0; form < 2; form++) {
            int n = snprintf(in, sizeof in,
                             "-TITLE IFPL -ARCID ABC123 -ADEP LFPG -ADES EGLL -ARCTYP A320%s%s%s",
                             form ? "\n" : " ", cases[i], form ? "\n" : "");
            assert_true(n > 0 && (size_t)n < sizeof in);
            for (size_t k = 0; k < NSETS; k++)
                same_messages(in, (size_t)n, k, 1);
        }
}

/* Lists as run_fused reads them (-BEGIN X / -END X of a hot list name) and
 * every way out of one: nested, mismatched, unclosed, malformed names, a
 * compound open at -BEGIN or -END, limits at the list, the input's end
 * inside it; with a long field first so that the fused loop is running. */
static void test_paths_lists(void **state)
{
    (void)state;
    static const char *const cases[] = {
        "-BEGIN RTEPTS -PT -PTID A -FL F1 -PT -PTID B -END RTEPTS -ADEP X",
        "-BEGIN RTEPTS -PT -PTID A -BEGIN ADDR -FAC F -END ADDR -END RTEPTS -ADEP X",
        "-BEGIN RTEPTS -PT -PTID A -END ADDR -ADEP X",
        "-BEGIN RTEPTS -PT -PTID A -ADEP X",
        "-BEGIN RTEPTS -PT -PTID A -FL F1",
        "-BEGIN RTEPTS",
        "-BEGIN RTEPTS X -PT -PTID A -END RTEPTS",
        "-BEGIN -PT -PTID A -END RTEPTS",
        "-BEGIN RTEPTS -PT -PTID A -END RTEPTS X -ADEP Y",
        "-BEGIN RTEPTS -PT -PTID A -END -ADEP Y",
        "-GEO -GEOID G -BEGIN ADDR -FAC A -FAC B -END ADDR",
        "-BEGIN ADDR -FAC A -FAC B -END ADDR -BEGIN ADDR -FAC C -END ADDR",
        "-BEGIN RTEPTS -PT -PTID A -TITLE IFPL -END RTEPTS",
        "-BEGIN RTEPTS -PT -PTID A -ZZZ 1 -PT -PTID B -END RTEPTS",
        "-BEGIN RTEPTS -PT -PTID A -MSGTXT (X-Y) -PT -PTID B -END RTEPTS",
        "-BEGIN RTEPTS -PT -PTID A -PTID B -FL F1 -END RTEPTS",
        "-BEGIN EQCST -EQPT W/EQ -EQPT Y/NO -END EQCST -ADEP Z",
        "-BEGIN RTEPTS -PT -PTID A -END RTEPTS -END RTEPTS -ADEP Z",
        "-END RTEPTS -BEGIN RTEPTS -PT -PTID A -END RTEPTS",
        "-BEGIN RTEPTS -BEGIN RTEPTS -PT -PTID A -END RTEPTS -END RTEPTS",
    };
    same_cases(cases, sizeof cases / sizeof cases[0]);
}

/* Compounds in a compound as run_fused reads them (-REFDATA -SENDER -FAC X)
 * and every way out of one: the input's end, an unknown or malformed field,
 * -BEGIN/-END, a -TITLE, a text field, a second one, limits. */
/* The grammar's rules of issue 14 (parser/grammar.h) on route points the
 * fused loop reads at once: local and unknown fields at the end of a point,
 * primary keywords inside it, unknown compounds, misplaced subfields, an
 * -END with text after its name, FF and VT; with the usual points around
 * them, so that fused_points is running when they come. */
static void test_paths_element_rules(void **state)
{
    (void)state;
    static const char *const cases[] = {
        "-BEGIN RTEPTS -PT -PTID ZSNB -FL S0841 -ETO 231012010000 -ISPASS Y "
        "-PT -PTID P448 -FL S0841 -ETO 231012011000 -ISPASS N -PT -PTID XYZ "
        "-FL F1 -ETO 231012012000 -END RTEPTS",
        "-BEGIN RTEPTS -PT -PTID A -FL F1 -ETO 1 -PT -PTID B -FL F2 -ETO 2 -RFL F370 "
        "-PT -PTID C -FL F3 -ETO 3 -END RTEPTS -ADEP X",
        "-BEGIN RTEPTS -PT -PTID A -FL F1 -ETO 1 -SPEED N0450 -RFL F3 -ZZ 1 "
        "-PT -PTID B -FL F2 -ETO 2 -END RTEPTS",
        "-BEGIN RTEPTS -PT -PTID A -FL F1 -ETO 1 -XLOC -LATTD 1N -LONGTD 2E -FL F3 "
        "-PT -PTID B -FL F2 -ETO 2 -XLOC -LATTD 1N -END RTEPTS",
        "-BEGIN RTEPTS -PT -PTID A -FL F1 -ETO 1 -ESTDATA -PTID B -ETO 1 "
        "-PT -PTID B -FL F2 -ETO 2 -END RTEPTS",
        "-BEGIN RTEPTS -PT -PTID A -FL F1 -ETO 1 -BEGIN XL -FAC 1 -END XL "
        "-PT -PTID B -FL F2 -ETO 2 -END RTEPTS",
        "-BEGIN RTEPTS -PT -PTID A -FL F1 -ETO 1 -MSGTXT (A-B) -PT -PTID B -FL F2 -ETO 2 "
        "-END RTEPTS",
        "-BEGIN RTEPTS -PT -PTID A -FL F1 -ETO 1 -END RTEPTS NNNN -ADEP X",
        "-BEGIN RTEPTS -PTID A -PT -PTID B -FL F2 -ETO 2 -END RTEPTS",
        "-GEOID G -LATTD 1N -LONGTD 2E -ADEP X -PTID Y",
        "-PT -PTID A -FL F1 -ETO 1 -PT -PTID B -FL F2 -ETO 2 -ADEP X",
        "-TTO -PTID X -TO 1945 -FL F350 -ADEP X",
        "-BEGIN XL -PT -PTID A -FL F1 -ETO 1 -ZZ 1 -PT -PTID B -FL F2 -ETO 2 -END XL",
        "-BEGIN ADDR -FAC A -XF B -FAC C -END ADDR",
        "-ADEP X\f-TITLE ACK -ARCID B\v-TITLE LAM\f\v-ARCID C",
        "-ADEP X -LATTD 520000N 520000N 520000N 520000N 520000N 520000N",
        "-BEGIN IFPDLIST -BEGIN IFPDLONG -TITLE IFPL -ORIGIN -FAC A -ZZ 1 -GEOID G "
        "-END IFPDLONG -END IFPDLIST",
    };
    same_cases(cases, sizeof cases / sizeof cases[0]);
}

static void test_paths_nested_compounds(void **state)
{
    (void)state;
    static const char *const cases[] = {
        "-REFDATA -SENDER -FAC A -RECVR -FAC B -SEQNUM 1 -ADEP X",
        "-REFDATA -SENDER -FAC A -RECVR -FAC B -SEQNUM 1",
        "-REFDATA -SENDER -FAC A",
        "-REFDATA -SENDER -FAC A -ZZZ 1 -RECVR -FAC B",
        "-REFDATA -SENDER -FAC A -NETWORKTYPE N -RECVR -FAC B -SEQNUM 1",
        "-REFDATA -SENDER -FAC A -BEGIN -FAC B -SEQNUM 1",
        "-REFDATA -SENDER -FAC A -BEGIN ADDR -FAC B -END ADDR -SEQNUM 1",
        "-REFDATA -SENDER -FAC A -END ADDR -SEQNUM 1",
        "-REFDATA -SENDER -FAC A -TITLE IFPL -ARCID B",
        "-REFDATA -SENDER -FAC A -MSGTXT (A-B) -SEQNUM 1",
        "-REFDATA -SENDER -SENDER -FAC A -FAC B -SEQNUM 1",
        "-REFDATA -SENDER -FAC A -FAC B -FAC C -RECVR -SEQNUM 1 -MSGREF -SENDER -FAC D",
        "-MSGREF -SENDER -FAC A -RECVR -FAC B -SEQNUM 1 -REFDATA -SENDER -FAC C",
        "-ORIGIN -NETWORKTYPE SITA -FAC LFPGZPZX -REFDATA -SENDER -FAC A",
        "-BEGIN RTEPTS -PT -PTID A -END RTEPTS -REFDATA -RECVR -FAC B",
        "-REFDATA -SEQNUM 1 -SENDER -FAC A -SEQNUM 2 -RECVR -FAC B",
    };
    same_cases(cases, sizeof cases / sizeof cases[0]);
}

/* Keywords longer than the scan's 8 bytes in a compound, which run_fused
 * reads itself if basic subfields of it (scan_cold_keyword: -NETWORKTYPE
 * in -ORIGIN), and all that should leave them to the lexer: no compound
 * open, one that does not allow them, a compound or text entry, an
 * unknown or look-alike keyword, a value past the window, glued or empty
 * values, the input's end; the limit sets cut max_keyword_len at 10. */
static void test_paths_long_keywords(void **state)
{
    (void)state;
    /* more fields after most cases, so that the input's end is not in the
     * scan's window at the long keyword */
#define MORE " -EOBD 250101 -EOBT 1200 -ADES EGLL -ARCTYP A320"
    static const char *const cases[] = {
        "-ORIGIN -NETWORKTYPE AFTN -FAC EYVIAFRX -ADEP X" MORE,
        "-ORIGIN -NETWORKTYPE SITA -FAC A -NETWORKTYPE AFTN -FAC B" MORE,
        "-ORIGIN -FAC A -NETWORKTYPE AFTN" MORE,
        "-ORIGIN -NETWORKTYPE -FAC A" MORE,
        "-ORIGIN -NETWORKTYPE-FAC A" MORE,
        "-ORIGIN -NETWORKTYPE\tAFTN\r\n-FAC A" MORE,
        "-ORIGIN -NETWORKTYPE A B C D E F G H I J K L M N O P Q -FAC A" MORE,
        "-ORIGIN -NETWORKTYPEX AFTN -FAC A" MORE,
        "-ORIGIN -NETWORKTYP AFTN -FAC A" MORE,
        "-ORIGIN -networktype AFTN -FAC A" MORE,
        "-ORIGIN -ABCDEFGHIJK 1 -FAC A" MORE,
        "-ORIGIN -ADSADDRESS 1 -FAC A" MORE,
        "-ORIGIN -AFREGULLIST 1 -FAC A" MORE,
        "-NETWORKTYPE AFTN -ADEP X" MORE,
        "-ESTDATA -PTID A -NETWORKTYPE AFTN -ETO 1" MORE,
        "-ADSQVLTSP -ADSADDRESS 1 -AGAPPVERSION 2 -ADEP X" MORE,
        "-BEGIN ADDR -FAC A -NETWORKTYPE B -END ADDR" MORE,
        "-BEGIN RTEPTS -PT -PTID A -FL F1 -ETO 1 -NETWORKTYPE B -PT -PTID B -FL F2 "
        "-ETO 2 -END RTEPTS" MORE,
        "-REFDATA -SENDER -FAC A -NETWORKTYPE B -SEQNUM 1" MORE,
        "-ORIGIN -NETWORKTYPE AFTN",
        "-ORIGIN -NETWORKTYPE",
    };
    same_cases(cases, sizeof cases / sizeof cases[0]);
#undef MORE
}

/* Keywords that no hot slot holds, as real traffic has them (AUP, CRAM,
 * ARR, CAM, LAM), which run_fused reads out of its loop (fused_cold_field):
 * basic primary fields, compounds that open and their subfields, in the
 * message and in lists, short and long keywords (the limit sets cut
 * max_keyword_len at 10), repeats, before the input's end; and all that
 * it leaves to the lexer: unknown, text and look-alike keywords, a value
 * past the window, list names, compounds in compounds. */
static void test_paths_cold_keywords(void **state)
{
    (void)state;
#define MORE " -EOBD 250101 -EOBT 1200 -ADES EGLL -ARCTYP A320"
    static const char *const cases[] = {
        "-TITLE ARR -ARCID DLH9CE -ADARR EDDL -ATA 0938 -ADA 250303 -ORGN EDDLZPZX" MORE,
        "-TITLE AUP -PART -NUM 001 -LASTNUM 002 -FILTIM 131510"
        " -MESVALPERIOD 202503140600 202503150600" MORE,
        "-TITLE AUP -BEGIN LATSA -AIRSPACE -NUM 001 -AIRSPDES EDTSA205 -FLBLOCK -FL F100"
        " -FL F245 -VALPERIOD 202503140800 202503141200 -RESPUNIT EDGG -AIRSPACE -NUM 002"
        " -AIRSPDES EDR305A -REMARK LIVE FIRING -END LATSA" MORE,
        "-TITLE CRAM -BEGIN LACDR -AIRROUTE -NUM 001 -REFATSRTE T721 ABGAS ED ERNAS ED"
        " -FLBLOCK -FL F105 -FL F245 -VALPERIOD 202503140600 202503150600 -AIRROUTE"
        " -NUM 002 -REFATSRTE UT10 ODINA LF KOTIS LF -END LACDR" MORE,
        "-TITLE LAM -NUM 1 -NUM 2 -NUM 3 -ORGN A -ORGN B -ATA 1 -ATA 2" MORE,
        "-VALPERIOD 1 2 -VALPERIOD 3 4 -REFATSRTE A B -MESVALPERIOD 5 6" MORE,
        "-ATA\t0938\r\n-ADA 250303\r\n-ORGN    EDDL   -ADARR-ATD 1" MORE,
        "-ATA 0938 -ADA " "A B C D E F G H I J K L M N O P Q R S T U V" MORE,
        "-ISPASS 1 -CLEARED 2 -XID 3 -ATAX 4 -AT 5 -ata 6 -OLDMSG (A-B) -ADA 7" MORE,
        "-REFDATA -SENDER -FAC A -ORGN B -ATA 1 -RECVR -FAC C" MORE,
        "-BEGIN ADDR -FAC A -ORGN B -END ADDR -BEGIN RTEPTS -PT -PTID A -ATA 1"
        " -END RTEPTS" MORE,
        "-ATA 0938 -ADA 250303 -ORGN EDDLZPZX",
        "-ORGN EDDLZPZX -PART -NUM 1",
        "-REFATSRTE A -REFATSRTA 57 -REFATSRTE B -REFATSRTEX C -VALPERIODS 1 -VALPERIOD 2",
        "-BEGIN L -NUM -REFATSRTE-REFATSRTA 57 -RFLFL -RFL" MORE,
        "-BEGIN L -NUM -REFATSRTE A -REFATSRTA 57 -REFATSRTEX 1 -VALPERIOD 1 -VALPERIODX 2" MORE,
        "-NUM",
    };
    same_cases(cases, sizeof cases / sizeof cases[0]);
#undef MORE
}

/* Cold keywords where the run's frame is a compound (run_fused_in: the
 * general code opened it, here after an unknown keyword, a long value or a
 * text in it), and where one ends the compound open (-VALPERIOD after
 * -FLBLOCK's subfields, in -AIRSPACE): fused_cold_field reads them in the
 * frame's cases as the loop reads a hot field; a compound in the compound
 * open, a field the frame does not allow and a keyword that ends the frame
 * stay the lexer's. */
static void test_paths_cold_in_compounds(void **state)
{
    (void)state;
#define MORE " -EOBD 250101 -EOBT 1200 -ADES EGLL -ARCTYP A320"
#define LONG " A B C D E F G H I J K L M N O P Q R S T U V W X Y Z"
    static const char *const cases[] = {
        "-TITLE AUP -BEGIN LATSA -AIRSPACE -ZZZ 1 -NUM 001 -AIRSPDES EDTSA205 -FLBLOCK"
        " -FL F100 -FL F245 -VALPERIOD 202503140800 202503141200 -RESPUNIT EDGG"
        " -REMARK LIVE FIRING -AIRSPACE -NUM 002 -END LATSA" MORE,
        "-TITLE AUP -BEGIN LATSA -AIRSPACE -NUM 001 -REMARK" LONG " -AIRSPDES EDR305A"
        " -FLBLOCK -FL A025 -FL F100 -VALPERIOD 1 2 -RESPUNIT EDMM -END LATSA" MORE,
        "-TITLE AUP -BEGIN LATSA -AIRSPACE -MSGTXT (A-B) -NUM 001 -AIRSPDES X -RESPUNIT Y"
        " -END LATSA" MORE,
        "-TITLE CRAM -BEGIN LACDR -AIRROUTE -ZZZ 1 -NUM 001 -REFATSRTE T721 ABGAS ED"
        " -FLBLOCK -FL F105 -FL F245 -VALPERIOD 202503140600 202503150600 -AIRROUTE"
        " -NUM 002 -END LACDR" MORE,
        "-TITLE AUP -BEGIN LATSA -AIRSPACE -ZZZ 1 -FLBLOCK -FL F1 -NUM 3 -FLBLOCK -FL F2"
        " -AIRSPDES Z -END LATSA" MORE,
        "-TITLE AUP -BEGIN LATSA -AIRSPACE -ZZZ 1 -NUM 1 -ORGN X -ATA 2 -NUM 4 -END LATSA" MORE,
        "-TITLE AUP -BEGIN LATSA -AIRSPACE -ZZZ 1 -NUM 1 -TITLE AUP -NUM 2" MORE,
        "-TITLE AUP -BEGIN LATSA -AIRSPACE -ZZZ 1 -NUM 1 -BEGIN X -END X -END LATSA" MORE,
        "-TITLE ARR -REFDATA -SENDER -ZZZ 1 -FAC A -ORGN B -NUM 1 -RECVR -FAC C" MORE,
        "-TITLE AUP -PART -ZZZ 1 -NUM 001 -LASTNUM 002 -FILTIM 131510" MORE,
        "-TITLE AUP -PART -ZZZ 1 -NUM 001 -LASTNUM 002 -NUM 3 -LASTNUM",
        /* long values of cold keywords: on to their '-' past the window */
        "-TITLE CRAM -BEGIN LACDR -AIRROUTE -NUM 001 -REFATSRTE T721 ABGAS ED ERNAS ED"
        LONG " -FLBLOCK -FL F105 -VALPERIOD 1" LONG " -END LACDR" MORE,
        "-TITLE AUP -MESVALPERIOD 202503140600 202503150600 202503160600 -FILTIM 1" MORE,
        "-TITLE AUP -ORGN" LONG LONG LONG LONG " -ATA 1" MORE,
        "-TITLE AUP -ORGN" LONG,
        "-TITLE AUP -ORGN" LONG " -",
        "-TITLE AUP -ORGN" LONG " -TITLE AUP -ORGN" LONG,
    };
    same_cases(cases, sizeof cases / sizeof cases[0]);
#undef LONG
#undef MORE
}

/* Separators between a field's '-' and its keyword (`- TITLE FSA`, as some
 * sources write every field), which run_fused reads out of its loop
 * (scan_cold_keyword) when they are fewer than 8 and the field ends within
 * 28 bytes: hot and cold keywords, basic fields, compounds and their
 * subfields, route points, repeats, in the message and in lists; and what
 * it leaves to the lexer: 8 separators or more, long values, unknown, text
 * and list keywords, -TITLE; under every limit set, and cut at every byte
 * of the last 60. */
static void test_paths_space_after_dash(void **state)
{
    (void)state;
    static const char *const cases[] = {
        "- ARCID DLH9CE - ADEP EDDL - ATA 0938 - ADA 250303 - ORGN EDDLZPZX",
        "-  ARCID A\n-\tADES B\n- \r\n ATA 1\n-       ORGN C\n-        ATA 2 -ATA 3",
        "- REFDATA - SENDER - FAC A - RECVR -FAC C - ORGN B - SEQNUM 001 - ATA 1",
        "- BEGIN RTEPTS - PT - PTID A - FL F100 - ETO 1 -PT -PTID B - END RTEPTS",
        "-BEGIN RTEPTS -PT - PTID A - FL F100 -PT -PTID B -FL F1 -ETO 2 -END RTEPTS",
        "- EETFIR A 1 - EETFIR B 2 -EETFIR C 3 - EETFIR D 4 -EETFIR E 5",
        "- BEGIN ADDR - FAC A - FAC B -FAC C - END ADDR - ATA 1",
        "- ATA 0123456789012345678 - ATA 01234567890123456789 - ATA 012345678901234567890",
        "-   ATA 012345678901234 -   ATA 0123456789012345 - ATA A B C D E F G H I J K L",
        "- ISPASS 1 - CLEARED 2 - MSGTXT (A-B) - COMMENT X - OLDMSG (C-D) - ATA 1",
        "- VALPERIOD 1 2 - REFATSRTE A B - MESVALPERIOD 5 6 - NETWORKTYPE X",
        "- AIRROUTE - NUM 001 - FLBLOCK - FL F1 - FL F2 - VALPERIOD 1 2 - ATA 1",
        "- GEOID X - LATTD 1 - ATA 1 - TITLE IFPL - ARCID B",
        "- - ATA 1 -  - ATA 2 - -ATA 3 -ATA- ATA 4",
    };
    same_cases(cases, sizeof cases / sizeof cases[0]);
    char in[512];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int n = snprintf(in, sizeof in, "- TITLE FSA - ARCID ABC123 %s\n- ADES EGLL", cases[i]);
        assert_true(n > 0 && (size_t)n < sizeof in);
        same_all_limits(in, (size_t)n);
        for (int cut = n > 60 ? n - 60 : 0; cut < n; cut++)
            same_messages(in, (size_t)cut, (size_t)cut % NSETS, 1);
    }
}

/* A last field whose value runs to the input's end past the 32-byte scan
 * window (run_fused reads it from a padded copy of the input's last bytes):
 * basic, compound, -TITLE, -BEGIN and -END, in a list, after a compound,
 * with and without trailing separators, at lengths around the 32-byte steps. */
static void test_paths_long_last_values(void **state)
{
    (void)state;
    static const char *const lasts[] = {
        "-COMMENT ", "-ROUTE ", "-GEO ", "-TITLE ", "-BEGIN ", "-END ",
        "-BEGIN RTEPTS -PT -PTID A -FL ", "-BEGIN ADDR -FAC ", "-GEO -GEOID G -ROUTE ",
        "-BEGIN RTEPTS -PT -PTID A -END RTEPTS -COMMENT ", "-ZZZZ ", "-MSGTXT ",
    };
    static const char *const ends[] = {"", "\n", "  \r\n"};
    char in[512];
    for (size_t i = 0; i < sizeof lasts / sizeof lasts[0]; i++)
        for (size_t len = 20; len < 110; len += 7)
            for (size_t e = 0; e < sizeof ends / sizeof ends[0]; e++) {
                int n = snprintf(in, sizeof in, "-TITLE IFPL -ARCID ABC123 -ADEP LFPG %s", lasts[i]);
                assert_true(n > 0);
                for (size_t k = 0; k < len; k++)   /* words of 6 letters */
                    in[n++] = k % 7 == 6 ? ' ' : (char)('A' + k % 26);
                n += snprintf(in + n, sizeof in - (size_t)n, "%s", ends[e]);
                for (size_t k = 0; k < NSETS; k += 3)
                    same_messages(in, (size_t)n, (k + len + e) % NSETS, 1);
            }
}

/* Inputs that end at every byte of a message's last 48, as they are and
 * with trailing separators: the fields in the input's last 32 bytes are
 * scanned from a padded copy (run_fused_tail). Each input is an exactly
 * sized buffer, so that a read past its end shows under ASan. */
static void test_paths_input_ends(void **state)
{
    (void)state;
    char *buf;
    size_t len, *offs, nmsg = 150;
    assert_int_equal(ref_gen_corpus(5, nmsg, &buf, &len, &offs), 0);
    static const char *const ends[] = {"", "\n", "   ", "\r\n", " -", "-", " -ARCID", "-ZZZ"};
    static char out[1 << 14];
    for (size_t i = 0; i < nmsg; i++) {
        const char *m = buf + offs[i];
        size_t ml = offs[i + 1] - offs[i];
        for (size_t cut = ml > 48 ? ml - 48 : 0; cut <= ml; cut++)
            for (size_t e = 0; e < sizeof ends / sizeof ends[0]; e++) {
                size_t el = strlen(ends[e]);
                assert_true(cut + el <= sizeof out);
                memcpy(out, m, cut);
                memcpy(out + cut, ends[e], el);
                same_messages(out, cut + el, (i + cut + e) % NSETS, 1);
            }
    }
    free(buf);
    free(offs);
}

/* Inputs that start at every byte of a message's first 40, after each of
 * several starts, and the first 1 to 48 bytes of such inputs: a message's
 * first field is read by the scan at reset (lexer_start) when the input
 * begins with one, after separators, and more than 32 bytes follow its
 * '-'; text or a field the scan does not take go through the lexer's
 * states. Exactly sized buffers, so that a read past the end shows under
 * ASan. */
static void test_paths_input_starts(void **state)
{
    (void)state;
    char *buf;
    size_t len, *offs, nmsg = 60;
    assert_int_equal(ref_gen_corpus(6, nmsg, &buf, &len, &offs), 0);
    static const char *const starts[] = {"", "\n", " \r\n\t", "x", "ZTITLE IFPL ", "text (a-b) ",
                                         "-", "- ", "--", "-ZZZ 1 ", "-TITLE", "-NETWORKTYPE X "};
    static char out[1 << 14];
    for (size_t i = 0; i < nmsg; i++) {
        const char *m = buf + offs[i];
        size_t ml = offs[i + 1] - offs[i];
        for (size_t from = 0; from <= 40 && from < ml; from++)
            for (size_t s = 0; s < sizeof starts / sizeof starts[0]; s++) {
                size_t sl = strlen(starts[s]);
                assert_true(sl + ml - from <= sizeof out);
                memcpy(out, starts[s], sl);
                memcpy(out + sl, m + from, ml - from);
                same_messages(out, sl + ml - from, (i + from + s) % NSETS, 1);
                if (from % 8 == 0)
                    for (size_t cut = 1; cut <= 48 && cut <= sl + ml - from; cut++)
                        same_messages(out, cut, (i + cut + s) % NSETS, 1);
            }
    }
    free(buf);
    free(offs);
}

/* Pieces of route points, for test_paths_route_points: the usual
 * -PT -PTID x -FL y -ETO z that run_fused reads a route of at once
 * (fused_points), and all that should stop it there: other separators and
 * lengths (its window is 64 bytes), extra, missing and reordered
 * subfields, glued and look-alike keywords, empty values and values with
 * separators in them or more than one before them, a -PT with a value, an
 * unknown field. */
static const char *const point_seps[] = {" ", "  ", "\t", "\n      ", "\r\n  ", " \n"};
static const char *const point_odd[] = {
    "-PT -PTID A -FL F1 -ETO 1 -SFL F2",   "-PT -PTID A -ETO 1 -FL F1",
    "-PT -PTID A -FL F1",                  "-PT -PTID A -FL F1 -ETO 1 -TO 2",
    "-PT-PTID A -FL F1 -ETO 1",            "-PT -PTID A-FL F1 -ETO 1",
    "-PT -PTID A -FL F1-ETO 1",            "-PT -PTIDX A -FL F1 -ETO 1",
    "-PT -PTI A -FL F1 -ETO 1",            "-PT -PTID A -FLX F1 -ETO 1",
    "-PT -PTID A -FL F1 -ETOS 1",          "-PT -PTID -FL -ETO",
    "-PT -PTID A B -FL F 1 -ETO 1 2 ",     "-PT X -PTID A -FL F1 -ETO 1",
    "-PTX -PTID A -FL F1 -ETO 1",          "-PT -PTID A -ZZZ 1 -FL F1 -ETO 1",
    "- PT -PTID A -FL F1 -ETO 1",          "-PT -PTID A -FL F1 -ETO 1 -",
    "-PT -PTID A -FL F1 -ETO 1 -PTID B",   "-PT -GEOID A -FL F1 -ETO 1",
    "-pt -PTID A -FL F1 -ETO 1",           "-PT -PTID A -FL F1 -FL F2 -ETO 1",
    "-PT -PTIX A -FL F1 -ETO 1",           "-PT -ADEP A -FL F1 -ETO 1",
    "-PT -PTID A -TO F1 -ETO 1",           "-PT -PTID A -FL F1 -STO 1",
    "-AD -PTID A -FL F1 -ETO 1",           "-PS -PTID A -FL F1 -ETO 1",
    "-PT -PTID A -FL  F1 -ETO 1",          "-PT -PTID A -FL F1 -ETO\t\t1",
    "-PT -PTID A -FL\nF1 -ETO 1",          "-PT -PTID A -FL F1 -ETO -PT",
    "-PT -PTID A -FL -ETO 1",              "-PT -PTID -FL F1 -ETO 1",
};
#define NPOINT_SEPS (sizeof point_seps / sizeof point_seps[0])
#define NPOINT_ODD (sizeof point_odd / sizeof point_odd[0])

/* A point into out: mostly the usual one with names and values of every
 * length up to about the window's, sometimes an odd one. */
static int route_point(char *out, size_t cap, uint64_t *s)
{
    if (rnd(s) % 5 == 0)
        return snprintf(out, cap, "%s", point_odd[rnd(s) % NPOINT_ODD]);
    char id[48], eto[40];
    size_t n = 1 + rnd(s) % 30, m = rnd(s) % 8 ? 12 : 1 + rnd(s) % 36;
    for (size_t i = 0; i < n; i++)
        id[i] = (char)('A' + rnd(s) % 26);
    id[n] = '\0';
    for (size_t i = 0; i < m; i++)
        eto[i] = (char)('0' + rnd(s) % 10);
    eto[m] = '\0';
    const char *a = point_seps[rnd(s) % 4 ? 0 : rnd(s) % NPOINT_SEPS];
    const char *b = point_seps[rnd(s) % 4 ? 0 : rnd(s) % NPOINT_SEPS];
    return snprintf(out, cap, "-PT%s-PTID%s%s%s-FL F%03u%s-ETO %s", a, b, id, a,
                    (unsigned)(rnd(s) % 1000), b, eto);
}

/* Routes of such points, in RTEPTS, in another list and in no list, under
 * every limit set (list items and fields end a route anywhere), and cut at
 * every byte of their last 90 (the input's end inside a route). */
static void test_paths_route_points(void **state)
{
    (void)state;
    static const char *const opens[] = {"-BEGIN RTEPTS", "-BEGIN ADDR", "-ESTDATA -PTID X", ""};
    static const char *const closes[] = {"-END RTEPTS", "-END ADDR", "-ADEP LFPG", ""};
    static char in[1 << 13];
    uint64_t s = 64;
    for (int iter = 0; iter < 600; iter++) {
        size_t kind = iter % 4 == 3 ? rnd(&s) % 4 : 0, npts = 1 + rnd(&s) % 24;
        int n = snprintf(in, sizeof in, "-TITLE IFPL -ARCID ABC123 -ADEP LFPG %s",
                         opens[kind]);
        for (size_t i = 0; i < npts; i++) {
            const char *sep = point_seps[rnd(&s) % 3 ? 3 : rnd(&s) % NPOINT_SEPS];
            n += snprintf(in + n, sizeof in - (size_t)n, "%s", sep);
            n += route_point(in + n, sizeof in - (size_t)n, &s);
        }
        n += snprintf(in + n, sizeof in - (size_t)n, "\n%s\n-ADES EGLL\n", closes[kind]);
        assert_true(n > 0 && (size_t)n < sizeof in);
        same_all_limits(in, (size_t)n);
        if (iter % 10 == 0)
            for (int cut = n > 90 ? n - 90 : 0; cut < n; cut++)
                same_messages(in, (size_t)cut, (size_t)cut % NSETS, 1);
    }
}

/* Runs of one keyword, which run_fused reads after the run's first field
 * with no more lookups (fused_same): -FAC in an ADDR, -ATSRT, -EETFIR and
 * -DCT at the top, mixed with all that should stop a run: look-alike and
 * glued keywords, the same keyword in a compound or as a list's -END,
 * empty values and values past the 32-byte window, other separators, an
 * unknown field, -TITLE again; under every limit set (list items and
 * fields end a run anywhere), and cut at every byte of the last 60. */
static const char *const repeat_words[] = {"FAC", "ATSRT", "EETFIR", "DCT", "EOBT"};
static const char *const repeat_odd[] = {
    "-FACX A",  "-FA B",     "-FAC-FAC", "-FAC",      "-fac A", "-EOBD 1", "-EOBT",
    "-ATSRTX A", "-ATSR A",  "-ZZZ 1",   "-TITLE IFPL", "-GEO -GEOID G -FAC A",
    "-END ADDR", "-BEGIN ADDR", "-DCT- A", "-TITLE", "-FAC A-FAC B",
};
#define NREPEAT_WORDS (sizeof repeat_words / sizeof repeat_words[0])
#define NREPEAT_ODD (sizeof repeat_odd / sizeof repeat_odd[0])

/* A field of a run of word into out: mostly the usual one, with values of
 * every length up to past the scan's window, sometimes an odd one. */
static int repeat_field(char *out, size_t cap, const char *word, uint64_t *s)
{
    if (rnd(s) % 7 == 0)
        return snprintf(out, cap, "%s", repeat_odd[rnd(s) % NREPEAT_ODD]);
    char v[48];
    size_t n = rnd(s) % 6 ? 1 + rnd(s) % 12 : rnd(s) % 44;
    for (size_t i = 0; i < n; i++)
        v[i] = i % 5 == 4 && rnd(s) % 2 ? ' ' : (char)('A' + rnd(s) % 26);
    v[n] = '\0';
    const char *a = point_seps[rnd(s) % 4 ? 0 : rnd(s) % NPOINT_SEPS];
    return snprintf(out, cap, "-%s%s%s", word, a, v);
}

static void test_paths_repeats(void **state)
{
    (void)state;
    static char in[1 << 13];
    uint64_t s = 77;
    for (int iter = 0; iter < 500; iter++) {
        size_t w = rnd(&s) % NREPEAT_WORDS, nf = 1 + rnd(&s) % 20;
        int in_addr = w == 0 && rnd(&s) % 4;
        int n = snprintf(in, sizeof in, "-TITLE IFPL -ARCID ABC123 -ADEP LFPG%s",
                         in_addr ? " -BEGIN ADDR" : "");
        for (size_t i = 0; i < nf; i++) {
            const char *sep = point_seps[rnd(&s) % 3 ? 0 : rnd(&s) % NPOINT_SEPS];
            n += snprintf(in + n, sizeof in - (size_t)n, "%s", sep);
            n += repeat_field(in + n, sizeof in - (size_t)n, repeat_words[w], &s);
        }
        n += snprintf(in + n, sizeof in - (size_t)n, "%s", in_addr ? " -END ADDR" : "");
        if (rnd(&s) % 2)
            n += snprintf(in + n, sizeof in - (size_t)n, "\n-ADES EGLL\n");
        assert_true(n > 0 && (size_t)n < sizeof in);
        same_all_limits(in, (size_t)n);
        if (iter % 10 == 0)
            for (int cut = n > 60 ? n - 60 : 0; cut < n; cut++)
                same_messages(in, (size_t)cut, (size_t)cut % NSETS, 1);
    }
}

/* The compounds read whole besides route points (three_at): -ESTDATA
 * -PTID x -ETO y -FL z and -GEO -GEOID x -LATTD y -LONGTD z, and all that
 * should stop that: other separators and lengths (the window is 64
 * bytes), a fourth, missing and reordered subfields, look-alike and glued
 * keywords, empty values, values with separators or '-' in them, a value of
 * the compound, an unknown field; at the top, in a list and after a
 * compound of the other kind, under every limit set and cut at every byte
 * of the last 70. */
static const char *const three_odd[] = {
    "-ESTDATA -PTID A -ETO 1 -FL F1 -SFL F2",   "-ESTDATA -PTID A -FL F1 -ETO 1",
    "-ESTDATA -PTID A -ETO 1",                  "-ESTDATA-PTID A -ETO 1 -FL F1",
    "-ESTDATA -PTID A-ETO 1 -FL F1",            "-ESTDATA -PTIDX A -ETO 1 -FL F1",
    "-ESTDATA -PTI A -ETO 1 -FL F1",            "-ESTDATA -PTID A -ETOX 1 -FL F1",
    "-ESTDATA -PTID A -ETO 1 -FLX F1",          "-ESTDATA -PTID -ETO -FL",
    "-ESTDATA -PTID A B -ETO 1 2 -FL F 1 ",     "-ESTDATA X -PTID A -ETO 1 -FL F1",
    "-ESTDATAX -PTID A -ETO 1 -FL F1",          "-ESTDATA -PTID A -ZZZ 1 -ETO 1 -FL F1",
    "-ESTDATA -PTID A -ETO 1 -FL F1 -",         "-ESTDATA -PTID A -ETO 1 -FL -ESTDATA",
    "-ESTDATA  -PTID A -ETO 1 -FL F1",          "-ESTDATA -PTID  A -ETO 1 -FL F1",
    "-ESTDATA\n-PTID A\n-ETO 1\n-FL F1",        "-ESTDATA --PTID A -ETO 1 -FL F1",
    "-ESTDATA--PTID A -ETO 1 -FL F1",           "-GEO--GEOID A -LATTD 1 -LONGTD 2",
    "-ESTDATA -GEOID A -LATTD 1 -LONGTD 2",     "-GEO -GEOID A -LATTD 1 -LONGTD 2 -PTID B",
    "-GEO -GEOID A -LONGTD 2 -LATTD 1",         "-GEO -GEOID A -LATTD 1",
    "-GEO-GEOID A -LATTD 1 -LONGTD 2",          "-GEO -GEOIDX A -LATTD 1 -LONGTD 2",
    "-GEO -GEOID A -LATTDX 1 -LONGTD 2",        "-GEO -GEOID A -LATTD 1 -LONGT 2",
    "-GEO -GEOID -LATTD -LONGTD",               "-GEO G -GEOID A -LATTD 1 -LONGTD 2",
    "-GEO -GEOID A -LATTD 1 -LONGTD 2-X",       "-GEO -GEOID A\t-LATTD 1\t-LONGTD 2",
    "-GEO -PTID A -ETO 1 -FL F1",               "-GEOX -GEOID A -LATTD 1 -LONGTD 2",
    "-geo -GEOID A -LATTD 1 -LONGTD 2",         "-GEO -GEOID A -LATTD 1 -LONGTD",
    "-GEO -GEOID A -ADEP B -LATTD 1 -LONGTD 2", "- GEO -GEOID A -LATTD 1 -LONGTD 2",
};
#define NTHREE_ODD (sizeof three_odd / sizeof three_odd[0])

/* A word of n letters or digits into w. */
static void some_word(char *w, size_t n, uint64_t *s)
{
    for (size_t i = 0; i < n; i++)
        w[i] = (char)(rnd(s) % 3 ? 'A' + rnd(s) % 26 : '0' + rnd(s) % 10);
    w[n] = '\0';
}

/* A compound of the two into out: mostly the usual one with values of
 * every length up to past the window, sometimes an odd one. */
static int usual_three(char *out, size_t cap, uint64_t *s)
{
    if (rnd(s) % 5 == 0)
        return snprintf(out, cap, "%s", three_odd[rnd(s) % NTHREE_ODD]);
    char x[48], y[48], z[48];
    some_word(x, 1 + rnd(s) % 20, s);
    some_word(y, 1 + rnd(s) % (rnd(s) % 4 ? 14 : 30), s);
    some_word(z, 1 + rnd(s) % 12, s);
    const char *a = point_seps[rnd(s) % 4 ? 0 : rnd(s) % NPOINT_SEPS];
    const char *b = point_seps[rnd(s) % 4 ? 0 : rnd(s) % NPOINT_SEPS];
    if (rnd(s) % 2)
        return snprintf(out, cap, "-ESTDATA%s-PTID%s%s%s-ETO %s%s-FL %s", a, b, x, a, y, b, z);
    return snprintf(out, cap, "-GEO%s-GEOID%s%s%s-LATTD %s%s-LONGTD %s", a, b, x, a, y, b, z);
}

static void test_paths_usual_compounds(void **state)
{
    (void)state;
    static const char *const opens[] = {"", "-BEGIN RTEPTS", "-BEGIN ADDR",
                                        "-REFDATA -SENDER -FAC X"};
    static const char *const closes[] = {"", "-END RTEPTS", "-END ADDR", ""};
    static char in[1 << 13];
    uint64_t s = 91;
    for (int iter = 0; iter < 600; iter++) {
        size_t kind = iter % 4 == 3 ? rnd(&s) % 4 : 0, nc = 1 + rnd(&s) % 12;
        int n = snprintf(in, sizeof in, "-TITLE IFPL -ARCID ABC123 -ADEP LFPG %s", opens[kind]);
        for (size_t i = 0; i < nc; i++) {
            const char *sep = point_seps[rnd(&s) % 3 ? 3 : rnd(&s) % NPOINT_SEPS];
            n += snprintf(in + n, sizeof in - (size_t)n, "%s", sep);
            n += rnd(&s) % 6 ? usual_three(in + n, sizeof in - (size_t)n, &s)
                             : route_point(in + n, sizeof in - (size_t)n, &s);
        }
        n += snprintf(in + n, sizeof in - (size_t)n, "\n%s\n-ADES EGLL\n", closes[kind]);
        assert_true(n > 0 && (size_t)n < sizeof in);
        same_all_limits(in, (size_t)n);
        if (iter % 10 == 0)
            for (int cut = n > 70 ? n - 70 : 0; cut < n; cut++)
                same_messages(in, (size_t)cut, (size_t)cut % NSETS, 1);
    }
}

/* Lists of compounds that hold a compound, as the real AUP and CRAM
 * messages write them (-BEGIN LATSA -AIRSPACE -NUM 001 -FLBLOCK -FL F100
 * -VALPERIOD ... -END LATSA), in random shapes: the inner compound at each
 * place of its element, repeated, empty, its subfields hot and cold, then
 * primary, unknown and cold keywords, the list's element keyword, -BEGIN
 * and -END of other names, a -TITLE, the input's end; which fused_nested
 * reads in the list that the fused loop opened. */
static void test_paths_list_compounds(void **state)
{
    (void)state;
    static const char *const lists[][2] = {{"LATSA", "AIRSPACE"}, {"LACDR", "AIRROUTE"}};
    static const char *const pieces[] = {
        "-NUM 001", "-AIRSPDES EDTSA205", "-REFATSRTE T721 ABGAS ED ERNAS ED",
        "-VALPERIOD 202503140800 202503141200", "-RESPUNIT EDGG", "-REMARK LIVE FIRING",
        "-FL F100", "-ARCID ABC", "-ADEP LFPG", "-ZZZ 1", "-ZZZ", "-ORGN X", "-ATA 2",
        "-BEGIN ADDR -FAC A -END ADDR", "-BEGIN LACDR", "-END LACDR", "-END LATSA",
        "-END ADDR", "-BEGIN RTEPTS -PT -PTID A -END RTEPTS", "-TITLE AUP", "-MSGTXT (A-B)",
        "-", "-PTID X", "-FLBLOCK", "-AIRSPACE", "-AIRROUTE", "-NETWORKTYPE X",
    };
    static const char *const inner[] = {
        "-FL F100", "-FL F245", "-FL A025", "-FL", "-FL F100 F200", "-ZZZ 1",
        "-VALPERIOD 1 2", "-FLBLOCK", "-NUM 7",
    };
    static char in[1 << 13];
    uint64_t s = 33;
    for (int iter = 0; iter < 500; iter++) {
        size_t l = rnd(&s) % 2, ne = rnd(&s) % 5;
        int n = snprintf(in, sizeof in,
                         "-TITLE AUP -PART -NUM 001 -LASTNUM 002 -FILTIM 131510\n"
                         "-MESVALPERIOD 202503140600 202503150600\n-BEGIN %s\n",
                         lists[l][0]);
        for (size_t e = 0; e < ne && n < (int)sizeof in - 512; e++) {
            n += snprintf(in + n, sizeof in - (size_t)n, " -%s", lists[l][1]);
            size_t np = rnd(&s) % 7;
            for (size_t i = 0; i < np; i++) {
                const char *sep = rnd(&s) % 4 ? " " : "\n  ";
                if (rnd(&s) % 3 == 0) {
                    n += snprintf(in + n, sizeof in - (size_t)n, "%s-FLBLOCK", sep);
                    for (size_t f = rnd(&s) % 4; f > 0; f--)
                        n += snprintf(in + n, sizeof in - (size_t)n, " %s",
                                      rnd(&s) % 4 ? "-FL F100"
                                                  : inner[rnd(&s) % (sizeof inner / sizeof *inner)]);
                } else {
                    n += snprintf(in + n, sizeof in - (size_t)n, "%s%s", sep,
                                  rnd(&s) % 3 ? pieces[rnd(&s) % 6]
                                              : pieces[rnd(&s) % (sizeof pieces / sizeof *pieces)]);
                }
            }
            n += snprintf(in + n, sizeof in - (size_t)n, "\n");
        }
        if (rnd(&s) % 8)
            n += snprintf(in + n, sizeof in - (size_t)n, "-END %s\n", lists[rnd(&s) % 8 ? l : 1 - l][0]);
        n += snprintf(in + n, sizeof in - (size_t)n, "%s",
                      rnd(&s) % 2 ? "-ADES EGLL -EOBD 250101 -EOBT 1200 -ARCTYP A320\n" : "");
        assert_true(n > 0 && (size_t)n < sizeof in);
        same_all_limits(in, (size_t)n);
        if (iter % 10 == 0)
            for (int cut = n > 70 ? n - 70 : 0; cut < n; cut++)
                same_messages(in, (size_t)cut, (size_t)cut % NSETS, 1);
    }
}

int main(int argc, char **argv)
{
    testdata = argc > 1 ? argv[1] : getenv("ADEXP_TESTDATA");
    if (!testdata)
        testdata = "testdata";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paths_testdata),
        cmocka_unit_test(test_paths_generated_corpus),
        cmocka_unit_test(test_paths_mutated),
        cmocka_unit_test(test_paths_input_starts),
        cmocka_unit_test(test_paths_input_ends),
        cmocka_unit_test(test_paths_lists),
        cmocka_unit_test(test_paths_element_rules),
        cmocka_unit_test(test_paths_long_last_values),
        cmocka_unit_test(test_paths_nested_compounds),
        cmocka_unit_test(test_paths_route_points),
        cmocka_unit_test(test_paths_usual_compounds),
        cmocka_unit_test(test_paths_repeats),
        cmocka_unit_test(test_paths_long_keywords),
        cmocka_unit_test(test_paths_cold_keywords),
        cmocka_unit_test(test_paths_cold_in_compounds),
        cmocka_unit_test(test_paths_space_after_dash),
        cmocka_unit_test(test_paths_list_compounds),
    };
    return cmocka_run_group_tests_name("paths", tests, NULL, NULL);
}

/* Parser tests: structure from the dictionary, errors with line and column,
 * many messages per buffer, and the typed view of the teivah IFPL. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adexp.h"

static const char *teivah_path;

typedef struct fixture {
    adexp_parser *p;
    adexp_arena arena;
    char *copy;                /* exactly-sized copy of the input */
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->p = adexp_parser_new(NULL, NULL);
    adexp_arena_init(&f->arena, NULL);
    *state = f;
    return f->p ? 0 : -1;
}

static int teardown(void **state)
{
    fixture *f = *state;
    adexp_parser_free(f->p);
    adexp_arena_free(&f->arena);
    free(f->copy);
    free(f);
    return 0;
}

/* Start parsing src (copied so that reads past its end are caught). */
static void start(fixture *f, const char *src, size_t len)
{
    free(f->copy);
    f->copy = malloc(len ? len : 1);
    memcpy(f->copy, src, len);
    adexp_parser_reset(f->p, f->copy, len);
}

static adexp_status next(fixture *f, adexp_msg *m)
{
    return adexp_parser_next(f->p, &f->arena, m);
}

static adexp_status parse1(fixture *f, const char *src, adexp_msg *m)
{
    start(f, src, strlen(src));
    return next(f, m);
}

static const adexp_field *nth(const adexp_field *f, size_t n)
{
    while (f && n--)
        f = f->next;
    assert_non_null(f);
    return f;
}

static void assert_field(const adexp_field *f, const char *kw, const char *value,
                         adexp_kind kind)
{
    assert_non_null(f);
    if (!adexp_slice_eq(f->keyword, kw) || (value && !adexp_slice_eq(f->value, value)) ||
        f->kind != kind)
        fail_msg("field '%.*s'='%.*s' kind %d, want '%s'='%s' kind %d",
                 (int)f->keyword.len, f->keyword.ptr, (int)f->value.len,
                 f->value.ptr, f->kind, kw, value ? value : "*", kind);
}

static void assert_error(const adexp_msg *m, size_t i, adexp_status code,
                         unsigned line, unsigned col)
{
    assert_true(i < m->nerrors);
    const adexp_error *e = &m->errors[i];
    if (e->code != code || e->line != line || e->column != col)
        fail_msg("error %zu: %s at %u:%u, want %s at %u:%u", i,
                 adexp_status_name(e->code), e->line, e->column,
                 adexp_status_name(code), line, col);
}

/* ------------------------------------------------------------ structure */

static void test_compound_nesting_from_dictionary(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    assert_int_equal(parse1(f, "-TITLE ACT -REFDATA -SENDER -FAC E -RECVR -FAC L "
                                "-SEQNUM 005 -ARCID\nAMM253\n-COORDATA -PTID BNE "
                                "-TO 1226 -TFL F350\n-ADES EGBB", &m), ADEXP_OK);
    const adexp_field *ref = nth(m.fields, 1);
    assert_field(ref, "REFDATA", "", ADEXP_COMPOUND);
    assert_int_equal(ref->nchildren, 3);
    assert_field(ref->child, "SENDER", "", ADEXP_COMPOUND);
    assert_field(ref->child->child, "FAC", "E", ADEXP_BASIC);
    assert_field(nth(ref->child, 1), "RECVR", "", ADEXP_COMPOUND);
    assert_field(nth(ref->child, 1)->child, "FAC", "L", ADEXP_BASIC);
    assert_field(nth(ref->child, 2), "SEQNUM", "005", ADEXP_BASIC);
    assert_field(nth(m.fields, 2), "ARCID", "AMM253", ADEXP_BASIC);
    assert_field(nth(m.fields, 3), "COORDATA", "", ADEXP_COMPOUND);
    assert_int_equal(nth(m.fields, 3)->nchildren, 3);
    assert_field(nth(m.fields, 4), "ADES", "EGBB", ADEXP_BASIC);
    assert_null(nth(m.fields, 4)->next);
    assert_int_equal(m.nfields, 13);
    assert_true(m.view.has_refdata);
    assert_true(adexp_slice_eq(m.view.refdata.recvr_fac, "L"));
    assert_true(adexp_slice_eq(m.view.coordata.tfl, "F350"));
}

static void test_lists_nest_and_items_keep_order(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    assert_int_equal(parse1(f, "-TITLE IFPL -BEGIN ADDR -FAC A -FAC B -END ADDR "
                                "-BEGIN RTEPTS -PT -PTID X -FL F010 -RFL F300 "
                                "-PT -PTID Y -END RTEPTS -ADEP EDDF", &m), ADEXP_OK);
    const adexp_field *addr = nth(m.fields, 1), *rte = nth(m.fields, 2);
    assert_field(addr, "ADDR", "", ADEXP_LIST);
    assert_int_equal(addr->nchildren, 2);
    assert_field(rte, "RTEPTS", "", ADEXP_LIST);
    assert_int_equal(rte->nchildren, 2);      /* RFL is the first PT's (S31 4.3.7) */
    assert_field(rte->child, "PT", "", ADEXP_COMPOUND);
    assert_int_equal(rte->child->nchildren, 3);
    assert_field(nth(rte->child->child, 2), "RFL", "F300", ADEXP_BASIC);
    assert_field(nth(rte->child, 1)->child, "PTID", "Y", ADEXP_BASIC);
    assert_field(nth(m.fields, 3), "ADEP", "EDDF", ADEXP_BASIC);
    assert_int_equal(m.view.addr.n, 2);
    assert_int_equal(m.view.n_rtepts, 2);
}

static void test_message_list_holds_whole_messages(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    assert_int_equal(parse1(f, "-TITLE IFPLLIST -BEGIN IFPDLIST "
                                "-BEGIN IFPDLONG -TITLE IFPL -ARCID A1 -BEGIN RTEPTS "
                                "-PT -PTID P -END RTEPTS -END IFPDLONG "
                                "-BEGIN IFPDLONG -TITLE IFPL -ARCID A2 -END IFPDLONG "
                                "-END IFPDLIST -TITLE ACK -ARCID A3", &m), ADEXP_OK);
    const adexp_field *list = nth(m.fields, 1);
    assert_field(list, "IFPDLIST", "", ADEXP_LIST);
    assert_int_equal(list->nchildren, 2);
    const adexp_field *one = list->child;
    assert_field(one, "IFPDLONG", "", ADEXP_LIST);
    assert_field(one->child, "TITLE", "IFPL", ADEXP_BASIC);
    assert_field(nth(one->child, 2), "RTEPTS", "", ADEXP_LIST);
    assert_null(nth(m.fields, 1)->next);
    assert_int_equal(next(f, &m), ADEXP_OK);   /* the top-level -TITLE ACK */
    assert_true(adexp_slice_eq(m.view.title, "ACK"));
    assert_int_equal(m.index, 1);
    assert_int_equal(next(f, &m), ADEXP_END);
}

static void test_unknown_fields_kept_and_flagged(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    assert_int_equal(parse1(f, "-TITLE BFD -BEGIN RTEPTS -PT -PTID A -LATTD 482200N "
                                "-CLEARED Y -FL F100 -PT -PTID B -END RTEPTS "
                                "-ESTDATA -PTID C -IDPLANO 7 -BEGIN XLIST -X 1 "
                                "-END XLIST -ADEP EDDM", &m), ADEXP_OK);
    const adexp_field *pt = nth(m.fields, 1)->child;
    assert_int_equal(nth(m.fields, 1)->nchildren, 2);
    assert_int_equal(pt->nchildren, 4);    /* a list element keeps local fields */
    assert_field(nth(pt->child, 2), "CLEARED", "Y", ADEXP_BASIC);
    assert_true(nth(pt->child, 2)->flags & ADEXP_FIELD_UNKNOWN);
    assert_field(nth(pt->child, 3), "FL", "F100", ADEXP_BASIC);
    assert_int_equal(nth(m.fields, 2)->nchildren, 1);  /* top-level compound ends */
    assert_field(nth(m.fields, 3), "IDPLANO", "7", ADEXP_BASIC);
    assert_true(nth(m.fields, 3)->flags & ADEXP_FIELD_UNKNOWN);
    assert_field(nth(m.fields, 4), "XLIST", "", ADEXP_LIST);
    assert_true(nth(m.fields, 4)->flags & ADEXP_FIELD_UNKNOWN);
    assert_field(nth(m.fields, 5), "ADEP", "EDDM", ADEXP_BASIC);
    assert_true(adexp_slice_eq(m.view.rtepts[0].lattd, "482200N"));
}

static void test_unknown_field_takes_following_subfields(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    assert_int_equal(parse1(f, "-TITLE SAM -TTO -PTID MOLBA -TO 1945 -FL F350 "
                                "-REGCAUSE WA 84 -CLEARED Y -ZZ 1 -BEGIN RTEPTS "
                                "-PT -PTID A -XX 1 -LATTD 1N -FL F100 -END RTEPTS", &m),
                     ADEXP_OK);
    const adexp_field *tto = nth(m.fields, 1);
    assert_field(tto, "TTO", "", ADEXP_COMPOUND);
    assert_true(tto->flags & ADEXP_FIELD_UNKNOWN);
    assert_int_equal(tto->nchildren, 3);
    assert_field(nth(tto->child, 2), "FL", "F350", ADEXP_BASIC);
    assert_field(nth(m.fields, 2), "REGCAUSE", "WA 84", ADEXP_BASIC);
    assert_field(nth(m.fields, 3), "CLEARED", "Y", ADEXP_BASIC);  /* no subfield */
    assert_field(nth(m.fields, 4), "ZZ", "1", ADEXP_BASIC);
    /* in a PT, FL is the PT's own subfield: the unknown XX does not take it,
     * but it does take LATTD, which PT has no place for */
    const adexp_field *pt = nth(m.fields, 5)->child;
    assert_int_equal(pt->nchildren, 3);
    assert_field(nth(pt->child, 1), "XX", "1", ADEXP_COMPOUND);
    assert_int_equal(nth(pt->child, 1)->nchildren, 1);
    assert_field(nth(pt->child, 2), "FL", "F100", ADEXP_BASIC);
}

static void test_compound_with_plain_text(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    assert_int_equal(parse1(f, "-TITLE CFD -ALTNZ EDDV -CFL F200 -ARCID X", &m), ADEXP_OK);
    assert_field(nth(m.fields, 1), "ALTNZ", "EDDV", ADEXP_COMPOUND);
    assert_null(nth(m.fields, 1)->child);
    assert_field(nth(m.fields, 2), "CFL", "F200", ADEXP_COMPOUND);
    assert_field(nth(m.fields, 3), "ARCID", "X", ADEXP_BASIC);
}

static void test_glued_keywords_and_spaced_dashes(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    assert_int_equal(parse1(f, "-TITLE IFPL-ORIGIN-NETWORKTYPE SITA-FAC FRAOXLH-REG\n"
                                "DABHM-BEGIN RTEPTS-PT-PTID EDDF-FL F000-END\nRTEPTS"
                                "- \n ADEP EDDF", &m), ADEXP_OK);
    const adexp_field *o = nth(m.fields, 1);
    assert_field(o, "ORIGIN", "", ADEXP_COMPOUND);
    assert_int_equal(o->nchildren, 2);
    assert_field(nth(m.fields, 2), "REG", "DABHM", ADEXP_BASIC);
    assert_int_equal(nth(m.fields, 3)->child->nchildren, 2);
    assert_field(nth(m.fields, 4), "ADEP", "EDDF", ADEXP_BASIC);
}

/* ------------------------------------------------------------ errors */

static void test_error_no_title(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    assert_int_equal(parse1(f, "\n  -ARCID X\n-TITLE IFPL", &m), ADEXP_E_NO_TITLE);
    assert_error(&m, 0, ADEXP_E_NO_TITLE, 2, 3);
    assert_field(m.fields, "ARCID", "X", ADEXP_BASIC);   /* kept, by the same grammar */
    assert_null(m.fields->next);
    assert_null(m.view.title.ptr);
    assert_int_equal(next(f, &m), ADEXP_OK);
    assert_true(adexp_slice_eq(m.view.title, "IFPL"));
    assert_int_equal(m.offset, 12);
}

static void test_error_no_keyword(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    assert_int_equal(parse1(f, "-TITLE IFPL\n-ARCID X -/Y\n-ADEP EDDF", &m),
                     ADEXP_E_NO_KEYWORD);
    assert_int_equal(m.nerrors, 1);
    assert_error(&m, 0, ADEXP_E_NO_KEYWORD, 2, 10);
    assert_field(nth(m.fields, 2), "ADEP", "EDDF", ADEXP_BASIC);
}

static void test_error_end_mismatch(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    assert_int_equal(parse1(f, "-TITLE IFPL\n-BEGIN ADDR\n -BEGIN RTEPTS -PT -PTID A\n"
                                "-END ADDR -ADEP X", &m), ADEXP_E_END_MISMATCH);
    assert_int_equal(m.nerrors, 1);
    assert_error(&m, 0, ADEXP_E_END_MISMATCH, 4, 1);
    assert_field(nth(m.fields, 2), "ADEP", "X", ADEXP_BASIC);   /* recovered */
}

static void test_error_end_of_another_list_closes_this_one(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    assert_int_equal(parse1(f, "-TITLE IFPL -BEGIN L -BEGIN L -FAC A -END L -END L\n"
                                "-BEGIN ADDR -FAC B\n-END RTEPTS -ADEP X", &m),
                     ADEXP_E_END_MISMATCH);
    assert_int_equal(m.nerrors, 1);
    assert_error(&m, 0, ADEXP_E_END_MISMATCH, 3, 1);
    assert_int_equal(nth(m.fields, 1)->child->nchildren, 1);  /* L in L */
    assert_int_equal(nth(m.fields, 2)->nchildren, 1);
    assert_field(nth(m.fields, 3), "ADEP", "X", ADEXP_BASIC);
}

static void test_error_end_without_begin(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    assert_int_equal(parse1(f, "-TITLE IFPL\r\n-ARCID X\r\n  -END RTEPTS -ADEP Y", &m),
                     ADEXP_E_END_WITHOUT_BEGIN);
    assert_error(&m, 0, ADEXP_E_END_WITHOUT_BEGIN, 3, 3);
    assert_field(nth(m.fields, 2), "ADEP", "Y", ADEXP_BASIC);
}

static void test_error_list_unclosed_keeps_next_message(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    assert_int_equal(parse1(f, "-TITLE IFPL\n-BEGIN RTEPTS\n-PT -PTID A\n"
                                "-TITLE ACK\n-ARCID B\n", &m), ADEXP_E_LIST_UNCLOSED);
    assert_error(&m, 0, ADEXP_E_LIST_UNCLOSED, 2, 1);
    assert_int_equal(next(f, &m), ADEXP_OK);
    assert_true(adexp_slice_eq(m.view.arcid, "B"));
    assert_int_equal(next(f, &m), ADEXP_END);
}

static void test_error_begin_without_name(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    assert_int_equal(parse1(f, "-TITLE IFPL\r-BEGIN\r-ADEP X", &m),
                     ADEXP_E_BEGIN_NO_NAME);
    assert_error(&m, 0, ADEXP_E_BEGIN_NO_NAME, 2, 1);   /* lone CR ends a line */
    assert_field(nth(m.fields, 1), "ADEP", "X", ADEXP_BASIC);
}

static void test_error_text_unclosed_keeps_next_messages(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    assert_int_equal(parse1(f, "-TITLE ACK\n-MSGTXT (FPL-ABC-IS\n-B738/M\n"
                                "-TITLE IFPL -ARCID A\n-TITLE IFPL -ARCID B", &m),
                     ADEXP_E_TEXT_UNCLOSED);
    assert_error(&m, 0, ADEXP_E_TEXT_UNCLOSED, 2, 9);
    assert_int_equal(next(f, &m), ADEXP_OK);
    assert_true(adexp_slice_eq(m.view.arcid, "A"));
    assert_int_equal(next(f, &m), ADEXP_OK);
    assert_true(adexp_slice_eq(m.view.arcid, "B"));
}

static adexp_parser *parser_with(adexp_options o)
{
    adexp_parser *p = adexp_parser_new(&o, NULL);
    assert_non_null(p);
    return p;
}

/* Parse src with parser p; the first message must fail with code at
 * line:col and the second must be "-TITLE NEXT". */
static void check_limit(adexp_parser *p, const char *src, adexp_status code,
                        unsigned line, unsigned col)
{
    adexp_arena arena;
    adexp_msg m;
    adexp_arena_init(&arena, NULL);
    adexp_parser_reset(p, src, strlen(src));
    assert_int_equal(adexp_parser_next(p, &arena, &m), code);
    assert_error(&m, 0, code, line, col);
    assert_int_equal(adexp_parser_next(p, &arena, &m), ADEXP_OK);
    assert_true(adexp_slice_eq(m.view.title, "NEXT"));
    adexp_parser_free(p);
    adexp_arena_free(&arena);
}

static void test_error_limits(void **state)
{
    (void)state;
    adexp_options o = adexp_options_default();
    o.max_depth = 2;
    check_limit(parser_with(o), "-TITLE A -BEGIN L1\n -BEGIN L2\n  -BEGIN L3\n"
                "-TITLE NEXT", ADEXP_E_DEPTH_LIMIT, 3, 3);
    o = adexp_options_default();
    o.max_fields = 3;
    check_limit(parser_with(o), "-TITLE A -B 1\n-C 2 -D 3\n-TITLE NEXT",
                ADEXP_E_FIELD_LIMIT, 2, 6);
    o = adexp_options_default();
    o.max_list_items = 2;
    check_limit(parser_with(o), "-TITLE A -BEGIN ADDR -FAC 1 -FAC 2\n -FAC 3 "
                "-END ADDR -TITLE NEXT", ADEXP_E_LIST_LIMIT, 2, 2);
    o = adexp_options_default();
    o.max_message_size = 20;
    check_limit(parser_with(o), "-TITLE A -ARCID B\n-ADEP CCCC\n-TITLE NEXT",
                ADEXP_E_SIZE_LIMIT, 2, 1);
    o = adexp_options_default();
    o.max_keyword_len = 5;
    adexp_parser *p = parser_with(o);
    adexp_arena arena;
    adexp_msg m;
    adexp_arena_init(&arena, NULL);
    const char *src = "-TITLE A\n -ABCDEFGH X -ARCID B";
    adexp_parser_reset(p, src, strlen(src));
    assert_int_equal(adexp_parser_next(p, &arena, &m), ADEXP_E_KEYWORD_LIMIT);
    assert_error(&m, 0, ADEXP_E_KEYWORD_LIMIT, 2, 2);
    assert_true(adexp_slice_eq(m.view.arcid, "B"));
    adexp_parser_free(p);
    adexp_arena_free(&arena);
}

static void test_errors_capped_but_counted(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    char src[200] = "-TITLE X ";
    for (int i = 0; i < 40; i++)
        strcat(src, "-/");
    assert_int_equal(parse1(f, src, &m), ADEXP_E_NO_KEYWORD);
    assert_int_equal(m.nerrors, ADEXP_DEFAULT_MAX_ERRORS);
    assert_int_equal(m.nerrors_total, 40);
}

static void test_blank_input_has_no_message(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    assert_int_equal(parse1(f, "", &m), ADEXP_END);
    assert_int_equal(parse1(f, " \r\n\t \n", &m), ADEXP_END);
}

/* ------------------------------------------------------------ teivah IFPL */

static char *read_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    *len = (size_t)n;
    return buf;
}

static void assert_folded(adexp_slice s, const char *want)
{
    char buf[512];
    adexp_fold_copy(s, buf, sizeof buf);
    assert_string_equal(buf, want);
}

static void test_teivah_ifpl(void **state)
{
    fixture *f = *state;
    size_t len;
    char *src = read_file(teivah_path, &len);
    adexp_msg m;
    start(f, src, len);
    free(src);
    assert_int_equal(next(f, &m), ADEXP_OK);
    const adexp_view *v = &m.view;
    assert_true(adexp_slice_eq(v->title, "IFPL"));
    assert_true(adexp_slice_eq(v->adep, "CYYZ"));
    assert_true(adexp_slice_eq(v->ades, "AFIL"));
    assert_true(adexp_slice_eq(v->arcid, "ACA878"));
    assert_true(adexp_slice_eq(v->arctyp, "A333"));
    assert_true(adexp_slice_eq(v->ceqpt, "SDE3FGHIJ3J5LM1ORVWXY"));
    assert_true(adexp_slice_eq(v->altnz, "EASTERN :CREEK'()+,./"));
    assert_int_equal(v->eetfir.n, 13);
    assert_true(adexp_slice_eq(v->eetfir.v[0], "KZLC 0035"));
    assert_true(adexp_slice_eq(v->eetfir.v[12], "EDUU 0921"));
    assert_int_equal(v->speed.n, 2);
    assert_true(adexp_slice_eq(v->speed.v[1], "N0457 LIZAD"));
    assert_int_equal(v->n_estdata, 2);
    assert_true(adexp_slice_eq(v->estdata[1].ptid, "ARKIL"));
    assert_true(adexp_slice_eq(v->estdata[1].eto, "170302032300"));
    assert_true(adexp_slice_eq(v->estdata[1].fl, "F390"));
    assert_int_equal(v->n_geo, 3);
    assert_true(adexp_slice_eq(v->geo[2].geoid, "GEO04"));
    assert_true(adexp_slice_eq(v->geo[2].longtd, "0200000W"));
    static const struct { const char *ptid; int fl; const char *eto; } pts[] = {
        {"CYYZ", 0, "170301220429"}, {"JOOPY", 390, "170302002327"},
        {"GEO01", 390, "170302003347"}, {"BLM", 171, "170302051642"},
        {"LSZH", 14, "170302052710"},
    };
    assert_int_equal(v->n_rtepts, 5);
    for (size_t i = 0; i < 5; i++) {
        adexp_level lvl;
        assert_true(adexp_slice_eq(v->rtepts[i].ptid, pts[i].ptid));
        assert_true(adexp_decode_level(v->rtepts[i].fl, &lvl));
        assert_int_equal(lvl.unit, 'F');
        assert_int_equal(lvl.value, pts[i].fl);
        assert_true(adexp_slice_eq(v->rtepts[i].eto, pts[i].eto));
    }
    assert_true(adexp_slice_eq(v->msgtxt,
        "(ACH-BEL20B-LIML1050-EBBR-DOF/150521-14/HOC/1120F320 -18/PBN/B1 DOF/150521 "
        "REG/OODWK RVR/150 OPR/BEL ORGN/LSAZZQZG SRC/AFP RMK/AGCS EQUIPPED)"));
    assert_folded(v->comment, "???FPD.F15: N0410F300 ARLES UL153 PUNSA/N0410F300 UL153 "
                  "VADEM/N0400F320 UN853 PENDU/N0400F330 UN853 IXILU/N0400F340 UN853 "
                  "DIK/N0400F320 UY37 BATTY");
    assert_int_equal(next(f, &m), ADEXP_END);
}

/* ------------------------------------------------------------ decoders */

static void test_decoders(void **state)
{
    (void)state;
    adexp_level l;
    adexp_datetime d;
    adexp_slice s;
#define SL(str) (s.ptr = (str), s.len = strlen(str), s)
    assert_true(adexp_decode_level(SL("F390"), &l));
    assert_int_equal(l.value, 390);
    assert_true(adexp_decode_level(SL("A045"), &l));
    assert_int_equal(l.unit, 'A');
    assert_int_equal(l.value, 45);
    assert_true(adexp_decode_level(SL("S1130"), &l));
    assert_int_equal(l.value, 1130);
    assert_true(adexp_decode_level(SL("M0840"), &l));
    assert_int_equal(l.unit, 'M');
    assert_false(adexp_decode_level(SL("F39"), &l));
    assert_false(adexp_decode_level(SL("X390"), &l));
    assert_false(adexp_decode_level(SL(""), &l));
    assert_true(adexp_decode_datetime(SL("170302052710"), &d));
    assert_int_equal(d.year, 2017);
    assert_int_equal(d.month, 3);
    assert_int_equal(d.day, 2);
    assert_int_equal(d.hour, 5);
    assert_int_equal(d.minute, 27);
    assert_int_equal(d.second, 10);
    assert_true(adexp_decode_datetime(SL("9803170715"), &d));
    assert_int_equal(d.year, 1998);
    assert_false(adexp_decode_datetime(SL("9803173414"), &d));   /* hour 34 */
    assert_false(adexp_decode_datetime(SL("9803170080830"), &d));
    assert_true(adexp_decode_date(SL("181023"), &d));
    assert_int_equal(d.day, 23);
    assert_false(adexp_decode_date(SL("181323"), &d));
    assert_true(adexp_decode_time(SL("0746"), &d));
    assert_int_equal(d.minute, 46);
    assert_false(adexp_decode_time(SL("2460"), &d));
#undef SL
}

/* The view with many repeated fields (40 EETFIR, GEO and ESTDATA, two
 * RTEPTS and ADDR lists: more than the build keeps aside, so its arrays are
 * filled by a second walk) and the cases around them: repeated single
 * fields, lists with other items, a compound SENDER. */
static void test_view_many_repeated_fields(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    static char src[8192];
    size_t n = (size_t)snprintf(src, sizeof src, "-TITLE IFPL -ARCID A -ARCID B "
                                "-REFDATA -SENDER -FAC S1 -SEQNUM 1 -REFDATA -SEQNUM 2 ");
    for (int i = 0; i < 40; i++)
        n += (size_t)snprintf(src + n, sizeof src - n, "-EETFIR F%02d 0001 -GEO -GEOID G%02d "
                              "-ESTDATA -PTID E%02d -FL F%03d ", i, i, i, i);
    n += (size_t)snprintf(src + n, sizeof src - n,
                          "-BEGIN ADDR -FAC X1 -NETWORKTYPE SITA -FAC X2 -END ADDR "
                          "-BEGIN RTEPTS -PT -PTID P1 -PTID Q -RFL F300 -END RTEPTS "
                          "-ADEP EDDF -BEGIN ADDR -FAC X3 -END ADDR "
                          "-BEGIN RTEPTS -PT -PTID P2 -PT -PTID P3 -FL F100 -END RTEPTS");
    assert_true(n < sizeof src);
    assert_int_equal(parse1(f, src, &m), ADEXP_OK);
    const adexp_view *v = &m.view;
    assert_true(adexp_slice_eq(v->arcid, "A"));
    assert_int_equal(v->has_refdata, 2);
    assert_true(adexp_slice_eq(v->refdata.sender_fac, "S1"));
    assert_true(adexp_slice_eq(v->refdata.seqnum, "1"));
    assert_int_equal(v->eetfir.n, 40);
    assert_int_equal(v->n_geo, 40);
    assert_int_equal(v->n_estdata, 40);
    for (int i = 0; i < 40; i++) {
        char want[16];
        snprintf(want, sizeof want, "F%02d 0001", i);
        assert_true(adexp_slice_eq(v->eetfir.v[i], want));
        snprintf(want, sizeof want, "G%02d", i);
        assert_true(adexp_slice_eq(v->geo[i].geoid, want));
        assert_null(v->geo[i].lattd.ptr);
        snprintf(want, sizeof want, "E%02d", i);
        assert_true(adexp_slice_eq(v->estdata[i].ptid, want));
        assert_null(v->estdata[i].eto.ptr);
    }
    assert_int_equal(v->addr.n, 3);
    assert_true(adexp_slice_eq(v->addr.v[2], "X3"));
    assert_int_equal(v->n_rtepts, 3);
    assert_true(adexp_slice_eq(v->rtepts[0].ptid, "P1"));
    assert_null(v->rtepts[0].fl.ptr);
    assert_true(adexp_slice_eq(v->rtepts[2].ptid, "P3"));
    assert_true(adexp_slice_eq(v->rtepts[2].fl, "F100"));
    assert_null(v->speed.v);
    assert_int_equal(v->speed.n, 0);
    assert_null(v->ades.ptr);
    assert_true(adexp_slice_eq(v->adep, "EDDF"));

    /* a few of each, lists with no item of their kind */
    assert_int_equal(parse1(f, "-TITLE IFPL -BEGIN RTEPTS -PT -PTID P1 -RFL F1 -RFL F2 "
                                "-END RTEPTS -SPEED N1 -BEGIN RTEPTS -PT -PTID P2 -END RTEPTS "
                                "-BEGIN ADDR -NETWORKTYPE SITA -END ADDR -SPEED N2", &m), ADEXP_OK);
    assert_int_equal(v->n_rtepts, 2);
    assert_true(adexp_slice_eq(v->rtepts[1].ptid, "P2"));
    assert_int_equal(v->speed.n, 2);
    assert_true(adexp_slice_eq(v->speed.v[1], "N2"));
    assert_int_equal(v->addr.n, 0);
    assert_null(v->addr.v);
    assert_null(v->geo);
}

/* The view's rules where its walks change hands: a repeated field right
 * after the TITLE, a single field repeated before and after the first
 * repeated one, lists
 * whose items are all of another kind (their arrays stay NULL although
 * room was made for them), duplicated point subfields, and a message with no
 * repeated field at all. */
static void test_view_walk_boundaries(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    const adexp_view *v = &m.view;
    assert_int_equal(parse1(f, "-TITLE IFPL -ARCID A -EETFIR X 0001 -ARCID B -ADEP C "
                                "-BEGIN RTEPTS -RFL F1 -RFL F2 -END RTEPTS "
                                "-BEGIN ADDR -NETWORKTYPE SITA -END ADDR -ADEP D "
                                "-ESTDATA -PTID E1 -PTID E2 -FL F1 -FL F2", &m), ADEXP_OK);
    assert_true(adexp_slice_eq(v->title, "IFPL"));
    assert_true(adexp_slice_eq(v->arcid, "A"));
    assert_true(adexp_slice_eq(v->adep, "C"));
    assert_int_equal(v->eetfir.n, 1);
    assert_true(adexp_slice_eq(v->eetfir.v[0], "X 0001"));
    assert_int_equal(v->n_rtepts, 0);
    assert_null(v->rtepts);
    assert_int_equal(v->addr.n, 0);
    assert_null(v->addr.v);
    assert_int_equal(v->n_estdata, 1);
    assert_true(adexp_slice_eq(v->estdata[0].ptid, "E1"));
    assert_true(adexp_slice_eq(v->estdata[0].fl, "F1"));
    assert_null(v->estdata[0].eto.ptr);

    assert_int_equal(parse1(f, "-TITLE IFPL -BEGIN RTEPTS -PT -FL F1 -PTID P -FL F2 -ETO 1 "
                                "-ETO 2 -LATTD 1N -LATTD 2N -END RTEPTS -ARCID A -ARCID B", &m),
                     ADEXP_OK);
    assert_int_equal(v->n_rtepts, 1);
    assert_true(adexp_slice_eq(v->rtepts[0].ptid, "P"));
    assert_true(adexp_slice_eq(v->rtepts[0].fl, "F1"));
    assert_true(adexp_slice_eq(v->rtepts[0].eto, "1"));
    assert_true(adexp_slice_eq(v->rtepts[0].lattd, "1N"));
    assert_null(v->rtepts[0].to.ptr);
    assert_null(v->rtepts[0].longtd.ptr);
    assert_true(adexp_slice_eq(v->arcid, "A"));

    assert_int_equal(parse1(f, "-TITLE IFPL -GEO -GEOID G -LATTD 1N -GEOID H -ARCID A", &m),
                     ADEXP_OK);
    assert_int_equal(v->n_geo, 1);
    assert_true(adexp_slice_eq(v->geo[0].geoid, "G"));
    assert_null(v->geo[0].longtd.ptr);
    assert_true(adexp_slice_eq(v->arcid, "A"));

    assert_int_equal(parse1(f, "-TITLE ACK -ARCID A -ARCID B -REFDATA -SEQNUM 1 -ADEP C", &m),
                     ADEXP_OK);
    assert_true(adexp_slice_eq(v->arcid, "A"));
    assert_true(adexp_slice_eq(v->adep, "C"));
    assert_int_equal(v->has_refdata, 1);
    assert_null(v->rtepts);
    assert_null(v->eetfir.v);
    assert_int_equal(v->n_geo, 0);
}

/* A point as the view's rule reads it off the tree: each of its subfields
 * keeps the first occurrence; a compound gives its value or, with none, its
 * first subfield's. */
static adexp_slice oracle_sub(const adexp_field *pt, const char *kw)
{
    for (const adexp_field *c = pt->child; c; c = c->next) {
        if (!adexp_slice_eq(c->keyword, kw))
            continue;
        if (c->kind == ADEXP_COMPOUND && c->value.len == 0 && c->child)
            c = c->child;
        return c->value;
    }
    return (adexp_slice){0};
}

static void assert_same_slice(adexp_slice a, adexp_slice b)
{
    assert_ptr_equal(a.ptr, b.ptr);
    assert_int_equal(a.len, b.len);
}

/* The view's points (which take the usual -PTID -FL -ETO point on a short
 * path) against oracle_sub, for points of every shape around the usual one:
 * other orders, fewer or more subfields, repeats, empty values, other and
 * unknown subfields, a list in a point. */
static void test_view_points_every_shape(void **state)
{
    static const char *const shapes[] = {
        "-PTID A -FL F1 -ETO 1",
        "-PTID A -FL F1 -ETO 1 -TO 2",
        "-PTID A -FL F1 -ETO 1 -ETO 2",
        "-PTID A -ETO 1 -FL F1",
        "-FL F1 -PTID A -ETO 1",
        "-PTID A -FL F1",
        "-PTID A -FL F1 -SFL 2",
        "-TO 2 -FL F1 -ETO 1",
        "-PTID A -PTID B -ETO 1",
        "-PTID A -FL F1 -FL F2",
        "-PTID -FL -ETO",
        "-PTID A -FL F1 -XYZ 1",
        "-PTID A -FL F1 -BEGIN ETO -END ETO",
        "-LATTD 1N -LONGTD 2E -PTID A",
        "-PTID A -FL F1 -ETO 1 -SFL 2 -LATTD 1N -LONGTD 2E -TO 3",
        "",
    };
    static const char *const subs[] = {"PTID", "FL", "ETO", "TO", "SFL", "LATTD", "LONGTD"};
    fixture *f = *state;
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        char src[256];
        adexp_msg m;
        snprintf(src, sizeof src, "-TITLE IFPL -BEGIN RTEPTS -PT %s -PT -PTID Z -FL F9 -ETO 9 "
                 "-END RTEPTS", shapes[i]);
        (void)parse1(f, src, &m);
        const adexp_field *list = adexp_field_find(m.fields, "RTEPTS");
        assert_non_null(list);
        size_t k = 0;
        for (const adexp_field *pt = list->child; pt; pt = pt->next) {
            if (!adexp_slice_eq(pt->keyword, "PT"))
                continue;
            assert_true(k < m.view.n_rtepts);
            const adexp_point *vp = &m.view.rtepts[k++];
            const adexp_slice got[] = {vp->ptid, vp->fl, vp->eto, vp->to, vp->sfl, vp->lattd,
                                       vp->longtd};
            for (size_t j = 0; j < sizeof subs / sizeof *subs; j++)
                assert_same_slice(got[j], oracle_sub(pt, subs[j]));
        }
        assert_int_equal(k, m.view.n_rtepts);
        assert_true(k >= 1);
    }
}

/* view_title_only: the same messages, the same title (the same bytes),
 * and no other member of the view set, on messages whose TITLE is missing,
 * empty, repeated or not first, and on the teivah IFPL. */
static void test_view_title_only(void **state)
{
    (void)state;
    static const char *const inputs[] = {
        "-TITLE IFPL -ARCID A -BEGIN RTEPTS -PT -PTID P -FL F1 -ETO 1 -END RTEPTS",
        "  -ARCID X\n-TITLE IFPL -TITLE ACK -ADEP EDDM\n-TITLE\n-TITLE REJ",
        "-TITLE -ARCID A -TITLE IFPL -BEGIN ADDR -FAC X -END ADDR",
        "-TITLE IFPL -BEGIN RTEPTS -TITLE X -END RTEPTS -EETFIR E 0001",
        "", "-ARCID only",
    };
    adexp_options o = adexp_options_default();
    o.view_title_only = 1;
    adexp_parser *full = adexp_parser_new(NULL, NULL), *title = adexp_parser_new(&o, NULL);
    adexp_arena a, b;
    adexp_arena_init(&a, NULL);
    adexp_arena_init(&b, NULL);
    size_t tlen = 0;
    char *teivah = read_file(teivah_path, &tlen);
    assert_non_null(teivah);
    for (size_t i = 0; i <= sizeof inputs / sizeof *inputs; i++) {
        const char *in = i < sizeof inputs / sizeof *inputs ? inputs[i] : teivah;
        size_t len = in == teivah ? tlen : strlen(in);
        adexp_parser_reset(full, in, len);
        adexp_parser_reset(title, in, len);
        adexp_msg m, t;
        adexp_status sm;
        do {
            sm = adexp_parser_next(full, &a, &m);
            assert_int_equal(adexp_parser_next(title, &b, &t), sm);
            assert_int_equal(t.nfields, m.nfields);
            assert_ptr_equal(t.view.title.ptr, m.view.title.ptr);
            assert_int_equal(t.view.title.len, m.view.title.len);
            adexp_view rest = t.view;
            memset(&rest.title, 0, sizeof rest.title);
            static const adexp_view zero;
            assert_memory_equal(&rest, &zero, sizeof zero);
        } while (sm != ADEXP_END);
    }
    free(teivah);
    adexp_arena_free(&a);
    adexp_arena_free(&b);
    adexp_parser_free(full);
    adexp_parser_free(title);
}

/* ------------------------------------------------------------ envelopes */

/* The fields of a message in an AFTN envelope hold none of its text. */
static void assert_cnl(const adexp_msg *m, const char *arcid, const char *last, const char *value)
{
    assert_true(adexp_slice_eq(m->view.title, "CNL"));
    assert_field(nth(m->fields, 1), "ARCID", arcid, ADEXP_BASIC);
    const adexp_field *f = m->fields;
    while (f->next)
        f = f->next;
    assert_field(f, last, value, ADEXP_BASIC);
}

static void test_envelope_ita2(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    const char *src = "ZCZC AAA001 170001\nFF LKPREPWC EUCHZMFP\nEDDFZQZX\n170001 EUCHZMFP PLUS\n"
                      "\n-TITLE CNL\n-ARCID A1\n-EOBT 1330\n\n\nNNNN\n\n"
                      "ZCZC AAA002\r\nGG LKPREPWC\r\n170002 EUCHZMFP\r\n-TITLE CNL -ARCID A2\r\nNNNN";
    start(f, src, strlen(src));
    assert_int_equal(next(f, &m), ADEXP_OK);
    assert_cnl(&m, "A1", "EOBT", "1330");
    assert_int_equal(m.offset, 0);
    assert_int_equal(m.length, strstr(src, "NNNN") + 4 - src);
    assert_true(m.envelope.present && m.envelope.closed);
    assert_true(adexp_slice_eq(m.envelope.transmission_id, "AAA001"));
    assert_true(adexp_slice_eq(m.envelope.priority, "FF"));
    assert_true(adexp_slice_eq(m.envelope.addressees, "LKPREPWC EUCHZMFP\nEDDFZQZX"));
    assert_true(adexp_slice_eq(m.envelope.filing_time, "170001"));
    assert_true(adexp_slice_eq(m.envelope.originator, "EUCHZMFP"));
    assert_true(adexp_slice_eq(m.envelope.text[0], "170001"));
    assert_true(adexp_slice_eq(m.envelope.text[1], "PLUS"));
    assert_null(m.envelope.text[2].ptr);
    assert_int_equal(next(f, &m), ADEXP_OK);
    assert_cnl(&m, "A2", "ARCID", "A2");
    assert_int_equal(m.offset, strstr(src, "ZCZC AAA002") - src);
    assert_true(adexp_slice_eq(m.envelope.priority, "GG"));
    assert_int_equal(next(f, &m), ADEXP_END);
}

static void test_envelope_ia5(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    const char *src = "\001ABC123\r\nDD EDDFZQZX\r\n171230 EUCHZMFP\r\n\002-TITLE CNL\r\n-ARCID B1\r\n\v\003"
                      "\001ABC124\r\nDD EDDFZQZX\r\n171231 EUCHZMFP\r\n\002-TITLE CNL -ARCID B2\r\n\v\003";
    start(f, src, strlen(src));
    assert_int_equal(next(f, &m), ADEXP_OK);
    assert_cnl(&m, "B1", "ARCID", "B1");
    assert_true(adexp_slice_eq(m.envelope.transmission_id, "ABC123"));
    assert_int_equal(next(f, &m), ADEXP_OK);
    assert_cnl(&m, "B2", "ARCID", "B2");
    assert_true(m.envelope.closed);
    assert_int_equal(next(f, &m), ADEXP_END);
}

/* A heading of the common shape told whole (its 64 bytes in the input),
 * then what follows it: a '-' in the heading line's text, text before the
 * -TITLE, NNNN before the -TITLE (the envelope ends there: its text holds
 * no message), a field before the -TITLE (the envelope's text). */
static void test_envelope_heading_then_text(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    const char *src = "ZCZC A00001 170001 -X\nFF LKPREPWC EUCHZMFP\n170001 EUCHZMFP\n"
                      "-TITLE CNL -ARCID F1\nNNNN\n"
                      "ZCZC A00002 170001\nFF LKPREPWC EUCHZMFP\n170001 EUCHZMFP\nSVC X\n"
                      "-TITLE CNL -ARCID F2\nNNNN\n"
                      "ZCZC A00003 170001\nFF LKPREPWC EUCHZMFP\n170001 EUCHZMFP\nNNNN\n"
                      "ZCZC A00004 170001\nFF LKPREPWC EUCHZMFP\n170001 EUCHZMFP\n"
                      "-ARCID F4 -TITLE CNL -ARCID F5\nNNNN\n";
    start(f, src, strlen(src));
    assert_int_equal(next(f, &m), ADEXP_OK);
    assert_cnl(&m, "F1", "ARCID", "F1");
    assert_true(adexp_slice_eq(m.envelope.transmission_id, "A00001"));
    assert_true(adexp_slice_eq(m.envelope.text[0], "170001 -X"));
    assert_true(adexp_slice_eq(m.envelope.originator, "EUCHZMFP"));
    assert_int_equal(next(f, &m), ADEXP_OK);
    assert_cnl(&m, "F2", "ARCID", "F2");
    assert_true(adexp_slice_eq(m.envelope.text[2], "SVC X"));
    assert_int_equal(next(f, &m), ADEXP_E_NO_TITLE);
    assert_int_equal(m.nfields, 0);
    assert_error(&m, 0, ADEXP_E_NO_TITLE, 15, 1);   /* at the NNNN */
    assert_true(adexp_slice_eq(m.envelope.transmission_id, "A00003"));
    assert_true(m.envelope.closed);
    assert_int_equal(next(f, &m), ADEXP_OK);
    assert_cnl(&m, "F5", "ARCID", "F5");
    assert_true(adexp_slice_eq(m.envelope.text[2], "-ARCID F4"));
    assert_true(adexp_slice_eq(m.envelope.filing_time, "170001"));
    assert_int_equal(next(f, &m), ADEXP_END);
}

/* NNNN missing before the next ZCZC, a garbled origin line, NNNN with no
 * heading: each an ENVELOPE error of its message, the next one found. */
static void test_envelope_broken(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    const char *src = "ZCZC A1\nFF LKPREPWC\n170001 EUCHZMFP\n-TITLE CNL -ARCID C1 -CTOT 1200\n"
                      "ZCZC A2\nFF LKPREPWC\nEUCHZMFP 170002\n-TITLE CNL -ARCID C2\nNNNN\n"
                      "-TITLE CNL -ARCID C3 -EOBT 0800\nNNNN\n-TITLE CNL -ARCID C4";
    start(f, src, strlen(src));
    assert_int_equal(next(f, &m), ADEXP_E_ENVELOPE);
    assert_cnl(&m, "C1", "CTOT", "1200");
    assert_error(&m, 0, ADEXP_E_ENVELOPE, 5, 1);
    assert_false(m.envelope.closed);
    assert_int_equal(next(f, &m), ADEXP_E_ENVELOPE);
    assert_cnl(&m, "C2", "ARCID", "C2");
    assert_error(&m, 0, ADEXP_E_ENVELOPE, 7, 10);   /* 170002: no addressee */
    /* the parts come from the lines before the garbled one, which is text */
    assert_true(adexp_slice_eq(m.envelope.priority, "FF"));
    assert_null(m.envelope.filing_time.ptr);
    assert_null(m.envelope.originator.ptr);
    assert_true(adexp_slice_eq(m.envelope.text[2], "EUCHZMFP 170002"));
    assert_int_equal(next(f, &m), ADEXP_E_ENVELOPE);
    assert_cnl(&m, "C3", "EOBT", "0800");
    assert_error(&m, 0, ADEXP_E_ENVELOPE, 11, 1);
    assert_false(m.envelope.present);
    assert_true(m.envelope.closed);
    assert_int_equal(next(f, &m), ADEXP_OK);
    assert_cnl(&m, "C4", "ARCID", "C4");
    assert_int_equal(next(f, &m), ADEXP_END);
}

/* A garbled heading: its parts come from the lines before the garbled
 * one, and that line and the rest are the envelope's text, so that no
 * part is held twice (the writer writes both back). */
static void test_envelope_garbled_parts(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    const char *src = "ZCZC A1\nFF LKPREPWC BAD\n170001 EUCHZMFP\n-TITLE CNL -ARCID C1\nNNNN\n"
                      "ZCZC A2\nFF LKPREPWC\nEDDFZQZX X\n170002 EUCHZMFP\n-TITLE CNL -ARCID C2\nNNNN\n"
                      "ZCZC A3\nFF LKPREPWC\n170003 EUCH\n-TITLE CNL -ARCID C3\nNNNN\n";
    start(f, src, strlen(src));
    assert_int_equal(next(f, &m), ADEXP_E_ENVELOPE);
    assert_true(adexp_slice_eq(m.envelope.transmission_id, "A1"));
    assert_null(m.envelope.priority.ptr);
    assert_null(m.envelope.addressees.ptr);
    assert_true(adexp_slice_eq(m.envelope.text[2], "FF LKPREPWC BAD\n170001 EUCHZMFP"));
    assert_int_equal(next(f, &m), ADEXP_E_ENVELOPE);
    assert_true(adexp_slice_eq(m.envelope.priority, "FF"));
    assert_true(adexp_slice_eq(m.envelope.addressees, "LKPREPWC"));
    assert_null(m.envelope.filing_time.ptr);
    assert_true(adexp_slice_eq(m.envelope.text[2], "EDDFZQZX X\n170002 EUCHZMFP"));
    assert_int_equal(next(f, &m), ADEXP_E_ENVELOPE);
    assert_true(adexp_slice_eq(m.envelope.addressees, "LKPREPWC"));
    assert_null(m.envelope.filing_time.ptr);
    assert_null(m.envelope.originator.ptr);
    assert_true(adexp_slice_eq(m.envelope.text[2], "170003 EUCH"));
    assert_int_equal(next(f, &m), ADEXP_END);
}

/* An envelope whose text holds no -TITLE and does not start with a field
 * (a service message, an ICAO message in parentheses) holds no ADEXP: the
 * text is the envelope's, whole, and none of it is read as fields; text
 * that starts with a field is a message without its title, as unframed. */
static void test_envelope_not_adexp(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    const char *src = "ZCZC B1\nSS EUCHZMFP\n021200 LKPRZPZX\nSVC QTA RPT AAA002\n\n\nNNNN\n"
                      "ZCZC B2\nFF EUCHZQZX\n021201 LKPRZPZX\n(FPL-CSA101-IS\n-A320/M\n"
                      "-LKPR1330)\n\nNNNN\n"
                      "ZCZC B3\nFF EUCHZQZX\n021202 LKPRZPZX\n-ARCID C2\nNNNN\n";
    start(f, src, strlen(src));
    assert_int_equal(next(f, &m), ADEXP_E_NO_TITLE);
    assert_int_equal(m.nerrors, 1);
    assert_error(&m, 0, ADEXP_E_NO_TITLE, 4, 1);
    assert_null(m.fields);
    assert_true(m.envelope.closed);
    assert_true(adexp_slice_eq(m.envelope.text[2], "SVC QTA RPT AAA002"));
    assert_int_equal(next(f, &m), ADEXP_E_NO_TITLE);
    assert_int_equal(m.nerrors, 1);
    assert_error(&m, 0, ADEXP_E_NO_TITLE, 11, 1);
    assert_null(m.fields);
    assert_true(adexp_slice_eq(m.envelope.text[2], "(FPL-CSA101-IS\n-A320/M\n-LKPR1330)"));
    assert_int_equal(next(f, &m), ADEXP_E_NO_TITLE);
    assert_error(&m, 0, ADEXP_E_NO_TITLE, 19, 1);
    assert_non_null(m.fields);
    assert_true(adexp_slice_eq(m.fields->keyword, "ARCID"));
    assert_null(m.envelope.text[2].ptr);
    assert_int_equal(next(f, &m), ADEXP_END);
}

/* A plain message followed by a framed one ends before its heading; a
 * control byte or ZCZC inside a line is no envelope. */
static void test_envelope_after_plain(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    const char *src = "-TITLE CNL -ARCID D1 -COMMENT A \001 ZCZC NNNN\n"
                      "ZCZC A3\nFF LKPREPWC\n170003 EUCHZMFP\n-TITLE CNL -ARCID D2\nNNNN\n";
    start(f, src, strlen(src));
    assert_int_equal(next(f, &m), ADEXP_OK);
    assert_cnl(&m, "D1", "COMMENT", "A \001 ZCZC NNNN");
    assert_false(m.envelope.present);
    assert_int_equal(next(f, &m), ADEXP_OK);
    assert_cnl(&m, "D2", "ARCID", "D2");
    assert_true(m.envelope.present);
    assert_int_equal(next(f, &m), ADEXP_END);
}

/* A file that starts with a UTF-8 byte order mark (as editors save it):
 * its first envelope starts after the mark, in each form, as a message's
 * first field does. */
static void test_envelope_after_bom(void **state)
{
    fixture *f = *state;
    static const struct {
        const char *src;
        adexp_envelope_form form;
    } cases[] = {
        {"\xEF\xBB\xBFZCZC A1\r\nFF LKPREPWC\r\n170001 EUCHZMFP\r\n-TITLE CNL -ARCID F1\r\nNNNN\r\n",
         ADEXP_FORM_ITA2},
        {"\xEF\xBB\xBF\001A1\r\nFF LKPREPWC\r\n170001 EUCHZMFP\r\n\002-TITLE CNL -ARCID F1\r\n\v\003",
         ADEXP_FORM_IA5},
        {"\xEF\xBB\xBF" "FF LKPREPWC\r\n170001 EUCHZMFP\r\n-TITLE CNL -ARCID F1\r\n", ADEXP_FORM_BARE},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        adexp_msg m;
        start(f, cases[k].src, strlen(cases[k].src));
        assert_int_equal(next(f, &m), ADEXP_OK);
        assert_cnl(&m, "F1", "ARCID", "F1");
        assert_true(m.envelope.present);
        assert_int_equal(m.envelope.form, cases[k].form);
        assert_true(adexp_slice_eq(m.envelope.priority, "FF"));
        assert_int_equal(m.offset, 3);
        assert_int_equal(next(f, &m), ADEXP_END);
    }
}

/* --envelope none: the envelope's text is read as ADEXP text, as before. */
static void test_envelope_none(void **state)
{
    fixture *f = *state;
    adexp_options o = adexp_options_default();
    o.envelope = ADEXP_ENVELOPE_NONE;
    adexp_parser_free(f->p);
    f->p = adexp_parser_new(&o, NULL);
    adexp_msg m;
    start(f, "ZCZC A1\n-TITLE CNL -ARCID E1\nNNNN\n", 34);
    assert_int_equal(next(f, &m), ADEXP_E_NO_TITLE);
    assert_int_equal(next(f, &m), ADEXP_OK);
    assert_cnl(&m, "E1\nNNNN", "ARCID", "E1\nNNNN");   /* NNNN glued in, as before */
    assert_false(m.envelope.present);
}

/* A -TITLE right after a text's '(' quotes a message (REJ, ACK): one
 * message; the quote never closed: today's reading, the text ends there. */
static void test_quoted_adexp(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    const char *src = "-TITLE REJ -OLDMSG (-TITLE IFPL -ARCID A1 -MSGTXT (FPL-A1-IS)) -ERROR X\n"
                      "-TITLE ACK -MSGTXT ( -TITLE IFPL -ARCID A2\n-TITLE CNL -ARCID A3\n";
    start(f, src, strlen(src));
    assert_int_equal(next(f, &m), ADEXP_OK);
    assert_field(nth(m.fields, 1), "OLDMSG", "(-TITLE IFPL -ARCID A1 -MSGTXT (FPL-A1-IS))",
                 ADEXP_BASIC);
    assert_field(nth(m.fields, 2), "ERROR", "X", ADEXP_BASIC);
    assert_int_equal(next(f, &m), ADEXP_E_TEXT_UNCLOSED);
    assert_true(adexp_slice_eq(m.view.title, "ACK"));
    assert_int_equal(next(f, &m), ADEXP_OK);
    assert_true(adexp_slice_eq(m.view.title, "IFPL"));
    assert_int_equal(next(f, &m), ADEXP_OK);
    assert_true(adexp_slice_eq(m.view.title, "CNL"));
    assert_int_equal(next(f, &m), ADEXP_END);
}

/* A text field after a '(' left open reads as it does on its own: its '('
 * closed within its value, the value ends at the next '-' after the ')',
 * and a '-' with no keyword there is an error, not part of the text. */
static void test_text_after_unclosed_paren(void **state)
{
    fixture *f = *state;
    adexp_msg m;
    const char *src = "-TITLE A -MSGTXT (\n-TITLE IFPL -MSGTXT ()-";
    start(f, src, strlen(src));
    assert_int_equal(next(f, &m), ADEXP_E_TEXT_UNCLOSED);
    assert_int_equal(next(f, &m), ADEXP_E_NO_KEYWORD);
    assert_field(nth(m.fields, 1), "MSGTXT", "()", ADEXP_BASIC);
    assert_int_equal(m.errors[0].offset, strlen(src) - 1);
    assert_int_equal(next(f, &m), ADEXP_END);
}

int main(int argc, char **argv)
{
    teivah_path = argc > 1 ? argv[1] : "testdata/messages/IFPL-teivah-1.adexp";
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_compound_nesting_from_dictionary),
        T(test_lists_nest_and_items_keep_order),
        T(test_message_list_holds_whole_messages),
        T(test_unknown_fields_kept_and_flagged),
        T(test_unknown_field_takes_following_subfields),
        T(test_compound_with_plain_text),
        T(test_glued_keywords_and_spaced_dashes),
        T(test_error_no_title),
        T(test_error_no_keyword),
        T(test_error_end_mismatch),
        T(test_error_end_of_another_list_closes_this_one),
        T(test_error_end_without_begin),
        T(test_error_list_unclosed_keeps_next_message),
        T(test_error_begin_without_name),
        T(test_error_text_unclosed_keeps_next_messages),
        cmocka_unit_test(test_error_limits),
        T(test_errors_capped_but_counted),
        T(test_blank_input_has_no_message),
        T(test_teivah_ifpl),
        T(test_view_many_repeated_fields),
        T(test_view_walk_boundaries),
        T(test_view_points_every_shape),
        cmocka_unit_test(test_view_title_only),
        cmocka_unit_test(test_decoders),
        T(test_envelope_ita2),
        T(test_envelope_ia5),
        T(test_envelope_heading_then_text),
        T(test_envelope_broken), T(test_envelope_garbled_parts),
        T(test_envelope_not_adexp),
        T(test_envelope_after_plain),
        T(test_envelope_after_bom),
        T(test_envelope_none),
        T(test_quoted_adexp),
        T(test_text_after_unclosed_paren),
    };
    return cmocka_run_group_tests_name("parser", tests, NULL, NULL);
}

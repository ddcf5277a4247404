/* The ADEXP writer: both layouts byte for byte, folding, the values and
 * keywords it refuses (with the field's path, the output untouched), the
 * verify option, and out-of-memory. */
#define _DEFAULT_SOURCE 1   /* MAP_ANONYMOUS */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "adexp.h"
#include "dict.h"
#include "dict_ids.h"
#include "lexer.h"
#include "json_out.h"
#include "write_runs.h"

typedef struct fixture {
    adexp_arena arena;
    adexp_msg msg;
    adexp_buf out;
    adexp_write_error err;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    adexp_arena_init(&f->arena, NULL);
    adexp_buf_init(&f->out, NULL);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    adexp_arena_free(&f->arena);
    adexp_buf_free(&f->out);
    free(f);
    return 0;
}

static void parse(fixture *f, const char *text)
{
    adexp_arena_reset(&f->arena);
    assert_int_equal(adexp_parse(text, strlen(text), &f->arena, &f->msg), ADEXP_OK);
}

/* The text written for f->msg with layout and fold, as a C string. */
static const char *write_as(fixture *f, adexp_layout layout, int fold)
{
    adexp_write_options o = adexp_write_options_default();
    o.layout = layout;
    o.fold = fold;
    f->out.len = 0;
    assert_int_equal(adexp_write(&f->out, &f->msg, &o, &f->err), ADEXP_OK);
    assert_int_equal(f->err.code, ADEXP_OK);
    assert_true(adexp_buf_put(&f->out, "", 1));   /* a C string, for the compare */
    f->out.len--;
    return f->out.data;
}

static const char ifpl[] =
    "-TITLE IFPL -ARCID DLH66T\n-ESTDATA -PTID XETBO -ETO 170302032300 -FL F390\n"
    "-ALTNZ EDDV -BEGIN RTEPTS -PT -PTID EDDM -FL F000\n"
    "-PT -PTID INPUD -CLEARED Y -END RTEPTS -BEGIN ADDR -FAC A -BEGIN X -FAC B\n"
    "-END X -END ADDR -CLEARED Y\n"
    "-MSGTXT (FPL-DLH66T-IS\n -A343/H) -ROUTE N0450F350   DCT\n  INPUD\n";

static void test_line_layout(void **state)
{
    fixture *f = *state;
    parse(f, ifpl);
    assert_string_equal(write_as(f, ADEXP_LAYOUT_LINE, 1),
                        "-TITLE IFPL -ARCID DLH66T -ESTDATA -PTID XETBO -ETO 170302032300 "
                        "-FL F390 -ALTNZ EDDV -BEGIN RTEPTS -PT -PTID EDDM -FL F000 "
                        "-PT -PTID INPUD -CLEARED Y -END RTEPTS -BEGIN ADDR -FAC A "
                        "-BEGIN X -FAC B -END X -END ADDR -CLEARED Y -MSGTXT (FPL-DLH66T-IS -A343/H) -ROUTE N0450F350 DCT "
                        "INPUD\n");
}

static void test_ifps_layout_keeps_bytes(void **state)
{
    fixture *f = *state;
    parse(f, ifpl);
    assert_string_equal(write_as(f, ADEXP_LAYOUT_IFPS, 0),
                        "-TITLE IFPL\n"
                        "-ARCID DLH66T\n"
                        "-ESTDATA -PTID XETBO -ETO 170302032300 -FL F390\n"
                        "-ALTNZ EDDV\n"
                        "-BEGIN RTEPTS\n"
                        "  -PT -PTID EDDM -FL F000\n"
                        "  -PT -PTID INPUD -CLEARED Y\n"
                        "-END RTEPTS\n"
                        "-BEGIN ADDR\n"
                        "  -FAC A\n"
                        "  -BEGIN X\n"
                        "    -FAC B\n"
                        "  -END X\n"
                        "-END ADDR\n"
                        "-CLEARED Y\n"
                        "-MSGTXT (FPL-DLH66T-IS\n -A343/H)\n"
                        "-ROUTE N0450F350   DCT\n  INPUD\n");
}

static void test_message_list_and_empty_values(void **state)
{
    fixture *f = *state;
    parse(f, "-TITLE IFPDSUM -BEGIN IFPDLIST -BEGIN IFPDLONG -TITLE IFPL -ARCID A "
             "-END IFPDLONG -END IFPDLIST -COMMENT -ESTDATA");
    assert_string_equal(write_as(f, ADEXP_LAYOUT_LINE, 0),
                        "-TITLE IFPDSUM -BEGIN IFPDLIST -BEGIN IFPDLONG -TITLE IFPL "
                        "-ARCID A -END IFPDLONG -END IFPDLIST -COMMENT -ESTDATA\n");
}

/* Changes the value of the field at path p of f->msg (top-level index i,
 * then child j if j >= 0). */
static adexp_field *field_at(fixture *f, int i, int j)
{
    adexp_field *x = f->msg.fields;
    while (i-- > 0)
        x = x->next;
    if (j >= 0)
        for (x = x->child; j-- > 0;)
            x = x->next;
    return x;
}

static void set_value(adexp_field *x, const char *v)
{
    x->value.ptr = v;
    x->value.len = strlen(v);
}

static void expect_error(fixture *f, const adexp_write_options *o, adexp_status code,
                         const char *path)
{
    f->out.len = 0;
    assert_true(adexp_buf_put(&f->out, "X", 1));   /* something already there */
    size_t before = f->out.len;
    assert_int_equal(adexp_write(&f->out, &f->msg, o, &f->err), code);
    assert_int_equal(f->err.code, code);
    assert_string_equal(f->err.path, path);
    assert_int_equal(f->out.len, before);
}

static void test_refuses_what_would_not_read_back(void **state)
{
    fixture *f = *state;
    adexp_write_options keep = adexp_write_options_default();
    adexp_write_options fold = keep;
    fold.fold = 1;
    const char *msg = "-TITLE IFPL -ESTDATA -PTID A -ETO 1 -ESTDATA -PTID B -ETO 2 "
                      "-MSGTXT (X) -REG DABC";

    parse(f, msg);
    set_value(field_at(f, 2, 1), "17-03");
    expect_error(f, &keep, ADEXP_E_WRITE_VALUE, "ESTDATA[2]/ETO");

    parse(f, msg);
    set_value(field_at(f, 4, -1), " DABC");              /* the parser trims it */
    expect_error(f, &keep, ADEXP_E_WRITE_VALUE, "REG");
    assert_string_equal(write_as(f, ADEXP_LAYOUT_LINE, 1),
                        "-TITLE IFPL -ESTDATA -PTID A -ETO 1 -ESTDATA -PTID B -ETO 2 "
                        "-MSGTXT (X) -REG DABC\n");

    const char *bad_text[] = {"(FPL-A", "(A)-B", "(A -TITLE B)", "FPL -ARCID A",
                              " (A)"};
    for (size_t i = 0; i < sizeof bad_text / sizeof *bad_text; i++) {
        parse(f, msg);
        set_value(field_at(f, 3, -1), bad_text[i]);
        expect_error(f, &keep, ADEXP_E_WRITE_VALUE, "MSGTXT");
    }
    /* bracket-less text is fine before a primary field (-REG) */
    parse(f, msg);
    set_value(field_at(f, 3, -1), "FPL-A-IS -PTID X");
    assert_string_equal(write_as(f, ADEXP_LAYOUT_LINE, 0),
                        "-TITLE IFPL -ESTDATA -PTID A -ETO 1 -ESTDATA -PTID B -ETO 2 "
                        "-MSGTXT FPL-A-IS -PTID X -REG DABC\n");
    /* ... not before an unknown field, which it would swallow */
    parse(f, "-TITLE ACK -MSGTXT (A) -LOCAL Y");
    set_value(field_at(f, 1, -1), "FPL-A");
    expect_error(f, &fold, ADEXP_E_WRITE_VALUE, "MSGTXT");

    parse(f, msg);
    field_at(f, 1, 0)->keyword.ptr = "ptid";
    expect_error(f, &keep, ADEXP_E_WRITE_KEYWORD, "ESTDATA/ptid");
    parse(f, msg);
    field_at(f, 4, -1)->keyword.len = 0;
    expect_error(f, &keep, ADEXP_E_WRITE_KEYWORD, "?");
    parse(f, msg);
    field_at(f, 4, -1)->keyword.ptr = "END";
    field_at(f, 4, -1)->keyword.len = 3;
    expect_error(f, &keep, ADEXP_E_WRITE_KEYWORD, "END");
}

static void test_verify_catches_trees_no_text_reads_as(void **state)
{
    fixture *f = *state;
    adexp_write_options o = adexp_write_options_default();
    o.verify = 1;
    parse(f, "-TITLE IFPL -ESTDATA -PTID A -ETO 1 -ARCID X");
    assert_int_equal(adexp_write(&f->out, &f->msg, &o, &f->err), ADEXP_OK);
    /* ARCID moved into ESTDATA: the text ends ESTDATA before it */
    adexp_field *est = field_at(f, 1, -1), *arcid = est->next;
    est->next = NULL;
    est->child->next->next = arcid;
    est->nchildren = 3;
    f->out.len = 0;
    assert_int_equal(adexp_write(&f->out, &f->msg, &o, &f->err), ADEXP_E_WRITE_SHAPE);
    assert_string_equal(f->err.path, "ESTDATA/ARCID");
    assert_int_equal(f->out.len, 0);
    o.verify = 0;                      /* without verify: written as it is */
    assert_int_equal(adexp_write(&f->out, &f->msg, &o, &f->err), ADEXP_OK);
    /* a second -TITLE would start a second message */
    parse(f, "-TITLE IFPL -ARCID X -ADEP Y");
    field_at(f, 2, -1)->keyword.ptr = "TITLE";
    field_at(f, 2, -1)->keyword.len = 5;
    o.verify = 1;
    f->out.len = 0;
    assert_int_equal(adexp_write(&f->out, &f->msg, &o, &f->err), ADEXP_E_WRITE_SHAPE);
    assert_string_equal(f->err.path, "TITLE[2]");
}

static void test_tree_same_and_paths(void **state)
{
    fixture *f = *state;
    adexp_arena a2;
    adexp_arena_init(&a2, NULL);
    adexp_msg m2;
    parse(f, "-TITLE IFPL -BEGIN RTEPTS -PT -PTID A -PT -PTID B -END RTEPTS -ROUTE A  B");
    const char *t2 = "-TITLE IFPL -BEGIN RTEPTS -PT -PTID A -PT -PTID C -END RTEPTS -ROUTE A B";
    assert_int_equal(adexp_parse(t2, strlen(t2), &a2, &m2), ADEXP_OK);
    const adexp_field *where = NULL;
    assert_false(adexp_tree_same(f->msg.fields, m2.fields, ADEXP_SAME_FOLD, &where));
    char path[64];
    assert_int_equal(adexp_field_path(f->msg.fields, where, path, sizeof path), 17);
    assert_string_equal(path, "RTEPTS/PT[2]/PTID");
    assert_int_equal(adexp_field_path(f->msg.fields, where, path, 5), 17);
    assert_string_equal(path, "RTEP");
    assert_int_equal(adexp_field_path(f->msg.fields, &(adexp_field){0}, path, 5), 0);
    /* same but for the ROUTE's spaces: folded equal, not byte equal */
    field_at(f, 1, 1)->child->value = field_at(f, 1, 0)->child->value;
    set_value(field_at(f, 1, 1)->child, "C");
    assert_true(adexp_tree_same(f->msg.fields, m2.fields, ADEXP_SAME_FOLD, &where));
    assert_false(adexp_tree_same(f->msg.fields, m2.fields, 0, &where));
    assert_string_equal((adexp_field_path(f->msg.fields, where, path, sizeof path), path),
                        "ROUTE");
    adexp_arena_free(&a2);
}

/* An allocator that fails after a budget of calls. */
static void *budget_alloc(void *ctx, size_t n)
{
    int *left = ctx;
    return (*left)-- > 0 ? malloc(n) : NULL;
}

static void budget_free(void *ctx, void *p, size_t n)
{
    (void)ctx;
    (void)n;
    free(p);
}

static void test_out_of_memory(void **state)
{
    fixture *f = *state;
    parse(f, ifpl);
    int left = 0;
    adexp_allocator hooks = {budget_alloc, budget_free, &left};
    adexp_buf out;
    adexp_buf_init(&out, &hooks);
    assert_int_equal(adexp_write(&out, &f->msg, NULL, &f->err), ADEXP_E_NOMEM);
    assert_int_equal(out.len, 0);
    adexp_write_options o = adexp_write_options_default();
    o.verify = 1;
    for (int budget = 1; budget < 8; budget++) {
        left = budget;
        out.len = 0;
        adexp_status st = adexp_write(&out, &f->msg, &o, &f->err);
        assert_true(st == ADEXP_OK || st == ADEXP_E_NOMEM);
        if (st != ADEXP_OK)
            assert_int_equal(out.len, 0);
    }
    adexp_buf_free(&out);
}

/* ---------------------------------------------------- runs (write_runs.h)
 *
 * The rule of a run in the plainest words: the byte loops of write.c
 * (has_dash, is_folded; plain_value_ok's ends). */
static int run_reference(const unsigned char *p, size_t n, int fold)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] == '-')
            return 0;
    if (!fold)
        return !is_sep(p[0]) && !is_sep(p[n - 1]);
    if (p[0] == ' ' || p[n - 1] == ' ')
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((is_sep(p[i]) && p[i] != ' ') ||
            (p[i] == ' ' && p[i + 1] == ' '))   /* p[n - 1] is no space */
            return 0;
    return 1;
}

typedef int run_check_fn(const unsigned char *p, size_t n, char *o, int fold);

static run_check_fn *const runs[] = {
    write_run_bytes,
#if SWAR_RUNS
    write_run_swar,
#endif
#if JSON_STRING_SSE2
    write_run_sse2,
#endif
};

typedef size_t fold_run_fn(const unsigned char *p, size_t n, char *o);

static fold_run_fn *const fold_runs[] = {
#if SWAR_RUNS
    write_fold_run_swar,
#endif
#if JSON_STRING_SSE2
    write_fold_run_sse2,
#endif
    write_fold_run_bytes,
};

#define RUN_MAXLEN 80

/* The end of a readable page followed by a PROT_NONE one: a read past
 * bytes placed right before it faults at once. */
static unsigned char *guard_end(void)
{
    static unsigned char *guard;
    if (!guard) {
        long page = sysconf(_SC_PAGESIZE);
        unsigned char *m = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        assert_true(m != MAP_FAILED);
        assert_int_equal(mprotect(m + page, (size_t)page, PROT_NONE), 0);
        guard = m + page;
    }
    return guard;
}

/* Every run function against the reference on s[0..n), copied to end right
 * before a PROT_NONE page (a read past it crashes); the output has exactly
 * n + WRITE_RUN_SLACK bytes (a sanitizer sees a store past it). */
static void check_runs(const unsigned char *s, size_t n)
{
    unsigned char *in = guard_end() - n;
    memcpy(in, s, n);
    char *o = malloc(n + WRITE_RUN_SLACK);
    assert_non_null(o);
    size_t want_fold = write_fold_run_bytes(in, n, o);
    for (size_t r = 0; r < sizeof fold_runs / sizeof fold_runs[0]; r++) {
        size_t got = fold_runs[r](in, n, o);
        if (got != want_fold)
            fail_msg("fold run %zu, n %zu: %zu, want %zu", r, n, got, want_fold);
        assert_memory_equal(o, in, got);
    }
    for (int fold = 0; fold < 2; fold++) {
        int want = run_reference(in, n, fold);
        for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
            int got = runs[r](in, n, o, fold);
            if (got != want)
                fail_msg("run %zu, fold %d, n %zu: %d, want %d", r, fold, n, got, want);
            if (got)
                assert_memory_equal(o, in, n);
        }
    }
    if (n <= 16) {                             /* no byte below '!', no '-' */
        int plain = 1;
        for (size_t i = 0; i < n; i++)
            plain &= in[i] > ' ' && in[i] != '-' && in[i] < 0x80;
        int none = write_stops_none(write_plain_stops(in, n, o));
        if (plain)                             /* the bytes from 0x80 may stop it */
            assert_true(none);
        if (none) {                            /* it is a run, kept and folded */
            assert_true(run_reference(in, n, 0) && run_reference(in, n, 1));
            assert_memory_equal(o, in, n);
        }
        /* without '-' (a clean parsed tree's value): exactly the bytes
         * from '!' to 0x7F, and then a run */
        if (!memchr(in, '-', n)) {
            memset(o, 0, n);
            int graphic = 1;
            for (size_t i = 0; i < n; i++)
                graphic &= in[i] > ' ' && in[i] < 0x80;
            none = write_dashless_none(write_dashless_stops(in, n, o));
            assert_int_equal(none, graphic);
            assert_memory_equal(o, in, n);
            if (none)
                assert_true(run_reference(in, n, 0) && run_reference(in, n, 1));
        }
    }
    free(o);
}

static void test_runs_against_the_rule(void **state)
{
    (void)state;
    for (int c = 0; c < 256; c++)
        assert_int_equal(write_is_sep((unsigned char)c), is_sep((unsigned char)c) != 0);
    static const char odd[] = " \t\n\v\f\r\b\x0e-!,.\x1f\x7f\x80";
    unsigned char s[RUN_MAXLEN];
    for (size_t n = 1; n <= RUN_MAXLEN; n++) {
        memset(s, 'A', n);
        check_runs(s, n);
        for (size_t i = 0; i < n; i++)          /* each odd byte at each place */
            for (size_t k = 0; k < sizeof odd - 1; k++) {
                memset(s, 'A', n);
                s[i] = (unsigned char)odd[k];
                check_runs(s, n);
                if (i + 1 < n) {                /* and a space before it */
                    s[i + 1] = s[i];
                    s[i] = ' ';
                    check_runs(s, n);
                }
            }
    }
    srand(19);
    static const char mix[] = "AB9/  \t\n\v\f\r-()\x80\xff\x08\x0e";
    for (int t = 0; t < 20000; t++) {          /* words, spaces and the rest */
        size_t n = 1 + (size_t)rand() % RUN_MAXLEN;
        for (size_t i = 0; i < n; i++)
            s[i] = rand() % 4 ? (unsigned char)mix[rand() % 4]
                              : (unsigned char)mix[rand() % (sizeof mix - 1)];
        check_runs(s, n);
    }
}

/* The writer's folding in the plainest words: runs of the lexer's
 * separators (VT and FF too, which adexp_fold_copy keeps) one space, the
 * ends trimmed. Returns the length written to dst. */
static size_t fold_reference(const char *s, size_t n, char *dst)
{
    size_t k = 0;
    int pending = 0;
    for (size_t i = 0; i < n; i++) {
        if (is_sep((unsigned char)s[i])) {
            pending = k > 0;
            continue;
        }
        if (pending)
            dst[k++] = ' ';
        pending = 0;
        dst[k++] = s[i];
    }
    return k;
}

/* Folded values (fold_into and its runs, through the fast path and the
 * general one: a known and an unknown keyword) against the plain rule, and
 * against adexp_fold_copy where they agree (no VT, no FF). */
static void test_fold_against_the_rule(void **state)
{
    fixture *f = *state;
    static const char mix[] = "AB9/ \t\n\v\f\r\x08\x0e\x8d";
    char v[200], folded[256], want[512];
    srand(7);
    for (int t = 0; t < 8000; t++) {
        size_t n = (size_t)rand() % (sizeof v);
        for (size_t i = 0; i < n; i++)
            v[i] = rand() % 3 ? mix[rand() % 3] : mix[rand() % (sizeof mix - 1)];
        v[n] = '\0';
        size_t fn = fold_reference(v, n, folded);
        if (!memchr(v, '\v', n) && !memchr(v, '\f', n))
            assert_int_equal(adexp_fold_copy((adexp_slice){v, n}, want, sizeof want), fn);
        parse(f, t % 2 ? "-TITLE IFPL -ROUTE X" : "-TITLE IFPL -ZZUNKNOWN X");
        adexp_field *x = (adexp_field *)f->msg.fields->next;
        set_value(x, v);
        snprintf(want, sizeof want, "-TITLE IFPL -%s%s%.*s\n", t % 2 ? "ROUTE" : "ZZUNKNOWN",
                 fn ? " " : "", (int)fn, folded);
        assert_string_equal(write_as(f, ADEXP_LAYOUT_LINE, 1), want);
    }
}

/* A tree's dict_id is trusted only where it names the field's keyword: a
 * wrong one (another entry of the same length, ICAO text, BEGIN, one past
 * the table) writes what the keyword says, byte for byte. */
static void test_dict_id_must_name_the_keyword(void **state)
{
    fixture *f = *state;
    static const uint16_t ids[] = {DICT_ID_ADES, DICT_ID_MSGTXT, DICT_ID_BEGIN, DICT_ID_ROUTE,
                                   DICT_COUNT, 0xFFFF};
    assert_int_equal(dict_count, DICT_COUNT);
    parse(f, "-TITLE IFPL -ADEP EDDM -ESTDATA -PTID XETBO -FL F390 -ROUTE N0450F350 DCT\n");
    for (int fold = 0; fold < 2; fold++) {
        char want[256];
        strcpy(want, write_as(f, ADEXP_LAYOUT_LINE, fold));
        for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
            for (adexp_field *x = (adexp_field *)f->msg.fields; x; x = x->next) {
                uint16_t keep = x->dict_id;
                x->dict_id = ids[i];
                assert_string_equal(write_as(f, ADEXP_LAYOUT_LINE, fold), want);
                x->dict_id = keep;
            }
        }
    }
}

/* ------------------------------------------- ICAO text (write_runs.h)
 *
 * WRITE_TEXT_CLOSED's answer 1 (sure) against the lexer itself, which is
 * what write.c asks when it is not sure; the byte loop and the SSE2 scan
 * give the same answers. Each text ends right before a PROT_NONE page
 * (guard_end). */
/* Whether "-MSGTXT " s[0..n), lexed alone, is one field with value s. */
static int lexer_reads_text(const unsigned char *s, size_t n)
{
    static char field[200];
    memcpy(field, "-MSGTXT ", 8);
    memcpy(field + 8, s, n);
    lexer lx;
    lexer_init(&lx, field, 8 + n, UINT32_MAX);
    const field_token *t = lexer_next_field(&lx);
    return t->kind == FT_FIELD && t->code == ADEXP_OK && t->value.len == n &&
           t->value.ptr == field + 8 && lexer_next_field(&lx)->kind == FT_EOF;
}

static void check_text(const unsigned char *s, size_t n, int *sure)
{
    unsigned char *in = guard_end() - n;
    memcpy(in, s, n);
    int bytes = write_text_closed_bytes(in, n);
    assert_int_equal(WRITE_TEXT_CLOSED(in, n), bytes);
    if (bytes) {
        if (!lexer_reads_text(in, n))
            fail_msg("sure of a text the lexer reads otherwise: %.*s", (int)n, (const char *)in);
        (*sure)++;
    }
}

static void test_text_closed_against_the_lexer(void **state)
{
    (void)state;
    static const char *const fixed[] = {
        "(FPL-ABC-IS)", "(A)(B)", "(A)B", "(A)-B", "(A -TITLE B)", "(A -TITLEX B)",
        "(A - TITLE)", "(A -\tTITLE- B)", "((A)", "(A))", "(A) ", "(A)\n",
        "(FPL-TAP123-IS -A320/M-SDFG/S\n-EDDM1200 -N0450F350 DCT -EDDF0100 -0)",
        "(0123456789ABCDE)", "(0123456789ABCD)", "(0123456789ABCDEF-TITLE)",
        "(0123456789ABCDE-TITLE IFPL)", "(0123456789ABC)-", "(0123456789ABCDEFGHIJ)(K)"};
    int sure = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        check_text((const unsigned char *)fixed[i], strlen(fixed[i]), &sure);
    static const char mix[] = "AB( )-TITLE\n\t9/";
    unsigned char s[120];
    srand(23);
    for (int t = 0; t < 40000; t++) {
        size_t n = 1 + (size_t)rand() % (sizeof s - 1);
        s[0] = '(';
        for (size_t i = 1; i < n; i++)
            s[i] = rand() % 3 ? (unsigned char)"AB9/ "[rand() % 5]
                              : (unsigned char)mix[rand() % (sizeof mix - 1)];
        if (rand() % 2)
            s[n - 1] = ')';
        if (n > 8 && rand() % 4 == 0)                  /* a -TITLE somewhere */
            memcpy(s + 1 + (size_t)rand() % (n - 7), "-TITLE", 6);
        check_text(s, n, &sure);
    }
    assert_true(sure > 5000);          /* most are sure: the lexer is rarely asked */
}

/* ------------------------------------ the writer against its rule, plainly
 *
 * Random trees of known and unknown keywords (no ICAO text), written in
 * both layouts, kept and folded, with indents that make leads of up to,
 * exactly and over the fast path's 32 bytes, against a writer of the rule
 * in plain words. Every keyword and value ends right before a PROT_NONE
 * page; the output buffer's blocks end right before one too (so that a
 * store past the room reserved faults), and each message is written after
 * other bytes up to 700 before a block's end (its first lead over the byte
 * before it, put back), into an empty buffer, and with an extended
 * dictionary. */

#define SLOTS 160
static unsigned char *slot_base;
static size_t slot_page, slot_next;

/* s[0..n) copied to end right before a PROT_NONE page (n < a page). */
static const char *at_page_end(const char *s, size_t n)
{
    if (!slot_base) {
        slot_page = (size_t)sysconf(_SC_PAGESIZE);
        slot_base = mmap(NULL, 2 * SLOTS * slot_page, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        assert_true(slot_base != MAP_FAILED);
        for (size_t i = 0; i < SLOTS; i++)
            assert_int_equal(mprotect(slot_base + (2 * i + 1) * slot_page, slot_page, PROT_NONE),
                             0);
    }
    assert_true(slot_next < SLOTS);
    unsigned char *end = slot_base + (2 * slot_next++ + 1) * slot_page;
    memcpy(end - n, s, n);
    return (const char *)(end - n);
}

/* Blocks that end right before a PROT_NONE page. */
static void *guarded_alloc(void *ctx, size_t n)
{
    (void)ctx;
    size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (n + page - 1) / page * page;
    unsigned char *m = mmap(NULL, len + page, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    mprotect(m + len, page, PROT_NONE);
    return m + len - n;
}

static void guarded_free(void *ctx, void *p, size_t n)
{
    (void)ctx;
    size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (n + page - 1) / page * page;
    munmap((unsigned char *)p + n - len, len + page);
}

#define NODES 60
typedef struct rtree {
    adexp_field f[NODES];
    size_t n;
} rtree;

static const char *const keywords[] = {"ARCID", "FL", "PTID", "ETO", "ADEP", "ESTDATA", "PT",
                                       "ROUTE", "SFL", "NETWORKTYPE", "ZZUNKNOWN", "Q",
                                       "ADDRINFO", "AOARCID", "IFPLID", "ZZ9", "ROUTEPT", ""};
static const char *const values[] = {"", "X", "F390", "ABC DEF", "A  B", "A\nB", " A", "A ",
                                     "\tA", "123456789012345", "1234567890123456",
                                     "N0450F350 DCT INPUD UN871 DCT", "A-B", "A \t\n B  C",
                                     "0123456789 0123456789 0123456789 0123456789 0123456789"};

static adexp_field *rnode(rtree *t, const char *kw, const char *v, uint8_t kind)
{
    assert_true(t->n < NODES);
    adexp_field *x = &t->f[t->n++];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    x->keyword.len = strlen(kw);
    x->keyword.ptr = at_page_end(kw, x->keyword.len);
    x->value.len = strlen(v);
    x->value.ptr = at_page_end(v, x->value.len);
    const dict_entry *e = dict_lookup(kw, x->keyword.len);
    x->dict_id = e ? dict_id(e) : ADEXP_DICT_NONE;
    if (rand() % 16 == 0)
        x->dict_id = (uint16_t)(rand() % 2 ? rand() % DICT_COUNT : DICT_COUNT + rand() % 2000);
    return x;
}

/* A route point, -PT with -PTID, -FL and -ETO, most often as the parser
 * makes them (put_point's), else one thing off: a keyword's bytes (its
 * dict_id kept), a value, a subfield more, fewer, or with a child, a list
 * among them, a value of the -PT. */
static adexp_field *rpoint(rtree *t)
{
    static const char *const subs[] = {"PTID", "FL", "ETO"};
    static const char *const near[] = {"PTIX", "FX", "ETX", "PX", "ETA", "PTIDX"};
    static const char *const good[] = {"XETBO", "F390", "250502231900", "A", "AB",
                                       "1234567890123456", "!~,./", "\x7f\xff"};
    int off = rand() % 4 ? -1 : rand() % 8;
    adexp_field *pt = rnode(t, off == 0 ? near[3] : "PT", off == 1 ? "X" : "", ADEXP_COMPOUND);
    pt->dict_id = DICT_ID_PT;
    adexp_field **at = &pt->child;
    int n = off == 2 ? rand() % 3 : off == 3 ? 4 : 3;
    for (int i = 0; i < n; i++) {
        int odd = off == 4 && rand() % 2;
        const char *v = off == 5 && rand() % 2 ? values[rand() % (sizeof values / sizeof *values)]
                                               : good[rand() % (sizeof good / sizeof *good)];
        adexp_field *x = rnode(t, odd ? near[rand() % 6] : subs[i % 3], v,
                               off == 6 && rand() % 2 ? ADEXP_LIST : ADEXP_BASIC);
        const dict_entry *e = dict_lookup(subs[i % 3], strlen(subs[i % 3]));
        x->dict_id = dict_id(e);
        if (off == 7 && rand() % 2) {
            x->kind = ADEXP_COMPOUND;
            x->child = rnode(t, "FL", "F100", ADEXP_BASIC);
        }
        *at = x;
        at = &x->next;
    }
    return pt;
}

/* A chain of 1 to 4 fields at depth, up to 3 levels of lists and compounds. */
static adexp_field *rchain(rtree *t, unsigned depth)
{
    adexp_field *first = NULL, **at = &first;
    for (int i = 1 + rand() % 4; i > 0 && t->n + 8 < NODES; i--) {
        int r = rand() % 8;
        adexp_field *x;
        if (depth < 3 && r == 0) {
            x = rnode(t, rand() % 2 ? "RTEPTS" : "ZZLIST", "", ADEXP_LIST);
            x->child = rchain(t, depth + 1);
        } else if (r == 2) {
            x = rpoint(t);
        } else {
            x = rnode(t, keywords[rand() % (sizeof keywords / sizeof *keywords)],
                      values[rand() % (sizeof values / sizeof *values)],
                      depth < 3 && r == 1 ? ADEXP_COMPOUND : ADEXP_BASIC);
            if (x->kind == ADEXP_COMPOUND)
                x->child = rchain(t, depth + 1);
        }
        *at = x;
        at = &x->next;
    }
    return first;
}

typedef struct rout {
    char s[8192];
    size_t n;
    int bad;
} rout;

static void rput(rout *r, const char *s, size_t n)
{
    assert_true(r->n + n <= sizeof r->s);
    memcpy(r->s + r->n, s, n);
    r->n += n;
}

static void rlead(rout *r, const adexp_write_options *o, int own, unsigned depth)
{
    if (r->n == 0)
        return;
    if (!own || o->layout != ADEXP_LAYOUT_IFPS) {
        rput(r, " ", 1);
        return;
    }
    rput(r, "\n", 1);
    for (size_t i = 0; i < (size_t)depth * o->indent; i++)
        rput(r, " ", 1);
}

static int rkeyword_ok(adexp_slice k)
{
    for (size_t i = 0; i < k.len; i++)
        if (!is_alnum((unsigned char)k.ptr[i]))
            return 0;
    return k.len > 0;
}

/* The rule: every field after its lead, lists as -BEGIN and -END on their
 * own lines, values kept or folded; r->bad at the first field the writer
 * must refuse. */
static void rwrite(rout *r, const adexp_field *f, const adexp_write_options *o, unsigned depth,
                   int lines)
{
    int after_list = 0;
    for (; f && !r->bad; f = f->next) {
        if (f->kind == ADEXP_LIST) {
            rlead(r, o, 1, depth);
            rput(r, "-BEGIN ", 7);
            rput(r, f->keyword.ptr, f->keyword.len);
            rwrite(r, f->child, o, depth + 1, 1);
            rlead(r, o, 1, depth);
            rput(r, "-END ", 5);
            rput(r, f->keyword.ptr, f->keyword.len);
            after_list = 1;
            continue;
        }
        const dict_entry *e = dict_lookup(f->keyword.ptr, f->keyword.len);
        adexp_slice v = f->value;
        if ((!e && !rkeyword_ok(f->keyword)) || memchr(v.ptr, '-', v.len) ||
            (!o->fold && v.len && (is_sep((unsigned char)v.ptr[0]) ||
                                   is_sep((unsigned char)v.ptr[v.len - 1])))) {
            r->bad = 1;
            return;
        }
        rlead(r, o, lines || after_list, depth);
        rput(r, "-", 1);
        rput(r, f->keyword.ptr, f->keyword.len);
        char folded[256];
        size_t fn = o->fold ? fold_reference(v.ptr, v.len, folded) : v.len;
        if (fn) {
            rput(r, " ", 1);
            rput(r, o->fold ? folded : v.ptr, fn);
        }
        rwrite(r, f->child, o, depth + 1, 0);
        after_list = 0;
    }
}

static void test_writer_against_the_rule(void **state)
{
    (void)state;
    static const unsigned indents[] = {2, 0, 15, 31, 32, 33};
    static const char ext[] = "ESTDATA\tprimary\tc\t-\tADEP\t-\nZZNEW\tprimary\tb\t-\t-\t-\n";
    adexp_dictionary *d = adexp_dict_load(NULL, ext, sizeof ext - 1, NULL);
    assert_non_null(d);
    adexp_allocator hooks = {guarded_alloc, guarded_free, NULL};
    adexp_buf out, fresh;
    adexp_buf_init(&out, &hooks);
    adexp_buf_init(&fresh, &hooks);
    static rtree t;
    srand(29);
    int written = 0;
    for (int m = 0; m < 3000; m++) {
        t.n = slot_next = 0;
        adexp_msg msg;
        memset(&msg, 0, sizeof msg);
        msg.fields = rnode(&t, "TITLE", rand() % 8 ? "IFPL" : "", ADEXP_BASIC);
        if (rand() % 8 == 0)
            msg.fields = NULL;         /* a list or a compound first, or nothing */
        adexp_field *rest = rchain(&t, 0);
        if (msg.fields)
            msg.fields->next = rest;
        else if (rand() % 4)
            msg.fields = rest;
        adexp_write_options o = adexp_write_options_default();
        o.layout = rand() % 2 ? ADEXP_LAYOUT_IFPS : ADEXP_LAYOUT_LINE;
        o.fold = rand() % 2;
        o.indent = indents[rand() % (sizeof indents / sizeof *indents)];
        rout r = {.n = 0, .bad = 0};
        rwrite(&r, msg.fields, &o, 0, 1);
        rput(&r, "\n", 1);
        for (int with_ext = 0; with_ext < 2; with_ext++) {
            o.dictionary = with_ext ? d : NULL;
            if (out.cap > 65536) {     /* the message across the end of a block */
                adexp_buf_free(&out);
                adexp_buf_init(&out, &hooks);
            }
            if (out.cap > 1024)
                out.len = out.cap - 1 - (size_t)rand() % 700;
            size_t start = out.len;
            char before = start ? out.data[start - 1] : 0;
            adexp_status st = adexp_write(&out, &msg, &o, NULL);
            fresh.len = 0;
            adexp_status st2 = adexp_write(&fresh, &msg, &o, NULL);
            assert_int_equal(st, st2);
            if (r.bad) {
                assert_int_not_equal(st, ADEXP_OK);
                assert_int_equal(out.len, start);
            } else {
                assert_int_equal(st, ADEXP_OK);
                assert_int_equal(out.len - start, r.n);
                assert_memory_equal(out.data + start, r.s, r.n);
                assert_int_equal(fresh.len, r.n);
                assert_memory_equal(fresh.data, r.s, r.n);
                written++;
            }
            if (start)
                assert_int_equal(out.data[start - 1], before);
        }
    }
    assert_true(written > 1000);
    adexp_buf_free(&out);
    adexp_buf_free(&fresh);
    adexp_dict_free(d);
}

/* An ICAO text that an extension declares (a known keyword made TEXT) is
 * written as ICAO text: its '-' inside brackets is no error. */
static void test_extension_text_is_text(void **state)
{
    fixture *f = *state;
    static const char ext[] = "COMMENT\tprimary\tb\tTEXT\t-\t-\n";
    adexp_dictionary *d = adexp_dict_load(NULL, ext, sizeof ext - 1, NULL);
    assert_non_null(d);
    adexp_options po = adexp_options_default();
    po.dictionary = d;
    adexp_parser *p = adexp_parser_new(&po, NULL);
    static const char text[] = "-TITLE IFPL -ARCID A -COMMENT (X-Y) -ADEP EDDM\n";
    adexp_parser_reset(p, text, sizeof text - 1);
    adexp_arena_reset(&f->arena);
    assert_int_equal(adexp_parser_next(p, &f->arena, &f->msg), ADEXP_OK);
    adexp_write_options o = adexp_write_options_default();
    o.dictionary = d;
    o.verify = 1;
    f->out.len = 0;
    assert_int_equal(adexp_write(&f->out, &f->msg, &o, &f->err), ADEXP_OK);
    assert_int_equal(f->out.len, sizeof text - 1);
    assert_memory_equal(f->out.data, text, sizeof text - 1);
    adexp_parser_free(p);
    adexp_dict_free(d);
}

/* The JSON "envelope" object of m, as adexp-parse writes it. */
static void envelope_json(const adexp_msg *m, adexp_buf *b)
{
    b->len = 0;
    assert_int_equal(adexp_json_put_envelope(b, &m->envelope), 0);
}

/* Framed messages written back in their envelope (o.envelope), in the
 * form each came in, read back
 * with the same fields and the same envelope, in both layouts, folded or
 * not, verify on; written without it by default. A garbled heading (of
 * either form: IA-5's ends with its STX) is written as it stands and
 * reads back with the same envelope and error. */
static void test_envelope_written_back(void **state)
{
    fixture *f = *state;
    static const char feed[] =
        "ZCZC AAA001 170001\nFF LKPREPWC EUCHZMFP\nEDDFZQZX\n170001 EUCHZMFP\n"
        "FREE TEXT\n-TITLE CNL -ARCID A1\nNNNN\n"
        "\001ABC124 QTA\r\nDD EDDFZQZX\r\n171231 EUCHZMFP PRIORITY\r\n\002-TITLE ACK\r\n"
        "-MSGTXT (FPL-DLH4AB-IS\r\n-EDDF1230)\r\n\v\003"
        "ZCZC AAA005\nFF\n17000X EUCHZMFP\n-TITLE CNL -ARCID A3\nNNNN\n"
        "\001AAA006\r\nFF\r\n17000X EUCHZMFP\r\n\002-TITLE CNL -ARCID A4\r\n\v\003"
        /* text before -TITLE that starts no message: -TITLEK is no -TITLE */
        "ZCZC AAA007\nFF LKPREPWC\n170007 EUCHZMFP\n-TITLEK-TITLE CNL -ARCID A5\nNNNN\n"
        /* a second STX after the heading's: the text's, written after the heading's own */
        "\001AAA008\r\nFF LKPREPWC\r\n170008 EUCHZMFP\002\002-TITLE CNL -ARCID A6\r\n\v\003"
        "ZCZC AAA009\nFF LKPREPWC\n170009 EUCHZMFP\002\002-TITLE CNL -ARCID A7\nNNNN\n"
        /* an STX at a line's start in the text after a whole heading is text */
        "\001AAA010\r\nFF LKPREPWC\r\n170010 EUCHZMFP\r\nL\r\n\002F-TITLE CNL\r\n\v\003"
        /* a form feed in the heading line's text is text */
        "ZCZC AAA011 \fX\nFF LKPREPWC\n170011 EUCHZMFP\n-TITLE CNL -ARCID A8\nNNNN\n"
        /* a transmission id that is the word ZCZC, after the SOH ZCZC heading
         * that gateways write: SOH alone before it would make it the signal */
        "\001ZCZC ZCZC B\r\nFF LKPREPWC\r\n170012 EUCHZMFP\r\n\002-TITLE CNL -ARCID A9\r\n\v\003";
    adexp_parser *p = adexp_parser_new(NULL, NULL);
    adexp_parser *back = adexp_parser_new(NULL, NULL);
    assert_non_null(p);
    assert_non_null(back);
    adexp_parser_reset(p, feed, sizeof feed - 1);
    adexp_buf ja, jb;
    adexp_buf_init(&ja, NULL);
    adexp_buf_init(&jb, NULL);
    adexp_arena arena;
    adexp_arena_init(&arena, NULL);
    size_t n = 0;
    adexp_status st;
    while ((st = adexp_parser_next(p, &f->arena, &f->msg)) != ADEXP_END) {
        assert_true(f->msg.envelope.present);
        assert_int_equal(st, n == 2 || n == 3 ? ADEXP_E_ENVELOPE : ADEXP_OK);
        adexp_write_options o = adexp_write_options_default();
        f->out.len = 0;
        assert_int_equal(adexp_write(&f->out, &f->msg, &o, NULL), ADEXP_OK);
        for (size_t i = 0; i + 4 <= f->out.len; i++)   /* the message alone */
            assert_false(memcmp(f->out.data + i, "NNNN", 4) == 0 || f->out.data[i] == '\001');
        for (int layout = 0; layout < 2; layout++)
            for (int fold = 0; fold < 4; fold++) {
                o.layout = (adexp_layout)layout;
                o.fold = fold & 1;
                o.envelope = 1;
                /* verify off too (adexp-parse's): the envelope's own check
                 * holds alone */
                o.verify = st == ADEXP_OK && fold < 2;
                f->out.len = 0;
                assert_int_equal(adexp_write(&f->out, &f->msg, &o, &f->err), ADEXP_OK);
                static const char want[] =
                    "ZCZC AAA001 170001\nFF LKPREPWC EUCHZMFP EDDFZQZX\n170001 EUCHZMFP\n"
                    "FREE TEXT\n-TITLE CNL -ARCID A1\nNNNN\n";
                static const char want_ia5[] =    /* in the form it came in */
                    "\001ABC124 QTA\nDD EDDFZQZX\n171231 EUCHZMFP PRIORITY\n"
                    "\002-TITLE ACK -MSGTXT (FPL-DLH4AB-IS -EDDF1230)\n\v\003\n";
                if (n == 0 && layout == 0 && (fold & 1)) {
                    assert_int_equal(f->out.len, sizeof want - 1);
                    assert_memory_equal(f->out.data, want, sizeof want - 1);
                }
                if (n == 1 && layout == 0 && (fold & 1)) {
                    assert_int_equal(f->out.len, sizeof want_ia5 - 1);
                    assert_memory_equal(f->out.data, want_ia5, sizeof want_ia5 - 1);
                }
                adexp_arena_reset(&arena);
                adexp_msg m;
                adexp_parser_reset(back, f->out.data, f->out.len);
                assert_int_equal(adexp_parser_next(back, &arena, &m), st);
                assert_true(adexp_tree_same(f->msg.fields, m.fields,
                                            (fold & 1) ? ADEXP_SAME_FOLD : 0, NULL));
                envelope_json(&f->msg, &ja);
                envelope_json(&m, &jb);
                if (ja.len != jb.len || memcmp(ja.data, jb.data, ja.len) != 0)
                    fail_msg("message %zu, layout %d, fold %d:\n%.*s\nread back as\n%.*s", n,
                             layout, fold, (int)ja.len, ja.data, (int)jb.len, jb.data);
                assert_true(m.envelope.closed);
                assert_int_equal(m.envelope.form,
                                 n % 2 ? ADEXP_FORM_IA5 : ADEXP_FORM_ITA2);
                assert_int_equal(adexp_parser_next(back, &arena, &m), ADEXP_END);
            }
        n++;
    }
    assert_int_equal(n, 10);
    /* parts that would read back as more than themselves are refused */
    parse(f, "ZCZC A1\nFF LKPREPWC\n170001 EUCHZMFP\n-TITLE CNL -ARCID A1\nNNNN\n");
    adexp_write_options o = adexp_write_options_default();
    o.envelope = 1;
    static const struct { int part; const char *text, *path; } bad[] = {
        {0, "A 1", "envelope.transmission_id"},
        {1, "F\nF", "envelope.priority"},
        {2, "X -TITLE IFPL", "envelope.addressees"},
        {3, "X - TITLE IFPL", "envelope.text"},    /* a -TITLE as the parser reads one */
        {3, "X -TITLE", "envelope.text"},
        {3, "NNNN", "envelope.text"},
        {4, "A\002B", "envelope.text"},
        {3, "X\n\003", "envelope.text"},
        {3, "X\n\001", "envelope.text"},
        {5, "A\nB", "envelope.text"},
        {5, "X\fNNNN", "envelope.text"},        /* a signal after a form feed */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        adexp_msg m = f->msg;
        adexp_slice s = {bad[i].text, strlen(bad[i].text)};
        adexp_slice *slot[] = {&m.envelope.transmission_id, &m.envelope.priority,
                               &m.envelope.addressees, &m.envelope.text[2],
                               &m.envelope.text[1], &m.envelope.text[0]};
        *slot[bad[i].part] = s;
        f->out.len = 0;
        assert_int_equal(adexp_write(&f->out, &m, &o, &f->err), ADEXP_E_WRITE_VALUE);
        assert_string_equal(f->err.path, bad[i].path);
        assert_int_equal(f->out.len, 0);
    }
    adexp_arena_free(&arena);
    adexp_buf_free(&ja);
    adexp_buf_free(&jb);
    adexp_parser_free(p);
    adexp_parser_free(back);
}

/* The first message of text, with its ENVELOPE error, into f->msg. */
static void parse_garbled(fixture *f, adexp_parser *p, const char *text)
{
    adexp_arena_reset(&f->arena);
    adexp_parser_reset(p, text, strlen(text));
    assert_int_equal(adexp_parser_next(p, &f->arena, &f->msg), ADEXP_E_ENVELOPE);
}

/* A garbled heading written in its envelope with verify off (adexp-parse's
 * way) reads back with the same envelope and its ENVELOPE error, folded
 * or not, in both layouts: an IA-5 heading keeps its own SOH (which the
 * parser does not keep in the text), before a text that starts with ZCZC
 * or with another SOH; its lines are kept when folded. What would read
 * back as another envelope, or as none, is refused. */
static void test_garbled_envelope_reads_back(void **state)
{
    fixture *f = *state;
    static const char *const garbled[] = {
        "\001ZCZC\n-TITLE CNL -ARCID A1\n\v\003",      /* read back as ITA-2 */
        "\001\001X\n-TITLE CNL -ARCID A1\n\v\003",     /* X as the transmission id */
        "ZCZC\n\t GON\n-TITLE CNL -ARCID A1\nNNNN\n", /* GON as the transmission id */
    };
    adexp_parser *p = adexp_parser_new(NULL, NULL);
    assert_non_null(p);
    adexp_buf ja, jb;
    adexp_buf_init(&ja, NULL);
    adexp_buf_init(&jb, NULL);
    adexp_arena arena;
    adexp_arena_init(&arena, NULL);
    for (size_t i = 0; i < sizeof garbled / sizeof *garbled; i++) {
        for (int layout = 0; layout < 2; layout++)
            for (int fold = 0; fold < 2; fold++) {
                parse_garbled(f, p, garbled[i]);
                adexp_write_options o = adexp_write_options_default();
                o.layout = (adexp_layout)layout;
                o.fold = fold;
                o.envelope = 1;
                o.verify = 0;
                f->out.len = 0;
                assert_int_equal(adexp_write(&f->out, &f->msg, &o, &f->err), ADEXP_OK);
                envelope_json(&f->msg, &ja);
                adexp_arena_reset(&arena);
                adexp_msg m;
                adexp_parser_reset(p, f->out.data, f->out.len);
                assert_int_equal(adexp_parser_next(p, &arena, &m), ADEXP_E_ENVELOPE);
                envelope_json(&m, &jb);
                if (ja.len != jb.len || memcmp(ja.data, jb.data, ja.len) != 0)
                    fail_msg("garbled %zu, layout %d, fold %d:\n%.*s\nread back as\n%.*s", i,
                             layout, fold, (int)ja.len, ja.data, (int)jb.len, jb.data);
            }
    }
    /* a heading in the text that would read back whole: refused, not
     * written as another envelope */
    parse_garbled(f, p, "ZCZC A1\n-TITLE CNL -ARCID A1\n");   /* NNNN missing */
    adexp_msg m = f->msg;
    m.envelope.transmission_id = (adexp_slice){NULL, 0};
    m.envelope.text[2] = (adexp_slice){"ZCZC B1", 7};
    adexp_write_options o = adexp_write_options_default();
    o.envelope = 1;
    o.verify = 0;
    f->out.len = 0;
    assert_int_equal(adexp_write(&f->out, &m, &o, &f->err), ADEXP_E_WRITE_VALUE);
    assert_string_equal(f->err.path, "envelope.transmission_id");
    assert_int_equal(f->out.len, 0);
    /* an NNNN after text that was no field: the message alone would read
     * back as nothing */
    adexp_arena_reset(&f->arena);
    adexp_parser_reset(p, "X\nNNNN\n", 7);
    assert_int_equal(adexp_parser_next(p, &f->arena, &f->msg), ADEXP_E_NO_TITLE);
    assert_true(f->msg.envelope.closed);
    f->out.len = 0;
    assert_int_equal(adexp_write(&f->out, &f->msg, &o, &f->err), ADEXP_E_WRITE_VALUE);
    assert_string_equal(f->err.path, "envelope");
    assert_int_equal(f->out.len, 0);
    adexp_arena_free(&arena);
    adexp_buf_free(&ja);
    adexp_buf_free(&jb);
    adexp_parser_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_line_layout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ifps_layout_keeps_bytes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_message_list_and_empty_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refuses_what_would_not_read_back, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_verify_catches_trees_no_text_reads_as, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_tree_same_and_paths, setup, teardown),
        cmocka_unit_test_setup_teardown(test_out_of_memory, setup, teardown),
        cmocka_unit_test(test_runs_against_the_rule),
        cmocka_unit_test_setup_teardown(test_fold_against_the_rule, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dict_id_must_name_the_keyword, setup, teardown),
        cmocka_unit_test(test_text_closed_against_the_lexer),
        cmocka_unit_test(test_writer_against_the_rule),
        cmocka_unit_test_setup_teardown(test_extension_text_is_text, setup, teardown),
        cmocka_unit_test_setup_teardown(test_envelope_written_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_garbled_envelope_reads_back, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

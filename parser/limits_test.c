/* Named limits and hostile input.
 *
 * Each limit of adexp_options stops a message with its own error code, at a
 * known line and column (computed by hand in the comments), and hostile
 * shapes (a 100 MB run of '-', a million nested -BEGIN, a 1 MB keyword, NUL
 * and high bytes, an unclosed '(' before more messages, CR line ends, only
 * whitespace) finish fast, report, and lose no later message.
 *
 * Under ASan/UBSan or with ADEXP_LIMITS_SMALL=1 in the environment the
 * 100 MB input is scaled down to 8 MB, under valgrind to 1 MB (and its time
 * is not checked), to keep the run short. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adexp.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

typedef struct fixture {
    adexp_parser *p;
    adexp_arena arena;
    char *buf;                 /* exactly-sized copy of the input */
    size_t len;
    adexp_msg msg;
} fixture;

static int teardown(void **state)
{
    fixture *f = *state;
    if (f) {
        adexp_parser_free(f->p);
        adexp_arena_free(&f->arena);
        free(f->buf);
        free(f);
    }
    *state = NULL;
    return 0;
}

/* A parser with opts (NULL: defaults) on an exactly-sized copy of src. */
static fixture *start(void **state, const adexp_options *opts, const char *src, size_t len)
{
    teardown(state);
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    *state = f;
    f->p = adexp_parser_new(opts, NULL);
    assert_non_null(f->p);
    adexp_arena_init(&f->arena, NULL);
    f->buf = malloc(len ? len : 1);
    assert_non_null(f->buf);
    memcpy(f->buf, src, len);
    f->len = len;
    adexp_parser_reset(f->p, f->buf, len);
    return f;
}

static fixture *start_str(void **state, const adexp_options *opts, const char *src)
{
    return start(state, opts, src, strlen(src));
}

/* Take over a malloc'd buffer of exactly len bytes. */
static fixture *start_owned(void **state, const adexp_options *opts, char *buf, size_t len)
{
    fixture *f = start(state, opts, "", 0);
    free(f->buf);
    f->buf = buf;
    f->len = len;
    adexp_parser_reset(f->p, buf, len);
    return f;
}

static adexp_status next(fixture *f)
{
    adexp_arena_reset(&f->arena);
    return adexp_parser_next(f->p, &f->arena, &f->msg);
}

static void check_error(const adexp_error *e, adexp_status code, size_t offset,
                        uint32_t line, uint32_t column)
{
    assert_string_equal(adexp_status_name(e->code), adexp_status_name(code));
    assert_int_equal(e->offset, offset);
    assert_int_equal(e->line, line);
    assert_int_equal(e->column, column);
}

static size_t off_of(const fixture *f, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= f->len; i++)
        if (memcmp(f->buf + i, needle, n) == 0)
            return i;
    fail_msg("'%s' not in the input", needle);
    return 0;
}

/* ------------------------------------------------------------ the limits */

static void test_max_depth(void **state)
{
    adexp_options o = adexp_options_default();
    o.max_depth = 2;
    /* line 3 is "  -BEGIN C": its '-' is column 3 */
    fixture *f = start_str(state, &o,
                           "-TITLE X\n-BEGIN A\n  -BEGIN B\n  -BEGIN C\n-END C -END B -END A\n"
                           "-TITLE NEXT\n");
    assert_int_equal(next(f), ADEXP_E_DEPTH_LIMIT);
    assert_int_equal(f->msg.nerrors, 1);
    check_error(&f->msg.errors[0], ADEXP_E_DEPTH_LIMIT, off_of(f, "-BEGIN C"), 4, 3);
    /* the parser resumes at the next -TITLE */
    assert_int_equal(next(f), ADEXP_OK);
    assert_true(adexp_slice_eq(f->msg.view.title, "NEXT"));
    assert_int_equal(next(f), ADEXP_END);
}

static void test_max_depth_clamped(void **state)
{
    adexp_options o = adexp_options_default();
    o.max_depth = UINT32_MAX;          /* clamped to ADEXP_MAX_DEPTH_LIMIT */
    size_t n = ADEXP_MAX_DEPTH_LIMIT + 10, unit = 9;   /* "-BEGIN A " */
    size_t len = 9 + n * unit;
    char *b = malloc(len);
    assert_non_null(b);
    memcpy(b, "-TITLE X ", 9);
    for (size_t i = 0; i < n; i++)
        memcpy(b + 9 + i * unit, "-BEGIN A ", unit);
    fixture *f = start_owned(state, &o, b, len);
    assert_int_equal(next(f), ADEXP_E_DEPTH_LIMIT);
    size_t off = 9 + ADEXP_MAX_DEPTH_LIMIT * unit;    /* the 1025th -BEGIN */
    check_error(&f->msg.errors[0], ADEXP_E_DEPTH_LIMIT, off, 1, (uint32_t)off + 1);
    assert_int_equal(next(f), ADEXP_END);
}

static void test_max_fields(void **state)
{
    adexp_options o = adexp_options_default();
    o.max_fields = 3;
    /* the 4th field, -ADES, is on line 2, column 9 */
    fixture *f = start_str(state, &o,
                           "-TITLE X -ARCID A\n-ADEP B -ADES C -EOBT 1000\n-TITLE Y -ARCID D\n");
    assert_int_equal(next(f), ADEXP_E_FIELD_LIMIT);
    assert_int_equal(f->msg.nfields, 3);
    check_error(&f->msg.errors[0], ADEXP_E_FIELD_LIMIT, off_of(f, "-ADES"), 2, 9);
    assert_int_equal(next(f), ADEXP_OK);
    assert_true(adexp_slice_eq(f->msg.view.title, "Y"));
    assert_int_equal(next(f), ADEXP_END);
}

static void test_max_list_items(void **state)
{
    adexp_options o = adexp_options_default();
    o.max_list_items = 2;
    fixture *f = start_str(state, &o,
                           "-TITLE IFPL\n-BEGIN ADDR\n -FAC A\n -FAC B\n -FAC C\n-END ADDR\n"
                           "-TITLE ACK\n");
    assert_int_equal(next(f), ADEXP_E_LIST_LIMIT);
    check_error(&f->msg.errors[0], ADEXP_E_LIST_LIMIT, off_of(f, "-FAC C"), 5, 2);
    assert_int_equal(next(f), ADEXP_OK);
    assert_true(adexp_slice_eq(f->msg.view.title, "ACK"));
    assert_int_equal(next(f), ADEXP_END);
}

static void test_max_message_size(void **state)
{
    adexp_options o = adexp_options_default();
    o.max_message_size = 20;
    /* -TITLE X\n (9) -ARCID ABC\n (20): -ADEP ends past byte 20 */
    fixture *f = start_str(state, &o,
                           "-TITLE X\n-ARCID ABC\n-ADEP EDDF\n-TITLE Y\n");
    assert_int_equal(next(f), ADEXP_E_SIZE_LIMIT);
    check_error(&f->msg.errors[0], ADEXP_E_SIZE_LIMIT, 20, 3, 1);
    assert_int_equal(f->msg.nfields, 2);
    assert_int_equal(next(f), ADEXP_OK);
    assert_true(adexp_slice_eq(f->msg.view.title, "Y"));
    assert_int_equal(next(f), ADEXP_END);
}

/* The next message's -TITLE ends this one, wherever its own value ends: a
 * long next title is that message's SIZE_LIMIT, and this one is whole. */
static void test_max_message_size_next_title(void **state)
{
    adexp_options o = adexp_options_default();
    o.max_message_size = 30;
    fixture *f = start_str(state, &o,
                           "-TITLE A -ARCID X\n-TITLE B CCCCCCCCCCCCCCCCCCCCCCCCCCCCCC\n"
                           "-TITLE D -ARCID Y\n");
    assert_int_equal(next(f), ADEXP_OK);
    assert_true(adexp_slice_eq(f->msg.view.title, "A"));
    assert_int_equal(f->msg.length, 17);
    assert_int_equal(next(f), ADEXP_E_SIZE_LIMIT);
    assert_int_equal(f->msg.offset, 18);
    assert_int_equal(next(f), ADEXP_OK);
    assert_true(adexp_slice_eq(f->msg.view.title, "D"));
    assert_int_equal(next(f), ADEXP_END);
}

/* A framed message's own -TITLE is its own: past the limit, it is this
 * message's SIZE_LIMIT (the message starts at its envelope, not its title). */
static void test_max_message_size_framed_title(void **state)
{
    adexp_options o = adexp_options_default();
    o.max_message_size = 60;
    fixture *f = start_str(state, &o,
                           "ZCZC A1\nFF LKPREPWC\n170001 EUCHZMFP\n"
                           "-TITLE CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC\nNNNN\n");
    assert_int_equal(next(f), ADEXP_E_SIZE_LIMIT);
}

static void test_max_keyword_len(void **state)
{
    adexp_options o = adexp_options_default();
    o.max_keyword_len = 6;
    /* SEVENXX is 7 bytes: an error, not a fatal one; -ARCID follows */
    fixture *f = start_str(state, &o, "-TITLE X\r\n  -SEVENXX 1 -ARCID A\r\n");
    assert_int_equal(next(f), ADEXP_E_KEYWORD_LIMIT);
    assert_int_equal(f->msg.nerrors, 1);
    check_error(&f->msg.errors[0], ADEXP_E_KEYWORD_LIMIT, 12, 2, 3);
    assert_true(adexp_slice_eq(f->msg.view.arcid, "A"));
    assert_int_equal(next(f), ADEXP_END);
}

/* max_errors has no error code of its own: the errors past it are counted
 * in nerrors_total, and the stored ones keep their positions. */
static void test_max_errors(void **state)
{
    adexp_options o = adexp_options_default();
    o.max_errors = 2;
    fixture *f = start_str(state, &o, "-TITLE X\n- -\n  -\n-\n-ARCID A\n");
    assert_int_equal(next(f), ADEXP_E_NO_KEYWORD);
    assert_int_equal(f->msg.nerrors, 2);
    assert_int_equal(f->msg.nerrors_total, 4);
    check_error(&f->msg.errors[0], ADEXP_E_NO_KEYWORD, 9, 2, 1);
    check_error(&f->msg.errors[1], ADEXP_E_NO_KEYWORD, 11, 2, 3);
    assert_true(adexp_slice_eq(f->msg.view.arcid, "A"));

    o.max_errors = 0;                  /* clamped to 1 */
    f = start_str(state, &o, "-TITLE X - -\n");
    assert_int_equal(next(f), ADEXP_E_NO_KEYWORD);
    assert_int_equal(f->msg.nerrors, 1);
    assert_int_equal(f->msg.nerrors_total, 2);
    check_error(&f->msg.errors[0], ADEXP_E_NO_KEYWORD, 9, 1, 10);
}

/* Twenty errors, then a stop: max_errors (16) of the errors are stored,
 * and the stop always, last, so that the message never looks whole; the
 * view's JSON line says it too. */
static void check_stop_after_errors(void **state, const adexp_options *o,
                                    const char *tail, adexp_status stop, const char *at)
{
    char src[512];
    size_t n = (size_t)snprintf(src, sizeof src, "-TITLE X\n");
    for (int i = 0; i < 20; i++)
        n += (size_t)snprintf(src + n, sizeof src - n, "- ");
    snprintf(src + n, sizeof src - n, "%s\n-TITLE NEXT\n", tail);
    fixture *f = start_str(state, o, src);
    assert_int_equal(next(f), ADEXP_E_NO_KEYWORD);
    assert_int_equal(f->msg.nerrors, ADEXP_DEFAULT_MAX_ERRORS + 1);
    assert_int_equal(f->msg.nerrors_total, 21);
    check_error(&f->msg.errors[f->msg.nerrors - 1], stop, off_of(f, at), 2,
                (uint32_t)(off_of(f, at) - 9 + 1));
    adexp_buf out;
    adexp_buf_init(&out, NULL);
    assert_int_equal(adexp_view_json_write(&out, &f->msg, "t", NULL), ADEXP_OK);
    char want[64];
    snprintf(want, sizeof want, "{\"code\":\"%s\"", adexp_status_name(stop));
    int said = 0;
    for (size_t i = 0; i + strlen(want) <= out.len; i++)
        said |= memcmp(out.data + i, want, strlen(want)) == 0;
    assert_true(said);
    adexp_buf_free(&out);
    assert_int_equal(next(f), ADEXP_OK);
    assert_true(adexp_slice_eq(f->msg.view.title, "NEXT"));
}

static void test_stop_after_max_errors(void **state)
{
    adexp_options o = adexp_options_default();
    o.max_depth = 1;
    check_stop_after_errors(state, &o, "-BEGIN A -BEGIN B -END B -END A",
                            ADEXP_E_DEPTH_LIMIT, "-BEGIN B");
    o = adexp_options_default();
    o.max_list_items = 1;
    check_stop_after_errors(state, &o, "-BEGIN ADDR -FAC A -FAC B -END ADDR",
                            ADEXP_E_LIST_LIMIT, "-FAC B");
    o = adexp_options_default();
    o.max_fields = 2;
    check_stop_after_errors(state, &o, "-ARCID A -ADEP B", ADEXP_E_FIELD_LIMIT, "-ADEP");
    o = adexp_options_default();
    o.max_message_size = 60;           /* -TITLE X\n, 40 bytes of "- ", -ARCID */
    check_stop_after_errors(state, &o, "-ARCID ABC -ADEP EDDF", ADEXP_E_SIZE_LIMIT, "-ADEP");
}

/* An arena whose second chunk cannot be had, the ones after can. */
static void *second_fails(void *ctx, size_t size)
{
    return ++*(int *)ctx == 2 ? NULL : malloc(size);
}

static void free_hook(void *ctx, void *ptr, size_t size)
{
    (void)ctx, (void)size;
    free(ptr);
}

/* No memory for a tree node after max_errors errors: NOMEM is stored,
 * last; the view and the errors' copy then find memory again. */
static void test_node_nomem_after_max_errors(void **state)
{
    (void)state;
    enum { FIELDS = 2000 };            /* 64-byte nodes: past one 64 kB chunk */
    static char src[64 + 40 + FIELDS * 9];
    size_t n = (size_t)sprintf(src, "-TITLE X\n");
    for (int i = 0; i < 20; i++)
        n += (size_t)sprintf(src + n, "- ");
    for (int i = 0; i < FIELDS; i++)
        n += (size_t)sprintf(src + n, "-ARCID A ");
    int calls = 0;
    adexp_allocator hooks = {second_fails, free_hook, &calls};
    adexp_arena arena;
    adexp_arena_init(&arena, &hooks);
    adexp_parser *p = adexp_parser_new(NULL, NULL);
    assert_non_null(p);
    adexp_parser_reset(p, src, n);
    adexp_msg m;
    assert_int_equal(adexp_parser_next(p, &arena, &m), ADEXP_E_NO_KEYWORD);
    assert_true(calls > 2);
    assert_true(m.nfields > 1 && m.nfields < FIELDS);
    assert_int_equal(m.nerrors, ADEXP_DEFAULT_MAX_ERRORS + 1);
    assert_int_equal(m.errors[m.nerrors - 1].code, ADEXP_E_NOMEM);
    assert_true(m.errors[m.nerrors - 1].offset > 9 + 40);
    adexp_parser_free(p);
    adexp_arena_free(&arena);
}

/* A limit hit on the message's own -TITLE: reported once, and the parser
 * moves on (it used to return the same message forever). */
static void test_limit_on_title(void **state)
{
    adexp_options o = adexp_options_default();
    o.max_message_size = 10;
    fixture *f = start_str(state, &o, "-TITLE VERYLONGTITLE\n-TITLE B\n");
    assert_int_equal(next(f), ADEXP_E_SIZE_LIMIT);
    check_error(&f->msg.errors[0], ADEXP_E_SIZE_LIMIT, 0, 1, 1);
    assert_int_equal(f->msg.nfields, 0);
    assert_int_equal(next(f), ADEXP_OK);
    assert_true(adexp_slice_eq(f->msg.view.title, "B"));
    assert_int_equal(next(f), ADEXP_END);

    o = adexp_options_default();
    o.max_fields = 0;
    f = start_str(state, &o, "-TITLE A -ARCID X\r\n-TITLE B\n");
    assert_int_equal(next(f), ADEXP_E_FIELD_LIMIT);
    check_error(&f->msg.errors[0], ADEXP_E_FIELD_LIMIT, 0, 1, 1);
    assert_int_equal(next(f), ADEXP_E_FIELD_LIMIT);
    check_error(&f->msg.errors[0], ADEXP_E_FIELD_LIMIT, 19, 2, 1);
    assert_int_equal(next(f), ADEXP_END);
}

/* After a limit the parser resumes at the next -TITLE wherever it lies in
 * the lexer's batch of tokens (LEX_BATCH, 32): just after the stop, at the
 * batch's end, or past it. With max_keyword_len under 8 the runs never read
 * fields themselves (run_fused), so the lexer always fills whole batches;
 * with the default, on a CPU with AVX2, it makes one token at a time. */
static void test_resume_across_token_batches(void **state)
{
    adexp_options o = adexp_options_default();
    o.max_fields = 3;
    for (int n = 1; n <= 200; n++) {
        o.max_keyword_len = n <= 100 ? ADEXP_DEFAULT_MAX_KEYWORD_LEN : 7;
        char src[4096];
        size_t len = (size_t)snprintf(src, sizeof src, "-TITLE IFPL");
        for (int i = 0; i < n % 100 + 1; i++)
            len += (size_t)snprintf(src + len, sizeof src - len, " -PTID P%d", i);
        size_t second = len + 1;
        len += (size_t)snprintf(src + len, sizeof src - len, "\n-TITLE ACK -ARCID X\n");
        fixture *f = start(state, &o, src, len);
        assert_int_equal(next(f), n % 100 + 2 > 3 ? ADEXP_E_FIELD_LIMIT : ADEXP_OK);
        assert_int_equal(next(f), ADEXP_OK);
        assert_int_equal(f->msg.offset, second);
        assert_true(adexp_slice_eq(f->msg.view.arcid, "X"));
        assert_int_equal(next(f), ADEXP_END);
    }
}

/* Every limit has a code, a name and a message of its own. */
static void test_limit_codes_distinct(void **state)
{
    (void)state;
    const adexp_status codes[] = {ADEXP_E_DEPTH_LIMIT, ADEXP_E_FIELD_LIMIT,
                                  ADEXP_E_LIST_LIMIT, ADEXP_E_SIZE_LIMIT,
                                  ADEXP_E_KEYWORD_LIMIT};
    size_t n = sizeof codes / sizeof codes[0];
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            assert_int_not_equal(codes[i], codes[j]);
            assert_true(strcmp(adexp_status_name(codes[i]), adexp_status_name(codes[j])) != 0);
            assert_true(strcmp(adexp_status_message(codes[i]),
                               adexp_status_message(codes[j])) != 0);
        }
}

/* ------------------------------------------------------------ hostile input */

static size_t dash_run_size(void)
{
    const char *e = getenv("ADEXP_LIMITS_SMALL");
    if (RUNNING_ON_VALGRIND)
        return (size_t)1 << 20;
    int small = SANITIZED || (e && *e == '1');
    return small ? (size_t)8 << 20 : (size_t)100 << 20;
}

/* 100 MB of '-' after a title: every '-' is an error (counted, not stored),
 * the size limit stops the message at 64 MB. Its time is measured by
 * bench/bench_scaling, never asserted here. */
static void test_dash_run(void **state)
{
    size_t n = dash_run_size(), len = 9 + n;
    char *b = malloc(len);
    assert_non_null(b);
    memcpy(b, "-TITLE X\n", 9);
    memset(b + 9, '-', n);
    fixture *f = start_owned(state, NULL, b, len);
    adexp_status st = next(f);
    size_t max = ADEXP_DEFAULT_MAX_MESSAGE_SIZE;
    if (len > max) {
        assert_int_equal(st, ADEXP_E_NO_KEYWORD);
        /* errors for the '-' at 9 .. max-1, then SIZE_LIMIT (stored last) */
        assert_int_equal(f->msg.nerrors, ADEXP_DEFAULT_MAX_ERRORS + 1);
        assert_int_equal(f->msg.nerrors_total, max - 9 + 1);
        assert_int_equal(f->msg.errors[ADEXP_DEFAULT_MAX_ERRORS].code, ADEXP_E_SIZE_LIMIT);
    } else {
        assert_int_equal(st, ADEXP_E_NO_KEYWORD);
        assert_int_equal(f->msg.nerrors_total, n);
    }
    check_error(&f->msg.errors[0], ADEXP_E_NO_KEYWORD, 9, 2, 1);
    check_error(&f->msg.errors[1], ADEXP_E_NO_KEYWORD, 10, 2, 2);
    assert_int_equal(next(f), ADEXP_END);

    /* the same run with no title: one message, NO_TITLE, then the end */
    b = malloc(n);
    assert_non_null(b);
    memset(b, '-', n);
    f = start_owned(state, NULL, b, n);
    assert_int_equal(next(f), ADEXP_E_NO_TITLE);
    check_error(&f->msg.errors[0], ADEXP_E_NO_TITLE, 0, 1, 1);
    assert_int_equal(next(f), ADEXP_END);
}

/* The size limit on the dash run: where exactly it fires. */
static void test_dash_run_size_limit(void **state)
{
    adexp_options o = adexp_options_default();
    o.max_message_size = 1000;
    size_t n = 5000, len = 9 + n;
    char *b = malloc(len);
    assert_non_null(b);
    memcpy(b, "-TITLE X\n", 9);
    memset(b + 9, '-', n);
    fixture *f = start_owned(state, &o, b, len);
    assert_int_equal(next(f), ADEXP_E_NO_KEYWORD);
    /* the '-' at offset 999 ends at 1000, the one at 1000 passes the limit */
    assert_int_equal(f->msg.nerrors_total, 1000 - 9 + 1);
    /* max_errors NO_KEYWORD errors are stored, and the stop after them */
    assert_int_equal(f->msg.nerrors, o.max_errors + 1);
    check_error(&f->msg.errors[f->msg.nerrors - 1], ADEXP_E_SIZE_LIMIT, 1000, 2, 992);
    assert_int_equal(next(f), ADEXP_END);

    o.max_errors = 2000;
    b = malloc(len);
    assert_non_null(b);
    memcpy(b, "-TITLE X\n", 9);
    memset(b + 9, '-', n);
    f = start_owned(state, &o, b, len);
    assert_int_equal(next(f), ADEXP_E_NO_KEYWORD);
    const adexp_error *last = &f->msg.errors[f->msg.nerrors - 1];
    check_error(last, ADEXP_E_SIZE_LIMIT, 1000, 2, 992);
}

/* 1,000,000 nested -BEGIN: stopped at max_depth, no deep recursion, fast. */
static void test_million_begin(void **state)
{
    size_t n = 1000000, unit = 9;      /* "-BEGIN A " */
    size_t len = 9 + n * unit + 9;
    char *b = malloc(len);
    assert_non_null(b);
    memcpy(b, "-TITLE X ", 9);
    for (size_t i = 0; i < n; i++)
        memcpy(b + 9 + i * unit, "-BEGIN A ", unit);
    memcpy(b + 9 + n * unit, "-TITLE Y ", 9);
    fixture *f = start_owned(state, NULL, b, len);
    assert_int_equal(next(f), ADEXP_E_DEPTH_LIMIT);
    size_t off = 9 + ADEXP_DEFAULT_MAX_DEPTH * unit;   /* the 65th -BEGIN */
    check_error(&f->msg.errors[0], ADEXP_E_DEPTH_LIMIT, off, 1, (uint32_t)off + 1);
    assert_int_equal(next(f), ADEXP_OK);
    assert_true(adexp_slice_eq(f->msg.view.title, "Y"));
    assert_int_equal(next(f), ADEXP_END);
}

/* A 1 MB keyword: one KEYWORD_LIMIT error, the fields after it are kept. */
static void test_huge_keyword(void **state)
{
    size_t n = (size_t)1 << 20;
    const char *head = "-TITLE X\n-", *tail = " VALUE -ARCID ABC\n";
    size_t hl = strlen(head), tl = strlen(tail), len = hl + n + tl;
    char *b = malloc(len);
    assert_non_null(b);
    memcpy(b, head, hl);
    memset(b + hl, 'K', n);
    memcpy(b + hl + n, tail, tl);
    fixture *f = start_owned(state, NULL, b, len);
    assert_int_equal(next(f), ADEXP_E_KEYWORD_LIMIT);
    assert_int_equal(f->msg.nerrors, 1);
    check_error(&f->msg.errors[0], ADEXP_E_KEYWORD_LIMIT, 9, 2, 1);
    assert_true(adexp_slice_eq(f->msg.view.arcid, "ABC"));
    assert_int_equal(f->msg.nfields, 2);
    assert_int_equal(next(f), ADEXP_END);
}

/* NUL and bytes >= 0x80 are kept in values; the JSON writer escapes NUL and
 * the bytes that are not UTF-8, and keeps UTF-8 as it is. */
static void test_nul_and_high_bytes(void **state)
{
    static const char src[] = "-TITLE X -COMMENT A\0B\xff\xc3\xa9Z -ARCID Y\n";
    fixture *f = start(state, NULL, src, sizeof src - 1);
    assert_int_equal(next(f), ADEXP_OK);
    adexp_slice c = f->msg.view.comment;
    assert_int_equal(c.len, 7);
    assert_memory_equal(c.ptr, "A\0B\xff\xc3\xa9Z", 7);
    assert_true(adexp_slice_eq(f->msg.view.arcid, "Y"));
    adexp_buf out;
    adexp_buf_init(&out, NULL);
    assert_int_equal(adexp_json_write(&out, &f->msg, "t"), ADEXP_OK);
    static const char want[] = "\"A\\u0000B\\udcff\xc3\xa9Z\"";
    int found = 0;
    for (size_t i = 0; i + sizeof want - 1 <= out.len; i++)
        found |= memcmp(out.data + i, want, sizeof want - 1) == 0;
    if (!found)
        fprintf(stderr, "%.*s", (int)out.len, out.data);
    assert_true(found);
    for (size_t i = 0; i < out.len; i++)
        assert_true(out.data[i] != 0);
    adexp_buf_free(&out);
    assert_int_equal(next(f), ADEXP_END);
}

/* An unclosed '(' in MSGTXT: reported, and the next messages are found. */
static void test_unclosed_paren_then_messages(void **state)
{
    fixture *f = start_str(state, NULL,
                           "-TITLE ACK -MSGTXT (FPL-ABC123-IS\n-A320/M-SDE3\n"
                           "-TITLE IFPL -ARCID DLH1\n"
                           "-TITLE SAM -ARCID AFR2 -MSGTXT (ARR-X)\n");
    assert_int_equal(next(f), ADEXP_E_TEXT_UNCLOSED);
    check_error(&f->msg.errors[0], ADEXP_E_TEXT_UNCLOSED, 19, 1, 20);
    assert_true(adexp_slice_eq(f->msg.view.title, "ACK"));
    assert_int_equal(next(f), ADEXP_OK);
    assert_true(adexp_slice_eq(f->msg.view.title, "IFPL"));
    assert_true(adexp_slice_eq(f->msg.view.arcid, "DLH1"));
    assert_int_equal(next(f), ADEXP_OK);
    assert_true(adexp_slice_eq(f->msg.view.title, "SAM"));
    assert_true(adexp_slice_eq(f->msg.view.msgtxt, "(ARR-X)"));
    assert_int_equal(next(f), ADEXP_END);
}

/* Many unclosed '(' in one buffer: each is reported, all titles found. */
static void test_many_unclosed_parens(void **state)
{
    size_t n = 2000;
    const char *unit = "-TITLE ACK -MSGTXT (FPL-X\n";
    size_t ul = strlen(unit), len = n * ul;
    char *b = malloc(len);
    assert_non_null(b);
    for (size_t i = 0; i < n; i++)
        memcpy(b + i * ul, unit, ul);
    fixture *f = start_owned(state, NULL, b, len);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(next(f), ADEXP_E_TEXT_UNCLOSED);
        assert_int_equal(f->msg.errors[0].line, i + 1);
        assert_int_equal(f->msg.errors[0].column, 20);
    }
    assert_int_equal(next(f), ADEXP_END);
}

/* LF, CRLF and a lone CR each end a line; columns count bytes. */
static void test_crlf_and_lone_cr(void **state)
{
    /* offsets: "-TITLE X\r\n" 0-9, "-ARCID A\r" 10-18, "- \r\n" 19-22,
     * "  -END Z\r" 23-31, "\r" 32, " -" 33-34 */
    fixture *f = start_str(state, NULL, "-TITLE X\r\n-ARCID A\r- \r\n  -END Z\r\r -");
    assert_int_equal(next(f), ADEXP_E_NO_KEYWORD);
    assert_int_equal(f->msg.nerrors, 3);
    check_error(&f->msg.errors[0], ADEXP_E_NO_KEYWORD, 19, 3, 1);
    check_error(&f->msg.errors[1], ADEXP_E_END_WITHOUT_BEGIN, 25, 4, 3);
    check_error(&f->msg.errors[2], ADEXP_E_NO_KEYWORD, 34, 6, 2);
    assert_true(adexp_slice_eq(f->msg.view.arcid, "A"));
    assert_int_equal(next(f), ADEXP_END);

    /* a CR at the very end of the buffer, then a second message */
    f = start_str(state, NULL, "-TITLE X\r\r\n-TITLE Y\n\r-\r");
    assert_int_equal(next(f), ADEXP_OK);
    assert_int_equal(next(f), ADEXP_E_NO_KEYWORD);
    /* lines: 1 "-TITLE X", 2 "" (CR), 3 "-TITLE Y" (after CRLF), 4 "" , 5 "-" */
    check_error(&f->msg.errors[0], ADEXP_E_NO_KEYWORD, 21, 5, 1);
    assert_int_equal(next(f), ADEXP_END);
}

/* Only whitespace: no message at all. */
static void test_only_whitespace(void **state)
{
    fixture *f = start_str(state, NULL, " \r\n\t \n\r\r\n   ");
    assert_int_equal(next(f), ADEXP_END);
    f = start_str(state, NULL, "");
    assert_int_equal(next(f), ADEXP_END);
    size_t n = (size_t)4 << 20;
    char *b = malloc(n);
    assert_non_null(b);
    memset(b, ' ', n);
    f = start_owned(state, NULL, b, n);
    assert_int_equal(next(f), ADEXP_END);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_max_depth, teardown),
        cmocka_unit_test_teardown(test_max_depth_clamped, teardown),
        cmocka_unit_test_teardown(test_max_fields, teardown),
        cmocka_unit_test_teardown(test_max_list_items, teardown),
        cmocka_unit_test_teardown(test_max_message_size, teardown),
        cmocka_unit_test_teardown(test_max_message_size_next_title, teardown),
        cmocka_unit_test_teardown(test_max_message_size_framed_title, teardown),
        cmocka_unit_test_teardown(test_max_keyword_len, teardown),
        cmocka_unit_test_teardown(test_max_errors, teardown),
        cmocka_unit_test_teardown(test_stop_after_max_errors, teardown),
        cmocka_unit_test(test_node_nomem_after_max_errors),
        cmocka_unit_test_teardown(test_limit_on_title, teardown),
        cmocka_unit_test_teardown(test_resume_across_token_batches, teardown),
        cmocka_unit_test(test_limit_codes_distinct),
        cmocka_unit_test_teardown(test_dash_run, teardown),
        cmocka_unit_test_teardown(test_dash_run_size_limit, teardown),
        cmocka_unit_test_teardown(test_million_begin, teardown),
        cmocka_unit_test_teardown(test_huge_keyword, teardown),
        cmocka_unit_test_teardown(test_nul_and_high_bytes, teardown),
        cmocka_unit_test_teardown(test_unclosed_paren_then_messages, teardown),
        cmocka_unit_test_teardown(test_many_unclosed_parens, teardown),
        cmocka_unit_test_teardown(test_crlf_and_lone_cr, teardown),
        cmocka_unit_test_teardown(test_only_whitespace, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

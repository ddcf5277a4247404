/* The arena, the parser and the JSON buffer call the allocator zero times
 * per message once warm: counted through the allocator hooks. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adexp.h"

typedef struct counter {
    size_t allocs, frees, live_bytes;
} counter;

static void *count_alloc(void *ctx, size_t size)
{
    counter *c = ctx;
    c->allocs++;
    c->live_bytes += size;
    return malloc(size);
}

static void count_free(void *ctx, void *ptr, size_t size)
{
    counter *c = ctx;
    c->frees++;
    c->live_bytes -= size;
    free(ptr);
}

static const char message[] =
    "-TITLE IFPL -BEGIN ADDR -FAC CFMUTACT -FAC EGZYTTTE -END ADDR\n"
    "-ADEP EDDF -ADES LGTS -ARCID DLH3728 -ARCTYP B73A -EOBD 100517 -EOBT 0715\n"
    "-ORIGIN -NETWORKTYPE SITA -FAC FRAOXLH -ROUTE N0417F330 NDG3D NDG UW70 MUN\n"
    "-EETFIR EDUU 0014 -EETFIR LOVV 0035 -ESTDATA -PTID XETBO -ETO 170302032300 -FL F390\n"
    "-GEO -GEOID GEO01 -LATTD 490000N -LONGTD 0500000W\n"
    "-BEGIN RTEPTS -PT -PTID EDDF -FL F000 -ETO 980317071500\n"
    " -PT -PTID NDG -FL F311 -ETO 980317073414 -PT -PTID LGTS -FL F000 -ETO 980317093138\n"
    "-END RTEPTS -MSGTXT (FPL-DLH3728-IS -B73A/M-SDGR/C -EDDF0715 -N0417F330 NDG)\n";

static void test_zero_allocations_per_message(void **state)
{
    (void)state;
    enum { COPIES = 1000 };
    size_t n = sizeof message - 1;
    char *buf = malloc(n * COPIES);
    for (size_t i = 0; i < COPIES; i++)
        memcpy(buf + i * n, message, n);

    counter c = {0, 0, 0};
    adexp_allocator hooks = {count_alloc, count_free, &c};
    adexp_parser *p = adexp_parser_new(NULL, &hooks);
    adexp_arena arena;
    adexp_buf out;
    adexp_msg m;
    adexp_arena_init(&arena, &hooks);
    adexp_buf_init(&out, &hooks);

    /* Warm up on the first message: chunks and buffers are allocated. */
    adexp_parser_reset(p, buf, n);
    assert_int_equal(adexp_parser_next(p, &arena, &m), ADEXP_OK);
    assert_int_equal(adexp_json_write(&out, &m, "warm"), ADEXP_OK);
    size_t warm = c.allocs;
    assert_true(warm > 0);

    size_t count = 0;
    adexp_parser_reset(p, buf, n * COPIES);
    for (;;) {
        adexp_arena_reset(&arena);
        out.len = 0;
        adexp_status st = adexp_parser_next(p, &arena, &m);
        if (st == ADEXP_END)
            break;
        assert_int_equal(st, ADEXP_OK);
        assert_int_equal(m.view.n_rtepts, 3);
        assert_int_equal(adexp_json_write(&out, &m, "steady"), ADEXP_OK);
        count++;
    }
    assert_int_equal(count, COPIES);
    assert_int_equal(c.allocs, warm);         /* not one more call */

    adexp_buf_free(&out);
    adexp_arena_free(&arena);
    adexp_parser_free(p);
    assert_int_equal(c.allocs, c.frees);      /* and everything given back */
    assert_int_equal(c.live_bytes, 0);
    free(buf);
}

static void *failing_alloc(void *ctx, size_t size)
{
    size_t *budget = ctx;
    if (*budget == 0)
        return NULL;
    (*budget)--;
    return malloc(size);
}

static void plain_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    (void)size;
    free(ptr);
}

/* Parse src with an allocator that fails after k calls (parser, arena and
 * all), and hand the status and message to check before they are freed. */
static void parse_failing_after(size_t k, const char *src, size_t len,
                                void (*check)(adexp_status, const adexp_msg *, int *),
                                int *seen)
{
    size_t budget = k;
    adexp_allocator hooks = {failing_alloc, plain_free, &budget};
    adexp_parser *p = adexp_parser_new(NULL, &hooks);
    if (!p)
        return;
    adexp_arena arena;
    adexp_msg m;
    adexp_arena_init(&arena, &hooks);
    adexp_parser_reset(p, src, len);
    check(adexp_parser_next(p, &arena, &m), &m, seen);
    adexp_arena_free(&arena);
    adexp_parser_free(p);
}

static void ok_or_nomem(adexp_status st, const adexp_msg *m, int *seen)
{
    (void)m;
    (void)seen;
    assert_true(st == ADEXP_OK || st == ADEXP_E_NOMEM);
}

/* With the allocator failing after k calls, every k gives NOMEM or a good
 * message, never a crash or a leak. */
static void test_out_of_memory_is_an_error(void **state)
{
    (void)state;
    for (size_t k = 0; k < 6; k++)
        parse_failing_after(k, message, sizeof message - 1, ok_or_nomem, NULL);
}

/* NOMEM at the view's arrays: they are empty, the single fields filled. */
static void view_arrays_failed(adexp_status st, const adexp_msg *m, int *seen)
{
    if (st == ADEXP_E_NOMEM && m->view.title.ptr) {
        (*seen)++;
        assert_true(adexp_slice_eq(m->view.arcid, "A"));
        assert_true(adexp_slice_eq(m->view.adep, "C"));
        assert_int_equal(m->view.eetfir.n, 0);
        assert_null(m->view.eetfir.v);
    } else {
        assert_true(st == ADEXP_OK || st == ADEXP_E_NOMEM);
    }
}

/* When the arena runs out at the view's arrays (a tree that nearly fills the
 * first 64 kB chunk, no memory for a second), the message is NOMEM with its
 * arrays empty, and the single fields after the first repeated one are
 * still filled. */
static void test_out_of_memory_at_the_view(void **state)
{
    (void)state;
    enum { N = 990 };                          /* 64-byte nodes: 63.6 kB */
    static char src[N * 16 + 64];
    size_t len = (size_t)sprintf(src, "-TITLE IFPL -ARCID A ");
    for (int i = 0; i < N; i++)
        len += (size_t)sprintf(src + len, "-EETFIR X %04d ", i);
    len += (size_t)sprintf(src + len, "-ARCID B -ADEP C");
    int seen = 0;
    for (size_t k = 0; k < 8; k++)
        parse_failing_after(k, src, len, view_arrays_failed, &seen);
    assert_true(seen > 0);
}

/* Many errors, then a view that needs a second chunk: src for the tests
 * below. */
static size_t errors_then_big_view(char *src, size_t cap)
{
    size_t len = (size_t)snprintf(src, cap, "-TITLE IFPL -ARCID A ");
    for (int i = 0; i < 20; i++)
        len += (size_t)snprintf(src + len, cap - len, "-END X ");
    for (int i = 0; i < 990; i++)
        len += (size_t)snprintf(src + len, cap - len, "-EETFIR X %04d ", i);
    return len;
}

/* Out of memory at the view is reported even when max_errors errors are
 * stored already: in a place kept past them. */
static void nomem_stored(adexp_status st, const adexp_msg *m, int *seen)
{
    (void)st;
    if (!m->view.title.ptr || m->view.eetfir.n == 990)
        return;                /* no message, or the view was built */
    (*seen)++;
    int found = 0;
    for (size_t i = 0; i < m->nerrors; i++)
        found |= m->errors[i].code == ADEXP_E_NOMEM;
    assert_true(found);
    assert_true(m->nerrors_total > m->nerrors);
}

static void test_out_of_memory_at_the_view_with_errors_full(void **state)
{
    (void)state;
    static char src[990 * 16 + 256];
    size_t len = errors_then_big_view(src, sizeof src);
    int seen = 0;
    for (size_t k = 0; k < 8; k++)
        parse_failing_after(k, src, len, nomem_stored, &seen);
    assert_true(seen > 0);
}

/* msg.errors never points into the parser: the errors read after the parser
 * is freed (ASan and valgrind see a read of freed memory), whichever
 * allocation fails. */
static void test_errors_outlive_the_parser(void **state)
{
    (void)state;
    static char src[990 * 16 + 256];
    size_t len = errors_then_big_view(src, sizeof src);
    for (size_t k = 0; k < 8; k++) {
        size_t budget = k;
        adexp_allocator hooks = {failing_alloc, plain_free, &budget};
        adexp_parser *p = adexp_parser_new(NULL, &hooks);
        if (!p)
            continue;
        adexp_arena arena;
        adexp_msg m;
        adexp_arena_init(&arena, &hooks);
        adexp_parser_reset(p, src, len);
        adexp_status st = adexp_parser_next(p, &arena, &m);
        adexp_parser_free(p);
        assert_true(m.nerrors > 0);
        assert_int_equal(st, m.errors[0].code);
        for (size_t i = 0; i < m.nerrors; i++)
            assert_true(m.errors[i].code > ADEXP_END && m.errors[i].code < ADEXP_STATUS_COUNT);
        adexp_arena_free(&arena);
    }
}

/* The free functions accept NULL, as free() does. */
static void test_free_null(void **state)
{
    (void)state;
    adexp_arena_free(NULL);
    adexp_parser_free(NULL);
    adexp_buf_free(NULL);
    adexp_dict_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_allocations_per_message),
        cmocka_unit_test(test_out_of_memory_is_an_error),
        cmocka_unit_test(test_out_of_memory_at_the_view),
        cmocka_unit_test(test_out_of_memory_at_the_view_with_errors_full),
        cmocka_unit_test(test_errors_outlive_the_parser),
        cmocka_unit_test(test_free_null),
    };
    return cmocka_run_group_tests_name("alloc", tests, NULL, NULL);
}

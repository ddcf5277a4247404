/* batch_readahead: every byte of the inner reader, in order, whatever the
 * sizes of its reads and of the worker's; its failure after the bytes read
 * before it, with its error; closed early or at once without a hang or a
 * leak. In the suite 'threads' too, which CI runs under ThreadSanitizer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "batch_readahead.h"

/* A reader of len bytes of a pattern, step bytes a read at most, failing
 * at fail_at (or never: SIZE_MAX). */
typedef struct pattern {
    batch_reader r;
    size_t len, at, step, fail_at;
} pattern;

static char byte_at(size_t i)
{
    return (char)(i * 131 + (i >> 9));
}

static ssize_t pattern_read(batch_reader *r, char *buf, size_t cap)
{
    pattern *p = (pattern *)r;
    if (p->at == p->fail_at) {
        snprintf(r->error, sizeof r->error, "damaged at byte %zu", p->at);
        return -1;
    }
    size_t end = p->len < p->fail_at ? p->len : p->fail_at, n = end - p->at;
    n = n < cap ? n : cap;
    n = n < p->step ? n : p->step;
    for (size_t i = 0; i < n; i++)
        buf[i] = byte_at(p->at + i);
    p->at += n;
    return (ssize_t)n;
}

/* Reads everything in reads of cap bytes: the bytes got; *rc the last
 * read's result. Checks each byte. */
static size_t drain(batch_reader *r, size_t cap, ssize_t *rc)
{
    char *buf = malloc(cap);
    assert_non_null(buf);
    size_t got = 0;
    while ((*rc = r->read(r, buf, cap)) > 0) {
        for (ssize_t i = 0; i < *rc; i++)
            assert_int_equal(buf[i], byte_at(got + (size_t)i));
        got += (size_t)*rc;
    }
    free(buf);
    return got;
}

static void run(size_t len, size_t step, size_t cap, size_t fail_at)
{
    pattern p = {{.read = pattern_read}, len, 0, step, fail_at};
    batch_readahead ra;
    assert_int_equal(batch_readahead_open(&ra, &p.r), 0);
    ssize_t rc;
    size_t got = drain(&ra.r, cap, &rc);
    size_t want = len < fail_at ? len : fail_at;
    assert_int_equal(got, want);
    if (fail_at <= len) {
        assert_int_equal(rc, -1);
        char msg[64];
        snprintf(msg, sizeof msg, "damaged at byte %zu", fail_at);
        assert_string_equal(ra.r.error, msg);
    } else {
        assert_int_equal(rc, 0);
        assert_int_equal(ra.r.read(&ra.r, (char[8]){0}, 8), 0);   /* the end stays */
    }
    batch_readahead_close(&ra);
}

static void test_every_byte_in_order(void **state)
{
    (void)state;
    run(3 * BATCH_READAHEAD_SLOTS * BATCH_READAHEAD_SLOT + 12345, 7777, 5000, SIZE_MAX);
    run(BATCH_READAHEAD_SLOT, BATCH_READAHEAD_SLOT, 1 << 20, SIZE_MAX);   /* a slot's end */
    run(100, 1, 3, SIZE_MAX);
    run(0, 10, 10, SIZE_MAX);
}

static void test_failure_after_the_bytes_before_it(void **state)
{
    (void)state;
    run(4 << 20, 65536, 4096, (3 << 19) + 17);
    run(4 << 20, 65536, 4096, BATCH_READAHEAD_SLOT);   /* at a slot's end */
    run(4 << 20, 65536, 4096, 0);
}

static void test_closed_early(void **state)
{
    (void)state;
    for (size_t taken = 0; taken < 3; taken++) {
        pattern p = {{.read = pattern_read}, 64 << 20, 0, 1 << 16, SIZE_MAX};
        batch_readahead ra;
        assert_int_equal(batch_readahead_open(&ra, &p.r), 0);
        char buf[10];
        for (size_t i = 0; i < taken; i++)
            assert_int_equal(ra.r.read(&ra.r, buf, sizeof buf), 10);
        batch_readahead_close(&ra);
        assert_true(p.at < p.len);     /* the thread stopped reading */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_byte_in_order),
        cmocka_unit_test(test_failure_after_the_bytes_before_it),
        cmocka_unit_test(test_closed_early),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

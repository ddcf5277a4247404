/* Tests of the batch driver's bounds on hostile streams: the work done on
 * a stream grows with its length, not with its length squared, whatever
 * the message holds (batch_stream_parsed counts the bytes given to the
 * parser). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <unistd.h>

#include "adexp_batch.h"
#include "batch_internal.h"

/* A writer on a pipe: data in writes of 64 KiB. */
typedef struct feeder {
    int fd;
    const char *data;
    size_t len;
} feeder;

static void *feed(void *arg)
{
    feeder *f = arg;
    for (size_t at = 0; at < f->len;) {
        size_t n = f->len - at < 65536 ? f->len - at : 65536;
        ssize_t w = write(f->fd, f->data + at, n);
        if (w <= 0)
            break;
        at += (size_t)w;
    }
    close(f->fd);
    return NULL;
}

/* Parse data[0..len) as standard input; the bytes the parser was given. */
static uint64_t stream_work(const char *data, size_t len, uint64_t *messages)
{
    int p[2];
    assert_int_equal(pipe(p), 0);
    int saved = dup(0);
    dup2(p[0], 0);
    close(p[0]);
    feeder f = {p[1], data, len};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, feed, &f), 0);
    adexp_batch_options o = adexp_batch_options_default();
    o.jobs = 1;
    o.out_fd = open("/dev/null", O_WRONLY);
    o.err_fd = o.out_fd;
    adexp_batch *b = adexp_batch_new(&o);
    assert_non_null(b);
    assert_int_equal(adexp_batch_add_path(b, "-"), 0);
    uint64_t before = atomic_load(&batch_stream_parsed);
    adexp_batch_stats st;
    adexp_batch_run(b, &st);
    adexp_batch_free(b);
    pthread_join(t, NULL);
    close(o.out_fd);
    dup2(saved, 0);
    close(saved);
    *messages = st.messages;
    return atomic_load(&batch_stream_parsed) - before;
}

/* One message of n bytes made of `word` repeated, then a small one. */
static char *one_big(const char *head, const char *word, const char *tail, size_t n,
                     size_t *len)
{
    size_t hl = strlen(head), wl = strlen(word), tl = strlen(tail);
    char *s = malloc(n + hl + wl + tl + 64);
    assert_non_null(s);
    memcpy(s, head, hl);
    size_t at = hl;
    while (at < n)
        memcpy(s + at, word, wl), at += wl;
    memcpy(s + at, tail, tl);
    at += tl;
    at += (size_t)sprintf(s + at, "-TITLE IFPL -ARCID NEXT\n");
    *len = at;
    return s;
}

static void check_linear(const char *head, const char *word, const char *tail)
{
    uint64_t work[2], messages;
    size_t sizes[2] = {(size_t)4 << 20, (size_t)8 << 20};
    for (int i = 0; i < 2; i++) {
        size_t len;
        char *s = one_big(head, word, tail, sizes[i], &len);
        work[i] = stream_work(s, len, &messages);
        free(s);
        assert_int_equal(messages, 2);
        /* each byte given to the parser a few times at most */
        if (work[i] > 4 * (uint64_t)len)
            fail_msg("%s: %zu bytes parsed %.1f times", word, len, (double)work[i] / len);
    }
    assert_true(work[1] < 3 * work[0]);   /* twice the input, about twice the work */
}

/* The word TITLE in a remark: no message starts in it. */
static void test_word_title(void **state)
{
    (void)state;
    check_linear("-TITLE IFPL -ARCID BIG -RMK ", "TITLE ", "\n");
}

/* "-TITLEX": it looks like a message start until the keyword is read. */
static void test_title_prefix(void **state)
{
    (void)state;
    check_linear("-TITLE IFPL -ARCID BIG -RMK X ", "-TITLEX ", "\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_word_title),
        cmocka_unit_test(test_title_prefix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

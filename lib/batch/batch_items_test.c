/* adexp_batch_options.on_item: the CLI's inputs, messages and failures,
 * handed to the caller in the CLI's order. Each test runs one batch twice,
 * once writing JSON lines as adexp-parse does and once with on_item, and
 * holds the JSON of the items (adexp_json_write of each message with its
 * source) to be those lines byte for byte, and the failures to be the
 * diagnostics' inputs, in place. */
#define _DEFAULT_SOURCE        /* mkdtemp */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "adexp_batch.h"

static char dir[64];

static void put(const char *name, const char *text, size_t len)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    fclose(f);
}

static void put_gz(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    gzFile g = gzopen(path, "wb");
    assert_non_null(g);
    assert_int_equal(gzwrite(g, text, (unsigned)strlen(text)), (int)strlen(text));
    gzclose(g);
}

/* n messages, each with a RTEPTS list and a field that says its number. */
static char *many(size_t n)
{
    size_t cap = n * 200 + 1, len = 0;
    char *s = malloc(cap);
    assert_non_null(s);
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(s + len, cap - len,
                                "-TITLE IFPL -ARCID N%zu -ADEP EDDM -ADES EDDH\n"
                                " -BEGIN RTEPTS -PT -PTID ABC -FL F%03zu -END RTEPTS\n",
                                i, i % 400);
    return s;
}

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/adexp-items-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    char sub[128];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    mkdir(sub, 0755);
    const char *good = "-TITLE IFPL -ARCID ABC123 -ADEP EDDM\n-TITLE ACK -ARCID X\n";
    put("a.adexp", good, strlen(good));
    put("sub/b.adexp", "-TITLE IFPL -BEGIN RTEPTS -PT -PTID X\n", 38);
    put("sub/c.adexp", "", 0);
    put(".hidden", good, strlen(good));
    put("d.bin", "\177ELF\0\0-\0", 8);
    put_gz("e.adexp.gz", good);
    char *big = many(3000);
    put("f.adexp", big, strlen(big));
    free(big);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

typedef struct seen {
    adexp_buf json;            /* the messages' JSON lines */
    char failed[2048];         /* "source: why\n" of each failure */
    size_t nfailed, nskipped, nmsg;
    size_t stop_after;         /* 0: never stop */
} seen;

static int on_item(void *ctx, const adexp_batch_item *it)
{
    seen *s = ctx;
    if (it->kind == ADEXP_BATCH_ITEM_MESSAGE) {
        assert_null(it->why);
        assert_int_equal(adexp_json_write(&s->json, it->msg, it->source), ADEXP_OK);
        s->nmsg++;
    } else {
        assert_null(it->msg);
        size_t n = strlen(s->failed);
        snprintf(s->failed + n, sizeof s->failed - n, "%s: %s %s\n", it->source,
                 it->kind == ADEXP_BATCH_ITEM_FAILED ? "error:" : "note:", it->why);
        *(it->kind == ADEXP_BATCH_ITEM_FAILED ? &s->nfailed : &s->nskipped) += 1;
    }
    return s->stop_after && s->nmsg == s->stop_after;
}

/* on_items: the runs of items kept, with the arenas taken over, and read
 * only after the batch is over. */
typedef struct taken {
    adexp_batch_item *v;
    size_t n, cap;
    adexp_arena *arenas;
    size_t narenas;
} taken;

static int on_items(void *ctx, const adexp_batch_item *v, size_t n, adexp_arena *keep)
{
    taken *t = ctx;
    assert_true(n > 0);
    if (t->n + n > t->cap) {
        t->cap = (t->n + n) * 2;
        t->v = realloc(t->v, t->cap * sizeof *t->v);
        assert_non_null(t->v);
    }
    memcpy(t->v + t->n, v, n * sizeof *v);
    t->n += n;
    t->arenas = realloc(t->arenas, (t->narenas + 1) * sizeof *t->arenas);
    assert_non_null(t->arenas);
    t->arenas[t->narenas++] = *keep;
    adexp_arena_init(keep, NULL);
    return 0;
}

static void taken_replay(taken *t, seen *s)
{
    for (size_t i = 0; i < t->n; i++)
        on_item(s, &t->v[i]);
    for (size_t i = 0; i < t->narenas; i++)
        adexp_arena_free(&t->arenas[i]);
    free(t->v);
    free(t->arenas);
}

static char *slurp(FILE *f, size_t *len)
{
    fflush(f);
    long n = ftell(f);
    assert_true(n >= 0);
    char *s = malloc((size_t)n + 1);
    rewind(f);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    *len = (size_t)n;
    return s;
}

/* The diagnostics' lines for whole inputs, "PATH: error: why" (a
 * message's are "PATH:LINE:COL: ..."; the test's paths hold no ':'). */
static void input_lines(const char *err, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    for (const char *p = err; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
        const char *colon = strchr(p, ':');
        if (colon && colon[1] == ' ' && n + len < cap) {
            memcpy(out + n, p, len);
            out[n += len] = '\0';
        }
        p += len;
    }
}

/* With runs: on_items, its arenas taken over, instead of on_item. */
static void compare(unsigned jobs, size_t piece, int runs)
{
    adexp_batch_options o = adexp_batch_options_default();
    o.jobs = jobs;
    o.piece_size = piece;
    FILE *out = tmpfile(), *err = tmpfile();
    assert_non_null(out);
    assert_non_null(err);
    o.out_fd = fileno(out);
    o.err_fd = fileno(err);
    adexp_batch *b = adexp_batch_new(&o);
    assert_int_equal(adexp_batch_add_path(b, dir), 0);
    adexp_batch_stats cli;
    assert_int_equal(adexp_batch_run(b, &cli), 1);
    adexp_batch_free(b);
    size_t want_len, err_len;
    char *want = slurp(out, &want_len), *diag = slurp(err, &err_len);

    seen s;
    memset(&s, 0, sizeof s);
    adexp_buf_init(&s.json, NULL);
    taken t;
    memset(&t, 0, sizeof t);
    if (runs) {
        o.on_items = on_items;
        o.item_ctx = &t;
    } else {
        o.on_item = on_item;
        o.item_ctx = &s;
    }
    o.err_fd = -1;
    o.out_fd = -1;
    b = adexp_batch_new(&o);
    assert_int_equal(adexp_batch_add_path(b, dir), 0);
    adexp_batch_stats st;
    assert_int_equal(adexp_batch_run(b, &st), 1);
    adexp_batch_free(b);
    if (runs) {
        assert_true(t.narenas > 1 || jobs == 1);
        taken_replay(&t, &s);
    }

    assert_int_equal(s.json.len, want_len);
    assert_memory_equal(s.json.data, want, want_len);
    assert_int_equal(s.nmsg, st.messages);
    assert_int_equal(st.messages, cli.messages);
    assert_int_equal(st.messages_written, cli.messages_written);
    assert_int_equal(st.files_failed, cli.files_failed);
    assert_int_equal(s.nskipped, cli.skipped);
    char lines[2048];
    input_lines(diag, lines, sizeof lines);
    assert_string_equal(s.failed, lines);
    assert_true(s.nfailed == 2);   /* the empty and the binary file */
    assert_int_equal(st.inputs_failed, 2);
    assert_int_equal(cli.inputs_failed, 2);
    assert_true(st.files_failed > st.inputs_failed);   /* and b.adexp's failed message */
    adexp_buf_free(&s.json);
    free(want);
    free(diag);
    fclose(out);
    fclose(err);
}

static void test_one_worker(void **state)
{
    (void)state;
    compare(1, 0, 0);
}

static void test_workers_and_pieces(void **state)
{
    (void)state;
    compare(4, 4096, 0);       /* f.adexp is cut into pieces: indexes moved on */
    compare(3, 0, 0);
}

/* on_items: the same items, a run at a time, whose arenas the caller
 * takes over and reads after the run. */
static void test_runs_taken_over(void **state)
{
    (void)state;
    compare(1, 0, 1);
    compare(4, 4096, 1);
    compare(2, 0, 1);
}

/* A stream: a pipe given as a descriptor, packed or not. */
static void test_descriptor(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    const char *text = "-TITLE IFPL -ARCID P1\n-TITLE IFPL -ARCID P2\n";
    assert_int_equal(write(p[1], text, strlen(text)), (ssize_t)strlen(text));
    close(p[1]);
    seen s;
    memset(&s, 0, sizeof s);
    adexp_buf_init(&s.json, NULL);
    adexp_batch_options o = adexp_batch_options_default();
    o.on_item = on_item;
    o.item_ctx = &s;
    o.err_fd = -1;
    adexp_batch *b = adexp_batch_new(&o);
    assert_int_equal(adexp_batch_add_fd(b, "<pipe>", p[0]), 0);
    assert_int_equal(adexp_batch_run(b, NULL), 0);
    adexp_batch_free(b);
    close(p[0]);
    assert_int_equal(s.nmsg, 2);
    assert_non_null(strstr(s.json.data, "\"source\":\"<pipe>\""));
    assert_non_null(strstr(s.json.data, "P2"));
    adexp_buf_free(&s.json);
}

/* A nonzero return stops the run like a failed output. */
static void test_stop(void **state)
{
    (void)state;
    seen s;
    memset(&s, 0, sizeof s);
    adexp_buf_init(&s.json, NULL);
    s.stop_after = 10;
    adexp_batch_options o = adexp_batch_options_default();
    o.jobs = 2;
    o.on_item = on_item;
    o.item_ctx = &s;
    o.err_fd = -1;
    adexp_batch *b = adexp_batch_new(&o);
    char path[256];
    snprintf(path, sizeof path, "%s/f.adexp", dir);
    for (int i = 0; i < 50; i++)
        assert_int_equal(adexp_batch_add_path(b, path), 0);
    adexp_batch_stats st;
    assert_int_equal(adexp_batch_run(b, &st), 1);
    adexp_batch_free(b);
    assert_int_equal(st.output_error, ECANCELED);
    assert_int_equal(s.nmsg, 10);
    adexp_buf_free(&s.json);
}

/* adexp_msg_copy: the copy outlives the bytes and the arena it came from. */
static void test_msg_copy(void **state)
{
    (void)state;
    char text[] = "ZCZC AAA001\nFF EDDMZQZX\n170001 LFPYZMFP\n"
                  "-TITLE IFPL -ARCID ABC -BEGIN RTEPTS -PT -PTID X -FL F300 -END RTEPTS"
                  " -ADDR -FAC EDDM\nNNNN\n";
    adexp_arena a, keep;
    adexp_arena_init(&a, NULL);
    adexp_arena_init(&keep, NULL);
    adexp_msg m, c;
    adexp_parser *p = adexp_parser_new(NULL, NULL);
    adexp_parser_reset(p, text, strlen(text));
    assert_int_equal(adexp_parser_next(p, &a, &m), ADEXP_OK);
    adexp_buf one, two;
    adexp_buf_init(&one, NULL);
    adexp_buf_init(&two, NULL);
    assert_int_equal(adexp_json_write(&one, &m, "x"), ADEXP_OK);
    assert_int_equal(adexp_msg_copy(&m, &keep, &c), ADEXP_OK);
    memset(text, '?', sizeof text - 1);
    adexp_arena_free(&a);
    assert_int_equal(adexp_json_write(&two, &c, "x"), ADEXP_OK);
    assert_int_equal(one.len, two.len);
    assert_memory_equal(one.data, two.data, one.len);
    assert_int_equal(c.view.n_rtepts, 1);
    assert_true(adexp_slice_eq(c.view.rtepts[0].ptid, "X"));
    assert_true(adexp_slice_eq(c.envelope.originator, "LFPYZMFP"));
    adexp_parser_free(p);
    adexp_arena_free(&keep);
    adexp_buf_free(&one);
    adexp_buf_free(&two);
}

/* A copy validated once its bytes are gone: validation reads no byte
 * outside the copy (the sanitizer and valgrind runs see any) and finds
 * what it finds in the original, without lines. */
static void test_validate_copy(void **state)
{
    (void)state;
    static const char src[] = "-TITLE IFPL -ARCID A*C -EOBT 99\n";
    char *text = malloc(sizeof src - 1);
    assert_non_null(text);
    memcpy(text, src, sizeof src - 1);
    adexp_arena a, keep, va;
    adexp_arena_init(&a, NULL);
    adexp_arena_init(&keep, NULL);
    adexp_arena_init(&va, NULL);
    adexp_msg m, c;
    assert_int_equal(adexp_parse(text, sizeof src - 1, &a, &m), ADEXP_OK);
    adexp_findings want, got;
    adexp_findings_init(&want);
    assert_int_equal(adexp_validate(&m, &va, &want), ADEXP_OK);
    size_t n = want.n;
    assert_true(n >= 2);
    assert_int_equal(adexp_msg_copy(&m, &keep, &c), ADEXP_OK);
    free(text);
    adexp_arena_free(&a);
    adexp_findings_init(&got);
    got.no_lines = 1;
    assert_int_equal(adexp_validate(&c, &va, &got), ADEXP_OK);
    assert_int_equal(got.n, n);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(got.v[i].code, want.v[i].code);
        assert_string_equal(got.v[i].field, want.v[i].field);
        assert_int_equal(got.v[i].line, 0);
    }
    adexp_arena_free(&keep);
    adexp_arena_free(&va);
}

static int on_output(void *ctx, const char *data, size_t len)
{
    adexp_buf *b = ctx;
    char *p = realloc(b->data, b->len + len + 1);
    assert_non_null(p);
    memcpy(p + b->len, data, len);
    b->data = p;
    b->len += len;
    p[b->len] = '\0';
    return strstr(p, "N2000\t") != NULL && b->cap == 1;   /* cap 1: stop there */
}

/* adexp_batch_options.on_output: the bytes adexp-parse writes, header
 * row first, in order (TSV with its warnings cell, on pieces), and a
 * nonzero return stops the run like a failed output. */
static void test_on_output(void **state)
{
    (void)state;
    adexp_batch_options o = adexp_batch_options_default();
    o.jobs = 3;
    o.piece_size = 4096;
    o.format = ADEXP_BATCH_TSV;
    o.validate = 1;
    o.err_fd = -1;
    FILE *out = tmpfile();
    assert_non_null(out);
    o.out_fd = fileno(out);
    adexp_batch *b = adexp_batch_new(&o);
    assert_int_equal(adexp_batch_add_path(b, dir), 0);
    adexp_batch_stats cli;
    assert_int_equal(adexp_batch_run(b, &cli), 1);
    adexp_batch_free(b);
    size_t want_len;
    char *want = slurp(out, &want_len);

    for (int stop = 0; stop < 2; stop++) {
        adexp_buf got = {0};
        got.cap = (size_t)stop;
        o.out_fd = -1;
        o.on_output = on_output;
        o.output_ctx = &got;
        b = adexp_batch_new(&o);
        assert_int_equal(adexp_batch_add_path(b, dir), 0);
        adexp_batch_stats st;
        assert_int_equal(adexp_batch_run(b, &st), 1);
        adexp_batch_free(b);
        if (!stop) {
            assert_int_equal(got.len, want_len);
            assert_memory_equal(got.data, want, want_len);
            assert_int_equal(st.messages_written, cli.messages_written);
            assert_int_equal(st.output_error, 0);
            assert_int_equal(st.inputs_failed, 2);
        } else {
            assert_true(got.len < want_len);
            assert_int_equal(st.output_error, ECANCELED);
        }
        free(got.data);
    }
    free(want);
    fclose(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_worker),
        cmocka_unit_test(test_workers_and_pieces),
        cmocka_unit_test(test_runs_taken_over),
        cmocka_unit_test(test_descriptor),
        cmocka_unit_test(test_stop),
        cmocka_unit_test(test_on_output),
        cmocka_unit_test(test_msg_copy),
        cmocka_unit_test(test_validate_copy),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/* Tests of a big input cut into pieces (batch_split.c) and of an input read
 * as a stream (batch_stream.c): whatever the cuts and the reads, the output
 * and the diagnostics are byte for byte those of one parse of the whole
 * input. Usage: batch_split_test TESTDATA_DIR */
#define _DEFAULT_SOURCE        /* usleep */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "adexp_batch.h"
#include "batch_internal.h"
#include "json_out.h"

static const char *testdata;
static char *corpus;           /* tricky messages, one after another */
static size_t corpus_len;

/* Messages whose ends are hard to find: -TITLE inside ICAO text and inside
 * IFPDLONG message lists, -TITLEX and "- TITLE", errors on a piece's first
 * line (columns), an unclosed list ended by the next -TITLE, a field limit
 * that stops a message, more errors than are stored, CRLF and lone CR. */
static const char *const tricky[] = {
    "junk before the first title\n",
    "-TITLE ACK -ARCID A1 -MSGTXT (FPL-ABC -TITLE X-IS -TITLE Y)\n\n",
    "-TITLE IFPL -ARCID A2 -BEGIN RTEPTS -PT -PTID X\n",
    "-TITLE IFPL -ARCID A3 -ADEP EDDM -TITLEX -ADES EDDH\r\n",
    "- TITLE IFPL -ARCID A4\r\r",
    "   -TITLE LAM -ARCID A5 -END RTEPTS -END X -BEGIN -\n",
    "-TITLE IFPL -A -B -C -D -E -F -G -H -I -J -K -L -M -N -O -P -Q -R\n",
    "-TITLE IFPL -ARCID A7 -MSGTXT (never closed -TITLE IFPL\n",
    "-TITLE IFPL -ARCID A8\n-END X -END Y -END Z -END W\n",
    /* AFTN envelopes: ITA-2, IA-5 with CR LF, NNNN missing before the next
     * ZCZC, a garbled heading, NNNN with no heading, -TITLE in the text */
    "ZCZC AAA001 170001\nFF LKPREPWC EUCHZMFP\n170001 EUCHZMFP\n-TITLE IFPL -ARCID E1\n\nNNNN\n",
    "\001ABC123\r\nGG EDDFZQZX\r\n171230 EUCHZMFP\r\n\002-TITLE CNL -ARCID E2\r\n\v\003",
    "ZCZC AAA003\nFF LKPREPWC\n170003 EUCHZMFP\n-TITLE CNL -ARCID E3 -CTOT 1200\n",
    "ZCZC AAA004\nFF\n17000X EUCHZMFP\n-TITLE CNL -ARCID E4\nNNNN\n",
    "-TITLE CNL -ARCID E5 -EOBT 0800\nNNNN\n",
    "ZCZC AAA006\nFF LKPREPWC\n170006 EUCHZMFP\n-TITLE ACK -MSGTXT (X -TITLE Y)\n-TITLE CNL\nNNNN\n",
    /* quoted ADEXP: one message, and one whose quote is never closed */
    "-TITLE REJ -ARCID Q1 -OLDMSG (-TITLE IFPL -ARCID Q1 -MSGTXT (FPL-Q1-IS)) -ERROR X\n",
    "-TITLE ACK -OLDMSG ( -TITLE IFPL -ARCID Q2 -ADEP EDDF\n-TITLE CNL -ARCID Q3\n",
};

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    fclose(f);
    if (s)
        *len = (size_t)n;
    return s;
}

static void append(const char *s, size_t n)
{
    corpus = realloc(corpus, corpus_len + n + 1);
    memcpy(corpus + corpus_len, s, n);
    corpus_len += n;
}

static int setup(void **state)
{
    (void)state;
    static const char *const files[] = {
        "messages/tricky-nested-ifpdlist-IFPDQR-DLH4CK.adexp",
        "messages/ACK-ifpl-msgtxt-AFR1300.adexp",
    };
    for (size_t i = 0; i < sizeof tricky / sizeof *tricky; i++) {
        append(tricky[i], strlen(tricky[i]));
        if (i < 2) {
            char path[1024];
            size_t n;
            snprintf(path, sizeof path, "%s/%s", testdata, files[i]);
            char *s = slurp(path, &n);
            if (!s)
                return -1;
            append(s, n);
            free(s);
        }
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(corpus);
    return 0;
}

static char *read_back(FILE *f)
{
    long n = ftell(f);
    rewind(f);
    char *s = calloc(1, (size_t)n + 1);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return s;
}

typedef struct result {
    char *out, *err;
    adexp_batch_stats st;
} result;

static void result_free(result *r)
{
    free(r->out);
    free(r->err);
}

static void check_same(const result *a, const result *b)
{
    assert_string_equal(a->out, b->out);
    assert_string_equal(a->err, b->err);
    assert_int_equal(a->st.messages, b->st.messages);
    assert_int_equal(a->st.messages_failed, b->st.messages_failed);
    assert_int_equal(a->st.files_failed, b->st.files_failed);
    assert_int_equal(a->st.messages_written, b->st.messages_written);
    assert_int_equal(a->st.bytes_written, b->st.bytes_written);
}

/* The name of the corpus's buffer: the index of each message is patched
 * after its line's source, whatever that name's JSON string is. */
static const char *buffer_name = "-";

/* The corpus as a buffer named buffer_name (or standard input: stdin_path), with
 * jobs workers and pieces of piece bytes. */
static const adexp_select *run_select;   /* --fields/--rows, or NULL */

static result run(unsigned jobs, size_t piece, int format, int stdin_path)
{
    result r;
    FILE *fo = tmpfile(), *fe = tmpfile();
    adexp_batch_options o = adexp_batch_options_default();
    o.jobs = jobs;
    o.piece_size = piece;
    o.format = format;
    o.select = run_select;
    o.parser.max_fields = 12;  /* the -A ... -R message hits it */
    o.parser.max_errors = 2;   /* "N more errors in message I" lines */
    o.out_fd = fileno(fo);
    o.err_fd = fileno(fe);
    adexp_batch *b = adexp_batch_new(&o);
    assert_non_null(b);
    if (stdin_path)
        assert_int_equal(adexp_batch_add_path(b, "-"), 0);
    else
        assert_int_equal(adexp_batch_add_buffer(b, buffer_name, corpus, corpus_len), 0);
    adexp_batch_run(b, &r.st);
    adexp_batch_free(b);
    r.out = read_back(fo);
    r.err = read_back(fe);
    return r;
}

/* Piece sizes of 1 byte make every "-TITLE" a cut, those inside texts and
 * message lists too; the other sizes put the cuts in every other place. */
static void test_every_cut(void **state)
{
    (void)state;
    result whole = run(1, 0, ADEXP_BATCH_JSON, 0);
    assert_true(whole.st.messages > 10);
    assert_true(strstr(whole.err, "more errors in message") != NULL);
    for (size_t piece = 1; piece <= corpus_len / 2; piece += piece < 64 ? 1 : 37) {
        for (unsigned jobs = 2; jobs <= 3; jobs++) {
            result r = run(jobs, piece, ADEXP_BATCH_JSON, 0);
            check_same(&whole, &r);
            result_free(&r);
        }
    }
    result_free(&whole);
}

/* A name escaped in JSON (a quote, a byte that is not UTF-8): the index
 * still lands after the source. */
static void test_escaped_name(void **state)
{
    (void)state;
    buffer_name = "day \"1\"\xff.adexp";
    result whole = run(1, 0, ADEXP_BATCH_JSON, 0);
    assert_non_null(strstr(whole.out, "\"source\":\"day \\\"1\\\"\\udcff.adexp\",\"index\":1,"));
    for (size_t piece = 1; piece <= 64; piece++) {
        result r = run(2, piece, ADEXP_BATCH_JSON, 0);
        check_same(&whole, &r);
        result_free(&r);
    }
    result_free(&whole);
    buffer_name = "-";
}

/* Every output format cut into pieces gives the whole input's output: the
 * view's index patched as JSON's, ADEXP's refusals naming the message by
 * its index in the input, the CSV's rows (one per route point too) each
 * with its message's index. */
static void test_other_formats_pieces(void **state)
{
    (void)state;
    static const int formats[] = {ADEXP_BATCH_VIEW, ADEXP_BATCH_ADEXP, ADEXP_BATCH_CSV,
                                  ADEXP_BATCH_TSV, ADEXP_BATCH_CSV};
    char why[256];
    adexp_select *rows = adexp_select_new("ARCID,PTID,FL_ft", "RTEPTS", NULL, why, sizeof why);
    assert_non_null(rows);
    for (size_t f = 0; f < sizeof formats / sizeof *formats; f++) {
        run_select = f == 4 ? rows : NULL;   /* a row per route point */
        result whole = run(1, 0, formats[f], 0);
        assert_true(whole.out[0] != 0);
        for (size_t piece = 1; piece <= corpus_len / 2; piece += piece < 32 ? 1 : 101) {
            result r = run(2 + (unsigned)(piece & 1), piece, formats[f], 0);
            check_same(&whole, &r);
            result_free(&r);
        }
        result_free(&whole);
    }
    run_select = NULL;
    adexp_select_free(rows);
}

static void test_summary_pieces(void **state)
{
    (void)state;
    result whole = run(1, 0, ADEXP_BATCH_SUMMARY, 0);
    for (size_t piece = 1; piece <= 64; piece++) {
        result r = run(2, piece, ADEXP_BATCH_SUMMARY, 0);
        check_same(&whole, &r);
        result_free(&r);
    }
    result_free(&whole);
}

/* A writer on a pipe that sends the corpus in reads of `step` bytes. */
typedef struct feeder {
    int fd;
    size_t step;
} feeder;

static void *feed(void *arg)
{
    feeder *f = arg;
    for (size_t at = 0; at < corpus_len; at += f->step) {
        size_t n = corpus_len - at < f->step ? corpus_len - at : f->step;
        if (write(f->fd, corpus + at, n) != (ssize_t)n)
            break;
        if (f->step < 64)
            usleep(50);     /* let the reader see each piece on its own */
    }
    close(f->fd);
    return NULL;
}

static result run_stream(size_t step)
{
    int p[2];
    assert_int_equal(pipe(p), 0);
    int saved = dup(0);
    dup2(p[0], 0);
    close(p[0]);
    feeder f = {p[1], step};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, feed, &f), 0);
    result r = run(2, 0, ADEXP_BATCH_JSON, 1);
    pthread_join(t, NULL);
    dup2(saved, 0);
    close(saved);
    return r;
}

static void test_stream_reads(void **state)
{
    (void)state;
    result whole = run(1, 0, ADEXP_BATCH_JSON, 0);
    static const size_t steps[] = {1, 2, 3, 5, 7, 13, 64, 100, 333, 1000, 4096, 100000};
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        result r = run_stream(steps[i]);
        check_same(&whole, &r);
        result_free(&r);
    }
    result_free(&whole);
}

/* The line count's vector loops against the rule, byte by byte. */
static void test_count_lines(void **state)
{
    (void)state;
    static const char alphabet[] = "\r\n\r-a";
    char buf[200];
    unsigned seed = 1;
    for (int round = 0; round < 20000; round++) {
        size_t len = (size_t)(rand_r(&seed) % sizeof buf);
        for (size_t i = 0; i < len; i++)
            buf[i] = alphabet[rand_r(&seed) % 5];
        size_t from = len ? (size_t)rand_r(&seed) % (len + 1) : 0;
        size_t to = from + (len > from ? (size_t)rand_r(&seed) % (len - from + 1) : 0);
        uint64_t want = 0;
        for (size_t i = from; i < to; i++)
            want += buf[i] == '\n' || (buf[i] == '\r' && (i + 1 == len || buf[i + 1] != '\n'));
        assert_int_equal(lines_count(buf, len, from, to), want);
    }
}

/* Long spans: the byte lanes' sums flushed before they overflow (every
 * byte a LF is the worst case), with CRs here and there. */
static void test_count_lines_long(void **state)
{
    (void)state;
    static char buf[20000];
    unsigned seed = 7;
    for (int round = 0; round < 40; round++) {
        int every = round % 4 == 0 ? 1 : 1 + rand_r(&seed) % 50;
        for (size_t i = 0; i < sizeof buf; i++) {
            int r = rand_r(&seed) % every;
            buf[i] = r == 0 ? '\n' : r == 1 && round % 2 ? '\r' : 'a';
        }
        size_t from = (size_t)rand_r(&seed) % 100, to = sizeof buf - (size_t)rand_r(&seed) % 100;
        uint64_t want = 0;
        for (size_t i = from; i < to; i++)
            want += buf[i] == '\n' ||
                    (buf[i] == '\r' && (i + 1 == sizeof buf || buf[i + 1] != '\n'));
        assert_int_equal(lines_count(buf, sizeof buf, from, to), want);
    }
}

/* batch_patch_lines against the newlines of the iovecs batch_patch_iov
 * gives, on pieces of 0 to 700 JSON-like lines (one index mark each) cut
 * into chunks of every size. */
static void test_patch_lines(void **state)
{
    (void)state;
    enum { MAXV = 64 };
    unsigned seed = 3;
    for (int round = 0; round < 300; round++) {
        size_t k = (size_t)rand_r(&seed) % 700, max = 2 + (size_t)rand_r(&seed) % (MAXV - 2);
        adexp_buf data;
        adexp_buf_init(&data, NULL);
        batch_marks mk = {0};
        for (size_t i = 0; i < k; i++) {
            char line[96];
            int pad = rand_r(&seed) % 40;
            int at = snprintf(line, sizeof line, "{\"source\":\"x\",\"index\":");
            assert_int_equal(batch_mark_number(&mk, data.len + (size_t)at, i), 0);
            int n = snprintf(line + at, sizeof line - (size_t)at, "%zu,\"f\":\"%*s\"}\n", i,
                             pad, "");
            assert_true(adexp_buf_put(&data, line, (size_t)(at + n)));
        }
        struct iovec iov[MAXV];
        char digits[MAXV / 2][24];
        batch_patch_pos pos = {0, 0}, from = pos;
        uint64_t total = 0;
        size_t n;
        while ((n = batch_patch_iov(data.data, data.len, &mk, &pos, 1000, iov, digits, max)) > 0) {
            uint64_t want = 0;
            for (size_t i = 0; i < n; i++)
                for (size_t j = 0; j < iov[i].iov_len; j++)
                    want += ((const char *)iov[i].iov_base)[j] == '\n';
            assert_int_equal(batch_patch_lines(from, pos, data.len), want);
            total += want;
            from = pos;
        }
        assert_int_equal(total, k);
        batch_marks_free(&mk);
        adexp_buf_free(&data);
    }
}

/* The line start's vector loop against the rule, byte by byte, on lines
 * of every length, ended by LF, CRLF or a lone CR. */
static void test_line_start(void **state)
{
    (void)state;
    char buf[200];
    unsigned seed = 3;
    for (int round = 0; round < 20000; round++) {
        size_t len = 1 + (size_t)(rand_r(&seed) % sizeof buf);
        int every = 1 + rand_r(&seed) % 60;
        for (size_t i = 0; i < len; i++) {
            int r = rand_r(&seed) % (2 * every);
            buf[i] = r == 0 ? '\n' : r == 1 ? '\r' : 'a';
        }
        size_t at = (size_t)rand_r(&seed) % (len + 1), want = 0;
        for (size_t i = at; i > 0; i--)
            if (buf[i - 1] == '\n' || (buf[i - 1] == '\r' && (i == len || buf[i] != '\n'))) {
                want = i;
                break;
            }
        assert_int_equal(line_start(buf, len, at), want);
    }
}

/* The cursor's line and column against the rule, byte by byte, for
 * offsets asked in any order (forward and back), from a start after a
 * byte order mark. */
static void test_lines_locate(void **state)
{
    (void)state;
    static const char alphabet[] = "\r\n\r-aaaa";
    char buf[300];
    unsigned seed = 5;
    for (int round = 0; round < 2000; round++) {
        size_t len = 4 + (size_t)(rand_r(&seed) % (sizeof buf - 4)), start = 3;
        memcpy(buf, "\xEF\xBB\xBF", 3);
        for (size_t i = start; i < len; i++)
            buf[i] = alphabet[rand_r(&seed) % 9];
        lines_cursor c = lines_cursor_at(start);
        for (int ask = 0; ask < 20; ask++) {
            size_t off = start + (size_t)rand_r(&seed) % (len - start);
            uint32_t line = 1, bol = (uint32_t)start, got_line, got_column;
            for (size_t i = start; i < off; i++)
                if (buf[i] == '\n' || (buf[i] == '\r' && (i + 1 == len || buf[i + 1] != '\n')))
                    line++, bol = (uint32_t)i + 1;
            lines_locate(&c, buf, len, off, &got_line, &got_column);
            assert_int_equal(got_line, line);
            assert_int_equal(got_column, off - bol + 1);
        }
    }
}

int main(int argc, char **argv)
{
    testdata = argc > 1 ? argv[1] : "testdata";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_count_lines),
        cmocka_unit_test(test_count_lines_long),
        cmocka_unit_test(test_line_start),
        cmocka_unit_test(test_lines_locate),
        cmocka_unit_test(test_patch_lines),
        cmocka_unit_test(test_every_cut),
        cmocka_unit_test(test_escaped_name),
        cmocka_unit_test(test_summary_pieces),
        cmocka_unit_test(test_other_formats_pieces),
        cmocka_unit_test(test_stream_reads),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

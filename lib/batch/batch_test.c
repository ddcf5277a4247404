/* Unit tests of the batch driver API (include/adexp_batch.h). */
#define _DEFAULT_SOURCE        /* mkdtemp */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adexp_batch.h"

static const char good[] = "-TITLE IFPL -ARCID ABC123 -ADEP EDDM -ADES EDDH\n";
static const char bad[] = "-TITLE IFPL -BEGIN RTEPTS -PT -PTID X\n";

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

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/adexp-batch-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    char sub[128];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    mkdir(sub, 0755);
    put("b.adexp", good, strlen(good));
    put("a.adexp", good, strlen(good));
    put("sub/c.adexp", bad, strlen(bad));
    put(".hidden", good, strlen(good));
    put("empty", "", 0);
    put("bin", "\177ELF\0\0-\0", 8);   /* a NUL and no -TITLE */
    char two[256];
    snprintf(two, sizeof two, "%s%s", good, good);
    put("two.adexp", two, strlen(two));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* What was written to f, NUL-terminated (caller frees); closes f. */
static char *read_back(FILE *f)
{
    long n = ftell(f);
    rewind(f);
    char *s = calloc(1, (size_t)n + 1);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return s;
}

/* Run over dir with jobs workers; output and diagnostics go to temp files
 * whose contents are returned (caller frees). */
static int run_dir(unsigned jobs, int format, adexp_batch_stats *st,
                   char **out, char **err)
{
    FILE *fo = tmpfile(), *fe = tmpfile();
    adexp_batch_options o = adexp_batch_options_default();
    o.jobs = jobs;
    o.format = format;
    o.out_fd = fileno(fo);
    o.err_fd = fileno(fe);
    adexp_batch *b = adexp_batch_new(&o);
    assert_non_null(b);
    assert_int_equal(adexp_batch_add_path(b, dir), 0);
    int rc = adexp_batch_run(b, st);
    adexp_batch_free(b);
    *out = read_back(fo);
    *err = read_back(fe);
    return rc;
}

static void test_counts(void **state)
{
    (void)state;
    adexp_batch_stats st;
    char *out, *err;
    assert_int_equal(run_dir(2, ADEXP_BATCH_JSON, &st, &out, &err), 1);
    assert_int_equal(st.files, 6);          /* a b bin empty sub/c two */
    assert_int_equal(st.files_ok, 3);
    assert_int_equal(st.files_failed, 3);   /* bin, empty, sub/c */
    assert_int_equal(st.skipped, 1);        /* .hidden */
    assert_int_equal(st.messages, 5);
    assert_int_equal(st.messages_failed, 1);
    assert_non_null(strstr(err, "/empty: error: empty file\n"));
    assert_non_null(strstr(err, "/bin: error: binary file"));
    assert_non_null(strstr(err, "/.hidden: note: hidden entry: skipped\n"));
    assert_non_null(strstr(err, "/sub/c.adexp:"));
    free(out);
    free(err);
}

static void test_order(void **state)
{
    (void)state;
    adexp_batch_stats st;
    char *out1, *err1, *out4, *err4;
    run_dir(1, ADEXP_BATCH_JSON, &st, &out1, &err1);
    run_dir(4, ADEXP_BATCH_JSON, &st, &out4, &err4);
    assert_string_equal(out1, out4);
    assert_string_equal(err1, err4);
    /* a.adexp sorts before b.adexp, which sorts before sub/ and two. */
    char *a = strstr(out1, "/a.adexp\""), *b = strstr(out1, "/b.adexp\"");
    char *c = strstr(out1, "/sub/c.adexp\""), *t = strstr(out1, "/two.adexp\"");
    assert_true(a && b && c && t && a < b && b < c && c < t);
    free(out1), free(err1), free(out4), free(err4);
}

static void test_summary_format(void **state)
{
    (void)state;
    adexp_batch_stats st;
    char *out, *err;
    run_dir(2, ADEXP_BATCH_SUMMARY, &st, &out, &err);
    assert_string_equal(out, "");
    assert_int_equal(st.messages, 5);
    free(out), free(err);
}

static void test_missing_and_limit(void **state)
{
    (void)state;
    FILE *fe = tmpfile();
    adexp_batch_options o = adexp_batch_options_default();
    o.format = ADEXP_BATCH_SUMMARY;
    o.err_fd = fileno(fe);
    assert_int_equal(o.max_file_size, 0);     /* the default: no limit */
    o.max_file_size = 10;
    adexp_batch *b = adexp_batch_new(&o);
    char path[256];
    snprintf(path, sizeof path, "%s/a.adexp", dir);
    adexp_batch_add_path(b, path);
    adexp_batch_add_path(b, "/nonexistent/x");
    assert_int_equal(adexp_batch_count(b), 2);
    adexp_batch_stats st;
    assert_int_equal(adexp_batch_run(b, &st), 1);
    assert_int_equal(st.files, 2);
    assert_int_equal(st.files_failed, 2);
    adexp_batch_free(b);
    fclose(fe);
}

/* Buffers in memory go through the same pool, in order with the paths. */
static void run_buffers(unsigned jobs, char **out, char **err, adexp_batch_stats *st)
{
    static char many[20][sizeof good];
    FILE *fo = tmpfile(), *fe = tmpfile();
    adexp_batch_options o = adexp_batch_options_default();
    o.jobs = jobs;
    o.out_fd = fileno(fo);
    o.err_fd = fileno(fe);
    adexp_batch *b = adexp_batch_new(&o);
    char path[256];
    snprintf(path, sizeof path, "%s/a.adexp", dir);
    for (int i = 0; i < 20; i++) {
        char name[16];
        snprintf(name, sizeof name, "mem%02d", i);
        memcpy(many[i], good, sizeof good);
        assert_int_equal(adexp_batch_add_buffer(b, name, many[i], sizeof good - 1), 0);
        if (i == 10)
            adexp_batch_add_path(b, path);
    }
    adexp_batch_add_buffer(b, "bad", bad, sizeof bad - 1);
    adexp_batch_add_buffer(b, "nothing", NULL, 0);
    assert_int_equal(adexp_batch_run(b, st), 1);
    adexp_batch_free(b);
    *out = read_back(fo);
    *err = read_back(fe);
}

static void test_buffers(void **state)
{
    (void)state;
    adexp_batch_stats st;
    char *out1, *err1, *out2, *err2;
    run_buffers(1, &out1, &err1, &st);
    run_buffers(2, &out2, &err2, &st);
    assert_string_equal(out1, out2);
    assert_string_equal(err1, err2);
    assert_int_equal(st.files, 23);
    assert_int_equal(st.files_failed, 2);     /* bad, nothing */
    assert_int_equal(st.messages, 22);
    char *m0 = strstr(out1, "\"source\":\"mem00\""), *m10 = strstr(out1, "\"mem10\"");
    char *a = strstr(out1, "/a.adexp\""), *m11 = strstr(out1, "\"mem11\"");
    assert_true(m0 && m10 && a && m11 && m0 < m10 && m10 < a && a < m11);
    assert_non_null(strstr(err1, "bad:1:13: error: LIST_UNCLOSED"));
    assert_non_null(strstr(err1, "nothing: error: empty file"));
    free(out1), free(err1), free(out2), free(err2);
}

/* An output of many lines a message (ADEXP's IFPS layout) has its lines
 * counted as written: every newline, over blocks of any length. */
static void test_lines_counted_as_written(void **state)
{
    (void)state;
    static char in[1 << 20];
    size_t n = 0;
    for (int m = 0; m < 400; m++) {
        n += (size_t)snprintf(in + n, sizeof in - n, "-TITLE IFPL -ARCID X%d -BEGIN RTEPTS", m);
        for (int i = 0; i < m % 97; i++)
            n += (size_t)snprintf(in + n, sizeof in - n, " -PT -PTID P%d -FL F%03d -ETO 1200",
                                  i, i % 400);
        n += (size_t)snprintf(in + n, sizeof in - n, " -END RTEPTS\n\n");
    }
    FILE *fo = tmpfile(), *fe = tmpfile();
    adexp_batch_options o = adexp_batch_options_default();
    o.jobs = 1;
    o.format = ADEXP_BATCH_ADEXP;
    o.adexp.layout = ADEXP_LAYOUT_IFPS;
    o.out_fd = fileno(fo);
    o.err_fd = fileno(fe);
    adexp_batch *b = adexp_batch_new(&o);
    assert_non_null(b);
    assert_int_equal(adexp_batch_add_buffer(b, "ifps", in, n), 0);
    adexp_batch_stats st;
    assert_int_equal(adexp_batch_run(b, &st), 0);
    adexp_batch_free(b);
    char *out = read_back(fo), *err = read_back(fe);
    uint64_t lines = 0;
    for (const char *c = out; *c; c++)
        lines += *c == '\n';
    assert_true(lines > 20000);
    assert_int_equal(st.messages_written, lines);
    free(out);
    free(err);
}

/* Where the items of a run are handed out: the thread of each call. */
typedef struct seen_threads {
    pthread_t caller;
    size_t calls, on_caller, items;
} seen_threads;

static int note_thread(void *ctx, const adexp_batch_item *items, size_t n, adexp_arena *keep)
{
    (void)items, (void)keep;
    seen_threads *s = ctx;
    s->calls++;
    s->on_caller += pthread_equal(pthread_self(), s->caller) != 0;
    s->items += n;
    return 0;
}

/* jobs workers (pieces of piece bytes; 0: the default) over npaths copies
 * of dir/NAME, and a buffer when npaths is not 1: the threads seen. */
static seen_threads run_jobs(unsigned jobs, const char *name, int npaths, size_t piece)
{
    seen_threads s = {.caller = pthread_self()};
    adexp_batch_options o = adexp_batch_options_default();
    o.jobs = jobs;
    o.piece_size = piece;
    o.on_items = note_thread;
    o.item_ctx = &s;
    o.err_fd = -1;
    adexp_batch *b = adexp_batch_new(&o);
    assert_non_null(b);
    char path[256];
    snprintf(path, sizeof path, "%s%s%s", dir, *name ? "/" : "", name);
    for (int i = 0; i < npaths; i++)
        assert_int_equal(adexp_batch_add_path(b, path), 0);
    if (npaths != 1)
        assert_int_equal(adexp_batch_add_buffer(b, "mem", good, sizeof good - 1), 0);
    adexp_batch_stats st;
    adexp_batch_run(b, &st);
    adexp_batch_free(b);
    return s;
}

/* The calling thread parses the inputs itself when no second worker could
 * help: one worker over a few named files (no thread started, no
 * hand-over), or more over one small plain file. A directory, or many
 * names, keeps its walk on the calling thread and the parse on a worker
 * beside it; so does a file that is cut into pieces or packed. */
static void test_one_worker_on_calling_thread(void **state)
{
    (void)state;
    seen_threads files = run_jobs(1, "a.adexp", 3, 0);
    assert_true(files.calls > 0);
    assert_int_equal(files.on_caller, files.calls);
    assert_int_equal(files.items, 4);
    seen_threads tree = run_jobs(1, "", 1, 0);
    assert_true(tree.calls > 0);
    assert_int_equal(tree.on_caller, 0);
    assert_int_equal(tree.items, 8);   /* a b bin empty sub/c .hidden, two's 2 */
    seen_threads many = run_jobs(1, "a.adexp", 17, 0);
    assert_int_equal(many.on_caller, 0);
    assert_int_equal(many.items, 18);

    seen_threads one = run_jobs(4, "two.adexp", 1, 0);
    assert_true(one.calls > 0);
    assert_int_equal(one.on_caller, one.calls);
    assert_int_equal(one.items, 2);
    seen_threads cut = run_jobs(4, "two.adexp", 1, 16);   /* cut into pieces of 16 bytes */
    assert_int_equal(cut.on_caller, 0);
    assert_int_equal(cut.items, 2);
    put("packed.gz", "\037\213\010\000\000\000\000\000", 8);   /* a gzip's head, cut short */
    seen_threads packed = run_jobs(4, "packed.gz", 1, 0);
    assert_true(packed.calls > 0);
    assert_int_equal(packed.on_caller, 0);
    char path[256];
    snprintf(path, sizeof path, "%s/packed.gz", dir);
    unlink(path);
    seen_threads two = run_jobs(4, "a.adexp", 2, 0);
    assert_int_equal(two.on_caller, 0);
    assert_int_equal(two.items, 3);
}

/* "-" is standard input, never a file of that name: with standard input a
 * file cut into pieces, the workers share it even where the current folder
 * holds a small file named "-". */
static void test_stdin_is_no_file_named_dash(void **state)
{
    (void)state;
    char path[256], cwd[256];
    snprintf(path, sizeof path, "%s/two.adexp", dir);
    int in = open(path, O_RDONLY), saved = dup(0);
    assert_true(in >= 0 && saved >= 0 && getcwd(cwd, sizeof cwd));
    assert_int_equal(dup2(in, 0), 0);
    assert_int_equal(chdir(dir), 0);
    put("-", "-TITLE X\n", 9);           /* too small to be cut */
    seen_threads s = {.caller = pthread_self()};
    adexp_batch_options o = adexp_batch_options_default();
    o.jobs = 4;
    o.piece_size = 16;                   /* two.adexp is cut */
    o.on_items = note_thread;
    o.item_ctx = &s;
    o.err_fd = -1;
    adexp_batch *b = adexp_batch_new(&o);
    assert_int_equal(adexp_batch_add_path(b, "-"), 0);
    adexp_batch_stats st;
    adexp_batch_run(b, &st);
    adexp_batch_free(b);
    snprintf(path, sizeof path, "%s/-", dir);
    unlink(path);
    assert_int_equal(chdir(cwd), 0);
    dup2(saved, 0);
    close(saved);
    close(in);
    assert_int_equal(s.items, 2);        /* two.adexp's, not the file "-"'s */
    assert_int_equal(s.on_caller, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_summary_format),
        cmocka_unit_test(test_missing_and_limit),
        cmocka_unit_test(test_buffers),
        cmocka_unit_test(test_lines_counted_as_written),
        cmocka_unit_test(test_one_worker_on_calling_thread),
        cmocka_unit_test(test_stdin_is_no_file_named_dash),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

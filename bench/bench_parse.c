/* bench_parse: the main parser against the regex and split reference parsers,
 * side by side in one run, single thread, on (a) the teivah IFPL message,
 * (b) every message of testdata/messages, (c) a generated corpus; then the
 * batch driver on in-memory copies of the teivah message with 1 and 2 workers.
 *
 *   bench_parse [--runs N] [--corpus N] [--testdata DIR] [--tsv FILE]
 *               [--only main|regex|split] [--passes N] [--regex-max N] [--no-batch]
 *
 * For each corpus: a warm-up pass per parser, then --runs runs (at least 5)
 * in which every parser parses the corpus once in turn; per parser, the
 * median run (in thread CPU time; the wall-clock median is shown too) gives
 * ns/message, MB/s, messages/s, and malloc calls and bytes per message;
 * "vs main" is the median of each run's own ratio to main. The fastest run
 * is shown too: on a machine whose speed swings, it tells what the fast
 * spells give. malloc is counted by interposing malloc/calloc/realloc/free
 * in this program (glibc routes its own internal calls, regexec's included,
 * through them); the main parser's arena hooks are counted too. Every parser
 * parses every message on its own (the references have no message
 * boundaries), and a checksum of the view is compared across parsers. On the
 * generated corpus the regex reference parses only the first --regex-max
 * messages (default 10,000): at ~0.5 ms a message, 100,000 would take a minute
 * per run. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "adexp.h"
#include "adexp_batch.h"
#include "ref.h"

/* ---------------------------------------------------------------- malloc */

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);

static _Thread_local size_t n_alloc, n_bytes;

void *malloc(size_t size)
{
    n_alloc++;
    n_bytes += size;
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    n_alloc++;
    n_bytes += n * size;
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
    n_alloc++;
    n_bytes += size;
    return __libc_realloc(p, size);
}

void free(void *p)
{
    __libc_free(p);
}

static size_t hook_calls;

static void *count_alloc(void *ctx, size_t size)
{
    (void)ctx;
    hook_calls++;
    return malloc(size);
}

static void count_free(void *ctx, void *p, size_t size)
{
    (void)ctx;
    (void)size;
    free(p);
}

/* ---------------------------------------------------------------- corpora */

typedef struct corpus {
    const char *name;
    char *buf;
    size_t len;
    size_t *offs;              /* n + 1 message starts */
    size_t n;
    size_t passes;             /* the corpus is parsed this many times per run */
} corpus;

static double clock_s(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double now(void)
{
    return clock_s(CLOCK_MONOTONIC);
}

/* The parsers are timed in this thread's CPU time: on a shared machine the
 * wall clock also counts the time the thread waited for a CPU. */
static double cpu_now(void)
{
    return clock_s(CLOCK_THREAD_CPUTIME_ID);
}

static int push_off(corpus *c, size_t *cap, size_t off)
{
    if (c->n + 1 >= *cap) {
        size_t *no = realloc(c->offs, (*cap = *cap ? *cap * 2 : 256) * sizeof *no);
        if (!no)
            return -1;
        c->offs = no;
    }
    c->offs[c->n + 1] = off;
    return 0;
}

/* Append buf to c, split into messages by the main parser (each message from
 * its -TITLE to the byte before the next one). */
static int add_messages(corpus *c, size_t *cap, const char *buf, size_t len)
{
    adexp_parser *p = adexp_parser_new(NULL, NULL);
    adexp_arena arena;
    adexp_msg msg;
    if (!p)
        return -1;
    adexp_arena_init(&arena, NULL);
    char *nb = realloc(c->buf, c->len + len);
    if (!nb)
        return -1;
    c->buf = nb;
    memcpy(c->buf + c->len, buf, len);
    adexp_parser_reset(p, c->buf + c->len, len);
    while (adexp_parser_next(p, &arena, &msg) != ADEXP_END) {
        if (push_off(c, cap, c->len + msg.offset + msg.length))
            return -1;
        c->offs[c->n] = c->len + msg.offset;
        c->n++;
        adexp_arena_reset(&arena);
    }
    c->len += len;
    adexp_arena_free(&arena);
    adexp_parser_free(p);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

#include <dirent.h>

static int load_dir(corpus *c, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    char **names = NULL;
    size_t n = 0, cap = 0, ocap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l < 7 || strcmp(e->d_name + l - 6, ".adexp") != 0)
            continue;
        if (n == cap) {
            char **nn = realloc(names, (cap = cap ? cap * 2 : 128) * sizeof *nn);
            if (!nn)
                return -1;
            names = nn;
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    c->offs = malloc(sizeof *c->offs);
    c->offs[0] = 0;
    ocap = 1;
    for (size_t i = 0; i < n; i++) {
        char path[4096 + 256];
        size_t len;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        char *buf = ref_read_file(path, &len);
        if (buf && add_messages(c, &ocap, buf, len) != 0)
            return -1;
        free(buf);
        free(names[i]);
    }
    free(names);
    return c->n ? 0 : -1;
}

/* ---------------------------------------------------------------- parsers */

/* A checksum of what a view holds, to check every result. */
typedef struct sum {
    size_t rtepts, eetfir, speed, estdata, geo, arcid_len, title_len;
} sum;

static void sum_ref(sum *s, const ref_view *v)
{
    s->rtepts += v->n_rtepts;
    s->eetfir += v->eetfir.n;
    s->speed += v->speed.n;
    s->estdata += v->n_estdata;
    s->geo += v->n_geo;
    s->arcid_len += v->arcid ? strlen(v->arcid) : 0;
    s->title_len += v->title ? strlen(v->title) : 0;
}

static void sum_main(sum *s, const adexp_view *v)
{
    s->rtepts += v->n_rtepts;
    s->eetfir += v->eetfir.n;
    s->speed += v->speed.n;
    s->estdata += v->n_estdata;
    s->geo += v->n_geo;
    s->arcid_len += v->arcid.len;
    s->title_len += v->title.len;
}

enum { P_MAIN, P_SPLIT, P_REGEX, P_STREAM, NPARSERS };
static const char *const parser_names[NPARSERS] = {"main", "split", "regex", "main-stream"};

static adexp_parser *main_parser;
static adexp_arena main_arena;

/* One pass over the corpus with parser k. */
static int run_pass(int k, const corpus *c, sum *s)
{
    if (k == P_STREAM) {       /* one buffer, adexp_parser_next to the end */
        adexp_msg msg;
        adexp_parser_reset(main_parser, c->buf + c->offs[0], c->offs[c->n] - c->offs[0]);
        while (adexp_parser_next(main_parser, &main_arena, &msg) != ADEXP_END) {
            sum_main(s, &msg.view);
            adexp_arena_reset(&main_arena);
        }
        return 0;
    }
    for (size_t i = 0; i < c->n; i++) {
        const char *m = c->buf + c->offs[i];
        size_t ml = c->offs[i + 1] - c->offs[i];
        if (k == P_MAIN) {
            adexp_msg msg;
            adexp_parser_reset(main_parser, m, ml);
            adexp_parser_next(main_parser, &main_arena, &msg);
            sum_main(s, &msg.view);
            adexp_arena_reset(&main_arena);
        } else {
            ref_view v;
            int rc = (k == P_REGEX ? ref_regex_parse : ref_split_parse)(m, ml, &v);
            if (rc == 0)
                sum_ref(s, &v);
            ref_view_free(&v);
        }
    }
    return 0;
}

typedef struct result {
    double ns_per_msg, mb_s, msg_s, allocs, alloc_bytes, hook_allocs, wall_ns_per_msg;
    double best_ns_per_msg, best_mb_s;   /* the fastest run: the machine's fast spells */
    double vs_main;            /* median over the runs of its time / main's */
    sum check;
    int ran;
} result;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#define MAX_RUNS 101

static size_t regex_max = 10000;

/* The corpus parser k works on: the regex reference gets a prefix of a
 * large corpus (glibc's regexec is slow). */
static corpus corpus_for(int k, const corpus *c)
{
    corpus sub = *c;
    if (k == P_REGEX && c->n > regex_max)
        sub.n = regex_max;
    return sub;
}

/* Time the parsers in want[] side by side: after a warm-up pass each, run i
 * times every parser once in turn, so that load from other processes on a
 * shared machine falls on all of them alike; then take each one's median.
 * The ratio to main is the median of the runs' own ratios: when the machine's
 * speed drifts between runs, each ratio still compares times taken moments
 * apart. */
static void measure_all(const int *want, result *r, const corpus *c0, int runs)
{
    double t[NPARSERS][MAX_RUNS], w[NPARSERS][MAX_RUNS], per[NPARSERS][MAX_RUNS];
    size_t a[NPARSERS] = {0}, b[NPARSERS] = {0}, h[NPARSERS] = {0};
    for (int k = 0; k < NPARSERS; k++) {
        memset(&r[k], 0, sizeof r[k]);
        if (want[k]) {
            corpus c = corpus_for(k, c0);
            sum warm;
            memset(&warm, 0, sizeof warm);
            run_pass(k, &c, &warm);     /* caches, the arena's chunks, regcomp */
        }
    }
    for (int i = 0; i < runs; i++) {
        for (int k = 0; k < NPARSERS; k++) {
            if (!want[k])
                continue;
            corpus c = corpus_for(k, c0);
            size_t a0 = n_alloc, b0 = n_bytes, h0 = hook_calls;
            double t0 = cpu_now(), w0 = now();
            for (size_t p = 0; p < c.passes; p++) {
                memset(&r[k].check, 0, sizeof r[k].check);
                run_pass(k, &c, &r[k].check);
            }
            t[k][i] = cpu_now() - t0;
            w[k][i] = now() - w0;
            per[k][i] = t[k][i] / ((double)c.passes * (double)c.n);
            a[k] += n_alloc - a0;
            b[k] += n_bytes - b0;
            h[k] += hook_calls - h0;
        }
    }
    for (int k = 0; k < NPARSERS; k++) {
        if (!want[k])
            continue;
        corpus c = corpus_for(k, c0);
        size_t bytes = c.offs[c.n] - c.offs[0];
        double msgs = (double)c.n * (double)c.passes * runs;
        r[k].allocs = (double)a[k] / msgs;
        r[k].alloc_bytes = (double)b[k] / msgs;
        r[k].hook_allocs = (double)h[k] / msgs;
        if (want[P_MAIN]) {
            double q[MAX_RUNS];
            for (int i = 0; i < runs; i++)
                q[i] = per[k][i] / per[P_MAIN][i];
            qsort(q, (size_t)runs, sizeof q[0], cmp_double);
            r[k].vs_main = q[runs / 2];
        }
        qsort(t[k], (size_t)runs, sizeof t[k][0], cmp_double);
        qsort(w[k], (size_t)runs, sizeof w[k][0], cmp_double);
        double med = t[k][runs / 2] / (double)c.passes;
        r[k].wall_ns_per_msg = w[k][runs / 2] / (double)c.passes * 1e9 / (double)c.n;
        r[k].ns_per_msg = med * 1e9 / (double)c.n;
        r[k].mb_s = (double)bytes / med / 1e6;
        r[k].msg_s = (double)c.n / med;
        double best = t[k][0] / (double)c.passes;
        r[k].best_ns_per_msg = best * 1e9 / (double)c.n;
        r[k].best_mb_s = (double)bytes / best / 1e6;
        r[k].ran = 1;
    }
}

/* ---------------------------------------------------------------- batch */

/* copies buffers of the message in memory through the worker pool
 * (adexp_batch_add_buffer: no file system), summary format. Returns the
 * median wall seconds; *cpu gets the median CPU seconds of all threads. */
static double batch_time(const char *msg, size_t len, size_t copies, unsigned jobs,
                         int runs, adexp_batch_stats *st, double *cpu)
{
    double t[MAX_RUNS], c[MAX_RUNS];
    for (int i = 0; i < runs + 1; i++) {
        adexp_batch_options o = adexp_batch_options_default();
        o.jobs = jobs;
        o.format = ADEXP_BATCH_SUMMARY;
        o.out_fd = open("/dev/null", O_WRONLY);
        o.err_fd = o.out_fd;
        o.progress_fd = -1;
        adexp_batch *b = adexp_batch_new(&o);
        if (!b)
            return -1;
        for (size_t k = 0; k < copies; k++)
            if (adexp_batch_add_buffer(b, "teivah", msg, len) != 0)
                return -1;
        double t0 = now(), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
        adexp_batch_run(b, st);
        double dt = now() - t0, dc = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
        adexp_batch_free(b);
        close(o.out_fd);
        if (i > 0) {           /* run 0 is the warm-up */
            t[i - 1] = dt;
            c[i - 1] = dc;
        }
    }
    qsort(t, (size_t)runs, sizeof t[0], cmp_double);
    qsort(c, (size_t)runs, sizeof c[0], cmp_double);
    *cpu = c[runs / 2];
    return t[runs / 2];
}

static void bench_batch(const char *msg, size_t len, size_t copies, int runs, FILE *tsv)
{
    printf("\n## Batch driver: %zu in-memory copies of the teivah IFPL\n\n", copies);
    printf("| workers | median wall s | messages/s | MB/s | µs/message | median CPU s (all threads) |\n");
    printf("|---|---:|---:|---:|---:|---:|\n");
    for (unsigned jobs = 1; jobs <= 2; jobs++) {
        adexp_batch_stats st;
        memset(&st, 0, sizeof st);
        double cpu = 0, s = batch_time(msg, len, copies, jobs, runs, &st, &cpu);
        if (s <= 0 || st.messages != copies) {
            printf("| %u | failed (%llu messages) | | | | |\n", jobs,
                   (unsigned long long)st.messages);
            continue;
        }
        printf("| %u | %.4f | %.0f | %.1f | %.2f | %.4f |\n", jobs, s, (double)copies / s,
               (double)(copies * len) / s / 1e6, s * 1e6 / (double)copies, cpu);
        if (tsv)
            fprintf(tsv, "batch-%zu-buffers\tbatch-j%u\t%.1f\t%.1f\t%.0f\t0\t0\n", copies,
                    jobs, s * 1e9 / (double)copies, (double)(copies * len) / s / 1e6,
                    (double)copies / s);
    }
}

/* ---------------------------------------------------------------- main */

static int same_sum(const sum *a, const sum *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

static void report(corpus *c, int runs, int only, FILE *tsv)
{
    result r[NPARSERS];
    size_t bytes = c->offs[c->n] - c->offs[0];
    printf("\n## %s: %zu messages, %zu bytes (%.0f bytes/message), %zu pass(es) per run, "
           "median of %d runs\n\n", c->name, c->n, bytes, (double)bytes / (double)c->n,
           c->passes, runs);
    printf("| parser | ns/message | MB/s | messages/s | malloc calls/msg | malloc bytes/msg |"
           " vs main | wall ns/message | fastest run: ns/message, MB/s |\n"
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    int want[NPARSERS];
    for (int k = 0; k < NPARSERS; k++)
        want[k] = (only < 0 || k == only || (only == P_MAIN && k == P_STREAM)) &&
                  !(k == P_STREAM && c->n < 2);
    measure_all(want, r, c, runs);
    for (int k = 0; k < NPARSERS; k++) {
        if (!r[k].ran)
            continue;
        printf("| %s%s | %.0f | %.1f | %.0f | %.2f | %.0f | %.1fx | %.0f | %.0f, %.1f |\n",
               parser_names[k], k == P_REGEX && c->n > regex_max ? " (first messages only)" : "",
               r[k].ns_per_msg, r[k].mb_s, r[k].msg_s, r[k].allocs, r[k].alloc_bytes,
               r[P_MAIN].ran ? r[k].vs_main : 0.0, r[k].wall_ns_per_msg,
               r[k].best_ns_per_msg, r[k].best_mb_s);
        if (tsv)
            fprintf(tsv, "%s\t%s\t%.1f\t%.2f\t%.0f\t%.3f\t%.1f\n", c->name, parser_names[k],
                    r[k].ns_per_msg, r[k].mb_s, r[k].msg_s, r[k].allocs, r[k].alloc_bytes);
    }
    fflush(stdout);
    if (r[P_MAIN].ran)
        printf("\nmain parser: %.3f arena-hook allocations per message in steady state\n",
               r[P_MAIN].hook_allocs);
    /* check every result: view checksums over the messages all three parsed */
    corpus pre = *c;
    if (pre.n > regex_max)
        pre.n = regex_max;
    sum sm;
    memset(&sm, 0, sizeof sm);
    run_pass(P_MAIN, &pre, &sm);
    for (int k = P_SPLIT; k <= P_REGEX; k++) {
        if (!r[P_MAIN].ran || !r[k].ran)
            continue;
        sum sk;
        memset(&sk, 0, sizeof sk);
        run_pass(k, &pre, &sk);
        printf("check %s vs main: %s\n", parser_names[k],
               same_sum(&sk, &sm) ? "same view checksum"
                                  : "view checksums differ (inputs the references cannot handle)");
    }
}

int main(int argc, char **argv)
{
    int runs = 7, batch = 1, only = -1;
    size_t passes = 2000;      /* of the teivah message per run */
    size_t ncorpus = 100000;
    const char *testdata = getenv("ADEXP_TESTDATA");
    const char *tsv_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--corpus") == 0 && i + 1 < argc)
            ncorpus = (size_t)strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--testdata") == 0 && i + 1 < argc)
            testdata = argv[++i];
        else if (strcmp(argv[i], "--tsv") == 0 && i + 1 < argc)
            tsv_path = argv[++i];
        else if (strcmp(argv[i], "--passes") == 0 && i + 1 < argc)
            passes = (size_t)strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--regex-max") == 0 && i + 1 < argc)
            regex_max = (size_t)strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--no-batch") == 0)
            batch = 0;
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            const char *o = argv[++i];
            only = strcmp(o, "main") == 0 ? P_MAIN : strcmp(o, "split") == 0 ? P_SPLIT
                 : strcmp(o, "regex") == 0 ? P_REGEX : -1;
        } else {
            fprintf(stderr, "usage: %s [--runs N] [--corpus N] [--testdata DIR] [--tsv FILE]"
                    " [--only main|regex|split] [--passes N] [--regex-max N] [--no-batch]\n", argv[0]);
            return 2;
        }
    }
    if (runs < 5)
        runs = 5;
    if (runs > MAX_RUNS)
        runs = MAX_RUNS;
    if (!testdata)
        testdata = "testdata";
    FILE *tsv = tsv_path ? fopen(tsv_path, "w") : NULL;
    if (tsv)
        fprintf(tsv, "corpus\tparser\tns_per_msg\tmb_s\tmsg_s\tallocs_per_msg\tbytes_per_msg\n");

    adexp_allocator hooks = {count_alloc, count_free, NULL};
    main_parser = adexp_parser_new(NULL, &hooks);
    adexp_arena_init(&main_arena, &hooks);
    if (!main_parser)
        return 1;

    /* (a) the teivah IFPL */
    corpus a = {.name = "teivah IFPL", .passes = passes ? passes : 1};
    char path[4096];
    snprintf(path, sizeof path, "%s/messages/IFPL-teivah-1.adexp", testdata);
    char *teivah = ref_read_file(path, &a.len);
    if (!teivah) {
        printf("(%s not found: using the built-in copy)\n", path);
        a.len = ref_teivah_ifpl_len;
        teivah = malloc(a.len);
        memcpy(teivah, ref_teivah_ifpl, a.len);
    }
    a.buf = teivah;
    size_t two[2] = {0, a.len};
    a.offs = two;
    a.n = 1;
    printf("# bench_parse: %d runs, single thread\n", runs);
    report(&a, runs, only, tsv);

    /* (b) testdata/messages, split into messages */
    corpus b = {.name = "testdata/messages", .passes = 20};
    snprintf(path, sizeof path, "%s/messages", testdata);
    if (load_dir(&b, path) == 0)
        report(&b, runs, only, tsv);
    else
        printf("\n(no messages in %s)\n", path);

    /* (c) the generated corpus */
    corpus c = {.name = "generated", .passes = 1};
    if (ref_gen_corpus(20260101, ncorpus, &c.buf, &c.len, &c.offs) != 0)
        return 1;
    c.n = ncorpus;
    report(&c, runs, only, tsv);

    if (batch)
        bench_batch(a.buf, a.len, 5000, runs, tsv);

    adexp_parser_free(main_parser);
    adexp_arena_free(&main_arena);
    free(teivah);
    free(b.buf);
    free(b.offs);
    free(c.buf);
    free(c.offs);
    if (tsv)
        fclose(tsv);
    return 0;
}

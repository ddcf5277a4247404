/* jemalloc_stats: the allocations of each parser per message, as jemalloc's
 * own statistics count them, on the teivah IFPL and on a generated corpus.
 *
 *   jemalloc_stats [--corpus N] [--passes N] [--regex-max N]
 *
 * The program is linked with jemalloc, and the main parser gets no hooks: its
 * parser and arena take memory with malloc, that is from jemalloc. Each
 * parser makes a warm-up pass over a corpus, then a measured pass between two
 * readings of jemalloc's counters:
 * - calls: stats.arenas.<all>.small.nrequests + large.nrequests, after
 *   thread.tcache.flush (requests served by the thread's cache are counted
 *   only once it is flushed) and an epoch refresh;
 * - bytes: thread.allocated, this thread's bytes allocated.
 * Exit status 1 if the main parser allocates in steady state (its calls or
 * bytes are not zero), if a reference parser shows no allocation (then the
 * counters would not see malloc), or if malloc is not jemalloc's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jemalloc/jemalloc.h>

#include "adexp.h"
#include "ref.h"

typedef struct counters {
    uint64_t calls, bytes;
} counters;

static int read_u64(const char *name, uint64_t *v)
{
    size_t sz = sizeof *v;
    return mallctl(name, v, &sz, NULL, 0);
}

static int read_counters(counters *c)
{
    char small[96], large[96];
    uint64_t epoch = 1, s = 0, l = 0;
    size_t sz = sizeof epoch;
    snprintf(small, sizeof small, "stats.arenas.%u.small.nrequests", (unsigned)MALLCTL_ARENAS_ALL);
    snprintf(large, sizeof large, "stats.arenas.%u.large.nrequests", (unsigned)MALLCTL_ARENAS_ALL);
    if (mallctl("thread.tcache.flush", NULL, NULL, NULL, 0) != 0 ||
        mallctl("epoch", &epoch, &sz, &epoch, sz) != 0 || read_u64(small, &s) != 0 ||
        read_u64(large, &l) != 0 || read_u64("thread.allocated", &c->bytes) != 0)
        return -1;
    c->calls = s + l;
    return 0;
}

typedef struct corpus {
    const char *name;
    const char *buf;
    const size_t *offs;        /* n + 1 message starts */
    size_t n, passes;
} corpus;

enum { P_MAIN, P_STREAM, P_SPLIT, P_REGEX, NPARSERS };
static const char *const names[NPARSERS] = {"main", "main-stream", "split", "regex"};

static adexp_parser *main_parser;
static adexp_arena main_arena;
static size_t regex_max = 1000;

/* One pass of parser k over c; returns the messages parsed. */
static size_t run_pass(int k, const corpus *c)
{
    size_t n = k == P_REGEX && c->n > regex_max ? regex_max : c->n, msgs = 0;
    for (size_t pass = 0; pass < c->passes; pass++) {
        if (k == P_STREAM) {
            adexp_msg msg;
            adexp_parser_reset(main_parser, c->buf, c->offs[c->n]);
            while (adexp_parser_next(main_parser, &main_arena, &msg) != ADEXP_END) {
                adexp_arena_reset(&main_arena);
                msgs++;
            }
            continue;
        }
        for (size_t i = 0; i < n; i++, msgs++) {
            const char *m = c->buf + c->offs[i];
            size_t ml = c->offs[i + 1] - c->offs[i];
            if (k == P_MAIN) {
                adexp_msg msg;
                adexp_parser_reset(main_parser, m, ml);
                adexp_parser_next(main_parser, &main_arena, &msg);
                adexp_arena_reset(&main_arena);
            } else {
                ref_view v;
                (k == P_SPLIT ? ref_split_parse : ref_regex_parse)(m, ml, &v);
                ref_view_free(&v);
            }
        }
    }
    return msgs;
}

/* The table rows for c; returns the number of failed checks. */
static int report(const corpus *c)
{
    int failed = 0;
    printf("\n## %s: %zu message(s), %zu pass(es)\n\n", c->name, c->n, c->passes);
    printf("| parser | messages | malloc calls/msg | bytes/msg |\n|---|---:|---:|---:|\n");
    for (int k = 0; k < NPARSERS; k++) {
        counters a, b;
        run_pass(k, c);                        /* warm-up */
        if (read_counters(&a) != 0)
            return 1;
        size_t msgs = run_pass(k, c);
        if (read_counters(&b) != 0 || msgs == 0)
            return 1;
        uint64_t calls = b.calls - a.calls, bytes = b.bytes - a.bytes;
        printf("| %s | %zu | %.2f | %.0f |\n", names[k], msgs, (double)calls / (double)msgs,
               (double)bytes / (double)msgs);
        int is_main = k == P_MAIN || k == P_STREAM;
        if (is_main ? calls || bytes : !calls || !bytes) {
            printf("FAILED: %s %s in steady state\n", names[k],
                   is_main ? "allocates" : "shows no allocation");
            failed++;
        }
    }
    return failed;
}

int main(int argc, char **argv)
{
    size_t ncorpus = 10000, passes = 1000;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--corpus") == 0 && i + 1 < argc)
            ncorpus = (size_t)strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--passes") == 0 && i + 1 < argc)
            passes = (size_t)strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--regex-max") == 0 && i + 1 < argc)
            regex_max = (size_t)strtoull(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: %s [--corpus N] [--passes N] [--regex-max N]\n", argv[0]);
            return 2;
        }
    }
    if (ncorpus == 0 || passes == 0 || regex_max == 0) {
        fprintf(stderr, "%s: --corpus, --passes and --regex-max must be at least 1\n", argv[0]);
        return 2;
    }
    const char *version = NULL;
    size_t sz = sizeof version;
    counters a, b;
    if (mallctl("version", &version, &sz, NULL, 0) != 0 || read_counters(&a) != 0) {
        puts("jemalloc's statistics cannot be read");
        return 1;
    }
    void *volatile probe = malloc(1 << 16);
    read_counters(&b);
    free(probe);
    if (b.bytes - a.bytes < (1u << 16) || b.calls == a.calls) {
        puts("malloc() is not served by jemalloc");
        return 1;
    }
    printf("# jemalloc_stats: jemalloc %s, single thread\n", version);

    main_parser = adexp_parser_new(NULL, NULL);       /* malloc: jemalloc's */
    adexp_arena_init(&main_arena, NULL);
    if (!main_parser)
        return 1;
    size_t two[2] = {0, ref_teivah_ifpl_len};
    corpus t = {"teivah IFPL", ref_teivah_ifpl, two, 1, passes};
    int failed = report(&t);

    char *buf;
    size_t len, *offs;
    if (ref_gen_corpus(20260101, ncorpus, &buf, &len, &offs) != 0)
        return 1;
    corpus g = {"generated", buf, offs, ncorpus, 1};
    failed += report(&g);

    printf("\n%d passed, %d failed\n", 2 * NPARSERS - failed, failed);
    free(buf);
    free(offs);
    adexp_arena_free(&main_arena);
    adexp_parser_free(main_parser);
    return failed ? 1 : 0;
}

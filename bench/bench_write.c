/* bench_write: what writing a parsed message costs, as ADEXP (adexp_write,
 * line and IFPS layouts, values kept or folded, and with verify) against
 * JSON (adexp_json_write), on the same trees. The corpus is parsed once and
 * its trees kept; each writer then writes every message into a buffer that
 * is emptied per pass, so that only the writing is timed. The writers run
 * by turns, pass after pass, so that all see the same machine speed.
 *
 * usage: bench_write [--corpus N] [--runs K] [--only NAME [--passes P]]
 * Prints per writer the median of K passes: ns per message, output MB/s,
 * output bytes per message, and the ratio to JSON. --only NAME runs a single
 * writer once (json, line, line-fold, ifps, ifps-fold, verify), for
 * valgrind --tool=callgrind instruction counts; --passes P runs it P times
 * (the count of P passes less that of one is P - 1 passes without the
 * output buffer's first growth, which --only pays once). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adexp.h"
#include "ref.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

typedef struct writer {
    const char *name;
    int json;
    adexp_write_options o;
} writer;

/* One pass of writer w over the n messages; returns the bytes written. */
static size_t pass(const writer *w, const adexp_msg *msgs, size_t n, adexp_buf *out)
{
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++) {
        adexp_status st = w->json ? adexp_json_write(out, &msgs[i], "bench")
                                  : adexp_write(out, &msgs[i], &w->o, NULL);
        if (st != ADEXP_OK) {
            fprintf(stderr, "bench_write: %s failed on message %zu: %s\n", w->name, i,
                    adexp_status_name(st));
            exit(1);
        }
        if (out->len > (1u << 20)) {   /* a writer's usual block */
            bytes += out->len;
            out->len = 0;
        }
    }
    bytes += out->len;
    out->len = 0;
    return bytes;
}

int main(int argc, char **argv)
{
    size_t n = 20000;
    int runs = 9;
    const char *only = NULL;
    int passes = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--corpus") == 0)
            n = strtoul(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--runs") == 0)
            runs = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--only") == 0)
            only = argv[i + 1];
        else if (strcmp(argv[i], "--passes") == 0)
            passes = atoi(argv[i + 1]);
    }
    if (runs < 1 || runs > 99)
        runs = 9;
    char *buf;
    size_t len, *offs;
    if (ref_gen_corpus(11, n, &buf, &len, &offs) != 0)
        return 1;
    adexp_arena arena;
    adexp_arena_init(&arena, NULL);
    adexp_parser *p = adexp_parser_new(NULL, NULL);
    adexp_msg *msgs = malloc(n * sizeof *msgs);
    if (!p || !msgs)
        return 1;
    adexp_parser_reset(p, buf, len);
    size_t got = 0;
    while (got < n && adexp_parser_next(p, &arena, &msgs[got]) == ADEXP_OK)
        got++;                          /* the arena is not reset: all trees kept */

    writer ws[6] = {
        {"json", 1, adexp_write_options_default()},
        {"line", 0, adexp_write_options_default()},
        {"line-fold", 0, adexp_write_options_default()},
        {"ifps", 0, adexp_write_options_default()},
        {"ifps-fold", 0, adexp_write_options_default()},
        {"verify", 0, adexp_write_options_default()},
    };
    ws[2].o.fold = ws[4].o.fold = 1;
    ws[3].o.layout = ws[4].o.layout = ADEXP_LAYOUT_IFPS;
    ws[5].o.verify = 1;
    int nw = 6;
    adexp_buf out;
    adexp_buf_init(&out, NULL);
    if (only) {
        for (int i = 0; i < nw; i++)
            if (strcmp(ws[i].name, only) == 0)
                for (int k = 0; k < passes; k++)
                    printf("%s: %zu messages, %zu bytes\n", only, got,
                           pass(&ws[i], msgs, got, &out));
        return 0;
    }
    double t[6][99];
    size_t bytes[6] = {0};
    for (int r = 0; r < runs; r++)
        for (int i = 0; i < nw; i++) {
            double t0 = now();
            bytes[i] = pass(&ws[i], msgs, got, &out);
            t[i][r] = now() - t0;
        }
    printf("%zu generated messages, %zu bytes of ADEXP in; median of %d passes by turns\n",
           got, len, runs);
    printf("%-10s %12s %10s %14s %9s\n", "writer", "ns/message", "MB/s out", "bytes/message",
           "vs json");
    double json = 0;
    for (int i = 0; i < nw; i++) {
        double m = median(t[i], runs);
        if (i == 0)
            json = m;
        printf("%-10s %12.1f %10.1f %14.1f %9.2f\n", ws[i].name, m * 1e9 / (double)got,
               (double)bytes[i] / m / 1e6, (double)bytes[i] / (double)got, m / json);
    }
    adexp_buf_free(&out);
    adexp_parser_free(p);
    adexp_arena_free(&arena);
    free(msgs);
    free(buf);
    free(offs);
    return 0;
}

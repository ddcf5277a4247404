/* bench_validate: what validation costs next to the parse of the same
 * messages, side by side in one run, single thread, on (a) the teivah IFPL,
 * (b) the valid IFPL of testdata/validate, (c) a generated corpus. Each run
 * parses the corpus once (P) and parses and validates it once (PV), in
 * turns; the report gives the medians of P and of PV - P in ns/message and
 * the median of each run's ratio (PV - P) / P, which issue 20 wants at most
 * 0.5.
 *
 *   bench_validate [--runs N] [--corpus N] [--valid FILE]
 *                  [--only load|parse|validate [--file FILE] [--passes N]]
 *                  [--dump FILE]
 *
 * --only runs one pass of one kind over the generated corpus (or 1000 over
 * FILE, or N with --passes) and nothing else, for instruction counts under callgrind:
 * validate's Ir minus parse's is validation's, parse's minus load's is the
 * parse's. --dump writes the generated corpus to FILE and stops (for
 * `adexp-parse --validate` on the same messages). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adexp.h"
#include "ref.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static size_t findings_seen;

/* One pass over buf: parse every message, and validate it when asked. */
static size_t pass(adexp_parser *p, adexp_arena *a, const char *buf, size_t len, int validate)
{
    adexp_msg m;
    adexp_findings f;
    adexp_findings_init(&f);
    size_t n = 0;
    adexp_parser_reset(p, buf, len);
    while (adexp_parser_next(p, a, &m) != ADEXP_END) {
        if (validate) {
            adexp_validate(&m, a, &f);
            findings_seen += f.n;
        }
        adexp_arena_reset(a);
        n++;
    }
    return n;
}

static int cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void bench(const char *name, const char *buf, size_t len, int runs, int reps)
{
    adexp_parser *p = adexp_parser_new(NULL, NULL);
    adexp_arena a;
    adexp_arena_init(&a, NULL);
    double *tp = malloc(sizeof(double) * (size_t)runs), *tv = malloc(sizeof(double) * (size_t)runs),
           *ratio = malloc(sizeof(double) * (size_t)runs);
    size_t msgs = 0;
    findings_seen = 0;
    pass(p, &a, buf, len, 1);                  /* warm-up */
    for (int r = 0; r < runs; r++) {
        double t0 = now();
        for (int i = 0; i < reps; i++)
            msgs = pass(p, &a, buf, len, 0);
        double t1 = now();
        for (int i = 0; i < reps; i++)
            pass(p, &a, buf, len, 1);
        double t2 = now();
        tp[r] = (t1 - t0) / (double)(msgs * (size_t)reps) * 1e9;
        tv[r] = ((t2 - t1) - (t1 - t0)) / (double)(msgs * (size_t)reps) * 1e9;
        ratio[r] = ((t2 - t1) - (t1 - t0)) / (t1 - t0);
    }
    printf("%-22s %8zu msgs  parse %8.0f ns/msg  validate %8.0f ns/msg  "
           "validate/parse %.2f  (%zu findings/pass)\n",
           name, msgs, median(tp, runs), median(tv, runs), median(ratio, runs),
           findings_seen / (size_t)(1 + runs * reps));
    free(tp), free(tv), free(ratio);
    adexp_arena_free(&a);
    adexp_parser_free(p);
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    *len = fread(b, 1, (size_t)n, f);
    fclose(f);
    return b;
}

int main(int argc, char **argv)
{
    int runs = 11;
    size_t corpus = 20000;
    const char *only = NULL, *valid = "testdata/validate/ifpl-valid.adexp", *file = NULL,
               *dump = NULL;
    int passes = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--corpus") == 0 && i + 1 < argc)
            corpus = (size_t)atol(argv[++i]);
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--valid") == 0 && i + 1 < argc)
            valid = argv[++i];
        else if (strcmp(argv[i], "--file") == 0 && i + 1 < argc)
            file = argv[++i];
        else if (strcmp(argv[i], "--dump") == 0 && i + 1 < argc)
            dump = argv[++i];
        else if (strcmp(argv[i], "--passes") == 0 && i + 1 < argc)
            passes = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_validate [--runs N] [--corpus N] "
                            "[--only load|parse|validate [--file FILE] [--passes N]] "
                            "[--valid FILE] [--dump FILE]\n");
            return 2;
        }
    }
    char *gen;
    size_t gen_len, *offs;
    if (ref_gen_corpus(42, corpus, &gen, &gen_len, &offs) != 0)
        return 1;
    if (dump) {
        FILE *f = fopen(dump, "wb");
        int bad = !f || fwrite(gen, 1, gen_len, f) != gen_len;
        if (f && fclose(f) != 0)
            bad = 1;
        free(gen);
        free(offs);
        return bad;
    }
    if (only) {
        adexp_parser *p = adexp_parser_new(NULL, NULL);
        adexp_arena a;
        adexp_arena_init(&a, NULL);
        size_t flen = 0;
        char *fbuf = file ? read_file(file, &flen) : NULL;
        if (passes <= 0)
            passes = fbuf ? 1000 : 1;
        for (int i = 0; i < passes && strcmp(only, "load") != 0; i++)
            pass(p, &a, fbuf ? fbuf : gen, fbuf ? flen : gen_len,
                 strcmp(only, "validate") == 0);
        free(fbuf);
        printf("%s: %zu findings\n", only, findings_seen);
        adexp_arena_free(&a);
        adexp_parser_free(p);
    } else {
        if (runs < 5)
            runs = 5;
        bench("teivah IFPL", ref_teivah_ifpl, ref_teivah_ifpl_len, runs, 2000);
        size_t vlen;
        char *v = read_file(valid, &vlen);
        if (v)
            bench("testdata valid IFPL", v, vlen, runs, 2000);
        free(v);
        bench("generated corpus", gen, gen_len, runs, 1);
    }
    free(gen);
    free(offs);
    return 0;
}

/* bench_order: what the variety of a corpus costs the main parser. The same
 * generated messages, one per reset, parsed in two orders: the corpus's own
 * (each message unlike the one before), and each message REPEAT times in a
 * row, so that the CPU's branch predictors have learnt it (and its bytes
 * and nodes are in the nearest caches). Same messages, same instructions;
 * the ratio is the share of the time that goes to the messages' variety.
 *
 * usage: bench_order [--corpus N] [--repeat R] [--runs K]
 * Prints the median of K runs of each order (run by turns) and the median of
 * the runs' own ratios. */
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

typedef struct corpus {
    const char *buf;
    const size_t *offs;
    size_t n;
} corpus;

typedef struct parser_state {
    adexp_parser *p;
    adexp_arena arena;
    size_t fields;             /* summed, so that no parse is optimized away */
} parser_state;

static void parse_one(parser_state *s, const corpus *c, size_t i)
{
    adexp_msg m;
    adexp_arena_reset(&s->arena);
    adexp_parser_reset(s->p, c->buf + c->offs[i], c->offs[i + 1] - c->offs[i]);
    if (adexp_parser_next(s->p, &s->arena, &m) == ADEXP_OK)
        s->fields += m.nfields;
}

/* Seconds for each message repeat times: in the corpus's order (the whole
 * corpus repeat times), or each message repeat times in a row. */
static double time_order(parser_state *s, const corpus *c, int repeat, int in_a_row)
{
    double t0 = now();
    if (in_a_row) {
        for (size_t i = 0; i < c->n; i++)
            for (int r = 0; r < repeat; r++)
                parse_one(s, c, i);
    } else {
        for (int r = 0; r < repeat; r++)
            for (size_t i = 0; i < c->n; i++)
                parse_one(s, c, i);
    }
    return now() - t0;
}

static void usage(const char *prog)
{
    fprintf(stderr, "usage: %s [--corpus N] [--repeat R] [--runs K (1 to 99)]\n", prog);
    exit(2);
}

int main(int argc, char **argv)
{
    int ncorpus = 2000, repeat = 20, runs = 9;
    for (int i = 1; i < argc; i += 2) {
        int *opt = strcmp(argv[i], "--corpus") == 0   ? &ncorpus
                   : strcmp(argv[i], "--repeat") == 0 ? &repeat
                   : strcmp(argv[i], "--runs") == 0   ? &runs
                                                      : NULL;
        if (!opt || i + 1 >= argc)
            usage(argv[0]);
        *opt = atoi(argv[i + 1]);
    }
    if (ncorpus < 1 || repeat < 1 || runs < 1 || runs > 99)
        usage(argv[0]);
    char *buf;
    size_t len, *offs;
    if (ref_gen_corpus(20260101, (size_t)ncorpus, &buf, &len, &offs) != 0) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        return 1;
    }
    corpus c = {buf, offs, (size_t)ncorpus};
    parser_state s = {.p = adexp_parser_new(NULL, NULL)};
    if (!s.p) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        return 1;
    }
    adexp_arena_init(&s.arena, NULL);
    time_order(&s, &c, 1, 0);  /* warm-up */
    double seq[99], row[99], ratio[99], msgs = (double)c.n * repeat;
    for (int k = 0; k < runs; k++) {
        seq[k] = time_order(&s, &c, repeat, 0);
        row[k] = time_order(&s, &c, repeat, 1);
        ratio[k] = row[k] / seq[k];
    }
    printf("generated corpus: %zu messages, %zu bytes, each parsed %d times, median of %d runs\n",
           c.n, len, repeat, runs);
    printf("in the corpus's order:  %.0f ns/message\n", median(seq, runs) / msgs * 1e9);
    printf("each message in a row:  %.0f ns/message\n", median(row, runs) / msgs * 1e9);
    printf("in a row / in order:    %.3f (median of the runs' ratios)\n", median(ratio, runs));
    printf("(fields parsed: %zu)\n", s.fields);
    adexp_arena_free(&s.arena);
    adexp_parser_free(s.p);
    free(buf);
    free(offs);
    return 0;
}

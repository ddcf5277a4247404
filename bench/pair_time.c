/* pair_time: the main parser's time per message on the teivah IFPL and on
 * 2,000 generated messages (ref_gen_corpus, seed 20260101, the benchmark's
 * generator), each message parsed as bench_parse's main row does it
 * (adexp_parser_reset + adexp_parser_next), in thread CPU time, best of 7
 * rounds. It prints the two times on one line, for compare_builds.sh, which
 * alternates two builds of it so that both see the same machine speed.
 *
 * usage: pair_time TEIVAH_FILE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adexp.h"
#include "ref.h"

static double cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* Best of 7 rounds of reps passes over the n messages at offs, ns each. */
static double time_messages(const char *buf, const size_t *offs, size_t n, int reps)
{
    adexp_arena arena;
    adexp_arena_init(&arena, NULL);
    adexp_parser *p = adexp_parser_new(NULL, NULL);
    if (!p) {
        fprintf(stderr, "pair_time: out of memory\n");
        exit(1);
    }
    double best = 0;
    for (int round = 0; round < 7; round++) {
        double t0 = cpu_ns();
        for (int r = 0; r < reps; r++)
            for (size_t i = 0; i < n; i++) {
                adexp_msg msg;
                adexp_parser_reset(p, buf + offs[i], offs[i + 1] - offs[i]);
                adexp_parser_next(p, &arena, &msg);
                adexp_arena_reset(&arena);
            }
        double dt = cpu_ns() - t0;
        if (round == 0 || dt < best)
            best = dt;
    }
    adexp_parser_free(p);
    adexp_arena_free(&arena);
    return best / ((double)reps * (double)n);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: pair_time TEIVAH_FILE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    static char teivah[1 << 16];
    size_t tlen = f ? fread(teivah, 1, sizeof teivah, f) : 0;
    if (!f || tlen == 0 || tlen == sizeof teivah) {
        fprintf(stderr, "pair_time: cannot read %s\n", argv[1]);
        return 1;
    }
    fclose(f);
    size_t toffs[2] = {0, tlen};
    char *gen;
    size_t glen, *goffs;
    if (ref_gen_corpus(20260101, 2000, &gen, &glen, &goffs) != 0) {
        fprintf(stderr, "pair_time: out of memory\n");
        return 1;
    }
    printf("%.1f %.1f\n", time_messages(teivah, toffs, 1, 3000),
           time_messages(gen, goffs, 2000, 3));
    free(gen);
    free(goffs);
    return 0;
}

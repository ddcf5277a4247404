/* bench_file: the parse of one file in memory, as adexp-parse's driver would
 * read it (one reset, adexp_parser_next to the end, the title-only view),
 * without the driver, the output or the file's reading in the count.
 *
 *   usage: bench_file FILE [PASSES] [--full-view]
 *
 * Prints the messages and bytes of a pass and, over PASSES passes (default
 * 5; 0: only the file is read), the median and best thread CPU time of one
 * as MB/s. Under callgrind, the Ir of PASSES=1 less those of PASSES=0 are
 * the parse's (bench/RESULTS.md, "Real traffic on the fast path"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adexp.h"
#include "ref.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One pass over buf: the messages it holds. */
static size_t parse_all(adexp_parser *p, adexp_arena *arena, const char *buf, size_t len)
{
    size_t n = 0;
    adexp_msg msg;
    adexp_parser_reset(p, buf, len);
    while (adexp_parser_next(p, arena, &msg) != ADEXP_END) {
        n++;
        adexp_arena_reset(arena);
    }
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE [PASSES] [--full-view]\n", argv[0]);
        return 2;
    }
    int passes = argc > 2 ? atoi(argv[2]) : 5;
    adexp_options o = adexp_options_default();
    o.view_title_only = !(argc > 3 && strcmp(argv[3], "--full-view") == 0);
    size_t len;
    char *buf = ref_read_file(argv[1], &len);
    if (!buf) {
        fprintf(stderr, "bench_file: cannot read %s\n", argv[1]);
        return 1;
    }
    adexp_parser *p = adexp_parser_new(&o, NULL);
    adexp_arena arena;
    adexp_arena_init(&arena, NULL);
    double *t = calloc(passes > 0 ? (size_t)passes : 1, sizeof *t);
    size_t msgs = 0;
    for (int i = 0; i < passes; i++) {
        double t0 = cpu_now();
        msgs = parse_all(p, &arena, buf, len);
        t[i] = cpu_now() - t0;
    }
    printf("%zu messages, %zu bytes a pass\n", msgs, len);
    if (passes > 0) {
        qsort(t, (size_t)passes, sizeof *t, cmp_double);
        printf("median %.1f MB/s, best %.1f MB/s (thread CPU time, %d passes)\n",
               (double)len / t[passes / 2] / 1e6, (double)len / t[0] / 1e6, passes);
    }
    free(t);
    adexp_arena_free(&arena);
    adexp_parser_free(p);
    free(buf);
    return 0;
}

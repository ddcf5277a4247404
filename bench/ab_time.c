/* ab_time: two builds of the parser timed against each other in one
 * process, on the teivah IFPL and on 2,000 generated messages
 * (ref_gen_corpus, seed 20260101, the benchmark's generator). Each message
 * is parsed as bench_parse's main row does it (adexp_parser_reset +
 * adexp_parser_next).
 *
 * compare_builds.sh links it with both builds' libadexp.a, their global
 * symbols renamed A_... (the old build) and B_... (the new one). The two
 * take turns on chunks of about 50 µs of work, the first of each pair in
 * turn, so that both see the same machine speed even where it changes
 * within milliseconds; what is reported is the median of the chunks'
 * new/old time ratios, with its quartiles.
 *
 *   usage: ab_time TEIVAH_FILE [ROUNDS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adexp.h"
#include "ref.h"

#define BUILD_API(P)                                                                   \
    void P##adexp_arena_init(adexp_arena *arena, const adexp_allocator *hooks);        \
    void P##adexp_arena_reset(adexp_arena *arena);                                     \
    adexp_parser *P##adexp_parser_new(const adexp_options *opts,                       \
                                      const adexp_allocator *hooks);                   \
    void P##adexp_parser_reset(adexp_parser *p, const char *buf, size_t len);          \
    adexp_status P##adexp_parser_next(adexp_parser *p, adexp_arena *arena, adexp_msg *msg);
BUILD_API(A_)
BUILD_API(B_)

typedef struct build {
    adexp_parser *p;
    adexp_arena arena;
    size_t fields;             /* a checksum: both builds must agree */
} build;

typedef struct corpus {
    const char *name;
    const char *buf;
    const size_t *offs;        /* n + 1 message starts */
    size_t n, reps;            /* reps passes over the n messages make a chunk */
} corpus;

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* One chunk of messages [lo, hi) with build A (old) or B (new); its time. */
#define CHUNK(P, b, c, lo, hi)                                                         \
    do {                                                                               \
        for (size_t r = 0; r < (c)->reps; r++)                                         \
            for (size_t i = (lo); i < (hi); i++) {                                     \
                adexp_msg m;                                                           \
                P##adexp_arena_reset(&(b)->arena);                                     \
                P##adexp_parser_reset((b)->p, (c)->buf + (c)->offs[i],                 \
                                      (c)->offs[i + 1] - (c)->offs[i]);                \
                if (P##adexp_parser_next((b)->p, &(b)->arena, &m) == ADEXP_OK)         \
                    (b)->fields += m.nfields;                                          \
            }                                                                          \
    } while (0)

static double chunk_old(build *b, const corpus *c, size_t lo, size_t hi)
{
    double t0 = now_ns();
    CHUNK(A_, b, c, lo, hi);
    return now_ns() - t0;
}

static double chunk_new(build *b, const corpus *c, size_t lo, size_t hi)
{
    double t0 = now_ns();
    CHUNK(B_, b, c, lo, hi);
    return now_ns() - t0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int compare(const corpus *c, size_t per_chunk, int rounds, build *a, build *b)
{
    size_t chunks = (c->n + per_chunk - 1) / per_chunk, nr = 0;
    double *ratio = malloc(sizeof *ratio * chunks * (size_t)rounds), told = 0, tnew = 0;
    if (!ratio)
        return 1;
    chunk_old(a, c, 0, c->n);                  /* warm-up */
    chunk_new(b, c, 0, c->n);
    a->fields = b->fields = 0;
    for (int r = 0; r < rounds; r++)
        for (size_t k = 0; k < chunks; k++) {
            size_t lo = k * per_chunk, hi = lo + per_chunk < c->n ? lo + per_chunk : c->n;
            double o, n;
            if ((r + k) & 1) {
                o = chunk_old(a, c, lo, hi);
                n = chunk_new(b, c, lo, hi);
            } else {
                n = chunk_new(b, c, lo, hi);
                o = chunk_old(a, c, lo, hi);
            }
            ratio[nr++] = n / o;
            told += o;
            tnew += n;
        }
    qsort(ratio, nr, sizeof *ratio, cmp_double);
    double msgs = (double)c->n * (double)c->reps * rounds;
    printf("%s: old %.0f ns, new %.0f ns a message (means); new/old median %.3f "
           "(quartiles %.3f to %.3f, %zu chunks)%s\n",
           c->name, told / msgs, tnew / msgs, ratio[nr / 2], ratio[nr / 4], ratio[3 * nr / 4],
           nr, a->fields == b->fields ? "" : "; the builds' messages DIFFER");
    free(ratio);
    return a->fields != b->fields;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s TEIVAH_FILE [ROUNDS]\n", argv[0]);
        return 2;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 20;
    if (rounds < 1)
        rounds = 1;
    size_t tlen;
    char *teivah = ref_read_file(argv[1], &tlen);
    if (!teivah) {
        fprintf(stderr, "ab_time: cannot read %s\n", argv[1]);
        return 1;
    }
    build a = {A_adexp_parser_new(NULL, NULL), {0}, 0};
    build b = {B_adexp_parser_new(NULL, NULL), {0}, 0};
    if (!a.p || !b.p)
        return 1;
    A_adexp_arena_init(&a.arena, NULL);
    B_adexp_arena_init(&b.arena, NULL);

    size_t two[2] = {0, tlen};
    corpus t = {"teivah IFPL", teivah, two, 1, 40};
    int failed = compare(&t, 1, rounds * 50, &a, &b);

    char *gbuf;
    size_t glen, *goffs;
    if (ref_gen_corpus(20260101, 2000, &gbuf, &glen, &goffs) != 0)
        return 1;
    corpus g = {"generated", gbuf, goffs, 2000, 1};
    failed |= compare(&g, 40, rounds, &a, &b);
    return failed;
}

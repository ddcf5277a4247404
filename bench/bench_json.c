/* bench_json: the library's parse alone against parse + adexp_json_write,
 * in memory, single thread, on the messages of each FILE (split into
 * messages by the parser; each message then parsed on its own, as
 * bench_parse's main row does).
 *
 *   bench_json [--rounds N] FILE...        time both, side by side
 *   bench_json --only parse|json [--passes N] FILE...
 *                                          one of the two, N passes (for
 *                                          valgrind --tool=callgrind)
 *
 * Timing: the two modes take turns on chunks of about 50 us of work, the
 * first of each pair in turn, so that both see the same machine speed; per
 * FILE it prints the median over the chunks of the ns a message of each
 * (and their means, which a busy machine's pauses inflate), the JSON
 * writer's MB/s (from the medians' difference) and the median over the
 * chunks of json/parse, the ratio the target is about (at most 1),
 * with its quartiles. The JSON line
 * is written into a buffer emptied before each message, as the CLI's workers
 * write one message's line after another into theirs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adexp.h"
#include "ref.h"

typedef struct corpus {
    const char *name;
    char *buf;
    size_t *offs;              /* n + 1 message starts */
    size_t n;
} corpus;

static adexp_parser *parser;
static adexp_arena arena;
static adexp_buf out;
static size_t fields, json_bytes;  /* checksums, so that nothing is optimised out */

static int load(corpus *c, const char *path)
{
    size_t len, cap = 256;
    c->name = path;
    c->buf = ref_read_file(path, &len);
    c->offs = malloc(cap * sizeof *c->offs);
    c->n = 0;
    if (!c->buf || !c->offs)
        return -1;
    adexp_msg m;
    adexp_parser_reset(parser, c->buf, len);
    while (adexp_parser_next(parser, &arena, &m) != ADEXP_END) {
        if (c->n + 2 > cap) {
            size_t *no = realloc(c->offs, (cap *= 2) * sizeof *no);
            if (!no)
                return -1;
            c->offs = no;
        }
        c->offs[c->n++] = m.offset;
        c->offs[c->n] = m.offset + m.length;
        adexp_arena_reset(&arena);
    }
    return c->n ? 0 : -1;
}

/* Messages [lo, hi) of c, parsed, and written as JSON if json. */
static void work(const corpus *c, size_t lo, size_t hi, int json)
{
    for (size_t i = lo; i < hi; i++) {
        adexp_msg m;
        adexp_arena_reset(&arena);
        adexp_parser_reset(parser, c->buf + c->offs[i], c->offs[i + 1] - c->offs[i]);
        if (adexp_parser_next(parser, &arena, &m) == ADEXP_END)
            continue;
        fields += m.nfields;
        if (json) {
            out.len = 0;
            adexp_json_write(&out, &m, c->name);
            json_bytes += out.len;
        }
    }
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static double timed(const corpus *c, size_t lo, size_t hi, size_t reps, int json)
{
    double t0 = now_ns();
    for (size_t r = 0; r < reps; r++)
        work(c, lo, hi, json);
    return now_ns() - t0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of v[0..n) (sorted in place). */
static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return v[n / 2];
}

static void compare(const corpus *c, int rounds)
{
    /* a chunk: about 50 us of parsing, from a first timing of the whole */
    double whole = timed(c, 0, c->n, 1, 0);
    double per_msg = whole / (double)c->n;
    size_t per_chunk = per_msg >= 50e3 ? 1 : (size_t)(50e3 / per_msg);
    size_t reps = per_chunk > c->n ? per_chunk / c->n : 1;
    if (per_chunk > c->n)
        per_chunk = c->n;
    size_t chunks = (c->n + per_chunk - 1) / per_chunk, nr = 0;
    if ((size_t)rounds * chunks < 1000)            /* enough chunks for quartiles */
        rounds = (int)((1000 + chunks - 1) / chunks);
    size_t cap = chunks * (size_t)rounds;
    double *ratio = malloc(3 * sizeof *ratio * cap), tp = 0, tj = 0;
    if (!ratio)
        return;
    double *np = ratio + cap, *nj = np + cap;     /* ns a message, per chunk */
    timed(c, 0, c->n, 1, 1);                     /* warm-up of the writer */
    size_t bytes0 = json_bytes;
    for (int r = 0; r < rounds; r++)
        for (size_t k = 0; k < chunks; k++) {
            size_t lo = k * per_chunk, hi = lo + per_chunk < c->n ? lo + per_chunk : c->n;
            double p, j, m = (double)(hi - lo) * (double)reps;
            if ((r + k) & 1) {
                p = timed(c, lo, hi, reps, 0);
                j = timed(c, lo, hi, reps, 1);
            } else {
                j = timed(c, lo, hi, reps, 1);
                p = timed(c, lo, hi, reps, 0);
            }
            np[nr] = p / m;
            nj[nr] = j / m;
            ratio[nr++] = (j - p) / p;
            tp += p;
            tj += j;
        }
    double msgs = (double)c->n * (double)reps * rounds;
    double jb = (double)(json_bytes - bytes0) / msgs;
    double mp = median(np, nr), mj = median(nj, nr);
    qsort(ratio, nr, sizeof *ratio, cmp_double);
    printf("%s: %zu messages, %.0f bytes of JSON a message\n"
           "  parse %.0f ns, parse+json %.0f ns a message (medians of the chunks; "
           "means %.0f and %.0f); json %.0f MB/s\n"
           "  json/parse median %.3f (quartiles %.3f to %.3f, %zu chunks)\n",
           c->name, c->n, jb, mp, mj, tp / msgs, tj / msgs, jb * 1e3 / (mj - mp),
           ratio[nr / 2], ratio[nr / 4], ratio[3 * nr / 4], nr);
    free(ratio);
}

static int usage(const char *argv0)
{
    fprintf(stderr, "usage: %s [--rounds N | --only parse|json [--passes N]] FILE...\n",
            argv0);
    return 2;
}

int main(int argc, char **argv)
{
    int rounds = 20, passes = 1, only = -1, i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        if (i + 1 >= argc)
            return usage(argv[0]);
        if (strcmp(argv[i], "--rounds") == 0)
            rounds = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--passes") == 0)
            passes = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--only") == 0 && strcmp(argv[i + 1], "parse") == 0)
            only = 0;
        else if (strcmp(argv[i], "--only") == 0 && strcmp(argv[i + 1], "json") == 0)
            only = 1;
        else
            return usage(argv[0]);
    }
    if (i >= argc || rounds < 1 || passes < 1)
        return usage(argv[0]);
    parser = adexp_parser_new(NULL, NULL);
    if (!parser)
        return 1;
    adexp_arena_init(&arena, NULL);
    adexp_buf_init(&out, NULL);
    for (; i < argc; i++) {
        corpus c;
        if (load(&c, argv[i]) != 0) {
            fprintf(stderr, "bench_json: no messages in %s\n", argv[i]);
            return 1;
        }
        if (only >= 0) {
            for (int p = 0; p < passes; p++)
                work(&c, 0, c.n, only);
            printf("%s: %zu messages x %d passes, %s\n", c.name, c.n, passes,
                   only ? "parse+json" : "parse");
        } else {
            compare(&c, rounds);
        }
        free(c.buf);
        free(c.offs);
    }
    printf("(checksums: %zu fields, %zu bytes of JSON)\n", fields, json_bytes);
    adexp_buf_free(&out);
    adexp_arena_free(&arena);
    adexp_parser_free(parser);
    return 0;
}

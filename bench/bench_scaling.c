/* bench_scaling: parse time and memory must grow linearly with the input.
 *
 * For each input shape (normal messages, and hostile ones) and each size
 * from 1 KB to 100 MB, parse the whole buffer (every message, the arena
 * reset between messages) and print ns/byte and the peak arena bytes. A
 * quadratic case shows as ns/byte growing with the size. A shape whose run
 * takes longer than the budget (ADEXP_SCALING_BUDGET seconds, default 20)
 * skips its larger sizes and says so.
 *
 *   bench_scaling [--max-mb N] [--shape NAME]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adexp.h"

/* ------------------------------------------------------------ counting allocator */

typedef struct counter {
    size_t cur, peak, calls;
} counter;

static void *count_alloc(void *ctx, size_t size)
{
    counter *c = ctx;
    void *p = malloc(size);
    if (p) {
        c->cur += size;
        c->calls++;
        if (c->cur > c->peak)
            c->peak = c->cur;
    }
    return p;
}

static void count_free(void *ctx, void *ptr, size_t size)
{
    counter *c = ctx;
    if (ptr)
        c->cur -= size;
    free(ptr);
}

/* ------------------------------------------------------------ input shapes */

typedef struct gen {
    char *b;
    size_t len, cap;
} gen;

static void put(gen *g, const char *s, size_t n)
{
    if (g->len + n > g->cap)
        n = g->cap - g->len;
    memcpy(g->b + g->len, s, n);
    g->len += n;
}

static void fill(gen *g, const char *unit)
{
    size_t n = strlen(unit);
    while (g->len < g->cap)
        put(g, unit, n);
}

static const char ifpl[] =
    "-TITLE IFPL\n-BEGIN ADDR -FAC CFMUTACT -FAC EGZYTTTE -END ADDR\n"
    "-ADEP EDDF -ADES LFPG -ARCID DLH123 -ARCTYP A320 -EOBT 0945 -EOBD 230115\n"
    "-ORIGIN -NETWORKTYPE SITA -FAC FRAOXLH -FLTRUL I -FLTTYP S -RFL F350\n"
    "-ESTDATA -PTID RID -ETO 230115100000 -FL F350\n"
    "-BEGIN RTEPTS -PT -PTID EDDF -FL F004 -ETO 230115094500\n"
    "-PT -PTID RID -FL F350 -ETO 230115100000 -END RTEPTS\n"
    "-ROUTE N0450F350 RID UN857 PGS\n"
    "-MSGTXT (FPL-DLH123-IS -A320/M-SDE3/LB1 -EDDF0945 -N0450F350 RID -LFPG0100)\n";

static void shape_messages(gen *g) { fill(g, ifpl); }
static void shape_dashes(gen *g) { fill(g, "-"); }
static void shape_dashes_title(gen *g) { put(g, "-TITLE X\n", 9); fill(g, "-"); }
static void shape_nesting(gen *g) { put(g, "-TITLE X ", 9); fill(g, "-BEGIN A "); }
static void shape_long_keyword(gen *g)
{
    put(g, "-TITLE X -", 10);
    size_t tail = g->cap > 20 ? 8 : 0;
    while (g->len < g->cap - tail)
        put(g, "K", 1);
    put(g, " VALUE\n", 7);
}
static void shape_unclosed_paren(gen *g)       /* one '(' never closed */
{
    put(g, "-TITLE ACK -MSGTXT (", 20);
    fill(g, "FPL-ABC-IS -A320/M ");
}
static void shape_unclosed_parens(gen *g)      /* a message with one each */
{
    fill(g, "-TITLE ACK -MSGTXT (FPL-X\n");
}
static void shape_open_lists(gen *g) { put(g, "-TITLE X ", 9); fill(g, "-BEGIN A -END B "); }
static void shape_spaces(gen *g) { fill(g, " \r\n"); }

typedef struct shape {
    const char *name;
    void (*make)(gen *g);
} shape;

static const shape shapes[] = {
    {"messages", shape_messages},
    {"dashes", shape_dashes},
    {"title+dashes", shape_dashes_title},
    {"nesting", shape_nesting},
    {"long-keyword", shape_long_keyword},
    {"unclosed-paren", shape_unclosed_paren},
    {"unclosed-parens", shape_unclosed_parens},
    {"unbalanced-end", shape_open_lists},
    {"whitespace", shape_spaces},
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct result {
    double seconds;
    size_t messages, errors, arena_peak, arena_calls;
} result;

static result run(const char *buf, size_t len)
{
    result r = {0};
    counter c = {0};
    adexp_allocator hooks = {count_alloc, count_free, &c};
    adexp_arena arena;
    adexp_arena_init(&arena, &hooks);
    adexp_parser *p = adexp_parser_new(NULL, NULL);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    adexp_msg m;
    double t0 = now();
    adexp_parser_reset(p, buf, len);
    while (adexp_parser_next(p, &arena, &m) != ADEXP_END) {
        r.messages++;
        r.errors += m.nerrors_total;
        adexp_arena_reset(&arena);
    }
    r.seconds = now() - t0;
    r.arena_peak = c.peak;
    r.arena_calls = c.calls;
    adexp_parser_free(p);
    adexp_arena_free(&arena);
    return r;
}

int main(int argc, char **argv)
{
    size_t max_mb = 100;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--max-mb") && i + 1 < argc)
            max_mb = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--shape") && i + 1 < argc)
            only = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--max-mb N] [--shape NAME]\n", argv[0]);
            return 2;
        }
    }
    const char *e = getenv("ADEXP_SCALING_BUDGET");
    double budget = e ? atof(e) : 20.0;
    size_t max = max_mb << 20;
    char *buf = malloc(max ? max : 1);
    if (!buf)
        return 1;
    printf("| shape | bytes | ns/byte | MB/s | peak arena bytes | messages | errors |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|\n");
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        if (only && strcmp(only, shapes[s].name))
            continue;
        int skip = 0;
        static const size_t sizes[] = {1u << 10, 10u << 10, 100u << 10,
                                       1u << 20, 10u << 20, 100u << 20};
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0] && sizes[si] <= max; si++) {
            size_t size = sizes[si];
            if (skip) {
                printf("| %s | %zu | skipped: the previous size took over %.0f s |||||\n",
                       shapes[s].name, size, budget / 10);
                continue;
            }
            gen g = {buf, 0, size};
            shapes[s].make(&g);
            /* small sizes: repeat to get a measurable time, keep the best */
            int reps = size <= 100000 ? 20 : size <= (1u << 20) ? 5 : 1;
            result best = {0};
            for (int r = 0; r < reps; r++) {
                result x = run(buf, g.len);
                if (r == 0 || x.seconds < best.seconds)
                    best = x;
            }
            double ns = best.seconds * 1e9 / (double)g.len;
            printf("| %s | %zu | %.2f | %.0f | %zu | %zu | %zu |\n", shapes[s].name, g.len,
                   ns, (double)g.len / (1 << 20) / (best.seconds > 0 ? best.seconds : 1e-9),
                   best.arena_peak, best.messages, best.errors);
            fflush(stdout);
            /* the next size is 10x: stop if it would exceed the budget */
            if (best.seconds * 10 > budget)
                skip = 1;
        }
    }
    free(buf);
    return 0;
}

/* Field trees compared and named: what a round trip must keep (writer's
 * verify, the round-trip tests, fuzz_roundtrip), and the path that names a
 * field in an error. */
#include <stdio.h>
#include <string.h>

#include "adexp.h"

/* The lexer's separators (FF and VT too), which the writer folds. */
static int is_fold_sep(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* The next folded byte of s from *i on ('\0' past the end: values may hold
 * NUL, so the caller also checks *i); a separator run is one ' ', none at
 * the ends. */
static int fold_next(adexp_slice s, size_t *i)
{
    size_t j = *i;
    if (j < s.len && is_fold_sep(s.ptr[j])) {
        while (j < s.len && is_fold_sep(s.ptr[j]))
            j++;
        *i = j;
        return j < s.len && j > 0 ? ' ' : -1;   /* -1: nothing (an end) */
    }
    if (j == s.len)
        return -1;
    *i = j + 1;
    return (unsigned char)s.ptr[j];
}

static int folded_eq(adexp_slice a, adexp_slice b)
{
    size_t i = 0, j = 0;
    for (;;) {
        int x = fold_next(a, &i), y = fold_next(b, &j);
        while (x == -1 && i < a.len)          /* a leading run */
            x = fold_next(a, &i);
        while (y == -1 && j < b.len)
            y = fold_next(b, &j);
        if (x != y)
            return 0;
        if (x == -1)
            return 1;
    }
}

static int slice_same(adexp_slice a, adexp_slice b, unsigned how)
{
    if (how & ADEXP_SAME_FOLD)
        return folded_eq(a, b);
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static int node_same(const adexp_field *a, const adexp_field *b, unsigned how)
{
    unsigned mask = how & ADEXP_SAME_ALL_FLAGS ? 0xFFu & ~(unsigned)ADEXP_FIELD_USUAL_POINT
                                               : ADEXP_FIELD_UNKNOWN | ADEXP_FIELD_TEXT;
    return a->kind == b->kind && ((a->flags ^ b->flags) & mask) == 0 &&
           slice_same(a->keyword, b->keyword, 0) && slice_same(a->value, b->value, how);
}

int adexp_tree_same(const adexp_field *a, const adexp_field *b, unsigned how,
                    const adexp_field **where)
{
    const adexp_field *last = NULL;
    for (; a && b; last = a, a = a->next, b = b->next) {
        if (!node_same(a, b, how)) {
            if (where)
                *where = a;
            return 0;
        }
        if (!adexp_tree_same(a->child, b->child, how, where)) {
            if (where && !*where)      /* a has no children, b has */
                *where = a;
            return 0;
        }
    }
    if (!a && !b)
        return 1;
    if (where)
        *where = a ? a : last;
    return 0;
}

/* Appends s to dst at *n (counting what does not fit); bytes that are not
 * printable ASCII become '?', as does an empty keyword. */
static void put(char *dst, size_t cap, size_t *n, const char *s, size_t len)
{
    if (len == 0)
        s = "?", len = 1;
    for (size_t i = 0; i < len; i++, (*n)++)
        if (*n + 1 < cap)
            dst[*n] = s[i] > ' ' && s[i] < 127 ? s[i] : '?';
}

/* One chain of siblings on the way down to the field named: the chain's
 * first field, the one of them being searched, and the step below it. */
typedef struct step {
    const adexp_field *first, *at;
    struct step *down;
} step;

/* The steps' names from top, KEYWORD[N] where N (from 1) counts the
 * siblings of that name before and at it, when more than one. Siblings
 * are counted for the fields on the way alone, so that naming a field
 * after n siblings costs n, not n * n. */
static size_t put_path(const step *s, char *dst, size_t cap)
{
    size_t n = 0;
    for (; s; s = s->down) {
        if (n > 0)
            put(dst, cap, &n, "/", 1);
        put(dst, cap, &n, s->at->keyword.ptr, s->at->keyword.len);
        unsigned nth = 1;
        for (const adexp_field *c = s->first; c != s->at; c = c->next)
            nth += slice_same(c->keyword, s->at->keyword, 0);
        if (nth > 1) {
            char num[16];
            int k = snprintf(num, sizeof num, "[%u]", nth);
            put(dst, cap, &n, num, (size_t)k);
        }
    }
    return n;
}

/* Depth first from s->first for f, each node once, the steps from top to
 * s on the stack of the calls; at f the path is written (its length in
 * *n) while they are all still there. 1 if found. */
static int find(const step *top, step *s, const adexp_field *f, char *dst, size_t cap,
                size_t *n)
{
    step below = {0};
    s->down = &below;
    for (s->at = s->first; s->at; s->at = s->at->next) {
        if (s->at == f) {
            s->down = NULL;
            *n = put_path(top, dst, cap);
            return 1;
        }
        below.first = s->at->child;
        if (find(top, &below, f, dst, cap, n))
            return 1;
    }
    return 0;
}

size_t adexp_field_path(const adexp_field *first, const adexp_field *f, char *dst,
                        size_t cap)
{
    step top = {first, NULL, NULL};
    size_t n = 0;
    if (f)
        find(&top, &top, f, dst, cap, &n);
    if (cap > 0)
        dst[n < cap ? n : cap - 1] = '\0';
    return n;
}

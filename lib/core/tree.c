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
    unsigned mask = how & ADEXP_SAME_ALL_FLAGS ? 0xFFu
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

/* The path of f below the chain from first, after prefix length n; 0 if f
 * is not there. */
static size_t path_in(const adexp_field *first, const adexp_field *f, char *dst,
                      size_t cap, size_t n)
{
    for (const adexp_field *c = first; c; c = c->next) {
        size_t m = n;
        if (m > 0)
            put(dst, cap, &m, "/", 1);
        put(dst, cap, &m, c->keyword.ptr, c->keyword.len);
        unsigned nth = 1;
        for (const adexp_field *s = first; s != c; s = s->next)
            nth += slice_same(s->keyword, c->keyword, 0);
        if (nth > 1) {
            char num[16];
            int k = snprintf(num, sizeof num, "[%u]", nth);
            put(dst, cap, &m, num, (size_t)k);
        }
        if (c == f)
            return m;
        size_t r = path_in(c->child, f, dst, cap, m);
        if (r)
            return r;
    }
    return 0;
}

size_t adexp_field_path(const adexp_field *first, const adexp_field *f, char *dst,
                        size_t cap)
{
    size_t n = f ? path_in(first, f, dst, cap, 0) : 0;
    if (cap > 0)
        dst[n < cap ? n : cap - 1] = '\0';
    return n;
}

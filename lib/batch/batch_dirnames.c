/* Batch driver: the names of one directory, kept in one buffer and sorted
 * by bytes, in exactly strcmp's order.
 *
 * A walk sorts every directory it reads, so that output does not depend on
 * the order the file system returns names in. qsort with strcmp cost about
 * 475 instructions a name (plus a malloc and a free for each), as much as
 * all the rest of the walk. Here each name gets an 8-byte key: its bytes
 * from `depth` on, big-endian, padded with zeros. Comparing keys as
 * unsigned numbers is comparing those 8 bytes as strcmp does (unsigned
 * bytes, and the end of a name, zero, below any byte), so a radix sort on
 * the keys (a counting pass for each key byte that differs among the names)
 * puts them in strcmp's order; names whose keys are equal share those 8
 * bytes and are sorted the same way on the next 8. */
#include <stdlib.h>
#include <string.h>

#include "batch_internal.h"

/* Names up to this many are sorted by insertion (less than a radix pass's
 * setup). */
#define INSERTION_MAX 16

void batch_dirnames_init(batch_dirnames *s)
{
    memset(s, 0, sizeof *s);
}

void batch_dirnames_free(batch_dirnames *s)
{
    free(s->text);
    free(s->v);
    batch_dirnames_init(s);
}

/* The key of the (NUL-ended) bytes at p, read one by one: p may end
 * anywhere in its 8 bytes. */
static uint64_t key_at(const char *p)
{
    uint64_t k = 0;
    unsigned i = 0;
    for (; i < 8 && p[i]; i++)
        k = k << 8 | (unsigned char)p[i];
    return i ? k << (8 * (8 - i)) : 0;
}

/* The same when the 8 bytes at p are readable and zero after the name's
 * end: one load. */
static uint64_t key_load(const char *p)
{
    uint64_t k;
    memcpy(&k, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    k = __builtin_bswap64(k);
#elif !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_BIG_ENDIAN__
    k = key_at(p);
#endif
    return k;
}

/* The first room is for a few hundred names: a directory of them is read
 * with no reallocation (a larger first block costs the allocator more than
 * the copies it would save). */
#define FIRST_NAMES 512

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : size == 1 ? 16 * FIRST_NAMES : FIRST_NAMES;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, c * size);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

int batch_dirnames_add(batch_dirnames *s, const char *name, size_t len, unsigned char type)
{
    /* the record: type byte, name, NUL, and 7 zero bytes for key_load
     * (the next record writes over them) */
    if (grow((void **)&s->text, &s->text_cap, s->text_len + len + 9, 1) != 0 ||
        grow((void **)&s->v, &s->cap, s->n + 1, sizeof *s->v) != 0)
        return -1;
    char *r = s->text + s->text_len;
    r[0] = (char)type;
    memcpy(r + 1, name, len);
    memset(r + 1 + len, 0, 8);
    s->v[s->n].off = s->text_len;
    s->v[s->n].key = key_load(r + 1);
    s->n++;
    s->text_len += len + 2;
    return 0;
}

static const char *name_of(const batch_dirnames *s, const batch_dirname *d)
{
    return s->text + d->off + 1;
}

/* strcmp's order of two names that share their first depth bytes, whose
 * keys are of the 8 bytes from there. A key whose last byte is zero holds
 * the name's end: equal keys then mean equal names. */
static int cmp_at(const batch_dirnames *s, const batch_dirname *a,
                  const batch_dirname *b, size_t depth)
{
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    if ((a->key & 0xFF) == 0)
        return 0;
    return strcmp(name_of(s, a) + depth + 8, name_of(s, b) + depth + 8);
}

static void insertion_sort(const batch_dirnames *s, batch_dirname *v, size_t n,
                           size_t depth)
{
    for (size_t i = 1; i < n; i++) {
        batch_dirname x = v[i];
        size_t j = i;
        for (; j > 0 && cmp_at(s, &x, &v[j - 1], depth) < 0; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

/* One stable counting pass: from[0..n) into to, by the key byte at shift. */
static void pass(const batch_dirname *from, batch_dirname *to, size_t n, unsigned shift)
{
    size_t count[256] = {0};
    for (size_t i = 0; i < n; i++)
        count[(from[i].key >> shift) & 0xFF]++;
    size_t sum = 0;
    for (unsigned b = 0; b < 256; b++) {
        size_t c = count[b];
        count[b] = sum;
        sum += c;
    }
    for (size_t i = 0; i < n; i++)
        to[count[(from[i].key >> shift) & 0xFF]++] = from[i];
}

/* Sort v[0..n) (names that share their first depth bytes, keyed on the 8
 * from there) by key, least significant byte first, skipping the bytes
 * that are the same in every key. tmp has room for n. */
static void radix_sort(batch_dirname *v, batch_dirname *tmp, size_t n)
{
    uint64_t any = 0, all = ~(uint64_t)0;
    for (size_t i = 0; i < n; i++)
        any |= v[i].key, all &= v[i].key;
    uint64_t differ = any ^ all;
    batch_dirname *from = v, *to = tmp;
    for (unsigned shift = 0; shift < 64; shift += 8) {
        if (((differ >> shift) & 0xFF) == 0)
            continue;
        pass(from, to, n, shift);
        batch_dirname *t = from;
        from = to;
        to = t;
    }
    if (from != v)
        memcpy(v, from, n * sizeof *v);
}

static void sort_at(const batch_dirnames *s, batch_dirname *v, batch_dirname *tmp,
                    size_t n, size_t depth)
{
    if (depth)
        for (size_t i = 0; i < n; i++)
            v[i].key = key_at(name_of(s, &v[i]) + depth);
    if (n <= INSERTION_MAX) {
        insertion_sort(s, v, n, depth);
        return;
    }
    radix_sort(v, tmp, n);
    /* runs of equal keys (names alike in these 8 bytes) on the next 8 */
    for (size_t i = 1; i < n; i++) {
        if (v[i].key != v[i - 1].key)
            continue;
        size_t start = i - 1;
        while (i < n && v[i].key == v[start].key)
            i++;
        if ((v[start].key & 0xFF) != 0)
            sort_at(s, v + start, tmp, i - start, depth + 8);
    }
}

int batch_dirnames_sort(batch_dirnames *s)
{
    batch_dirname *tmp = NULL;
    if (s->n > INSERTION_MAX && !(tmp = malloc(s->n * sizeof *tmp)))
        return -1;
    sort_at(s, s->v, tmp, s->n, 0);
    free(tmp);
    return 0;
}

const char *batch_dirnames_name(const batch_dirnames *s, size_t i, unsigned char *type)
{
    const char *r = s->text + s->v[i].off;
    *type = (unsigned char)r[0];
    return r + 1;
}

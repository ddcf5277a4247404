/* Batch driver: the directories a walk has been into, by device and inode,
 * so that each is walked once however many ways lead into it (symbolic
 * links, bind mounts): a fan-out of links cannot multiply the files. An
 * open-addressing hash set, grown at half full. */
#include <stdlib.h>

#include "batch_internal.h"

struct walk_seen {
    struct { dev_t dev; ino_t ino; int used; } *v;
    size_t n, cap;             /* cap: a power of two */
};

static size_t slot_of(const walk_seen *s, dev_t dev, ino_t ino)
{
    uint64_t h = ((uint64_t)ino * 0x9E3779B97F4A7C15u) ^ (uint64_t)dev;
    size_t i = (size_t)(h ^ (h >> 29)) & (s->cap - 1);
    while (s->v[i].used && (s->v[i].dev != dev || s->v[i].ino != ino))
        i = (i + 1) & (s->cap - 1);
    return i;
}

static int grow(walk_seen *s)
{
    walk_seen t = {calloc(s->cap ? s->cap * 2 : 64, sizeof *t.v), 0,
                   s->cap ? s->cap * 2 : 64};
    if (!t.v)
        return -1;
    for (size_t i = 0; i < s->cap; i++)
        if (s->v[i].used)
            t.v[slot_of(&t, s->v[i].dev, s->v[i].ino)] = s->v[i];
    free(s->v);
    t.n = s->n;
    *s = t;
    return 0;
}

int batch_seen_add(walk_seen **sp, dev_t dev, ino_t ino)
{
    if (!*sp && !(*sp = calloc(1, sizeof **sp)))
        return -1;
    walk_seen *s = *sp;
    if (2 * (s->n + 1) > s->cap && grow(s) != 0)
        return -1;
    size_t i = slot_of(s, dev, ino);
    if (s->v[i].used)
        return 1;
    s->v[i].dev = dev, s->v[i].ino = ino, s->v[i].used = 1;
    s->n++;
    return 0;
}

void batch_seen_free(walk_seen *s)
{
    if (s)
        free(s->v);
    free(s);
}

/* The arena: a bump allocator over a list of chunks. Reset rewinds to the
 * first chunk and keeps every chunk, so a parser that has seen its largest
 * message once never calls the allocator again. */
#include <stdalign.h>
#include <stdlib.h>

#include "adexp.h"
#include "internal.h"

#define ARENA_CHUNK_SIZE (64u * 1024u)
#define ARENA_ALIGN alignof(max_align_t)

struct adexp_chunk {
    adexp_chunk *next;
    size_t size;               /* bytes in data */
    alignas(max_align_t) char data[];
};

static void *libc_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size);
}

static void libc_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    (void)size;
    free(ptr);
}

adexp_allocator adexp_default_allocator(void)
{
    adexp_allocator a = {libc_alloc, libc_free, NULL};
    return a;
}

void adexp_arena_init(adexp_arena *arena, const adexp_allocator *hooks)
{
    arena->a = hooks ? *hooks : adexp_default_allocator();
    arena->head = arena->cur = NULL;
    arena->ptr = arena->end = NULL;
    arena->chunk_size = ARENA_CHUNK_SIZE;
}

static void use_chunk(adexp_arena *arena, adexp_chunk *c)
{
    arena->cur = c;
    arena->ptr = c->data;
    arena->end = c->data + c->size;
}

/* Move to the next kept chunk that fits size, or insert a new one after cur. */
static int grow(adexp_arena *arena, size_t size)
{
    adexp_chunk *next = arena->cur ? arena->cur->next : arena->head;
    if (next && next->size >= size) {
        use_chunk(arena, next);
        return 1;
    }
    size_t want = size > arena->chunk_size ? size : arena->chunk_size;
    if (want > SIZE_MAX - sizeof(adexp_chunk))
        return 0;
    adexp_chunk *c = arena->a.alloc(arena->a.ctx, sizeof(adexp_chunk) + want);
    if (!c)
        return 0;
    c->size = want;
    c->next = next;
    if (arena->cur)
        arena->cur->next = c;
    else
        arena->head = c;
    use_chunk(arena, c);
    return 1;
}

void *adexp_arena_alloc(adexp_arena *arena, size_t size)
{
    if (size > SIZE_MAX - ARENA_ALIGN)
        return NULL;
    size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    if (size == 0)
        size = ARENA_ALIGN;
    if ((size_t)(arena->end - arena->ptr) < size && !grow(arena, size))
        return NULL;
    void *p = arena->ptr;
    arena->ptr += size;
    return p;
}

void adexp_arena_reset(adexp_arena *arena)
{
    if (arena->head)
        use_chunk(arena, arena->head);
}

void adexp_arena_free(adexp_arena *arena)
{
    if (!arena)
        return;
    adexp_chunk *c = arena->head;
    while (c) {
        adexp_chunk *next = c->next;
        arena->a.free(arena->a.ctx, c, sizeof(adexp_chunk) + c->size);
        c = next;
    }
    arena->head = arena->cur = NULL;
    arena->ptr = arena->end = NULL;
}

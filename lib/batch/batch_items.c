/* Batch driver: the items of adexp_batch_options.on_item and on_items.
 *
 * A worker keeps each item of a chunk (a message copied with
 * adexp_msg_copy, a failed or skipped input) in its result: the item
 * structs in res.out, where the output's bytes would be, and what they
 * point to in res.keep, an arena that does not move. The result is then
 * parked and handed over in order like any output (batch.c), and the
 * writer calls on_item for each item (or on_items once for the result's
 * items, which may take res.keep over) instead of writing bytes; a big
 * input's pieces have their messages' indexes moved on first, as the JSON
 * lines of the pieces have theirs patched. */
#include <errno.h>
#include <string.h>

#include "batch_internal.h"
#include "buf.h"

static adexp_arena *keep_of(batch_result *res)
{
    if (!res->keep_ready) {
        adexp_arena_init(&res->keep, NULL);
        res->keep.chunk_size = (size_t)256 << 10;
        res->keep_ready = 1;
    }
    return &res->keep;
}

/* source in the arena, once per run of items from the same input. */
static const char *keep_source(batch_result *res, const char *source)
{
    if (res->last_source && strcmp(res->last_source, source) == 0)
        return res->last_source;
    size_t n = strlen(source) + 1;
    char *p = adexp_arena_alloc(keep_of(res), n);
    if (p)
        res->last_source = memcpy(p, source, n);
    return p;
}

static adexp_status push(batch_result *res, adexp_batch_item_kind kind, const char *source,
                         const adexp_msg *msg, const char *why)
{
    adexp_batch_item it = {kind, keep_source(res, source), msg, NULL};
    if (!it.source)
        return ADEXP_E_NOMEM;
    if (why) {
        size_t n = strlen(why) + 1;
        char *p = adexp_arena_alloc(keep_of(res), n);
        if (!p)
            return ADEXP_E_NOMEM;
        it.why = memcpy(p, why, n);
    }
    return adexp_buf_put(&res->out, (const char *)&it, sizeof it) ? ADEXP_OK : ADEXP_E_NOMEM;
}

adexp_status batch_item_message(batch_worker *w, const char *path, const adexp_msg *m)
{
    adexp_msg *copy = adexp_arena_alloc(keep_of(&w->res), sizeof *copy);
    if (!copy || adexp_msg_copy(m, &w->res.keep, copy) != ADEXP_OK)
        return ADEXP_E_NOMEM;
    w->res.lines++;
    w->res.kept += sizeof *m + m->length + (m->nfields + 8) * sizeof(adexp_field);
    return push(&w->res, ADEXP_BATCH_ITEM_MESSAGE, path, copy, NULL);
}

void batch_item_input(batch_worker *w, adexp_batch_item_kind kind, const char *path,
                      const char *why)
{
    if (push(&w->res, kind, path, NULL, why) != ADEXP_OK) {
        batch_put_head(w, path, 0, 0, BATCH_ERROR);
        batch_str_printf(&w->res.err, "out of memory keeping this failure: %s\n", why);
    }
}

void batch_items_add_index(batch_result *res, uint64_t index)
{
    adexp_batch_item *v = (adexp_batch_item *)(void *)res->out.data;
    size_t n = res->out.len / sizeof *v;
    for (size_t i = 0; i < n; i++)
        if (v[i].msg)
            ((adexp_msg *)v[i].msg)->index += (size_t)index;
}

int batch_items_deliver(const adexp_batch *b, batch_result *res)
{
    const adexp_batch_item *v = (const adexp_batch_item *)(const void *)res->out.data;
    size_t n = res->out.len / sizeof *v;
    int err = 0;
    if (b->o.on_items) {
        err = b->o.on_items(b->o.item_ctx, v, n, keep_of(res)) != 0 ? ECANCELED : 0;
        if (!res->keep.head)       /* taken over: the one left is for the next items */
            res->last_source = NULL;
        return err;
    }
    for (size_t i = 0; i < n && !err; i++)
        if (b->o.on_item(b->o.item_ctx, &v[i]) != 0)
            err = ECANCELED;
    return err;
}

void batch_result_clear(batch_result *res)
{
    res->out.len = res->err.len = 0;
    res->lines = 0;
    res->live = 0;
    res->kept = 0;
    if (res->keep_ready)
        adexp_arena_reset(&res->keep);
    res->last_source = NULL;
}

void batch_items_free(batch_result *res)
{
    if (res->keep_ready)
        adexp_arena_free(&res->keep);
    res->keep_ready = 0;
    res->last_source = NULL;
}

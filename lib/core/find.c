/* Path lookup: the fields at RTEPTS/PT/PTID, one after another, by a
 * depth-first walk that keeps one cursor per part of the path. */
#include <string.h>

#include "adexp.h"

static const adexp_field *match_from(const adexp_field *f, adexp_slice kw)
{
    for (; f; f = f->next)
        if (f->keyword.len == kw.len && memcmp(f->keyword.ptr, kw.ptr, kw.len) == 0)
            return f;
    return NULL;
}

int adexp_path_begin_at(adexp_path_iter *it, const adexp_field *first, const char *path)
{
    /* no memset: at[] is written before it is read, and a cell of a CSV
     * row starts a walk */
    it->nparts = 0;
    it->first = first;
    it->depth = -1;
    it->done = 1;
    if (!path || !*path)
        return 0;
    const char *p = path;
    for (;;) {
        size_t n = strcspn(p, "/.");
        if (n == 0 || it->nparts == ADEXP_PATH_MAX_PARTS)
            return 0;
        it->part[it->nparts++] = (adexp_slice){p, n};
        if (!p[n])
            break;
        p += n + 1;
    }
    it->done = 0;
    return 1;
}

int adexp_path_begin(adexp_path_iter *it, const adexp_msg *msg, const char *path)
{
    return adexp_path_begin_at(it, msg->fields, path);
}

/* From the cursor at depth d, the next match at that depth or deeper. */
const adexp_field *adexp_path_next(adexp_path_iter *it)
{
    if (it->done)
        return NULL;
    int d = it->depth;
    const adexp_field *f;
    if (d < 0) {
        d = 0;
        f = match_from(it->first, it->part[0]);
    } else {
        f = match_from(it->at[d]->next, it->part[d]);
    }
    for (;;) {
        if (!f) {
            if (--d < 0) {
                it->done = 1;
                return NULL;
            }
            f = match_from(it->at[d]->next, it->part[d]);
            continue;
        }
        it->at[d] = f;
        if (d == it->nparts - 1) {
            it->depth = d;
            return f;
        }
        d++;
        f = match_from(f->child, it->part[d]);
    }
}

const adexp_field *adexp_msg_find(const adexp_msg *msg, const char *path)
{
    adexp_path_iter it;
    adexp_path_begin(&it, msg, path);
    return adexp_path_next(&it);
}

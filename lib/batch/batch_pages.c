/* Batch driver: the buffers that grow with one input (a worker's read
 * buffer, an archive member read whole), in mappings of their own.
 *
 * Grown with realloc, such a buffer is copied at each doubling, and the
 * allocator keeps the pages it was copied from: a buffer grown to N bytes
 * left about 2N resident, and the limit that bounds it (--max-file-size)
 * bounded half of what was held. A mapping grows by mremap, which moves
 * its pages instead of copying them: N bytes held are N bytes resident. */
#define _GNU_SOURCE            /* mremap */
#include <string.h>
#include <sys/mman.h>

#include "batch_internal.h"

void *batch_pages_grow(void *p, size_t cap, size_t new_cap)
{
    void *q;
    if (!p) {
        q = mmap(NULL, new_cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    } else {
#ifdef MREMAP_MAYMOVE
        q = mremap(p, cap, new_cap, MREMAP_MAYMOVE);
#else
        q = mmap(NULL, new_cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (q != MAP_FAILED) {
            memcpy(q, p, cap < new_cap ? cap : new_cap);
            munmap(p, cap);
        }
#endif
    }
    return q == MAP_FAILED ? NULL : q;
}

void batch_pages_free(void *p, size_t cap)
{
    if (p)
        munmap(p, cap);
}

/* Batch driver: big files mapped, and a file cut short while it is mapped.
 *
 * Reading a page of a mapping that lies past the file's end raises SIGBUS:
 * a file truncated by another program while it is parsed would kill the
 * run. The handler installed here maps zero pages over the rest of that
 * mapping, so the read goes on (it sees NUL bytes), and records where the
 * file was found short: the page, or the file's size then if less (the
 * rest of its last page reads as NUL bytes with no fault). The parse of that input then drops each message
 * that reaches past that point (batch_map_lost) and reports the file once
 * (batch_map_report): every message written was read from the file's own
 * bytes. A SIGBUS outside the registered mappings is not ours: the handler
 * puts back the previous action and returns, and the fault happens again
 * under it.
 *
 * The registry is a fixed array of slots, one per live mapping, claimed
 * with an atomic compare-and-swap: the handler reads it without a lock. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch_internal.h"

#define MAP_SLOTS 1024         /* live mappings at once: one per worker */
/* A file of at most this size is mapped with its pages (MAP_POPULATE): one
 * call instead of a page fault for every 16 pages read (a 24 MB file: 580
 * faults in all against 205, 4.5% of its parse's time). A bigger one is
 * faulted in as it is read, by the workers that read it, so that its
 * reading overlaps the parse and no time goes before the first message. */
#define MAP_POPULATE_MAX ((size_t)64 << 20)

static batch_map slots[MAP_SLOTS];
static struct sigaction previous;
static pthread_once_t installed = PTHREAD_ONCE_INIT;
static size_t page_size;       /* read at install: the handler calls no sysconf */

static batch_map *slot_of(const char *addr)
{
    for (size_t i = 0; i < MAP_SLOTS; i++) {
        const char *base = atomic_load_explicit(&slots[i].base, memory_order_acquire);
        if (base && addr >= base && (size_t)(addr - base) < slots[i].len)
            return &slots[i];
    }
    return NULL;
}

/* The handler: only async-signal-safe calls (mmap, fstat, sigaction). */
static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
    (void)sig, (void)ctx;
    const char *addr = si->si_addr;
    batch_map *m = slot_of(addr);
    size_t at = m ? (size_t)(addr - m->base) & ~(page_size - 1) : 0;
    if (!m || mmap((void *)(m->base + at), m->len - at, PROT_READ,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) {
        sigaction(SIGBUS, &previous, NULL);
        return;
    }
    struct stat st;            /* the bytes of its last page past its end read as 0 */
    if (fstat(m->fd, &st) == 0 && st.st_size >= 0 && (uintmax_t)st.st_size < at)
        at = (size_t)st.st_size;
    size_t was = atomic_load(&m->short_at);
    while (at < was && !atomic_compare_exchange_weak(&m->short_at, &was, at))
        ;
}

static void install(void)
{
    page_size = (size_t)sysconf(_SC_PAGESIZE);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, &previous);
}

batch_map *batch_map_file(int fd, size_t size)
{
    pthread_once(&installed, install);
    for (size_t i = 0; i < MAP_SLOTS; i++) {
        batch_map *m = &slots[i];
        int free_slot = 0;
        if (!atomic_compare_exchange_strong(&m->claimed, &free_slot, 1))
            continue;
        int populate = size <= MAP_POPULATE_MAX ? MAP_POPULATE : 0;
        void *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE | populate, fd, 0);
        int own = p == MAP_FAILED ? -1 : fcntl(fd, F_DUPFD_CLOEXEC, 0);
        if (own < 0) {
            if (p != MAP_FAILED)
                munmap(p, size);
            atomic_store(&m->claimed, 0);
            return NULL;
        }
        m->fd = own;
        m->len = size;
        atomic_store(&m->short_at, SIZE_MAX);
        atomic_store_explicit(&m->base, (const char *)p, memory_order_release);
        return m;
    }
    return NULL;               /* no free slot: the caller reads the file */
}

const char *batch_map_data(const batch_map *m)
{
    return atomic_load_explicit(&m->base, memory_order_relaxed);
}

void batch_map_free(batch_map *m)
{
    if (!m)
        return;
    const char *base = atomic_exchange(&m->base, NULL);
    munmap((void *)base, m->len);
    close(m->fd);
    atomic_store(&m->claimed, 0);
}

int batch_map_lost(const batch_map *m, const char *in, const adexp_msg *msg)
{
    if (!m)
        return 0;
    size_t at = atomic_load_explicit(&m->short_at, memory_order_relaxed);
    if (at == SIZE_MAX)
        return 0;
    const char *base = batch_map_data(m), *end = in + msg->offset + msg->length;
    return end >= base && (size_t)(end - base) <= m->len && (size_t)(end - base) > at;
}

int batch_map_report(batch_worker *w, const char *path, const batch_map *m)
{
    size_t at = m ? atomic_load(&m->short_at) : SIZE_MAX;
    if (at == SIZE_MAX)
        return 0;
    char why[160];
    snprintf(why, sizeof why,
             "the file was cut short while it was read (to %zu bytes or fewer, of "
             "%zu): the messages not read by then are left out", at, m->len);
    batch_put_head(w, path, 0, 0, BATCH_ERROR);
    batch_str_printf(&w->res.err, "%s\n", why);
    w->inputs_failed++;
    if (batch_gives_items(&w->b->o))
        batch_item_input(w, ADEXP_BATCH_ITEM_FAILED, path, why);
    return 1;
}

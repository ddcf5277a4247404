/* Batch driver: libarchive opened with dlopen, once (see batch_libarchive.h). */
#define _GNU_SOURCE            /* secure_getenv */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_libarchive.h"

#ifndef ADEXP_LIBARCHIVE_SONAME
#define ADEXP_LIBARCHIVE_SONAME "libarchive.so.13"
#endif

_Static_assert(sizeof(void *) == sizeof(void (*)(void)),
               "dlsym's pointers hold functions");

#define ENTRY(name) {"archive_" #name, offsetof(batch_libarchive, name)}
static const struct {
    const char *symbol;
    size_t at;                 /* offset of its pointer in batch_libarchive */
} entries[] = {
    ENTRY(read_new), ENTRY(read_support_filter_all), ENTRY(read_support_format_tar),
    ENTRY(read_support_format_gnutar), ENTRY(read_support_format_zip),
    ENTRY(read_support_format_raw), ENTRY(read_open), ENTRY(read_open_memory),
    ENTRY(read_next_header), ENTRY(read_data_block), ENTRY(read_free),
    ENTRY(format), ENTRY(filter_count), ENTRY(filter_bytes), ENTRY(error_string),
    ENTRY(set_error), ENTRY(entry_pathname), ENTRY(entry_pathname_utf8),
    ENTRY(entry_filetype), ENTRY(entry_hardlink), ENTRY(entry_size),
    ENTRY(entry_size_is_set),
};
#undef ENTRY
_Static_assert(sizeof entries / sizeof *entries ==
               sizeof(batch_libarchive) / sizeof(void *),
               "every function of batch_libarchive has its symbol");

static pthread_once_t once = PTHREAD_ONCE_INIT;
batch_libarchive batch_la;
static int loaded;
static char failure[512];

static void fail(const char *file, const char *what)
{
    const char *e = dlerror();
    snprintf(failure, sizeof failure, "needs libarchive (%s), which %s: %s", file,
             what, e ? e : "unknown error");
}

static void load(void)
{
    const char *file = secure_getenv("ADEXP_LIBARCHIVE");
    if (!file || !*file)
        file = ADEXP_LIBARCHIVE_SONAME;
    void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fail(file, "cannot be loaded");
        return;
    }
    for (size_t i = 0; i < sizeof entries / sizeof *entries; i++) {
        void *f = dlsym(h, entries[i].symbol);
        if (!f) {
            fail(file, "lacks a function");
            dlclose(h);
            return;
        }
        memcpy((char *)&batch_la + entries[i].at, &f, sizeof f);
    }
    loaded = 1;                /* h stays open for the life of the process */
}

int batch_libarchive_load(const char **why)
{
    pthread_once(&once, load);
    *why = failure;
    return loaded ? 0 : -1;
}

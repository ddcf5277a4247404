/* Batch driver: a library opened with dlopen when first needed, its
 * functions looked up into a table of pointers (batch_libarchive.c,
 * batch_libsqlite.c). Linked, such a library and its own dependencies
 * would be relocated by the dynamic loader in every process, also in the
 * many that never call it. */
#ifndef BATCH_DL_H
#define BATCH_DL_H

#include <pthread.h>
#include <stddef.h>

/* One function of a table: its symbol, and the offset of its pointer. */
typedef struct batch_dl_entry {
    const char *symbol;
    size_t at;
} batch_dl_entry;

/* A library to load: the file named by the environment variable env when
 * it is set (ignored in set-user-ID programs), else soname; name says what
 * it is in messages. Made with BATCH_DL_LIB. */
typedef struct batch_dl_lib {
    const char *env, *soname, *name;
    const batch_dl_entry *entries;
    size_t n;
    void *table;               /* each entry's address is stored at table + at */
    pthread_mutex_t mu;
    int tried, loaded;
    char failure[512];
} batch_dl_lib;

#define BATCH_DL_LIB(env, soname, name, entries, table)                          \
    {(env), (soname), (name), (entries), sizeof(entries) / sizeof *(entries),      \
     &(table), PTHREAD_MUTEX_INITIALIZER, 0, 0, ""}

/* Loads l, the first time. Returns 0, or -1 with *why set to "needs NAME
 * (FILE), which cannot be loaded: ..." (or "lacks a function: ..."), ...
 * dlerror()'s text: the same to every caller, for the life of the process.
 * The table's pointers may be used once this has returned 0 in this
 * thread; the library stays open. */
int batch_dl_load(batch_dl_lib *l, const char **why);

#endif

/* Batch driver: a library opened with dlopen when first needed, its
 * functions looked up into a table of pointers (batch_libarchive.c,
 * batch_libsqlite.c). Linked, such a library and its own dependencies
 * would be relocated by the dynamic loader in every process, also in the
 * many that never call it. */
#ifndef BATCH_DL_H
#define BATCH_DL_H

#include <stddef.h>

/* One function of a table: its symbol, and the offset of its pointer. */
typedef struct batch_dl_entry {
    const char *symbol;
    size_t at;
} batch_dl_entry;

/* Opens the file named by the environment variable env when it is set
 * (ignored in set-user-ID programs), else soname, and stores the address
 * of each of the n entries' symbols at table + at. Returns 0; or -1 with
 * failure[0..cap) set to "needs LIB (FILE), which cannot be loaded: ..."
 * (or "lacks a function: ..."), lib naming the library, ... dlerror()'s
 * text. The library stays open for the life of the process. */
int batch_dl_open(const char *env, const char *soname, const char *lib,
                  const batch_dl_entry *entries, size_t n, void *table,
                  char *failure, size_t cap);

#endif

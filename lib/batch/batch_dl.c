/* Batch driver: a library opened with dlopen (see batch_dl.h). */
#define _GNU_SOURCE            /* secure_getenv */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_dl.h"

_Static_assert(sizeof(void *) == sizeof(void (*)(void)),
               "dlsym's pointers hold functions");

static int fail(const char *lib, const char *file, const char *what, char *failure,
                size_t cap)
{
    const char *e = dlerror();
    snprintf(failure, cap, "needs %s (%s), which %s: %s", lib, file, what,
             e ? e : "unknown error");
    return -1;
}

int batch_dl_open(const char *env, const char *soname, const char *lib,
                  const batch_dl_entry *entries, size_t n, void *table,
                  char *failure, size_t cap)
{
    const char *file = secure_getenv(env);
    if (!file || !*file)
        file = soname;
    void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return fail(lib, file, "cannot be loaded", failure, cap);
    for (size_t i = 0; i < n; i++) {
        void *f = dlsym(h, entries[i].symbol);
        if (!f) {
            fail(lib, file, "lacks a function", failure, cap);
            dlclose(h);
            return -1;
        }
        memcpy((char *)table + entries[i].at, &f, sizeof f);
    }
    return 0;
}

/* Batch driver: a library opened with dlopen (see batch_dl.h). */
#define _GNU_SOURCE            /* secure_getenv */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_dl.h"

_Static_assert(sizeof(void *) == sizeof(void (*)(void)),
               "dlsym's pointers hold functions");

static void fail(batch_dl_lib *l, const char *file, const char *what)
{
    const char *e = dlerror();
    snprintf(l->failure, sizeof l->failure, "needs %s (%s), which %s: %s", l->name, file,
             what, e ? e : "unknown error");
}

static void open_lib(batch_dl_lib *l)
{
    const char *file = secure_getenv(l->env);
    if (!file || !*file)
        file = l->soname;
    void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fail(l, file, "cannot be loaded");
        return;
    }
    for (size_t i = 0; i < l->n; i++) {
        void *f = dlsym(h, l->entries[i].symbol);
        if (!f) {
            fail(l, file, "lacks a function");
            dlclose(h);
            return;
        }
        memcpy((char *)l->table + l->entries[i].at, &f, sizeof f);
    }
    l->loaded = 1;             /* h stays open for the life of the process */
}

int batch_dl_load(batch_dl_lib *l, const char **why)
{
    pthread_mutex_lock(&l->mu);
    if (!l->tried)
        open_lib(l);
    l->tried = 1;
    int loaded = l->loaded;
    pthread_mutex_unlock(&l->mu);
    *why = l->failure;
    return loaded ? 0 : -1;
}

/* Batch driver: libsqlite3, loaded by --format sqlite alone.
 *
 * Debian's libsqlite3 is linked with BIND_NOW: linked, the dynamic loader
 * would resolve its 1,238 function slots in every process, about 1.1 M
 * instructions of every run of adexp-parse, which --format sqlite alone
 * needs. So the library is compiled against sqlite3.h only, and
 * batch_libsqlite_load() opens it with dlopen when a run opens its
 * database, once for the process.
 *
 * The file loaded is ADEXP_LIBSQLITE_SONAME (libsqlite3's soname, found
 * when the build is configured: "libsqlite3.so.0" on Debian 12), or the
 * name or path in the environment variable ADEXP_LIBSQLITE when it is set
 * (ignored in set-user-ID programs); cli/sqlite_test.py names a file that
 * does not exist there to test the failure path.
 */
#ifndef BATCH_LIBSQLITE_H
#define BATCH_LIBSQLITE_H

#include <sqlite3.h>

/* The functions batch_sqlite.c calls, each typed as sqlite3.h declares
 * it; sqlite3_open_v2 is open_v2. */
#define BATCH_SQ_FN(name) __typeof__(sqlite3_##name) *name
typedef struct batch_libsqlite {
    BATCH_SQ_FN(open_v2);
    BATCH_SQ_FN(close);
    BATCH_SQ_FN(errmsg);
    BATCH_SQ_FN(exec);
    BATCH_SQ_FN(free);
    BATCH_SQ_FN(prepare_v2);
    BATCH_SQ_FN(step);
    BATCH_SQ_FN(reset);
    BATCH_SQ_FN(clear_bindings);
    BATCH_SQ_FN(finalize);
    BATCH_SQ_FN(column_int64);
    BATCH_SQ_FN(bind_null);
    BATCH_SQ_FN(bind_int64);
    BATCH_SQ_FN(bind_double);
    BATCH_SQ_FN(bind_text);
} batch_libsqlite;
#undef BATCH_SQ_FN

/* libsqlite3's functions: to be called only once batch_libsqlite_load()
 * has returned 0 (in this thread, or in one this thread synchronised with). */
extern batch_libsqlite batch_sq;

/* Loads libsqlite3, the first time. Returns 0, or -1 with *why set to a
 * message that names the file and gives dlerror()'s text (the same one to
 * every caller, for the life of the process). */
int batch_libsqlite_load(const char **why);

#endif

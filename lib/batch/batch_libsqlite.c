/* Batch driver: libsqlite3 opened with dlopen, once (see batch_libsqlite.h). */
#ifdef HAVE_SQLITE3
#include <stddef.h>

#include "batch_dl.h"
#include "batch_libsqlite.h"

#ifndef ADEXP_LIBSQLITE_SONAME
#define ADEXP_LIBSQLITE_SONAME "libsqlite3.so.0"
#endif

#define ENTRY(name) {"sqlite3_" #name, offsetof(batch_libsqlite, name)}
static const batch_dl_entry entries[] = {
    ENTRY(open_v2), ENTRY(close), ENTRY(errmsg), ENTRY(exec), ENTRY(free),
    ENTRY(prepare_v2), ENTRY(step), ENTRY(reset), ENTRY(clear_bindings),
    ENTRY(finalize), ENTRY(column_int64), ENTRY(bind_null), ENTRY(bind_int64),
    ENTRY(bind_double), ENTRY(bind_text),
};
#undef ENTRY
_Static_assert(sizeof entries / sizeof *entries ==
               sizeof(batch_libsqlite) / sizeof(void *),
               "every function of batch_libsqlite has its symbol");

batch_libsqlite batch_sq;
static batch_dl_lib lib = BATCH_DL_LIB("ADEXP_LIBSQLITE", ADEXP_LIBSQLITE_SONAME, "libsqlite3",
                                        entries, batch_sq);

int batch_libsqlite_load(const char **why)
{
    return batch_dl_load(&lib, why);
}
#endif

/* Batch driver: libarchive opened with dlopen, once (see batch_libarchive.h). */
#include <stddef.h>

#include "batch_dl.h"
#include "batch_libarchive.h"

#ifndef ADEXP_LIBARCHIVE_SONAME
#define ADEXP_LIBARCHIVE_SONAME "libarchive.so.13"
#endif

#define ENTRY(name) {"archive_" #name, offsetof(batch_libarchive, name)}
static const batch_dl_entry entries[] = {
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

batch_libarchive batch_la;
static batch_dl_lib lib = BATCH_DL_LIB("ADEXP_LIBARCHIVE", ADEXP_LIBARCHIVE_SONAME, "libarchive",
                                        entries, batch_la);

int batch_libarchive_load(const char **why)
{
    return batch_dl_load(&lib, why);
}

/* Batch driver: libarchive, loaded when the first input needs it.
 *
 * libarchive brings libxml2, ICU, libstdc++, nettle, lzma, zstd, lz4, bz2
 * and acl with it: linked, the dynamic loader relocates them all in every
 * process (4.4 M instructions, most of a run over one small file). So the
 * library is compiled against libarchive's headers only, and
 * batch_libarchive_load() opens it with dlopen on the first
 * compressed input or archive that zlib does not read (batch_gzip.c reads
 * plain gzip itself). Several workers may meet archives at once: the
 * loading is done once for the process.
 *
 * The file loaded is ADEXP_LIBARCHIVE_SONAME (libarchive's soname, found
 * when the build is configured: "libarchive.so.13" on Debian 12), or the
 * name or path in the environment variable ADEXP_LIBARCHIVE when it is set
 * (ignored in set-user-ID programs); cli/cli_test.py names a file that
 * does not exist there to test the failure path.
 */
#ifndef BATCH_LIBARCHIVE_H
#define BATCH_LIBARCHIVE_H

#include <archive.h>
#include <archive_entry.h>

/* The functions batch_archive.c calls, each typed as archive.h declares
 * it; archive_read_new is read_new. */
#define BATCH_LA_FN(name) __typeof__(archive_##name) *name
typedef struct batch_libarchive {
    BATCH_LA_FN(read_new);
    BATCH_LA_FN(read_support_filter_all);
    BATCH_LA_FN(read_support_format_tar);
    BATCH_LA_FN(read_support_format_gnutar);
    BATCH_LA_FN(read_support_format_zip);
    BATCH_LA_FN(read_support_format_raw);
    BATCH_LA_FN(read_open);
    BATCH_LA_FN(read_open_memory);
    BATCH_LA_FN(read_next_header);
    BATCH_LA_FN(read_data_block);
    BATCH_LA_FN(read_free);
    BATCH_LA_FN(format);
    BATCH_LA_FN(filter_count);
    BATCH_LA_FN(filter_bytes);
    BATCH_LA_FN(error_string);
    BATCH_LA_FN(set_error);
    BATCH_LA_FN(entry_pathname);
    BATCH_LA_FN(entry_pathname_utf8);
    BATCH_LA_FN(entry_filetype);
    BATCH_LA_FN(entry_hardlink);
    BATCH_LA_FN(entry_size);
    BATCH_LA_FN(entry_size_is_set);
} batch_libarchive;
#undef BATCH_LA_FN

/* libarchive's functions: to be called only once batch_libarchive_load()
 * has returned 0 (in this thread, or in one this thread synchronised with). */
extern batch_libarchive batch_la;

/* Loads libarchive, the first time. Returns 0, or -1 with *why set to a
 * message that names the file and gives dlerror()'s text (the same one to
 * every caller, for the life of the process). */
int batch_libarchive_load(const char **why);

#endif

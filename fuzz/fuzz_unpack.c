/* fuzz_unpack: compressed files and archives from hostile bytes. The input
 * is one buffer given to the batch driver, which knows gzip, zstd, xz,
 * bzip2, tar and zip by their first bytes and parses what they hold (seeds
 * in fuzz/corpus/fuzz_unpack). Nothing may crash, leak or over-read; the
 * run must end with every input counted. A plain member is parsed as a
 * stream, whose held bytes (a message) are bounded by max_file_size; a
 * packed one is read whole, bounded by it too (1 MiB here, so that a bomb
 * of nested archives stays cheap). */
#include <fcntl.h>
#include <unistd.h>

#include "adexp_batch.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int devnull = -1;
    if (devnull < 0)
        devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    FUZZ_CHECK(devnull >= 0);
    adexp_batch_options o = adexp_batch_options_default();
    o.jobs = 1;
    o.out_fd = devnull;
    o.err_fd = devnull;
    o.max_file_size = (size_t)1 << 20;
    adexp_batch *b = adexp_batch_new(&o);
    FUZZ_CHECK(b != NULL);
    FUZZ_CHECK(adexp_batch_add_buffer(b, "fuzz\n\x1b", (const char *)data, size) == 0);
    adexp_batch_stats st;
    int rc = adexp_batch_run(b, &st);
    FUZZ_CHECK(rc == 0 || rc == 1);
    FUZZ_CHECK(st.files == st.files_ok + st.files_failed);
    FUZZ_CHECK(st.files + st.skipped >= 1);     /* the buffer is accounted for */
    FUZZ_CHECK(st.messages_failed <= st.messages);
    FUZZ_CHECK((rc == 0) == (st.files_failed == 0));
    adexp_batch_free(b);
    return 0;
}

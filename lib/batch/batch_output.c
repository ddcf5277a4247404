/* Batch driver: writing the output, and what is left when that fails.
 *
 * Every byte written is counted, and so are the complete lines among
 * them (one per message in the JSON format). When a write fails (a full
 * disk, a closed pipe, /dev/full) and the output is a regular file, the
 * file is cut back to its last complete line: what is there can be read
 * line by line, and the counts say exactly how much it holds.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "batch_internal.h"

static void count(batch_output *o, const char *p, size_t n)
{
    const char *end = p + n, *nl;
    while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        o->lines++;
        o->partial = 0;
        p = nl + 1;
    }
    o->partial += (size_t)(end - p);
    o->bytes += n;
}

/* Cut a regular file back to its last complete line. */
static void cut_partial_line(batch_output *o)
{
    struct stat st;
    if (o->partial == 0 || fstat(o->fd, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    off_t end = lseek(o->fd, 0, SEEK_CUR);
    if (end >= (off_t)o->partial && ftruncate(o->fd, end - (off_t)o->partial) == 0) {
        lseek(o->fd, end - (off_t)o->partial, SEEK_SET);
        o->bytes -= o->partial;
        o->partial = 0;
    }
}

/* count() for iov[0..n), total bytes, written whole and known to hold
 * `lines` newlines: only the bytes after the last are read, back from the
 * end (none when it ends a line, as a block of JSON does). */
static void count_known(batch_output *o, const struct iovec *iov, int n, size_t total,
                        uint64_t lines)
{
    size_t after = 0;
    for (int i = n; lines > 0 && i > 0; i--) {
        const char *p = iov[i - 1].iov_base;
        size_t k = iov[i - 1].iov_len;
        while (k > 0 && p[k - 1] != '\n')
            k--, after++;
        if (k > 0)
            break;
    }
    if (lines == 0) {
        o->partial += total;
    } else {
        o->lines += lines;
        o->partial = after;
    }
    o->bytes += total;
}

/* The output handed to o->fn instead of written. */
static int hand_over(batch_output *o, const struct iovec *iov, int n)
{
    for (int i = 0; i < n; i++) {
        if (o->fn(o->ctx, iov[i].iov_base, iov[i].iov_len) != 0)
            return o->error = ECANCELED;
        count(o, iov[i].iov_base, iov[i].iov_len);
    }
    return 0;
}

int batch_output_writev(batch_output *o, struct iovec *iov, int n, uint64_t lines)
{
    if (o->error)
        return o->error;
    if (o->fn)
        return hand_over(o, iov, n);
    size_t total = 0;
    for (int i = 0; i < n; i++)
        total += iov[i].iov_len;
    while (n > 0) {
        ssize_t w = writev(o->fd, iov, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            o->error = w < 0 ? errno : EIO;
            cut_partial_line(o);
            return o->error;
        }
        if ((size_t)w == total && lines != BATCH_LINES_UNKNOWN) {
            count_known(o, iov, n, total, lines);
            return 0;
        }
        lines = BATCH_LINES_UNKNOWN;   /* after a short write: counted as written */
        for (; n > 0 && (size_t)w >= iov->iov_len; iov++, n--) {
            count(o, iov->iov_base, iov->iov_len);
            w -= (ssize_t)iov->iov_len;
        }
        if (n > 0 && w > 0) {
            count(o, iov->iov_base, (size_t)w);
            iov->iov_base = (char *)iov->iov_base + w;
            iov->iov_len -= (size_t)w;
        }
    }
    return 0;
}

int batch_output_write(batch_output *o, const char *p, size_t n, uint64_t lines)
{
    struct iovec v = {(void *)p, n};
    return batch_output_writev(o, &v, 1, lines);
}

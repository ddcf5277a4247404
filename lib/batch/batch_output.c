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
#include "simd.h"

/* The newlines in p[0..n): 64 bytes a turn (128 with AVX2), the compares
 * summed in byte lanes (at most 4 a turn, 63 turns, then added up, as
 * lines.c does), not a memchr a line, which the many short lines of an
 * output that is not a line a message (ADEXP's IFPS layout) make the most
 * of its cost. */
#if SIMD_AVX2
/* newlines for the CPUs with AVX2: 128 bytes a turn, from *at on while
 * they last (*at moved past them). */
__attribute__((target(AVX2_TARGET))) static uint64_t newlines_avx2(const char *p, size_t n,
                                                                  size_t *at)
{
    uint64_t k = 0;
    size_t i = *at;
    const __m256i lf = _mm256_set1_epi8('\n'), zero = _mm256_setzero_si256();
    while (i + 128 <= n) {
        size_t stop = n - i > 128 * 63 ? i + 128 * 63 : n;
        __m256i acc = zero;
        for (; i + 128 <= stop; i += 128) {
            __m256i a = _mm256_add_epi8(_mm256_cmpeq_epi8(simd_load32(p + i), lf),
                                        _mm256_cmpeq_epi8(simd_load32(p + i + 32), lf));
            __m256i b = _mm256_add_epi8(_mm256_cmpeq_epi8(simd_load32(p + i + 64), lf),
                                        _mm256_cmpeq_epi8(simd_load32(p + i + 96), lf));
            acc = _mm256_sub_epi8(acc, _mm256_add_epi8(a, b));
        }
        __m256i sum = _mm256_sad_epu8(acc, zero);
        __m128i s2 = _mm_add_epi64(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        k += (uint64_t)_mm_cvtsi128_si64(s2) +
             (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(s2, s2));
    }
    *at = i;
    return k;
}
#endif

static uint64_t newlines(const char *p, size_t n)
{
    uint64_t k = 0;
    size_t i = 0;
#if SIMD_AVX2
    if (n >= 128 && cpu_has_avx2())
        k = newlines_avx2(p, n, &i);
#endif
#if SIMD_SSE2
    const __m128i lf = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
    while (i + 64 <= n) {
        size_t stop = n - i > 64 * 63 ? i + 64 * 63 : n;
        __m128i acc = zero;
        for (; i + 64 <= stop; i += 64) {
            __m128i a = _mm_add_epi8(_mm_cmpeq_epi8(simd_load16(p + i), lf),
                                     _mm_cmpeq_epi8(simd_load16(p + i + 16), lf));
            __m128i b = _mm_add_epi8(_mm_cmpeq_epi8(simd_load16(p + i + 32), lf),
                                     _mm_cmpeq_epi8(simd_load16(p + i + 48), lf));
            acc = _mm_sub_epi8(acc, _mm_add_epi8(a, b));
        }
        __m128i sum = _mm_sad_epu8(acc, zero);
        k += (uint64_t)_mm_cvtsi128_si64(sum) +
             (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(sum, sum));
    }
#endif
    for (; i < n; i++)
        k += p[i] == '\n';
    return k;
}

static void count(batch_output *o, const char *p, size_t n)
{
    uint64_t k = newlines(p, n);
    if (k) {
        size_t after = 0;          /* the bytes after the last newline, read back */
        while (p[n - 1 - after] != '\n')
            after++;
        o->lines += k;
        o->partial = after;
    } else {
        o->partial += n;
    }
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

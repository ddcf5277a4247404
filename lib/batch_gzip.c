/* Batch driver: gzip data in memory, decompressed as a batch_reader.
 *
 * zlib itself, not libarchive's gzip filter: that filter checks neither
 * the CRC nor the length in a member's trailer, so a corrupt file could
 * come out short with no word. Here inflate checks both; members follow
 * one another (as `cat a.gz b.gz` makes); anything after the last member
 * but zero padding is an error, with its byte offset.
 */
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "batch_internal.h"

static int gzip_magic(const unsigned char *p, size_t n)
{
    return n >= 2 && p[0] == 0x1F && p[1] == 0x8B;
}

static size_t consumed(const batch_gzip *g)
{
    return g->len - g->z.avail_in;
}

static ssize_t fail_at(batch_gzip *g, const char *what)
{
    snprintf(g->r.error, sizeof g->r.error,
             "%s at byte %zu of the gzip data (byte %llu decompressed)%s%s", what,
             consumed(g), (unsigned long long)g->out_total,
             g->z.msg ? ": " : "", g->z.msg ? g->z.msg : "");
    return -1;
}

/* After a member's end: the next member, zero padding, or garbage. */
static int next_member(batch_gzip *g)
{
    const unsigned char *p = g->z.next_in;
    size_t n = g->z.avail_in;
    if (gzip_magic(p, n))
        return inflateReset(&g->z) == Z_OK ? 1 : -1;
    for (size_t i = 0; i < n; i++)
        if (p[i] != 0)
            return -1;
    g->done = 1;
    return 0;
}

static ssize_t gzip_read(batch_reader *r, char *buf, size_t cap)
{
    batch_gzip *g = (batch_gzip *)r;
    if (g->done || cap == 0)
        return 0;
    g->z.next_out = (unsigned char *)buf;
    g->z.avail_out = cap > UINT32_MAX ? UINT32_MAX : (uInt)cap;
    const char *why = NULL;
    while (g->z.avail_out > 0 && !g->done && !why) {
        unsigned char *from = g->z.next_out;
        int rc = inflate(&g->z, Z_NO_FLUSH);
        g->out_total += (size_t)(g->z.next_out - from);
        if (rc == Z_STREAM_END) {
            if (next_member(g) < 0)
                why = "data that is not gzip after the last member";
        } else if (rc == Z_BUF_ERROR || (rc == Z_OK && g->z.avail_in == 0 &&
                                         g->z.avail_out > 0)) {
            why = "truncated gzip data: it ends";   /* all of it is in memory */
        } else if (rc != Z_OK) {
            why = "corrupt gzip data";
        }
    }
    if (why)
        return fail_at(g, why);
    return (ssize_t)(g->z.next_out - (unsigned char *)buf);
}

static void gzip_close(batch_reader *r)
{
    inflateEnd(&((batch_gzip *)r)->z);
}

int batch_gzip_open(batch_gzip *g, const char *data, size_t len)
{
    memset(g, 0, sizeof *g);
    g->r.read = gzip_read;
    g->r.close = gzip_close;
    g->len = len;
    g->z.next_in = (unsigned char *)(uintptr_t)data;
    g->z.avail_in = len > UINT32_MAX ? UINT32_MAX : (uInt)len;
    if (len > UINT32_MAX) {
        snprintf(g->r.error, sizeof g->r.error, "gzip data larger than 4 GiB");
        return -1;
    }
    /* 15 + 16: gzip wrapper only, CRC-32 and length checked. */
    if (inflateInit2(&g->z, 15 + 16) != Z_OK) {
        snprintf(g->r.error, sizeof g->r.error, "out of memory");
        return -1;
    }
    return 0;
}

int batch_is_gzip(const char *data, size_t len)
{
    return gzip_magic((const unsigned char *)data, len);
}

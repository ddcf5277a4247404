/* Batch driver: gzip data, in memory or pulled from another reader (a
 * compressed standard input), decompressed as a batch_reader.
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

static uint64_t consumed(const batch_gzip *g)
{
    return g->in_total - g->z.avail_in;
}

/* From a source reader: at least need bytes in, unless the source ends.
 * Returns 0, or -1 when the source failed (r.error set). */
static int fill(batch_gzip *g, size_t need)
{
    if (!g->src || g->z.avail_in >= need)
        return 0;
    memmove(g->inbuf, g->z.next_in, g->z.avail_in);
    g->z.next_in = g->inbuf;
    while (g->z.avail_in < need) {
        ssize_t n = g->src->read(g->src, (char *)g->inbuf + g->z.avail_in,
                                 sizeof g->inbuf - g->z.avail_in);
        if (n < 0) {
            memcpy(g->r.error, g->src->error, sizeof g->r.error);
            return -1;
        }
        if (n == 0)
            break;
        g->z.avail_in += (uInt)n;
        g->in_total += (uint64_t)n;
    }
    return 0;
}

static ssize_t fail_at(batch_gzip *g, const char *what)
{
    snprintf(g->r.error, sizeof g->r.error,
             "%s at byte %llu of the gzip data (byte %llu decompressed)%s%s", what,
             (unsigned long long)consumed(g), (unsigned long long)g->out_total,
             g->z.msg ? ": " : "", g->z.msg ? g->z.msg : "");
    return -1;
}

/* After a member's end: the next member, zero padding, or garbage
 * (-1; -2 when the source failed). */
static int next_member(batch_gzip *g)
{
    if (fill(g, 2) != 0)
        return -2;
    if (gzip_magic(g->z.next_in, g->z.avail_in))
        return inflateReset(&g->z) == Z_OK ? 1 : -1;
    do {
        for (size_t i = 0; i < g->z.avail_in; i++)
            if (g->z.next_in[i] != 0)
                return -1;
        g->z.next_in += g->z.avail_in;
        g->z.avail_in = 0;
        if (fill(g, 1) != 0)
            return -2;
    } while (g->z.avail_in);
    g->done = 1;
    return 0;
}

/* Inflate into buf[0..cap): the count, or -1 (r.error set) with what was
 * inflated before the fault at g->z.next_out. */
static ssize_t inflate_some(batch_gzip *g, char *buf, size_t cap)
{
    g->z.next_out = (unsigned char *)buf;
    g->z.avail_out = cap > UINT32_MAX ? UINT32_MAX : (uInt)cap;
    const char *why = NULL;
    while (g->z.avail_out > 0 && !g->done && !why) {
        /* From a source, what its bytes so far give goes out before
         * waiting for more: a live feed's messages are not held back. */
        if (g->src && g->z.avail_in == 0 && g->z.next_out != (unsigned char *)buf)
            break;
        if (fill(g, 1) != 0)
            return -1;
        unsigned char *from = g->z.next_out;
        int rc = inflate(&g->z, Z_NO_FLUSH);
        g->out_total += (size_t)(g->z.next_out - from);
        if (rc == Z_STREAM_END) {
            int next = next_member(g);
            if (next == -2)
                return -1;
            if (next < 0)
                why = "data that is not gzip after the last member";
        } else if (rc == Z_BUF_ERROR || (rc == Z_OK && g->z.avail_in == 0 &&
                                         g->z.avail_out > 0)) {
            if (fill(g, 1) != 0)
                return -1;
            if (g->z.avail_in == 0)   /* all of it is in (memory, or the source ended) */
                why = "truncated gzip data: it ends";
        } else if (rc != Z_OK) {
            why = "corrupt gzip data";
        }
    }
    if (why)
        return fail_at(g, why);
    return (ssize_t)(g->z.next_out - (unsigned char *)buf);
}

/* The bytes inflated before a fault are given out first, and the fault
 * at the next read: the messages they end are whole. */
static ssize_t gzip_read(batch_reader *r, char *buf, size_t cap)
{
    batch_gzip *g = (batch_gzip *)r;
    if (g->failed)
        return -1;
    if (g->done || cap == 0)
        return 0;
    ssize_t n = inflate_some(g, buf, cap);
    size_t made = (size_t)(g->z.next_out - (unsigned char *)buf);
    if (n < 0)
        g->failed = 1;
    return n < 0 && made > 0 ? (ssize_t)made : n;
}

static void gzip_close(batch_reader *r)
{
    inflateEnd(&((batch_gzip *)r)->z);
}

static uint64_t gzip_packed(batch_reader *r)
{
    return consumed((batch_gzip *)r);
}

int batch_gzip_open(batch_gzip *g, const char *data, size_t len)
{
    memset(g, 0, sizeof *g);
    g->r.read = gzip_read;
    g->r.close = gzip_close;
    g->r.packed = gzip_packed;
    g->in_total = len;
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

int batch_gzip_open_reader(batch_gzip *g, batch_reader *src)
{
    memset(g, 0, sizeof *g);
    g->r.packed = gzip_packed;
    g->r.read = gzip_read;
    g->r.close = gzip_close;
    g->src = src;
    g->z.next_in = g->inbuf;
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

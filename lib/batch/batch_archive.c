/* Batch driver: compressed files and archives, read with libarchive
 * (loaded on the first of them: batch_libarchive.c).
 *
 * An input is recognised by its first bytes, never by its name: gzip,
 * zstd, xz and bzip2 streams are decompressed and parsed under the input's
 * own name; tar (plain or compressed) and zip archives give one input per
 * regular member, named "ARCHIVE:MEMBER", in archive order. A member that
 * is itself compressed or an archive is opened the same way, up to
 * MAX_NESTING levels. Each member is a batch_reader: its first bytes are
 * read to tell what it is, and a plain one is parsed as a stream
 * (batch_stream.c) from those bytes on, so that what is held is one
 * message, not the member. A packed member is read whole (bounded by
 * max_file_size, when one is set) and opened in memory. A big member whose
 * bytes lie whole in an archive held in memory (a plain tar's, a zip's
 * stored one) is read where it lies, as a mapped file is (lies_whole_in).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_internal.h"
#include "batch_libarchive.h"
#include "batch_reader.h"
#include "batch_readahead.h"

#define MAX_NESTING 4          /* an archive in an archive in ... */
#define TAR_BLOCK 512
#define PROBE 4096             /* first bytes read to tell a member's kind */
#define AHEAD_MIN ((size_t)1 << 20)   /* decompressed on a thread of its own
                                         from this size on (batch_readahead.c) */
#define IN_PLACE_MIN ((size_t)1 << 20)   /* a member read where it lies in memory
                                            from this size on (lies_whole_in) */

/* A tar header block: "ustar" at 257 and a checksum that adds up (the sum
 * of its bytes with the checksum field read as spaces). */
static int is_tar(const unsigned char *p, size_t n)
{
    if (n < TAR_BLOCK || p[257] != 'u' || memcmp(p + 257, "ustar", 5) != 0)
        return 0;
    unsigned sum = 0, want = 0;
    for (size_t i = 0; i < TAR_BLOCK; i++)
        sum += i >= 148 && i < 156 ? ' ' : p[i];
    for (size_t i = 148; i < 156 && p[i] >= '0' && p[i] <= '7'; i++)
        want = want * 8 + (unsigned)(p[i] - '0');
    return sum == want;
}

/* By the first byte first: this runs for every input, and a plain one
 * (ADEXP starts with '-' or a separator) then costs one switch and the tar
 * check. */
int batch_packed_kind(const char *data, size_t n)
{
    const unsigned char *p = (const unsigned char *)data;
    static const unsigned char xz[6] = {0xFD, '7', 'z', 'X', 'Z', 0};
    int compressed = 0;
    switch (n ? p[0] : 0) {
    case 0x1F:
        compressed = n >= 2 && p[1] == 0x8B;                          /* gzip */
        break;
    case 0x28:
        compressed = n >= 4 && memcmp(p, "\x28\xB5\x2F\xFD", 4) == 0;  /* zstd */
        break;
    case 0xFD:
        compressed = n >= 6 && memcmp(p, xz, 6) == 0;                  /* xz */
        break;
    case 'B':
        compressed = n >= 10 && memcmp(p, "BZh", 3) == 0 && p[3] >= '1' && p[3] <= '9' &&
                     memcmp(p + 4, "\x31\x41\x59\x26\x53\x59", 6) == 0;   /* bzip2 */
        break;
    case 'P':
        if (n >= 4 && (memcmp(p, "PK\3\4", 4) == 0 || memcmp(p, "PK\5\6", 4) == 0))
            return BATCH_ARCHIVE;                                       /* zip */
        break;
    }
    if (compressed)
        return BATCH_COMPRESSED;
    if (is_tar(p, n))
        return BATCH_ARCHIVE;
    return BATCH_PLAIN;
}

int adexp_batch_is_packed(const char *data, size_t len)
{
    return batch_packed_kind(data, len) != BATCH_PLAIN;
}

/* The current member of an open archive, as a reader. Blocks are taken
 * from libarchive as it decodes them (no copy of its own) and handed out. */
typedef struct member_reader {
    batch_reader r;
    struct archive *a;
    const char *blk;           /* what is left of the current block */
    size_t blk_len;
    int64_t offset;            /* bytes of the member handed out so far */
    int64_t next;              /* member offset of blk (sparse members skip) */
    int fatal;                 /* failed so that the archive cannot be read on */
    int failed;                /* failed: r.error says why, each call after */
} member_reader;

/* The member's next block in m->blk (1; or a hole before it), its end (0),
 * or a failure (-1, r.error set). */
static int member_fill(member_reader *m)
{
    if (m->failed)
        return -1;
    while (m->blk_len == 0 && m->next <= m->offset) {
        const void *blk;
        size_t size;
        la_int64_t off;
        int rc = batch_la.read_data_block(m->a, &blk, &size, &off);
        if (rc == ARCHIVE_EOF)
            return 0;
        /* A warning is a check that failed (a zip member's CRC or size):
         * the member is damaged, but the archive can be read on. */
        if (rc != ARCHIVE_OK) {
            snprintf(m->r.error, sizeof m->r.error,
                     "corrupt or truncated data at byte %lld of the member: %s",
                     (long long)m->offset, batch_la.error_string(m->a));
            m->fatal = rc < ARCHIVE_WARN;
            m->failed = 1;
            return -1;
        }
        m->blk = blk, m->blk_len = size, m->next = off;
    }
    return 1;
}

static ssize_t member_read(batch_reader *r, char *buf, size_t cap)
{
    member_reader *m = (member_reader *)r;
    int f = member_fill(m);
    if (f <= 0)
        return f;
    size_t n;
    if (m->next > m->offset) {          /* a hole of a sparse member: zeros */
        n = (size_t)(m->next - m->offset) < cap ? (size_t)(m->next - m->offset) : cap;
        memset(buf, 0, n);
    } else {
        n = m->blk_len < cap ? m->blk_len : cap;
        memcpy(buf, m->blk, n);
        m->blk += n, m->blk_len -= n, m->next += (int64_t)n;
    }
    m->offset += (int64_t)n;
    return (ssize_t)n;
}

/* A buffer that holds one member at a time. */
typedef struct member_buf {
    char *data;
    size_t len, cap;
} member_buf;

static void member_buf_free(member_buf *mb)
{
    batch_pages_free(mb->data, mb->cap);
    *mb = (member_buf){0};
}

/* Read r on into mb, up to limit bytes in all (and stop early once want
 * are in). Returns 0; 1 when the input is larger than limit; -1 on
 * failure (r->error says why). mb never holds more than limit + 1 bytes. */
static int read_upto(batch_reader *r, member_buf *mb, size_t limit, size_t want)
{
    if (limit < SIZE_MAX && want > limit + 1)
        want = limit + 1;      /* one more than allowed tells "too large" */
    while (mb->len < want) {
        if (mb->cap - mb->len < (1 << 16)) {
            size_t cap = mb->cap ? mb->cap * 2 : 1 << 20;
            if (limit < SIZE_MAX && cap > limit + 1)
                cap = limit + 1 > mb->cap ? limit + 1 : mb->cap;
            char *p = batch_pages_grow(mb->data, mb->cap, cap);
            if (!p) {
                snprintf(r->error, sizeof r->error, "out of memory");
                return -1;
            }
            mb->data = p;
            mb->cap = cap;
        }
        size_t room = mb->cap - mb->len;
        ssize_t n = r->read(r, mb->data + mb->len, room < want - mb->len ? room : want - mb->len);
        if (n < 0)
            return -1;
        if (n == 0)
            return 0;
        mb->len += (size_t)n;
        if (mb->len > limit)
            return 1;
    }
    return 0;
}

/* A reader that gives the bytes already read from another, then the
 * rest of it (the other is closed by its owner). When the other failed
 * while they were read (rest_failed), the head is followed by its error:
 * the messages the head holds whole still come out. */
typedef struct prefix_reader {
    batch_reader r;
    batch_reader *rest;
    const char *head;
    size_t len;
    int rest_failed;           /* rest failed before: its error follows the head */
    int failed;                /* rest failed */
} prefix_reader;

static ssize_t prefix_read(batch_reader *r, char *buf, size_t cap)
{
    prefix_reader *p = (prefix_reader *)r;
    if (p->len) {
        size_t n = p->len < cap ? p->len : cap;
        memcpy(buf, p->head, n);
        p->head += n, p->len -= n;
        return (ssize_t)n;
    }
    ssize_t n = p->rest_failed ? -1 : p->rest->read(p->rest, buf, cap);
    if (n < 0) {
        memcpy(r->error, p->rest->error, sizeof r->error);
        p->failed = 1;
    }
    return n;
}

static uint64_t prefix_packed(batch_reader *r)
{
    batch_reader *rest = ((prefix_reader *)r)->rest;
    return rest->packed ? rest->packed(rest) : 0;
}

static int prefix_idle(batch_reader *r, int ms)
{
    prefix_reader *p = (prefix_reader *)r;
    return !p->len && p->rest->idle && p->rest->idle(p->rest, ms);
}

/* libarchive's input, pulled from a batch_reader in blocks. */
typedef struct source {
    batch_reader *r;
    char blk[1 << 16];
} source;

static la_ssize_t source_read(struct archive *a, void *ctx, const void **out)
{
    source *s = ctx;
    ssize_t n = s->r->read(s->r, s->blk, sizeof s->blk);
    if (n < 0) {
        batch_la.set_error(a, EIO, "%s", s->r->error);
        return -1;
    }
    *out = s->blk;
    return n;
}

/* An archive reader (every filter; tar, zip, and raw for a compressed
 * file), or NULL when path failed (reported: libarchive cannot be loaded,
 * or no memory). */
static struct archive *new_archive(batch_worker *w, const char *path)
{
    const char *why;
    if (batch_libarchive_load(&why) != 0) {
        batch_fail(w, path, why);
        return NULL;
    }
    struct archive *a = batch_la.read_new();
    if (!a) {
        batch_fail(w, path, "out of memory");
        return NULL;
    }
    batch_la.read_support_filter_all(a);
    batch_la.read_support_format_tar(a);
    batch_la.read_support_format_gnutar(a);
    batch_la.read_support_format_zip(a);
    batch_la.read_support_format_raw(a);   /* a compressed single file */
    return a;
}

/* "ARCHIVE:MEMBER", or the archive's own name for a compressed file. */
static char *member_name(const char *archive, struct archive *a,
                         struct archive_entry *e)
{
    if (batch_la.format(a) == ARCHIVE_FORMAT_RAW)
        return strdup(archive);
    const char *m = batch_la.entry_pathname(e);
    if (!m)
        m = batch_la.entry_pathname_utf8(e);
    if (!m)
        m = "?";
    size_t la = strlen(archive), lm = strlen(m);
    char *s = malloc(la + lm + 2);
    if (s) {
        memcpy(s, archive, la);
        s[la] = ':';
        memcpy(s + la + 1, m, lm + 1);
    }
    return s;
}

static void unpack(batch_worker *w, const char *path, const char *data,
                   size_t len, int depth);

/* Why a member that is not a regular file is left out; NULL for a
 * regular file, and for a directory, which is only the place of the
 * members under it. */
static const char *skip_reason(struct archive_entry *e)
{
    switch (batch_la.entry_filetype(e)) {
    case AE_IFREG:
        return batch_la.entry_hardlink(e) ? "hard link member: skipped" : NULL;
    case AE_IFDIR:
        return NULL;
    case AE_IFLNK:
        return "symbolic link member: skipped";
    default:
        return "special file member (not a regular file): skipped";
    }
}

/* Whether the bytes of an input found at nesting depth are opened again:
 * packed themselves, and not nested too deep. */
static int opened_again(const char *data, size_t len, int depth)
{
    return len && batch_packed_kind(data, len) != BATCH_PLAIN && depth < MAX_NESTING;
}

/* The bytes of one input: opened again if they are packed themselves (in
 * a buffer of their own: mb is reused by the caller), or parsed. */
static void parse_or_unpack(batch_worker *w, const char *name, member_buf *mb,
                            int depth)
{
    if (opened_again(mb->data, mb->len, depth)) {
        member_buf inner = *mb;
        *mb = (member_buf){0};
        unpack(w, name, inner.data, inner.len, depth + 1);
        member_buf_free(&inner);
        return;
    }
    batch_parse_input(w, name, mb->data, mb->len);
}

/* Read all of r (named name) into mb, after the bytes it holds, and parse
 * it or open it. Returns 0, or -1 when r failed (reported). */
static int take_whole(batch_worker *w, const char *name, batch_reader *r,
                      member_buf *mb, int depth)
{
    int rc = read_upto(r, mb, w->b->o.max_file_size, SIZE_MAX);
    if (rc < 0) {
        batch_fail(w, name, r->error);
        return -1;
    }
    if (rc > 0) {
        char why[96];
        snprintf(why, sizeof why,
                 "too large once decompressed (more than --max-file-size %zu bytes)",
                 w->b->o.max_file_size);
        batch_fail(w, name, why);
        return 0;
    }
    parse_or_unpack(w, name, mb, depth);
    return 0;
}

/* Whether an input of size bytes (0: not known), whose packed bytes are
 * held in memory (mem_len of them; 0: they come from a stream), is
 * decompressed on a thread of its own while the worker parses: with more
 * than one worker (-j 1 is one thread), and when it is worth a thread. */
static int read_ahead(const batch_worker *w, uint64_t size, size_t mem_len)
{
    return w->b->o.jobs > 1 && mem_len && (size ? size : mem_len) >= AHEAD_MIN;
}

/* The stream parse of a plain text whose first bytes are in mb, the rest
 * in r (rest_failed: r failed after them), read ahead or not. Returns 0,
 * or -1 when r failed (reported). */
static int take_stream(batch_worker *w, const char *name, batch_reader *r,
                       member_buf *mb, int rest_failed, int ahead)
{
    batch_readahead ra;
    if (ahead && !rest_failed && batch_readahead_open(&ra, r) == 0)
        r = &ra.r;
    else
        ahead = 0;
    prefix_reader p = {.r = {.read = prefix_read, .packed = prefix_packed}, .rest = r,
                       .head = mb->data, .len = mb->len, .rest_failed = rest_failed};
    batch_stream_parse(w, name, &p.r, 0);
    if (ahead)
        batch_readahead_close(&ra);
    return p.failed ? -1 : 0;
}

/* Parse r (named name): as a stream when its first bytes are plain text
 * (read ahead when `ahead`), else whole. Returns 0, or -1 when r failed
 * (reported). */
static int take(batch_worker *w, const char *name, batch_reader *r,
                member_buf *mb, int depth, int ahead)
{
    mb->len = 0;
    int rc = read_upto(r, mb, SIZE_MAX, PROBE);
    int packed = opened_again(mb->data, mb->len, depth);
    if (rc < 0 && (mb->len == 0 || packed)) {
        batch_fail(w, name, r->error);
        return -1;
    }
    if (rc == 0 && mb->len < PROBE && mb->len <= w->b->o.max_file_size) {
        parse_or_unpack(w, name, mb, depth);       /* all of it is in */
        return 0;
    }
    if (packed)
        return take_whole(w, name, r, mb, depth);
    return take_stream(w, name, r, mb, rc < 0, ahead);
}

/* The archive's bytes, when it was opened from memory (mem: NULL when it
 * is read from a stream; len: how many are in memory, 0 for none). */
typedef struct archive_mem {
    const char *data;
    size_t len;
} archive_mem;

/* Whether the member m of size bytes, its first block taken, lies whole in
 * the archive's bytes in memory (a plain tar's member, a zip's stored one):
 * then it is read there as a file mapped is (the same checks, and cut
 * across the pool), not copied out as a stream. */
static int lies_whole_in(const member_reader *m, uint64_t size, archive_mem mem)
{
    uintptr_t at = (uintptr_t)m->blk - (uintptr_t)mem.data;
    return m->offset == 0 && m->next == 0 && m->blk_len == size &&
           (uintptr_t)m->blk >= (uintptr_t)mem.data && at <= mem.len && size <= mem.len - at;
}

/* One member: skipped or parsed. Returns -1 when its data is corrupt so
 * that the archive cannot be read on (reported). */
static int do_member(batch_worker *w, struct archive *a, struct archive_entry *e,
                     const char *name, member_buf *mb, int depth, archive_mem mem)
{
    const char *skip = skip_reason(e);
    if (skip || batch_la.entry_filetype(e) == AE_IFDIR) {
        if (skip)
            batch_note(w, name, skip), w->skipped++;
        return 0;
    }
    member_reader mr = {.r = {.read = member_read}, .a = a};
    uint64_t size = batch_la.entry_size_is_set(e) && batch_la.entry_size(e) > 0
                        ? (uint64_t)batch_la.entry_size(e) : 0;
    /* only from IN_PLACE_MIN on, as only files that big are mapped */
    if (mem.data && size >= IN_PLACE_MIN && member_fill(&mr) == 1 &&
        lies_whole_in(&mr, size, mem)) {
        if (opened_again(mr.blk, size, depth))
            unpack(w, name, mr.blk, size, depth + 1);
        else
            batch_parse_input(w, name, mr.blk, size);
        return 0;
    }
    take(w, name, &mr.r, mb, depth, read_ahead(w, size, mem.len));
    return mr.fatal ? -1 : 0;
}

/* Every member of archive a, named after path. */
static void walk_archive(batch_worker *w, const char *path, struct archive *a,
                         int depth, archive_mem mem)
{
    member_buf mb = {0};
    struct archive_entry *e;
    size_t members = 0;
    int rc;
    char *last = NULL;
    while ((rc = batch_la.read_next_header(a, &e)) == ARCHIVE_OK || rc == ARCHIVE_WARN) {
        if (batch_la.format(a) == ARCHIVE_FORMAT_RAW && batch_la.filter_count(a) <= 1) {
            rc = ARCHIVE_OK;   /* only the raw bytes: the header was not valid */
            batch_fail(w, path, "compressed data with a header that cannot be read");
            break;
        }
        free(last);
        if (!(last = member_name(path, a, e))) {
            batch_fail(w, path, "out of memory");
            break;
        }
        members += batch_la.entry_filetype(e) != AE_IFDIR;   /* a directory is a place */
        if (do_member(w, a, e, last, &mb, depth, mem) != 0) {
            rc = ARCHIVE_OK;   /* reported with the member's name */
            break;
        }
    }
    if (rc != ARCHIVE_EOF && rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
        char why[512];
        snprintf(why, sizeof why, "corrupt or truncated archive %s%s, at byte %lld "
                 "of the uncompressed archive: %s",
                 last ? "after member " : "before its first member",
                 last ? last + strlen(path) + 1 : "",
                 (long long)batch_la.filter_bytes(a, 0), batch_la.error_string(a));
        batch_fail(w, path, why);
    } else if (members == 0 && rc == ARCHIVE_EOF) {
        batch_fail(w, path, "archive with no member (directories only, or none)");
    }
    free(last);
    member_buf_free(&mb);
}

/* libarchive over the stream rd: each member parsed as a stream. mem_len:
 * the bytes rd unpacks, when they are in memory (a mapped .tar.gz: its
 * members are read ahead as an archive's in memory are), else 0. */
static void walk_stream(batch_worker *w, const char *path, batch_reader *rd,
                        int depth, size_t mem_len)
{
    struct archive *a = new_archive(w, path);
    if (!a)
        return;
    source *src = malloc(sizeof *src);
    if (!src) {
        batch_fail(w, path, "out of memory");
    } else {
        src->r = rd;
        batch_la.read_open(a, src, NULL, source_read, NULL);
        walk_archive(w, path, a, depth, (archive_mem){NULL, mem_len});
    }
    free(src);
    batch_la.read_free(a);
}

/* gzip data: zlib's own reader (see batch_gzip.c). A plain text inside is
 * parsed at once; an archive inside goes to libarchive through the reader. */
static void unpack_gzip(batch_worker *w, const char *path, const char *data,
                        size_t len, int depth)
{
    batch_gzip g;
    member_buf mb = {0};
    int kind = BATCH_PLAIN;
    if (batch_gzip_open(&g, data, len) != 0) {
        batch_fail(w, path, g.r.error);
        return;
    }
    /* The first bytes tell a tar inside; a reader does not go back, so a
     * second one starts over (inflating 4 KiB again costs nothing). */
    int rc = read_upto(&g.r, &mb, SIZE_MAX, 4096);
    if (rc == 0)
        kind = batch_packed_kind(mb.data, mb.len);
    g.r.close(&g.r);
    if (rc == 0 && kind != BATCH_PLAIN && depth < MAX_NESTING) {
        member_buf_free(&mb);
        if (batch_gzip_open(&g, data, len) != 0) {
            batch_fail(w, path, g.r.error);
            return;
        }
        walk_stream(w, path, &g.r, depth, len);
        g.r.close(&g.r);
        return;
    }
    if (batch_gzip_open(&g, data, len) != 0)
        batch_fail(w, path, g.r.error);
    else
        take(w, path, &g.r, &mb, depth, read_ahead(w, 0, len));
    g.r.close(&g.r);
    member_buf_free(&mb);
}

/* Every member of the packed bytes data[0..len), named after path. */
static void unpack(batch_worker *w, const char *path, const char *data,
                   size_t len, int depth)
{
    if (batch_is_gzip(data, len)) {
        unpack_gzip(w, path, data, len, depth);
        return;
    }
    struct archive *a = new_archive(w, path);
    if (!a)
        return;
    batch_la.read_open_memory(a, data, len);   /* a failure shows at the first header */
    walk_archive(w, path, a, depth, (archive_mem){data, len});
    batch_la.read_free(a);
}

void batch_unpack(batch_worker *w, const char *path, const char *data, size_t len)
{
    unpack(w, path, data, len, 1);
}

/* Whether the first bytes p[0..n) of a stream may still turn out packed
 * with more of them: a prefix of a magic number, or of a tar header (a
 * name, not ADEXP's '-' or a separator, and fewer than its 512 bytes). */
static int may_be_packed(const unsigned char *p, size_t n)
{
    static const char *const magic[] = {"\x1f\x8b", "\x28\xb5\x2f\xfd", "\xfd\x37zXZ",
                                        "BZh", "PK\3\4", "PK\5\6"};
    for (size_t i = 0; i < sizeof magic / sizeof *magic; i++)
        if (n < strlen(magic[i]) && memcmp(p, magic[i], n) == 0)
            return 1;
    if (n >= 3 && memcmp(p, "BZh", 3) == 0 && n < 10)
        return 1;
    return n < TAR_BLOCK && p[0] != '-' && p[0] != ' ' && p[0] != '\t' &&
           p[0] != '\r' && p[0] != '\n';
}

/* The first bytes of rd into mb: as few as tell whether it is packed.
 * Returns its kind, or -1 when rd failed (reported). */
static int probe_stream(batch_worker *w, const char *path, batch_reader *rd,
                        member_buf *mb)
{
    enum { CAP = 1 << 16 };            /* one read's worth, kept for the parse */
    if (!(mb->data = batch_pages_grow(NULL, 0, CAP))) {
        batch_fail(w, path, "out of memory");
        return -1;
    }
    mb->cap = CAP;
    while (mb->len < CAP &&
           (mb->len == 0 || may_be_packed((const unsigned char *)mb->data, mb->len))) {
        ssize_t n = rd->read(rd, mb->data + mb->len, CAP - mb->len);
        if (n < 0) {
            batch_fail(w, path, rd->error);
            return -1;
        }
        if (n == 0)
            break;                       /* the end of the stream */
        mb->len += (size_t)n;
    }
    return batch_packed_kind(mb->data, mb->len);
}

/* gzip on a stream: zlib, as for files. What it holds is told by its
 * first decompressed bytes: plain text parsed as a live stream, or an
 * archive (a .tar.gz) walked. */
static void unpack_gzip_stream(batch_worker *w, const char *path, batch_reader *rd)
{
    batch_gzip *g = malloc(sizeof *g);
    member_buf head = {0};
    if (!g || batch_gzip_open_reader(g, rd) != 0) {
        batch_fail(w, path, g ? g->r.error : "out of memory");
        free(g);
        return;
    }
    int rc = read_upto(&g->r, &head, SIZE_MAX, PROBE);
    if (rc < 0 && head.len == 0) {
        batch_fail(w, path, g->r.error);
    } else {
        prefix_reader p = {.r = {.read = prefix_read, .packed = prefix_packed},
                           .rest = &g->r, .head = head.data, .len = head.len,
                           .rest_failed = rc < 0};
        if (batch_packed_kind(head.data, head.len) != BATCH_PLAIN)
            walk_stream(w, path, &p.r, 1, 0);
        else
            batch_stream_parse(w, path, &p.r, 1);
    }
    g->r.close(&g->r);
    free(g);
    member_buf_free(&head);
}

void batch_stream_unpack(batch_worker *w, const char *path, batch_reader *rd)
{
    member_buf head = {0};
    if (batch_turn(w) != 0)    /* what comes before goes out before waiting */
        return;
    int kind = probe_stream(w, path, rd, &head);
    prefix_reader p = {.r = {.read = prefix_read, .idle = prefix_idle}, .rest = rd,
                       .head = head.data, .len = head.len};
    if (kind == BATCH_PLAIN)
        batch_stream_parse(w, path, &p.r, 1);
    else if (kind >= 0 && batch_is_gzip(head.data, head.len))
        unpack_gzip_stream(w, path, &p.r);
    else if (kind >= 0)
        walk_stream(w, path, &p.r, 1, 0);
    member_buf_free(&head);
}

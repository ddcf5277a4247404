/* Batch driver: an input read in pieces (standard input, a FIFO, a device,
 * a decompressed file, an archive member) parsed as its messages end.
 *
 * The worker's buffer holds the stream's unfinished tail. After each read
 * that may have brought a message start, the tail is parsed: a message is
 * complete once the parser has seen the next message start after it, so
 * every message but the last is written at once (and the output flushed),
 * and the last one's bytes stay for the next read, or for the end of the
 * input. Memory is then the largest message plus one read, whatever the
 * length of the stream. Offsets, indexes, lines and columns are those of
 * the whole stream (batch_rebase.c).
 *
 * A live input (a descriptor: its bytes may come slowly) takes its turn
 * to write at once and writes each message when it ends. A decompressed
 * file or an archive member is there to be read at full speed: it writes
 * in blocks as a file does (batch_maybe_flush), so that the pool keeps
 * decompressing other inputs side by side; what it holds is bounded all
 * the same.
 *
 * The tail is parsed again from its first byte, so the work must not grow
 * with its size at each read: it is parsed only after a read that brought
 * what may be a message start ('-', separators, "TITLE"), and once it is
 * large (one message of over READ_BYTES so far), only when it has doubled
 * since it was last parsed (or at the end, or before the limit would fail
 * it): a message of "-TITLE"s inside texts costs a few parses of its bytes,
 * not one per read. Such a message, on a live stream, is written when the
 * tail doubles or the stream ends, not as soon as the next one starts. */
#include <stdio.h>
#include <string.h>

#include "batch_internal.h"
#include "lexer.h"

#define READ_BYTES ((size_t)64 << 10)

_Atomic uint64_t batch_stream_parsed;

typedef struct stream {
    batch_worker *w;
    const char *path;
    size_t have;               /* bytes of the tail in w->in */
    size_t parsed;             /* have when the tail was last parsed */
    int deferred;              /* a message start may have come since */
    batch_base base;           /* the tail's place in the whole stream */
    uint64_t total, count, bad;
    uint64_t shown_packed, shown_count;   /* told to batch_progress */
    int live;                  /* write each message as it ends */
    int probed;                /* the binary check is done */
    size_t idle_checked;       /* have when last found idle (--flush-idle) */
} stream;

/* Whether message m is complete: ended by a message start the buffer holds
 * whole, with the byte after its keyword read too (more bytes could still
 * turn -TITLE into -TITLEX, ZCZC into ZCZCX, bare lines into text when it
 * is their -TITLE), or by its envelope's end
 * (NNNN, ETX) with a byte after it. A quoted message's -TITLE ("-OLDMSG
 * (-TITLE IFPL ...") ended it when its text's ')' was not held: whether
 * the ')' comes before the next -TITLE is known once that one is held. */
static int complete(const stream *s, const adexp_msg *m)
{
    const char *in = s->w->in;
    size_t have = s->have, i = m->offset + m->length;
    if (m->envelope.closed)
        return i < have;
    while (i < have && is_sep((unsigned char)in[i]))
        i++;
    if (s->w->b->o.parser.envelope == ADEXP_ENVELOPE_AFTN && i + 4 < have) {
        /* bare lines end it once their -TITLE is held whole, with the byte
         * after it */
        size_t t = lexer_bare_heading(in, have, i, NULL);
        if (t != (size_t)-1)
            return lexer_title_end(in, have, t) < have;
        if (lexer_envelope_at(in, have, i))
            return 1;
    }
    size_t kw_end = i < have ? lexer_title_end(in, have, i) : 0;
    if (kw_end == 0 || kw_end >= have)
        return 0;
    if (!lexer_title_quoted(in, i))
        return 1;
    size_t t = lexer_next_title(in, have, kw_end);
    kw_end = t < have ? lexer_title_end(in, have, t) : 0;
    return kw_end != 0 && kw_end < have;
}

static void emit_msg(stream *s, adexp_msg *m, lines_cursor *nl)
{
    batch_worker *w = s->w;
    batch_mark_nul(&w->arena, nl, w->in, m);   /* before the rebase: the tail's numbers */
    batch_rebase_msg(m, &s->base);
    s->count++;
    if (m->nerrors_total) {
        s->bad++;
        batch_report_errors(w, s->path, m, NULL);
    }
    adexp_status st = batch_emit(w, s->path, m, &s->base);
    if (st == ADEXP_E_NOMEM) {         /* a refusal is said by batch_emit */
        batch_put_head(w, s->path, 0, 0, BATCH_ERROR);
        batch_str_printf(&w->res.err, "out of memory writing the output of message %zu\n",
                         m->index);
    }
    if (st != ADEXP_OK)
        s->bad += m->nerrors_total ? 0 : 1;
}

/* Parse the tail; write its complete messages (all of them at the end of
 * the input) and drop their bytes. */
static void parse_tail(stream *s, int eof)
{
    batch_worker *w = s->w;
    const char *in = w->in;
    size_t keep = 0;           /* start of the first message not written */
    lines_cursor nl = lines_cursor_of(in, s->have);
    adexp_msg m;
    adexp_parser_reset(w->parser, in, s->have);
    w->findings.lc_base = NULL;    /* validation's line cache: new bytes, same address */
    atomic_fetch_add_explicit(&batch_stream_parsed, s->have, memory_order_relaxed);
    while (adexp_parser_next(w->parser, &w->arena, &m) != ADEXP_END) {
        if (!eof && !complete(s, &m)) {
            keep = m.offset;
            adexp_arena_reset(&w->arena);
            break;
        }
        keep = s->have;
        emit_msg(s, &m, &nl);
        adexp_arena_reset(&w->arena);
    }
    if (eof)
        keep = s->have;
    uint64_t lines = lines_count(in, s->have, 0, keep);
    if (lines == 0)
        s->base.column0 += keep;
    else
        s->base.column0 = keep - line_start(in, s->have, keep);
    s->base.line += lines;
    s->base.offset += keep;
    s->base.index = (size_t)s->count;
    memmove(w->in, in + keep, s->have - keep);
    s->have -= keep;
    s->parsed = s->have;
    s->deferred = 0;
}

/* Whether bytes from `from` on may hold a message start or an envelope's
 * end, looked for a few bytes back so that one split by a read is found. */
static int may_end_message(const stream *s, const char *in, size_t have, size_t from)
{
    from = from > 8 ? from - 8 : 0;
    return lexer_next_title(in, have, from) < have ||
           (s->w->b->o.parser.envelope == ADEXP_ENVELOPE_AFTN &&
            lexer_may_hold_envelope(in, from, have));
}

/* Whether the tail is to be parsed now that a message start may have
 * come: always while it is small, else once it has doubled (see above). */
static int parse_due(const stream *s)
{
    return s->parsed < READ_BYTES || s->have >= 2 * s->parsed;
}

/* A NUL byte in the stream's first 4 KiB and no message start in what is held
 * once those 4 KiB (or the whole input) are in: a binary input, as for
 * files. Otherwise a NUL is the error of the message holding it. Returns
 * 1 if binary (reported), 0 when the check is done or not yet decided
 * (*undecided set: then the tail is not parsed yet). */
static int binary(stream *s, int eof, int *undecided)
{
    *undecided = 0;
    if (s->probed)
        return 0;
    const char *in = s->w->in;
    size_t held = s->have, probe = held < BATCH_BINARY_PROBE ? held : BATCH_BINARY_PROBE;
    const char *nul = s->count || s->base.offset ? NULL : batch_find_nul(in, probe);
    if (!nul || lexer_next_title(in, held, 0) < held) {
        s->probed = !nul ? s->total >= BATCH_BINARY_PROBE || s->count || s->base.offset : 1;
        return 0;
    }
    if (!eof && s->total < BATCH_BINARY_PROBE) {
        *undecided = 1;
        return 0;
    }
    char why[96];
    snprintf(why, sizeof why, "binary file (NUL byte at offset %zu)", (size_t)(nul - in));
    batch_fail(s->w, s->path, why);
    return 1;
}

/* Write what the stream holds: a live one now (it holds the turn), the
 * others in blocks. Nonzero once the output has failed. */
static int write_out(stream *s)
{
    batch_worker *w = s->w;
    if (s->live) {
        w->res.live = 1;
        return batch_write(w, &w->res);
    }
    batch_maybe_flush(w);
    return batch_stopped(w);
}

/* Whether the held text ends a message: it ends a line, and parses as
 * messages the last of which has no error (an unclosed list, a value cut
 * short would be one). A trial parse: nothing is written. */
static int held_complete(stream *s)
{
    batch_worker *w = s->w;
    char last = s->have ? w->in[s->have - 1] : 0;
    if (last != '\n' && last != '\r')
        return 0;
    /* the binary check may be undecided still, but a -TITLE held means
     * the input is not binary */
    if (!s->probed && lexer_next_title(w->in, s->have, 0) >= s->have)
        return 0;
    adexp_msg m;
    int any = 0, clean = 0;
    adexp_parser_reset(w->parser, w->in, s->have);
    while (adexp_parser_next(w->parser, &w->arena, &m) != ADEXP_END) {
        any = 1;
        clean = m.nerrors_total == 0;
        adexp_arena_reset(&w->arena);
    }
    return any && clean;
}

/* --flush-idle: a live input idle for flush_idle_ms with a complete
 * message held writes it now. Nonzero once the output has failed. */
static int flush_if_idle(stream *s, batch_reader *rd)
{
    unsigned ms = s->w->b->o.flush_idle_ms;
    if (!s->live || !ms || !rd->idle || s->have == 0 || s->have == s->idle_checked)
        return 0;
    if (!rd->idle(rd, ms > INT32_MAX ? INT32_MAX : (int)ms))
        return 0;
    s->idle_checked = s->have;     /* no second trial parse of the same text */
    if (!held_complete(s))
        return 0;
    parse_tail(s, 1);
    s->idle_checked = 0;
    return write_out(s);
}

/* Read until the end of the input; 0, or -1 once the input has failed. */
static int read_all(stream *s, batch_reader *rd)
{
    batch_worker *w = s->w;
    /* With no --max-file-size, what is held (one message and one read) is
     * bounded by the message limit, so that memory is too. */
    size_t limit = w->b->o.max_file_size;
    const char *option = "--max-file-size";
    if (limit == SIZE_MAX) {
        size_t most = w->b->o.parser.max_message_size;
        limit = most < SIZE_MAX - READ_BYTES ? most + READ_BYTES : SIZE_MAX;
        option = "--max-message-size";
    }
    size_t stop = limit < SIZE_MAX ? limit + 1 : limit;   /* one more tells "too large" */
    int undecided;
    for (;;) {
        if (s->have > limit && s->deferred) {   /* its messages may have ended */
            parse_tail(s, 0);
            if (write_out(s))
                return -1;
        }
        if (s->have > limit) {
            char why[128];
            snprintf(why, sizeof why, "message too large (more than %zu bytes; see %s)",
                     limit, option);
            return batch_fail(w, s->path, why), -1;
        }
        if (flush_if_idle(s, rd))
            return -1;
        size_t room = stop - s->have < READ_BYTES ? stop - s->have : READ_BYTES;
        if (batch_grow_in(w, s->have + room, stop) != 0)
            return batch_fail(w, s->path, "out of memory"), -1;
        room = w->in_cap - 1 - s->have;   /* all the room there is, within the bound */
        if (room > stop - s->have)
            room = stop - s->have;
        ssize_t n = rd->read(rd, w->in + s->have, room);
        if (n < 0) {
            if (s->deferred)   /* the messages that ended before the fault */
                parse_tail(s, 0);
            return batch_fail(w, s->path, rd->error), -1;
        }
        if (n == 0) {
            if (binary(s, 1, &undecided))
                return -1;
            parse_tail(s, 1);
            uint64_t packed = rd->packed ? rd->packed(rd) : 0;
            batch_progress(w, 0, packed - s->shown_packed, s->count - s->shown_count);
            return 0;
        }
        s->have += (size_t)n;
        s->total += (uint64_t)n;
        uint64_t packed = rd->packed ? rd->packed(rd) : 0;
        batch_progress(w, (uint64_t)n, packed - s->shown_packed, s->count - s->shown_count);
        s->shown_packed = packed, s->shown_count = s->count;
        if (binary(s, 0, &undecided))
            return -1;
        if (undecided || !may_end_message(s, w->in, s->have, s->have - (size_t)n))
            continue;
        if (!parse_due(s)) {
            s->deferred = 1;
            continue;
        }
        parse_tail(s, 0);
        if (write_out(s))
            return -1;
    }
}

void batch_stream_parse(batch_worker *w, const char *path, batch_reader *rd, int live)
{
    stream s = {.w = w, .path = path, .base = {0, 0, 1, 0}, .live = live};
    int failed = (live && batch_turn(w) != 0) || read_all(&s, rd) != 0;
    if (rd->close)
        rd->close(rd);
    if (failed) {              /* its failure is reported; what it gave is counted */
        w->messages += s.count;
        w->messages_failed += s.bad;
        w->bytes += s.total;
        return;
    }
    if (s.total == 0)
        batch_fail(w, path, "empty file");
    else
        batch_input_counted(w, path, s.total, s.count, s.bad);
    if (live)
        batch_write(w, &w->res);
}

/* The parser's public calls: a parser over one input, read one message at a
 * time into the caller's arena, with its errors kept beside it. How a
 * message is read is said in parse_state.h (the rooms) and grammar.h (the
 * rules). */
#define _GNU_SOURCE            /* memrchr */
#include "build.h"
#include "grammar.h"

adexp_options adexp_options_default(void)
{
    adexp_options o = {
        .max_depth = ADEXP_DEFAULT_MAX_DEPTH,
        .max_fields = ADEXP_DEFAULT_MAX_FIELDS,
        .max_list_items = ADEXP_DEFAULT_MAX_LIST_ITEMS,
        .max_keyword_len = ADEXP_DEFAULT_MAX_KEYWORD_LEN,
        .max_errors = ADEXP_DEFAULT_MAX_ERRORS,
        .max_message_size = ADEXP_DEFAULT_MAX_MESSAGE_SIZE,
    };
    return o;
}

adexp_parser *adexp_parser_new(const adexp_options *opts, const adexp_allocator *hooks)
{
    adexp_allocator a = hooks ? *hooks : adexp_default_allocator();
    adexp_options o = opts ? *opts : adexp_options_default();
    if (o.max_depth > ADEXP_MAX_DEPTH_LIMIT)
        o.max_depth = ADEXP_MAX_DEPTH_LIMIT;
    if (o.max_errors == 0)
        o.max_errors = 1;
    adexp_parser *p = a.alloc(a.ctx, sizeof *p);
    if (!p)
        return NULL;
    memset(p, 0, sizeof *p);
    p->errors = a.alloc(a.ctx, (o.max_errors + STOP_SLOTS) * sizeof *p->errors);
    if (!p->errors) {
        a.free(a.ctx, p, sizeof *p);
        return NULL;
    }
    p->opt = o;
    p->a = a;
#if RUN_FUSED
    p->fused = cpu_has_avx2() && o.max_keyword_len >= 8 && !o.dictionary;
#endif
    adexp_parser_reset(p, NULL, 0);
    return p;
}

void adexp_parser_free(adexp_parser *p)
{
    if (!p)
        return;
    p->a.free(p->a.ctx, p->errors, (p->opt.max_errors + STOP_SLOTS) * sizeof *p->errors);
    p->a.free(p->a.ctx, p, sizeof *p);
}

/* -BEGIN X / -END X: the name is the value's one word of A-Z0-9. */
void list_bracket(ftok *f, ftok_kind kind)
{
    size_t n = 0;
    while (n < f->value.len && is_alnum((unsigned char)f->value.ptr[n]))
        n++;
    if (n == 0) {
        f->kind = FT_ERROR;
        f->code = ADEXP_E_BEGIN_NO_NAME;
        return;
    }
    f->kind = kind;
    if (n < f->value.len)
        f->code = ADEXP_E_BEGIN_NO_NAME;
    f->keyword.ptr = f->value.ptr;
    f->keyword.len = n;
    f->entry = lexer_lookup(f->value.ptr, n);
}

static int framing(const adexp_parser *p)
{
    return p->opt.envelope == ADEXP_ENVELOPE_AFTN;
}

/* Lex on from pos with the input ending at limit, and take the first
 * token: only that one when `one` is set (where an envelope starts, the
 * framed message's text is lexed under its own limit). */
static void lex_from(adexp_parser *p, size_t pos, size_t limit, int one)
{
    unsigned batch = p->lx.batch;
    lexer_restart(&p->lx, pos, limit, one);
#if RUN_FUSED
    if (p->fused && !one)
        lexer_start(&p->lx);
#endif
    advance(p);
    p->lx.batch = batch;
}

/* The input from a message's start to PREFETCH_AHEAD bytes past it asked
 * into the cache, each 64-byte line once: on an input larger than the
 * caches the hardware's own prefetch leaves the parse waiting on memory (a
 * 200 MB file parsed 15% slower than a 20 MB one of the same messages).
 * An input of at most PREFETCH_MIN bytes is taken as cached already. */
#define PREFETCH_AHEAD 2048
#define PREFETCH_MIN (1u << 20)
static void prefetch_ahead(adexp_parser *p, size_t at)
{
#if defined(__GNUC__)
    size_t to = p->len - at > PREFETCH_AHEAD ? at + PREFETCH_AHEAD : p->len;
    size_t i = p->prefetched > at ? p->prefetched : at;
    /* four lines a step: the loop's own count and test were as dear as
     * the prefetches (the last step may ask for up to three lines past
     * `to`, which a prefetch may: it never faults) */
    for (; i < to; i += 256) {
        __builtin_prefetch(p->buf + i);
        __builtin_prefetch(p->buf + i + 64);
        __builtin_prefetch(p->buf + i + 128);
        __builtin_prefetch(p->buf + i + 192);
    }
    p->prefetched = i;
#else
    (void)p;
    (void)at;
#endif
}

void adexp_parser_reset(adexp_parser *p, const char *buf, size_t len)
{
    p->buf = buf;
    p->len = buf ? len : 0;
    p->index = 0;
    p->prefetched = p->len <= PREFETCH_MIN ? p->len : 0;   /* prefetch_ahead */
    p->ahead_at = (size_t)-1;
    lexer_init(&p->lx, buf, p->len, p->opt.max_keyword_len);
    p->lc = lines_cursor_of(p->buf, p->len);           /* after a byte order mark */
    lexer_use_dictionary(&p->lx, p->opt.dictionary);
#if RUN_FUSED
    if (p->fused)
        p->lx.batch = FUSED_BATCH;
#endif
    size_t i = p->lx.pos;
    while (i < p->len && is_sep((unsigned char)buf[i]))
        i++;
    lex_from(p, p->lx.pos, p->len, framing(p) && lexer_envelope_at(buf, p->len, i));
}

/* Resume at the next -TITLE after the stop, looked for in the bytes (not
 * in the tokens lexed so far, which the runs and the general descent hold
 * in different numbers), so that both paths resume at the same place. */
static void skip_to_title(adexp_parser *p)
{
    lex_from(p, lexer_title_after(&p->lx, p->stop_at + 1), p->lx.len, 0);
}

/* Keep the errors with the message: copy them into the arena, never leaving
 * msg->errors in the parser's scratch array (which the next call, or
 * adexp_parser_free, would take from under it). With no memory for them,
 * the message holds one NOMEM error at its start, in msg->lost
 * (nerrors_total still counts them all). */
static void keep_errors(adexp_parser *p, adexp_msg *msg)
{
    if (msg->nerrors == 0)
        return;
    adexp_error *e = adexp_arena_alloc(p->arena, msg->nerrors * sizeof *e);
    if (!e) {
        error_at(p, &msg->lost, ADEXP_E_NOMEM, msg->offset);
        msg->errors = &msg->lost;
        msg->nerrors = 1;
        msg->nerrors_total++;
        return;
    }
    memcpy(e, p->errors, msg->nerrors * sizeof *e);
    msg->errors = e;
}


/* Zero the message (over 800 bytes) with the C library's memset: for a memset of
 * a known size this large gcc emits a rep stos, which starts slowly on AMD
 * CPUs and took 5% of a message's parse. The empty asm hides the size. */
static void clear_msg(adexp_msg *msg)
{
    size_t n = sizeof *msg;
#if defined(__GNUC__)
    __asm__("" : "+r"(n));
#endif
    memset(msg, 0, n);
}

/* The message's fields and errors, from the current token to the next
 * -TITLE or the end (of the input, or of its envelope's text). */
static void parse_text(adexp_parser *p, adexp_msg *msg)
{
    size_t start = p->tok->offset;
    int titled = p->tok->kind == FT_FIELD && is_entry(p->tok->entry, DICT_ID_TITLE);
    frame root = {.kind = FR_ROOT, .tail = &msg->fields, .max_items = UINT32_MAX,
                  .holds = frame_row(FR_ROOT, NULL)};
    p->fatal = 0;
    if (!titled) {
        /* text or fields before a -TITLE: the fields are read by the same
         * grammar (nothing the input held is dropped), up to the -TITLE,
         * which this record never takes (as if it had its title: items 1) */
        record_error(p, ADEXP_E_NO_TITLE, start);
        if (p->tok->kind == FT_TEXT)
            advance(p);        /* its error is the NO_TITLE just recorded */
        root.items = 1;
    }
    {
        parse_body(p, &root);
        if (p->fatal) {
            /* stopped on its own -TITLE (a title past max_message_size,
             * max_fields 0): step over it, or the next call would parse
             * the same message again, forever */
            skip_to_title(p);
        }
    }
}

/* Offset end, less the separators before it (not before from). */
static size_t trim_back(const adexp_parser *p, size_t from, size_t end)
{
    while (end > from && is_sep((unsigned char)p->buf[end - 1]))
        end--;
    return end;
}

/* The next message starts with an envelope at i: its first token, text,
 * made here and not lexed (parse_framed reads the heading from the bytes
 * and lexes the text from the heading's end; the value is not read, and
 * is left empty: the lexer's would be the text up to the next '-'), so a
 * framed feed is lexed once a message, not twice. */
static void at_heading(adexp_parser *p, size_t i)
{
    p->heading = (ftok){.kind = FT_TEXT, .code = ADEXP_OK, .value = {p->buf + i, 0},
                        .offset = i, .value_offset = i};
    p->tok = &p->heading;
}

/* The envelope's end at `at` (sig): the message ends past its signal, and
 * the input is lexed on from there, up to the next envelope if one starts
 * there. NNNN missing (the next envelope or the input's end came first)
 * is an error at the place it was looked for. */
static void end_envelope(adexp_parser *p, adexp_msg *msg, size_t at, lexer_signal sig)
{
    size_t after = lexer_signal_end(p->buf, p->len, at, sig);
    msg->envelope.closed = sig == LEX_SIGNAL_NNNN || sig == LEX_SIGNAL_ETX;
    if (sig == LEX_SIGNAL_NEXT)        /* at the next envelope's start */
        record_error(p, ADEXP_E_ENVELOPE, at);
    else if (sig == LEX_SIGNAL_NONE)   /* at the input's end */
        record_error(p, ADEXP_E_ENVELOPE, trim_back(p, msg->offset, at));
    msg->length = trim_back(p, msg->offset, after) - msg->offset;
    size_t i = after;
    while (i < p->len && is_sep((unsigned char)p->buf[i]))
        i++;
    if (lexer_envelope_at(p->buf, p->len, i))
        at_heading(p, i);
    else
        lex_from(p, after, p->len, 0);
}

/* An envelope's text [from, end) with no -TITLE in it: when it does not
 * start with a field (a service message, an ICAO message in parentheses),
 * it is no ADEXP and is kept whole as the envelope's text, none of it read
 * as fields, with the message's NO_TITLE at its start. 1: so kept. */
static int not_adexp(adexp_parser *p, adexp_msg *msg, size_t from, size_t end)
{
    while (from < end && is_sep((unsigned char)p->buf[from]))
        from++;
    if (from == end || p->buf[from] == '-')
        return 0;
    msg->envelope.text[2] = (adexp_slice){p->buf + from, trim_back(p, from, end) - from};
    record_error(p, ADEXP_E_NO_TITLE, from);
    return 1;
}

/* A message in an envelope that starts at the current token (text before
 * the first field): its heading, then its text lexed up to the envelope's
 * end, which the fields never pass; 1. Or bare lines (no heading, no end):
 * those read, and the text from its -TITLE (the current token now) left to
 * be read as a plain message's; 0. */
static int parse_framed(adexp_parser *p, adexp_msg *msg)
{
    size_t title;
    if (msg->offset == p->ahead_at) {  /* read ahead, below */
        msg->envelope = p->ahead;
        title = p->ahead_title;
    } else {
        title = lexer_bare_heading(p->buf, p->len, msg->offset, &msg->envelope);
    }
    if (title != (size_t)-1) {
        /* a log of bare lines has them before the next message too: its
         * -TITLE looked for ahead, the text is lexed up to its lines once,
         * not read up to the -TITLE, then again up to the lines found in
         * its last value (parse_plain still looks there for signals); the
         * lines are kept for that message, which starts there unless a
         * signal comes first */
        size_t t = lexer_next_title(p->buf, p->len, title + 1);
        size_t next =
            t < p->len ? lexer_bare_before(p->buf, p->len, title, t, &p->ahead) : (size_t)-1;
        p->ahead_at = next;
        p->ahead_title = t;
        lex_from(p, title, next != (size_t)-1 ? next : p->len, 0);
        return 0;
    }
    adexp_envelope *env = &msg->envelope;
    lexer_signal sig;   /* the end: looked for past the heading's own ZCZC or SOH */
    size_t end = lexer_envelope_end(p->buf, p->len, msg->offset + 1, &sig);
    /* the heading ends before the first -TITLE: a garbled one never takes
     * a message's text (which may end the message before the envelope) */
    size_t first, bad;
    size_t head = lexer_envelope_text(p->buf, end, p->len, msg->offset, env, &bad, &first,
                                      &p->heading_seen);
    /* the heading ends at first or before it, and no -TITLE is before
     * first: the text's -TITLE is first (not looked for again) */
    size_t text = first;
    if (text < end)
        env->text[2] = (adexp_slice){p->buf + head, trim_back(p, head, text) - head};
    else
        text = head;
    if (!env->text[2].len)
        env->text[2].ptr = NULL;
    if (bad != (size_t)-1)
        record_error(p, ADEXP_E_ENVELOPE, bad);
    if (text == head && not_adexp(p, msg, head, end)) {
        lex_from(p, end, end, 0);
        end_envelope(p, msg, end, sig);
        return 1;
    }
    lex_from(p, text, end, 0);
    parse_text(p, msg);
    if (p->tok->kind == FT_EOF) {
        end_envelope(p, msg, end, sig);
        return 1;
    }
    /* a -TITLE before the envelope's end: its NNNN is missing */
    size_t next = p->tok->offset;
    record_error(p, ADEXP_E_ENVELOPE, next);
    msg->length = trim_back(p, msg->offset, next) - msg->offset;
    lex_from(p, next, p->len, 0);
    return 1;
}

/* Where text before a message's first field (the current token) holds an
 * envelope's signal on a line of its own: its offset, and *sig; else
 * (size_t)-1. Looked at before the message is read, so that text holding
 * many signals is cut at the first, not read whole once for each. */
static size_t signal_in_text(const adexp_parser *p, lexer_signal *sig)
{
    if (p->tok->kind != FT_TEXT)
        return (size_t)-1;
    size_t to = p->tok->value_offset + p->tok->value.len;
    size_t at = lexer_envelope_end(p->buf, to, p->tok->offset, sig);
    return at < to ? at : (size_t)-1;
}

/* Where the message just read (up to the current token, its length set)
 * holds a signal in its last value (the bytes after its last '-'): an
 * envelope's end without its start (NNNN), or the next message's heading;
 * else (size_t)-1. */
static size_t signal_in_last_value(const adexp_parser *p, const adexp_msg *msg,
                                   lexer_signal *sig)
{
    size_t end = p->tok->offset, last = msg->offset + msg->length;   /* trimmed */
    /* a signal starts a line, and a line end before it lies in the bytes
     * from the last '-' to the last byte that is not a separator */
    size_t from;
    if (!lexer_last_value_may_hold(p->buf, msg->offset, last, &from))
        return (size_t)-1;
    size_t at = lexer_envelope_end(p->buf, end, from, sig);
    if (at < end)
        return at;
    /* or the next message's bare lines, right before its -TITLE */
    *sig = LEX_SIGNAL_NEXT;
    return lexer_bare_before(p->buf, p->len, from, end, NULL);
}

/* A message with no envelope that ends it (none, or bare lines), whose
 * text, from the current token on, may yet hold a signal: then the message
 * is read (again) up to it. Its text is lexed up to the input's end, or up
 * to the next message's bare lines when parse_framed found them ahead. */
static void parse_plain(adexp_parser *p, adexp_msg *msg)
{
    lexer_signal sig;
    size_t text = p->tok->offset;
    size_t at = framing(p) ? signal_in_text(p, &sig) : (size_t)-1;
    if (at == (size_t)-1) {
        parse_text(p, msg);
        msg->length = trim_back(p, msg->offset, p->tok->offset) - msg->offset;
        if (!framing(p) || (at = signal_in_last_value(p, msg, &sig)) == (size_t)-1) {
            if (__builtin_expect(p->lx.len < p->len, 0))
                at_heading(p, p->lx.len);  /* the bare lines found ahead */
            return;
        }
        msg->fields = NULL;
        msg->nfields = msg->nerrors = msg->nerrors_total = 0;
    }
    lex_from(p, text, at, 0);
    parse_text(p, msg);
    if (sig == LEX_SIGNAL_NEXT) {  /* the next message's envelope */
        msg->length = trim_back(p, msg->offset, at) - msg->offset;
        lex_from(p, at, p->len, 1);
        return;
    }
    record_error(p, ADEXP_E_ENVELOPE, at);   /* an end with no heading */
    end_envelope(p, msg, at, sig);
}

adexp_status adexp_parser_next(adexp_parser *p, adexp_arena *arena, adexp_msg *msg)
{
    clear_msg(msg);
    if (p->tok->kind == FT_EOF)
        return ADEXP_END;
    p->arena = arena;
    p->msg = msg;
    p->fatal = 0;
    msg->index = p->index++;
    msg->offset = p->tok->offset;
    prefetch_ahead(p, msg->offset);
    /* at_heading's token (text) starts an envelope: told where it was made */
    int framed = p->tok->kind == FT_TEXT &&
                 (p->tok == &p->heading ||
                  (framing(p) && lexer_envelope_at(p->buf, p->len, msg->offset)));
    if (!framed || !parse_framed(p, msg))
        parse_plain(p, msg);
    if (p->opt.view_title_only)
        adexp_view_title(msg);
    else if (!adexp_view_build(msg, arena))
        record_stop(p, ADEXP_E_NOMEM, msg->offset);   /* the view is not whole */
    keep_errors(p, msg);
    p->msg = NULL;
    return msg->nerrors ? msg->errors[0].code : ADEXP_OK;
}

adexp_status adexp_parse(const char *buf, size_t len, adexp_arena *arena, adexp_msg *msg)
{
    adexp_parser *p = adexp_parser_new(NULL, &arena->a);
    if (!p) {
        memset(msg, 0, sizeof *msg);
        return ADEXP_E_NOMEM;
    }
    adexp_parser_reset(p, buf, len);
    adexp_status st = adexp_parser_next(p, arena, msg);
    adexp_parser_free(p);              /* msg->errors is not the parser's */
    return st;
}

/* A message's AFTN envelope written back around its text, in the form
 * it came in (doc/feeds.md), ITA-2 or IA-5:
 *
 *   ZCZC <transmission id> <text[0]>     SOH<transmission id> <text[0]>
 *   <priority> <addressees>              <priority> <addressees>
 *   <filing time> <originator> <text[1]> <filing time> <originator> <text[1]>
 *   <text[2]>                            STX<text[2]>
 *   ...the message...                    ...the message...
 *   NNNN                                 VT ETX
 *
 * Bare lines (ADEXP_FORM_BARE) are the address and origin lines alone,
 * before the message's -TITLE: no heading line, no end, no text but the
 * origin line's rest.
 *
 * Each part is written where the parser reads it from, so that parsing
 * the text gives the same envelope. A garbled heading is written as it
 * stands: the parser keeps its parts from the lines before the garbled
 * one, and that line on as text[2], so each line present is written and
 * the rest follows as text (after IA-5's SOH, which text[2] does not
 * hold). What still would not read back the same is refused
 * (write_envelope_reread). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "adexp.h"
#include "buf.h"
#include "lexer.h"
#include "write_envelope.h"

/* What starts a line for the envelope's signals: after a line end, VT
 * or FF. */
static int is_line_end(char c)
{
    return c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

enum { SOH = 1, STX = 2, ETX = 3 };

/* An envelope's part, where the writer puts it: what it may not hold
 * besides a -TITLE and the signals (part_ok). */
typedef struct part_kind {
    const char *name;          /* as err->path gives it */
    size_t at;                 /* the part's slice in adexp_envelope */
    unsigned char one_line;    /* within a line: no line end, nor STX */
    unsigned char one_word;    /* one word: no separator either */
    unsigned char line_start;  /* written at a line's start */
    unsigned char before_text; /* text[2]: the garbled heading as it stood,
                                  or the text after a whole heading */
} part_kind;

#define PART(name, field, line, word, start, last) \
    {"envelope." name, offsetof(adexp_envelope, field), line, word, start, last}
static const part_kind part_kinds[] = {
    PART("transmission_id", transmission_id, 1, 1, 0, 0),
    PART("priority", priority, 1, 1, 1, 0),
    PART("filing_time", filing_time, 1, 1, 1, 0),
    PART("originator", originator, 1, 1, 0, 0),
    PART("addressees", addressees, 0, 0, 0, 0),
    PART("text", text[0], 1, 0, 0, 0),
    PART("text", text[1], 1, 0, 0, 0),
    PART("text", text[2], 0, 0, 1, 1),
};
#undef PART

/* Whether s, a part of kind k, holds text the parser would read as more
 * than this part: a -TITLE (the message's start, by the lexer's own rule)
 * anywhere; a signal at a line's start (at s's start too when k starts a
 * line): ZCZC or NNNN as a word, SOH, STX (but as the last byte of a
 * garbled IA-5 heading, which ends with it) or ETX (an ETX elsewhere ends
 * nothing, nor does a SOH after it: the end search's rule); and, for a
 * part of one line (or one word), a line end or STX (or any separator).
 * For text[2], head: s is a garbled heading as it stood, which may start
 * with ZCZC or SOH; text: s is the text after a whole heading. */
static int part_ok(adexp_slice s, const part_kind *k, int head, int text)
{
    head = head && k->before_text;
    text = text && k->before_text;
    if (lexer_next_title(s.ptr, s.len, 0) < s.len)
        return 0;
    for (size_t i = 0; i < s.len; i++) {
        char c = s.ptr[i];
        /* a heading's line ends at LF, CR or STX only (VT and FF are its
         * text, and start a line only for the signals checked below) */
        if ((k->one_line && (c == '\n' || c == '\r' || c == STX)) ||
            (k->one_word && is_sep(c)))
            return 0;
        if (!(i ? is_line_end(s.ptr[i - 1]) : k->line_start && !head))
            continue;
        /* an STX at a line's start may end a heading; in the text after a
         * whole heading it is text */
        int stx_ends = c == STX && !(i && i + 1 == s.len) && !(text && !head);
        if (c == SOH || c == ETX || stx_ends)
            return 0;
        if (lexer_signal_word(s.ptr, s.len, i, "ZCZC") ||
            lexer_signal_word(s.ptr, s.len, i, "NNNN"))
            return 0;
    }
    return 1;
}

/* s folded (separator runs to one space, ends trimmed) or as it is. */
static int put(adexp_buf *out, adexp_slice s, int fold)
{
    if (!fold)
        return adexp_buf_put(out, s.ptr, s.len);
    char *o = s.len < SIZE_MAX ? adexp_buf_room(out, s.len + 1) : NULL;
    if (!o)
        return 0;
    out->len += adexp_fold_copy(s, o, s.len + 1);
    return 1;
}

/* " s" when s is there. */
static int put_word(adexp_buf *out, adexp_slice s, int fold)
{
    return !s.len || (adexp_buf_put(out, " ", 1) && put(out, s, fold));
}

/* Whether s (a garbled heading as it stood) starts with ZCZC or SOH. */
static int starts_heading(adexp_slice s)
{
    size_t i = 0;
    while (i < s.len && is_sep(s.ptr[i]))
        i++;
    return (s.len - i >= 4 && memcmp(s.ptr + i, "ZCZC", 4) == 0) ||
           (i < s.len && s.ptr[i] == SOH);
}

/* Whether the heading was read whole, its origin line too: the parser
 * then takes an STX right after it as its end (IA-5's, or a stray one). */
static int whole_heading(const adexp_envelope *env)
{
    return env->filing_time.len && env->originator.len;
}

const char *write_envelope_check(const adexp_envelope *env)
{
    if (env->form == ADEXP_FORM_BARE && env->transmission_id.len)
        return "envelope.transmission_id";
    if (env->form == ADEXP_FORM_BARE && (env->text[0].len || env->text[2].len))
        return "envelope.text";
    int head = !env->transmission_id.len && starts_heading(env->text[2]);
    for (size_t i = 0; i < sizeof part_kinds / sizeof *part_kinds; i++) {
        const part_kind *k = &part_kinds[i];
        adexp_slice s = *(const adexp_slice *)(const void *)((const char *)env + k->at);
        /* after a whole heading the parser takes one STX as its end: one
         * is written before text[2] (IA-5's own, or one for an ITA-2 text
         * that starts with STX), so an STX that starts text[2] reads back
         * as text */
        while (k->before_text && whole_heading(env) && s.len && s.ptr[0] == STX)
            s.ptr++, s.len--;
        if (s.len && !part_ok(s, k, head, whole_heading(env)))
            return k->name;
    }
    return NULL;
}

/* The heading line's start: "ZCZC" and a space before the transmission
 * id, or SOH right before it; but SOH and "ZCZC " before an id that is
 * the word ZCZC, which right after SOH the parser reads as the signal
 * some gateways write there. */
static int put_start(adexp_buf *out, const adexp_envelope *env, int fold)
{
    adexp_slice id = env->transmission_id;
    if (env->form == ADEXP_FORM_IA5)
        return adexp_buf_put(out, "\001", 1) &&
               (!lexer_signal_word(id.ptr, id.len, 0, "ZCZC") ||
                adexp_buf_put(out, "ZCZC ", 5)) &&
               (!id.len || put(out, id, fold));
    return adexp_buf_put(out, "ZCZC", 4) && put_word(out, env->transmission_id, fold);
}

adexp_status write_envelope_head(adexp_buf *out, const adexp_envelope *env, int fold)
{
    size_t start = out->len;
    int ok = 1;
    /* the heading line; without a transmission id (garbled) the heading is
     * in text[2] as it stood, when it starts there: its lines are kept,
     * folded or not (joined, they could read back as a whole heading) */
    int as_stood = !env->transmission_id.len && starts_heading(env->text[2]);
    if (env->form == ADEXP_FORM_BARE)
        ;                      /* no heading line */
    else if (!as_stood)
        ok = put_start(out, env, fold) && put_word(out, env->text[0], fold) &&
             adexp_buf_put(out, "\n", 1);
    else if (env->form == ADEXP_FORM_IA5)   /* its own SOH, which text[2] never holds */
        ok = adexp_buf_put(out, "\001", 1);
    if (ok && env->priority.len)
        ok = put(out, env->priority, fold) && put_word(out, env->addressees, fold) &&
             adexp_buf_put(out, "\n", 1);
    /* a whole heading (its origin line read) ends with IA-5's STX; a
     * garbled one holds in text[2] whatever of it stood there */
    int whole = whole_heading(env);
    if (ok && whole)
        ok = put(out, env->filing_time, fold) && put_word(out, env->originator, fold) &&
             put_word(out, env->text[1], fold) && adexp_buf_put(out, "\n", 1);
    else if (ok && env->text[1].len)
        ok = put(out, env->text[1], fold) && adexp_buf_put(out, "\n", 1);
    if (ok && whole && (env->form == ADEXP_FORM_IA5 ||
                        (env->text[2].len && env->text[2].ptr[0] == STX)))
        ok = adexp_buf_put(out, "\002", 1);
    if (ok && env->text[2].len)
        ok = put(out, env->text[2], fold && !as_stood) && adexp_buf_put(out, "\n", 1);
    if (!ok) {
        out->len = start;
        return ADEXP_E_NOMEM;
    }
    return ADEXP_OK;
}

adexp_status write_envelope_tail(adexp_buf *out, const adexp_envelope *env)
{
    int ok = env->present && env->form == ADEXP_FORM_IA5 ? adexp_buf_put(out, "\v\003\n", 3)
                                                         : adexp_buf_put(out, "NNNN\n", 5);
    return ok ? ADEXP_OK : ADEXP_E_NOMEM;
}

/* The separators the JSON object folds a part's text at: not VT nor FF,
 * which the lexer's separators are besides. */
static int is_fold_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The next word of s from *i (separators skipped: the lexer's, or with
 * fold_only the JSON object's fold), or len 0 at the end. */
static adexp_slice next_word(adexp_slice s, size_t *i, int fold_only)
{
    while (*i < s.len && (fold_only ? is_fold_space(s.ptr[*i]) : is_sep(s.ptr[*i])))
        (*i)++;
    size_t from = *i;
    while (*i < s.len && !(fold_only ? is_fold_space(s.ptr[*i]) : is_sep(s.ptr[*i])))
        (*i)++;
    return (adexp_slice){s.ptr ? s.ptr + from : NULL, *i - from};
}

/* Whether a and b are the same words (what folding leaves of them). */
static int same_words(adexp_slice a, adexp_slice b, int fold_only)
{
    size_t i = 0, j = 0;
    for (;;) {
        adexp_slice x = next_word(a, &i, fold_only), y = next_word(b, &j, fold_only);
        if (x.len != y.len || (x.len && memcmp(x.ptr, y.ptr, x.len) != 0))
            return 0;
        if (!x.len)
            return 1;
    }
}

/* The k-th piece of the envelope's text that holds a word (or, with
 * json, that is there at all, as the JSON object lists them), or len 0. */
static adexp_slice text_piece(const adexp_envelope *env, int k, int json)
{
    for (int i = 0; i < 3; i++) {
        size_t at = 0;
        if ((json ? env->text[i].ptr != NULL : next_word(env->text[i], &at, 0).len != 0) &&
            k-- == 0)
            return env->text[i];
    }
    return (adexp_slice){NULL, 0};
}

/* The name of the first part of a that b does not have the same, or NULL:
 * word for word (as write_envelope_same compares them), or with json as
 * the JSON object shows them (null or not, folded at its separators). */
static const char *other_part(const adexp_envelope *a, const adexp_envelope *b, int json)
{
    if (a->present != b->present || a->closed != b->closed)
        return "envelope";
    if (a->present && a->form != b->form)
        return "envelope.form";
    const adexp_slice pa[] = {a->transmission_id, a->priority, a->addressees, a->filing_time,
                              a->originator};
    const adexp_slice pb[] = {b->transmission_id, b->priority, b->addressees, b->filing_time,
                              b->originator};
    static const char *const names[] = {"envelope.transmission_id", "envelope.priority",
                                        "envelope.addressees", "envelope.filing_time",
                                        "envelope.originator"};
    for (int i = 0; i < 5; i++)
        if (!same_words(pa[i], pb[i], json && i != 2) ||
            (json && i != 2 && !pa[i].ptr != !pb[i].ptr))
            return names[i];
    /* the text as the JSON object's list: its pieces that hold words */
    for (int k = 0; k < 3; k++) {
        adexp_slice x = text_piece(a, k, json), y = text_piece(b, k, json);
        if (!same_words(x, y, json) || !x.ptr != !y.ptr)
            return "envelope.text";
    }
    return NULL;
}

int write_envelope_same(const adexp_envelope *a, const adexp_envelope *b)
{
    return other_part(a, b, 0) == NULL;
}

static int has_envelope_error(const adexp_msg *m)
{
    for (size_t i = 0; i < m->nerrors; i++)
        if (m->errors[i].code == ADEXP_E_ENVELOPE)
            return 1;
    return 0;
}

adexp_status write_envelope_reread(adexp_buf *out, size_t from, const adexp_msg *msg,
                                   const char **part)
{
    *part = NULL;
    /* bare lines read back as such only when each is of its form: they
     * are read back always */
    if (!has_envelope_error(msg) && msg->envelope.form != ADEXP_FORM_BARE)
        return ADEXP_OK;
    adexp_arena arena;
    adexp_arena_init(&arena, &out->a);
    adexp_parser *p = adexp_parser_new(NULL, &out->a);
    if (!p)
        return ADEXP_E_NOMEM;
    adexp_parser_reset(p, out->data + from, out->len - from);
    adexp_msg back;
    adexp_status st = adexp_parser_next(p, &arena, &back);
    if (st == ADEXP_END) {   /* an NNNN after text that was no field */
        *part = "envelope";
        st = ADEXP_OK;
    } else if (st != ADEXP_E_NOMEM) {
        *part = other_part(&msg->envelope, &back.envelope, 1);
        if (!*part && has_envelope_error(&back) != has_envelope_error(msg))
            *part = "envelope";
        st = ADEXP_OK;
    }
    adexp_parser_free(p);
    adexp_arena_free(&arena);
    return st;
}

/* The ADEXP lexer: Rob Pike's state-function design in C.
 *
 * The lexer's state is a function that scans a little, emits tokens and
 * returns the next state. The parser pulls one token at a time with
 * lexer_next_field(); behind it, the states fill a small batch of tokens at
 * once (the common state, a field, loops over the fields that follow while
 * the batch has room). A parser may also read the commonest fields itself
 * with the lexer's own scan (scan.h) and resume the lexer after them
 * (lexer_resume). Tokens are slices of the input: the lexer never
 * copies, never reads past buf + len and needs no NUL. */
#ifndef ADEXP_LEXER_H
#define ADEXP_LEXER_H

#include <stddef.h>
#include <stdint.h>

#include "adexp.h"
#include "dict.h"

typedef enum tok_kind {
    TOK_EOF = 0,
    TOK_KEYWORD,   /* ptr/len: the keyword; offset: its '-'; entry: dictionary */
    TOK_VALUE,     /* the value after a keyword, right-trimmed, maybe empty;
                      code != ADEXP_OK flags a problem (unclosed '(') */
    TOK_TEXT,      /* text before the first '-' of the input */
    TOK_ERROR      /* a '-' that starts no field: ptr/len run from the '-' to
                      the next field start; code says why */
} tok_kind;

/* lexer_next_field's kinds: a whole field instead of TOK_KEYWORD + TOK_VALUE,
 * the others as in tok_kind. FT_BEGIN and FT_END are never emitted: the
 * parser gives them to -BEGIN X / -END X (keyword = X, entry = X's). */
typedef enum ftok_kind { FT_EOF, FT_FIELD, FT_TEXT, FT_ERROR, FT_BEGIN, FT_END } ftok_kind;

/* lexer_next's token: one per keyword, value, text or error. */
typedef struct token {
    tok_kind kind;
    adexp_status code;
    const char *ptr;
    size_t len;
    size_t offset;
    const dict_entry *entry;   /* TOK_KEYWORD only; NULL if unknown */
} token;

/* lexer_next_field's token: a whole field (keyword, entry and value), so the
 * parser pulls one token per field instead of two. FT_TEXT, FT_ERROR and
 * FT_EOF carry their text in value, with value_offset == offset. */
typedef struct field_token {
    ftok_kind kind;
    adexp_status code;         /* why, for FT_ERROR; a flagged value otherwise */
    adexp_slice keyword;       /* FT_FIELD */
    adexp_slice value;         /* right-trimmed, maybe empty */
    size_t offset;             /* the field's '-', or where the token starts */
    size_t value_offset;
    const dict_entry *entry;   /* FT_FIELD: of the keyword; NULL if unknown */
} field_token;

typedef struct lexer lexer;
typedef struct state_fn {
    struct state_fn (*fn)(lexer *lx);
} state_fn;

/* Tokens per batch: the states run until the batch is full (or the input
 * ends), so the parser pays for the state loop once per batch, not per field. */
#define LEX_BATCH 32

struct lexer {
    const char *buf;
    size_t len;
    size_t pos;                /* next byte to scan */
    state_fn state;
    uint32_t max_keyword_len;
    const adexp_dictionary *dict;   /* NULL: the built-in dictionary; else an
                                  extended one: every keyword is looked up
                                  in it, and the fast loops (which know only
                                  the built-in hot keywords) are left out */
    unsigned batch;            /* tokens a fill makes at most: LEX_BATCH, or
                                  fewer for a parser that reads the common
                                  fields itself */
    int at_dash;               /* the next state starts a field at pos */
    unsigned ntok;             /* tokens in the batch */
    unsigned itok;             /* the next one to hand out */
    size_t paren_horizon;      /* bytes before it hold no ')' for a '(' */
    size_t nodash_from, nodash_to;  /* buf[from..to) holds no '-': text
                                  before a field, lexed again after each
                                  envelope, is then crossed once */
    field_token split;         /* lexer_next: the field being handed out */
    int split_value;           /* lexer_next: its value is still to come */
    field_token tok[LEX_BATCH];
};

void lexer_init(lexer *lx, const char *buf, size_t len, uint32_t max_keyword_len);
/* After lexer_init: read keywords in the extended dictionary d (NULL: the
 * built-in one). */
void lexer_use_dictionary(lexer *lx, const adexp_dictionary *d);
/* The entry of keyword s[0..n) in lx's dictionary, or NULL. */
const dict_entry *lexer_entry(const lexer *lx, const char *s, size_t n);
/* Run states until a new batch holds tokens (up to lx->batch). */
void lexer_fill(lexer *lx);
/* The next field token, valid until the next call. After FT_EOF, returns
 * FT_EOF. Inline (the parser calls it once per field) and in the header, so
 * the SSE2 and scalar builds in parser/ref/ref_lexer_test.c run their own states
 * through it. */
static inline field_token *lexer_next_field(lexer *lx)
{
    if (lx->itok == lx->ntok)
        lexer_fill(lx);
    return &lx->tok[lx->itok++];
}
/* The same stream one keyword or value at a time: an FT_FIELD is handed out
 * as a TOK_KEYWORD and then a TOK_VALUE (for tests and fuzz_lexer). */
void lexer_next(lexer *lx, token *out);
/* Skip to the next '-' that starts a field whose keyword is TITLE, or to the
 * end; the next token is that keyword. Used to resume after a fatal error:
 * the tokens of the batch not handed out yet are searched first. */
void lexer_skip_to_title(lexer *lx);
/* The first message start at or after from, less a quoted message's
 * -TITLE (right after a text field's '(' whose ')' comes before the next
 * -TITLE); lx->len if none. */
size_t lexer_title_after(const lexer *lx, size_t from);

/* Where a message starts (S31 5.2.2: a message starts with -TITLE): at a
 * '-' that starts a field whose keyword is TITLE ('-', separators, TITLE,
 * then a separator, a '-' or the end). The one rule that the parser, the
 * splitter of big inputs, the stream reader and the binary probe share
 * (lexer/start.c). lexer_title_end returns the offset just past TITLE if a
 * message starts at buf[dash], else 0; lexer_title_at says whether one does,
 * its first test inline (most '-' are followed by neither a 'T' nor a
 * separator); lexer_next_title returns the offset of the first message start
 * at or after from, or len. */
size_t lexer_title_end(const char *buf, size_t len, size_t dash);
size_t lexer_next_title(const char *buf, size_t len, size_t from);
/* A -TITLE right after a text's '(' (over separators) quotes a message:
 * "-OLDMSG (-TITLE IFPL ...)" in a REJ or ACK. It starts no message when
 * that text's ')' comes before the next -TITLE (the text state's bracket
 * search passes it); lexer_title_quoted says whether the -TITLE at dash is
 * such a one. */
int lexer_title_quoted(const char *buf, size_t dash);

/* AFTN envelopes (lexer/envelope.c). With recognition on, a message also
 * starts where an envelope does: lexer_envelope_at(b, len, i) says whether
 * one starts at i (SOH, ZCZC as a line of its own, or bare lines), and
 * lexer_next_start returns the first message start at or after from (an
 * envelope's or a -TITLE), or len. lexer_envelope_end returns where the
 * text from `from` on ends: at the first NNNN line or ETX (*sig says
 * which), or at the next envelope's start when NNNN is missing before it
 * (LEX_SIGNAL_NEXT), or len (LEX_SIGNAL_NONE); lexer_signal_end, just past
 * that end's signal. lexer_may_hold_envelope is its quick filter: 0 when
 * b[from..to) can hold none. lexer_envelope_heading reads the heading at
 * start, up to len (the buffer's first `readable` bytes, readable >= len,
 * may be loaded), into env and returns where its lines end; *bad is the offset of
 * the first byte not of the heading's form, or (size_t)-1. */
typedef enum lexer_signal {
    LEX_SIGNAL_NONE, LEX_SIGNAL_NNNN, LEX_SIGNAL_ETX, LEX_SIGNAL_NEXT
} lexer_signal;
int lexer_envelope_at(const char *b, size_t len, size_t i);
size_t lexer_next_start(const char *b, size_t len, size_t from, int envelope);
size_t lexer_envelope_end(const char *b, size_t len, size_t from, lexer_signal *sig);
size_t lexer_signal_end(const char *b, size_t len, size_t at, lexer_signal sig);
int lexer_may_hold_envelope(const char *b, size_t from, size_t to);
/* Whether b[i..len) starts with the signal word w ("ZCZC", "NNNN"): its 4
 * letters then a separator, a control character, a '-' or the end. A
 * signal is such a word at a line's start. */
int lexer_signal_word(const char *b, size_t len, size_t i, const char *w);
/* The quick filter on a message's last value: *from is the last '-' in
 * b[start..last) (start if none), and the result 0 when b[*from..last)
 * holds no break followed by a signal's first byte or a digit (where
 * bare lines' origin line starts), both found in one pass back from last. */
int lexer_last_value_may_hold(const char *b, size_t start, size_t last, size_t *from);
size_t lexer_envelope_heading(const char *b, size_t len, size_t readable, size_t start,
                              adexp_envelope *env, size_t *bad);
/* Bare lines: an envelope's address and origin lines with no heading and
 * no end, followed by the text's -TITLE (ADEXP_FORM_BARE; the rule is
 * told in lexer/envelope.c). lexer_bare_heading reads those that start at
 * `start` into env (may be NULL) and returns the offset of the -TITLE, or
 * (size_t)-1 if none start there. lexer_bare_before returns where the
 * bare lines that the -TITLE at `title` follows start, after `from`, or
 * (size_t)-1: the same lines lexer_bare_heading reads from there, into
 * env (may be NULL).
 * lexer_envelope_at and lexer_next_start take them as an envelope's start. */
size_t lexer_bare_heading(const char *b, size_t len, size_t start, adexp_envelope *env);
size_t lexer_bare_before(const char *b, size_t len, size_t from, size_t title,
                         adexp_envelope *env);
/* lexer_next_title for the text after a heading, whose lines hold no '-'
 * as a rule: the same offset, found for less. */
size_t lexer_text_title(const char *b, size_t len, size_t from);
/* The last heading of the common shape read, for the next: the classes of
 * its 64 bytes (letters, digits, blanks, line ends, separators) and where
 * its parts lie from its start. A heading whose bytes are of the same
 * classes is of the same form with its parts in the same places (a feed's
 * headings mostly are): read from these, not checked line by line again.
 * Zeroed: none yet. */
typedef struct lexer_heading_shape {
    uint64_t upper, digit, blank, end, sep;
    uint8_t id, id_len, text0, text0_len, addr, addr_end, origin, text1, text1_len, lines_end,
        next;
} lexer_heading_shape;
/* The heading at start of an envelope whose text ends at end, and the
 * text's first -TITLE: *first is lexer_text_title(b, end, start + 1), and
 * the rest lexer_envelope_heading(b, *first, readable, start, env, bad)'s,
 * for less where the heading is of the common shape (and less again where
 * it is of *seen's classes; seen may be NULL). */
size_t lexer_envelope_text(const char *b, size_t end, size_t readable, size_t start,
                           adexp_envelope *env, size_t *bad, size_t *first,
                           lexer_heading_shape *seen);
/* Lex on from pos, the input ending at limit (<= the buffer's length): a
 * framed message's text ends at its envelope's end. The next fill makes
 * one token only when `one` is set (the caller restores lx->batch). */
void lexer_restart(lexer *lx, size_t pos, size_t limit, int one);

/* The value of the text field (MSGTXT) whose keyword ends at kw_end, as
 * the lexer's text state reads it, if that value is a parenthesised group
 * closed before any -TITLE: *start and *end bound it (right-trimmed), and
 * *next is where the next field starts (its '-', or the input's end).
 * Returns 0, changing nothing, for any other value (the text state reads
 * those, with their errors). */
int lexer_text_group(const lexer *lx, size_t kw_end, size_t *start, size_t *end,
                     size_t *next);

/* The dictionary entry of keyword s[0..n) (A-Z0-9), or NULL: the hot
 * keywords' table first, then dict_lookup. */
const dict_entry *lexer_lookup(const char *s, size_t n);

/* Byte classes shared by the lexer and the value helpers. */
enum { CC_SEP = 1, CC_ALNUM = 2 };
extern const uint8_t lexer_class[256];

static inline int is_sep(unsigned char c) { return lexer_class[c] & CC_SEP; }
static inline int is_alnum(unsigned char c) { return lexer_class[c] & CC_ALNUM; }

static inline int lexer_title_at(const char *buf, size_t len, size_t dash)
{
    if (dash + 1 < len && buf[dash + 1] != 'T' && !is_sep((unsigned char)buf[dash + 1]))
        return 0;
    return lexer_title_end(buf, len, dash) != 0;
}

#endif

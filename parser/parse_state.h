/* The parser's state, shared by its rooms: the token being read, the open
 * frames, and the few helpers every room uses on them.
 *   parser.c   the public calls: one message at a time, its errors kept
 *   grammar.h  the rules: what a keyword does in the open frames
 *   descent.c  the general descent, which reads every shape
 *   build.c    nodes, frames' children and errors: the tree being built
 *   run.c      the runs: plain fields read with the state in locals
 *   fused.c    the runs' AVX2 loop, straight from the input
 * The runs read only what the grammar calls a plain child; anywhere else
 * they stop and the general descent decides (parser/paths_test.c and
 * fuzz_paths check that both give the same messages). */
#ifndef ADEXP_PARSE_STATE_H
#define ADEXP_PARSE_STATE_H

#include <string.h>

#include "adexp.h"
#include "dict.h"
#include "dict_ids.h"
#include "internal.h"
#include "lexer.h"
#include "lines.h"
#include "scan.h"


/* The runs read the common fields straight from the input (run_fused) where
 * the CPU has AVX2; ADEXP_PARSER_NO_RUN has no runs at all. */
#if AVX2_SCAN && !defined(ADEXP_PARSER_NO_RUN)
#define RUN_FUSED 1
#else
#define RUN_FUSED 0
#endif


/* The parser reads the lexer's field tokens (a keyword with its value) as
 * they are, with one change made by advance (grammar.h): -BEGIN X and -END X become
 * FT_BEGIN and FT_END with keyword and entry those of the list name X. */
typedef field_token ftok;

/* One past the token's last byte. */
static inline size_t tok_end(const ftok *t)
{
    return t->value_offset + t->value.len;
}

typedef enum { FR_ROOT, FR_COMPOUND, FR_LIST, FR_UNKNOWN } frame_kind;

/* What the fields being read belong to: the message, a compound, a list, or
 * an unknown field (which takes the subfields that follow it, as the spec
 * skips an unknown field up to the next primary keyword). */
typedef struct frame {
    const struct frame *up;
    frame_kind kind;
    adexp_field *node;         /* NULL for the message itself */
    adexp_field **tail;        /* where the next child is linked */
    const dict_entry *entry;
    uint32_t depth;
    uint32_t items;            /* children so far: node->nchildren at the end */
    uint32_t max_items;        /* max_list_items in a list, else no limit */
    int seen_title;
    const uint64_t *holds;     /* the message and a list: the row of the
                                  subfields it holds directly (frame_row) */
} frame;

struct adexp_parser {
    adexp_options opt;
    adexp_allocator a;
    lexer lx;
    ftok *tok;                 /* the current token, not consumed yet (in
                                  the lexer's batch: valid until advance) */
    ftok heading;              /* the token of an envelope's start that
                                  follows an envelope (parser.c, at_heading) */
    lexer_heading_shape heading_seen;   /* the last common heading's
                                  (lexer_envelope_text) */
    size_t ahead_at, ahead_title;   /* the next message's bare lines, read
                                  ahead (parse_framed): where they start,
                                  or (size_t)-1, and their -TITLE */
    adexp_envelope ahead;      /* and what they hold */
    const char *buf;
    size_t len;
    adexp_arena *arena;
    adexp_msg *msg;
    size_t index;              /* of the next message */
    int fatal;                 /* a limit was hit: stop and resume at -TITLE */
    size_t stop_at;            /* where: the resume is looked for from there */
    int fused;                 /* the runs use run_fused (the CPU has AVX2;
                                  max_keyword_len allows all hot keywords) */
    adexp_error *errors;       /* opt.max_errors + STOP_SLOTS of them */
    lines_cursor lc;           /* of the last error: errors come in order */
    size_t prefetched;         /* the input is prefetched up to here
                                  (parser.c, prefetch_ahead) */
};

/* The places kept past max_errors for the errors that cut a message, so
 * that one is never hidden behind max_errors others: the limit or NOMEM
 * that stopped the tree (the parse stops there: one) and the view's NOMEM. */
#define STOP_SLOTS 2

/* For the per-field helpers: a call costs more than they do (saving and
 * restoring registers for their few slow paths). */
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* e is the entry of id (e may be NULL): an address compare, no division. */
static inline int is_entry(const dict_entry *e, unsigned id)
{
    return e == &dict_table[id];
}

/* The lexer's batch when the runs read the common fields themselves: the
 * tokens it makes are mostly those of the fields they leave to it. */
#define FUSED_BATCH 1

static inline int same_name(adexp_slice a, adexp_slice b)
{
    return a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0;
}

/* build.c: errors, with line and column; error_at fills e alone */
void error_at(adexp_parser *p, adexp_error *e, adexp_status code, size_t offset);
void record_error(adexp_parser *p, adexp_status code, size_t offset);
void record_stop(adexp_parser *p, adexp_status code, size_t offset);
void fatal(adexp_parser *p, adexp_status code, size_t offset);

/* descent.c: the fields of frame f, up to the token that ends it; after the
 * items of list n in frame f, its -END or an error */
void parse_body(adexp_parser *p, frame *f);
void close_list(adexp_parser *p, const frame *f, const adexp_field *n);

/* run.c: the run of plain fields that starts at p->tok in frame f */
void run_fields(adexp_parser *p, frame *f);

#endif

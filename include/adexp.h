/*
 * libadexp: a zero-copy parser for EUROCONTROL ADEXP messages.
 *
 *   adexp_arena arena;
 *   adexp_arena_init(&arena, NULL);
 *   adexp_parser *p = adexp_parser_new(NULL, NULL);
 *   adexp_parser_reset(p, buf, len);
 *   adexp_msg msg;
 *   while (adexp_parser_next(p, &arena, &msg) != ADEXP_END) {
 *       ... use msg.fields, msg.view, msg.errors ...
 *       adexp_arena_reset(&arena);
 *   }
 *   adexp_parser_free(p);
 *   adexp_arena_free(&arena);
 *
 * Every string in a message is a slice of the caller's buffer: keep the
 * buffer alive while the message is in use. Every node comes from the arena:
 * resetting it invalidates the messages parsed before.
 *
 * NULL: a pointer argument must not be NULL unless its function's comment
 * says "may be NULL". The free functions (adexp_arena_free,
 * adexp_parser_free, adexp_buf_free, adexp_dict_free) accept NULL, as free()
 * does. A slice's ptr may be NULL when its len is 0.
 */
#ifndef ADEXP_H
#define ADEXP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(ADEXP_BUILDING) && defined(__GNUC__)
#define ADEXP_API __attribute__((visibility("default")))
#else
#define ADEXP_API
#endif

#define ADEXP_VERSION "0.1.0"

/* ---------------------------------------------------------------- status */

typedef enum adexp_status {
    ADEXP_OK = 0,
    ADEXP_END,                 /* no more messages in the buffer */
    ADEXP_E_NOMEM,             /* the allocator returned NULL */
    ADEXP_E_NO_TITLE,          /* message does not start with -TITLE */
    ADEXP_E_NO_KEYWORD,        /* '-' not followed by a keyword */
    ADEXP_E_BEGIN_NO_NAME,     /* -BEGIN or -END without a list name */
    ADEXP_E_END_MISMATCH,      /* -END X while the innermost open list is Y */
    ADEXP_E_END_WITHOUT_BEGIN, /* -END X with no open list X */
    ADEXP_E_LIST_UNCLOSED,     /* -BEGIN X never closed in this message */
    ADEXP_E_TEXT_UNCLOSED,     /* '(' of an ICAO text field never closed */
    ADEXP_E_DEPTH_LIMIT,       /* nesting deeper than max_depth */
    ADEXP_E_FIELD_LIMIT,       /* more than max_fields fields */
    ADEXP_E_LIST_LIMIT,        /* a list with more than max_list_items items */
    ADEXP_E_SIZE_LIMIT,        /* message longer than max_message_size bytes */
    ADEXP_E_KEYWORD_LIMIT,     /* keyword longer than max_keyword_len */
    ADEXP_E_WRITE_KEYWORD,     /* writer, builder: a keyword that is empty,
                                  not A-Z0-9, or BEGIN/END as a field */
    ADEXP_E_WRITE_VALUE,       /* writer: a value that would not read back as
                                  itself (a '-' outside ICAO text, ...) */
    ADEXP_E_WRITE_SHAPE,       /* writer (verify): the text reads back as
                                  another tree */
    ADEXP_E_BUILD_ORDER,       /* builder: an end without its begin, a field
                                  before the title, finish with open fields */
    ADEXP_E_NUL_BYTE,          /* a NUL byte inside the message (batch driver) */
    ADEXP_E_ENVELOPE,          /* an AFTN envelope garbled or not ended: a
                                  heading line not of its form, NNNN missing
                                  before the next ZCZC, NNNN without ZCZC */
    ADEXP_STATUS_COUNT
} adexp_status;

/* Stable upper-case name of a status ("END_MISMATCH"), used in JSON. */
ADEXP_API const char *adexp_status_name(adexp_status s);
/* A short English sentence for a status. */
ADEXP_API const char *adexp_status_message(adexp_status s);

typedef struct adexp_error {
    adexp_status code;
    const char *message;       /* static string */
    size_t offset;             /* byte offset in the buffer given to the parser */
    uint32_t line, column;     /* 1-based; column counts bytes */
} adexp_error;

/* ---------------------------------------------------------------- memory */

/* Allocator hooks: alloc returns NULL on failure; free gets the size back. */
typedef struct adexp_allocator {
    void *(*alloc)(void *ctx, size_t size);
    void (*free)(void *ctx, void *ptr, size_t size);
    void *ctx;
} adexp_allocator;

typedef struct adexp_chunk adexp_chunk;

/* A bump allocator over chunks. Reset keeps the chunks for reuse, so
 * steady-state parsing allocates nothing. */
typedef struct adexp_arena {
    adexp_allocator a;
    adexp_chunk *head;         /* all chunks, first to last */
    adexp_chunk *cur;          /* chunk being filled */
    char *ptr, *end;           /* free space in cur */
    size_t chunk_size;
} adexp_arena;

/* hooks may be NULL: malloc and free. */
ADEXP_API void adexp_arena_init(adexp_arena *arena, const adexp_allocator *hooks);
/* size bytes aligned for any type, or NULL on no memory. */
ADEXP_API void *adexp_arena_alloc(adexp_arena *arena, size_t size);
ADEXP_API void adexp_arena_reset(adexp_arena *arena);
/* arena may be NULL (nothing is done). */
ADEXP_API void adexp_arena_free(adexp_arena *arena);

/* ---------------------------------------------------------------- tree */

typedef struct adexp_slice {
    const char *ptr;
    size_t len;
} adexp_slice;

typedef enum adexp_kind {
    ADEXP_BASIC = 0,           /* -KEYWORD value */
    ADEXP_COMPOUND,            /* -KEYWORD -SUB value -SUB value */
    ADEXP_LIST                 /* -BEGIN KEYWORD ... -END KEYWORD */
} adexp_kind;

enum {
    ADEXP_FIELD_UNKNOWN = 1u << 0,   /* keyword not in the dictionary */
    ADEXP_FIELD_TEXT = 1u << 1,      /* value read as ICAO text (may hold '-') */
    ADEXP_FIELD_MISPLACED = 1u << 2, /* a known subfield where no open compound
                                        or list has a place for it (kept) */
    ADEXP_FIELD_USUAL_POINT = 1u << 3 /* set by the parser alone, on a -PT it
                                        read as -PT -PTID x -FL y -ETO z: its
                                        first subfields are child[0], [1] and
                                        [2], in that order, as are their values
                                        in the input (all of its subfields if
                                        nchildren is 3); adexp_validate relies
                                        on it. Clear it in a point whose
                                        subfields you change or move. */
};

typedef struct adexp_field adexp_field;
struct adexp_field {
    adexp_slice keyword;       /* list name for lists */
    adexp_slice value;         /* raw value, right-trimmed; may span lines */
    adexp_field *child;        /* first subfield (compound) or item (list) */
    adexp_field *next;         /* next sibling */
    size_t offset;             /* offset of the field's '-' */
    uint32_t nchildren;
    uint8_t kind;              /* adexp_kind */
    uint8_t flags;             /* ADEXP_FIELD_* */
    uint16_t dict_id;          /* dictionary entry of keyword, ADEXP_DICT_NONE if
                                  unknown (a tree built by hand must keep them
                                  so: the JSON writer takes a known entry's
                                  name when the lengths agree) */
};
#define ADEXP_DICT_NONE 0xFFFFu

/* The first field named keyword among first and the siblings after it
 * (first->next, ...), first included; NULL if none or first == NULL. To
 * search the subfields of f, pass f->child. */
ADEXP_API const adexp_field *adexp_field_find(const adexp_field *first,
                                              const char *keyword);
ADEXP_API int adexp_slice_eq(adexp_slice s, const char *cstr);

/* Copy s into dst (size cap, always NUL-terminated when cap > 0) with runs of
 * space, CR, LF and TAB folded to one space and both ends trimmed (as the
 * JSON writer folds; FF and VT inside a value are kept).
 * Returns the folded length (which may exceed cap - 1: then the copy was
 * truncated). dst may be NULL when cap is 0 (to learn the length). */
ADEXP_API size_t adexp_fold_copy(adexp_slice s, char *dst, size_t cap);

/* ---------------------------------------------------------------- typed view */

typedef struct adexp_point {           /* RTEPTS -PT */
    adexp_slice ptid, fl, eto, to, sfl, lattd, longtd;
} adexp_point;

typedef struct adexp_estdata {         /* ESTDATA */
    adexp_slice ptid, eto, fl, sfl;
} adexp_estdata;

typedef struct adexp_geo {             /* GEO */
    adexp_slice geoid, lattd, longtd;
} adexp_geo;

typedef struct adexp_ref {             /* REFDATA, MSGREF */
    adexp_slice sender_fac, recvr_fac, seqnum;
} adexp_ref;

typedef struct adexp_coordata {        /* COORDATA */
    adexp_slice ptid, to, sto, tfl, sfl;
} adexp_coordata;

typedef struct adexp_cfl {             /* CFL */
    adexp_slice fl, ptid, sfl;
} adexp_cfl;

typedef struct adexp_slices {
    const adexp_slice *v;
    size_t n;
} adexp_slices;

/* The fields people use most. A slice with ptr == NULL is absent. Single
 * fields hold their first occurrence; repeated ones are arrays in order. */
typedef struct adexp_view {
    adexp_slice title, arcid, adep, ades, arctyp, eobt, eobd, ifplid, ssrcode,
        fltrul, flttyp, wktrc, ceqpt, seqpt, rfl, route, altrnt1, altrnt2, reg,
        opr, pbn, msgtxt, comment, filtim, orgnid, ctot, altnz;
    adexp_slices addr;                 /* FAC items of the ADDR list */
    adexp_slices eetfir;               /* raw "FIR hhmm" values */
    adexp_slices speed;
    adexp_slices regul;
    const adexp_point *rtepts;
    size_t n_rtepts;
    const adexp_estdata *estdata;
    size_t n_estdata;
    const adexp_geo *geo;
    size_t n_geo;
    adexp_ref refdata, msgref;
    int has_refdata, has_msgref, has_coordata;   /* occurrences; 0 = absent */
    adexp_coordata coordata;
    int has_cfl;               /* occurrences; 0 = absent */
    adexp_cfl cfl;             /* its subfields, or for a plain level
                                  (-CFL F190, as the specification's
                                  examples write it) that level as fl */
} adexp_view;

/* ---------------------------------------------------------------- message */

/* The form of an AFTN envelope, told by its heading's first byte. */
typedef enum adexp_envelope_form {
    ADEXP_FORM_ITA2 = 0,       /* ZCZC heading ... NNNN */
    ADEXP_FORM_IA5 = 1,        /* SOH heading STX ... VT ETX */
    ADEXP_FORM_BARE = 2        /* the address and origin lines alone, with
                                  no heading line and no end (a log that
                                  dropped them), followed by -TITLE */
} adexp_envelope_form;

/* The form's name in the outputs: "ita2", "ia5", "bare"; NULL for a value
 * that is no form. adexp_envelope_form_of reads one back (its n bytes):
 * 0 and *form, or -1 when it names none. */
ADEXP_API const char *adexp_envelope_form_name(adexp_envelope_form form);
ADEXP_API int adexp_envelope_form_of(const char *name, size_t n, adexp_envelope_form *form);

/* The AFTN envelope a message came in (ICAO Annex 10 Vol II): ITA-2's
 * ZCZC heading ... NNNN, or IA-5's SOH heading STX ... VT ETX. The slices
 * point into the input; a part the envelope lacks has ptr NULL. */
typedef struct adexp_envelope {
    int present;               /* 1: the message came in an envelope */
    int closed;                /* 1: the message ended with an envelope's
                                  end (NNNN or ETX), even one whose heading
                                  is missing (present 0) */
    adexp_envelope_form form;  /* with present: the form it came in (a
                                  heading that starts with SOH is IA-5,
                                  SOH ZCZC too); written back in it */
    adexp_slice transmission_id;   /* "AAA001": the heading line's first word */
    adexp_slice priority;      /* "FF": the address line's priority indicator */
    adexp_slice addressees;    /* "LKPREPWC EUCHZMFP": the addressee
                                  indicators as written, over one or more
                                  lines, separated by spaces or line ends */
    adexp_slice filing_time;   /* "170001": the origin line's DDHHMM */
    adexp_slice originator;    /* "EUCHZMFP": the origin line's indicator */
    adexp_slice text[3];       /* the envelope's text that is not ADEXP: the
                                  rest of the heading line, the rest of the
                                  origin line, text before -TITLE */
} adexp_envelope;

typedef struct adexp_msg {
    adexp_field *fields;       /* top-level fields in order; TITLE first */
    size_t nfields;            /* all fields in the tree */
    size_t offset, length;     /* the message's span in the buffer */
    size_t index;              /* position in the buffer, from 0 */
    adexp_error *errors;       /* nerrors entries: at most max_errors, and
                                  past them the error that cut the message
                                  (a limit, NOMEM) and the view's NOMEM,
                                  always kept; in the arena, or &lost */
    size_t nerrors;
    size_t nerrors_total;      /* including those not stored */
    adexp_view view;
    adexp_envelope envelope;   /* present = 0 when unframed */
    adexp_error lost;          /* errors' one entry (NOMEM) when the arena had
                                  no room for them: a copy of the message
                                  keeps pointing at the original's */
} adexp_msg;

/* Copy msg into arena, its text with it: *dst no longer depends on the
 * bytes msg was parsed from nor on the arena its tree is in (its errors'
 * messages are static strings). Returns ADEXP_OK, or ADEXP_E_NOMEM (then
 * *dst is unchanged; what was taken from arena goes with its next reset). */
ADEXP_API adexp_status adexp_msg_copy(const adexp_msg *msg, adexp_arena *arena,
                                      adexp_msg *dst);

/* ---------------------------------------------------------------- parser */

/* Limits: each has a default, a name and its own error code. */
#define ADEXP_DEFAULT_MAX_DEPTH 64
#define ADEXP_DEFAULT_MAX_FIELDS 1000000
#define ADEXP_DEFAULT_MAX_LIST_ITEMS 100000
#define ADEXP_DEFAULT_MAX_MESSAGE_SIZE (64u << 20)
#define ADEXP_DEFAULT_MAX_KEYWORD_LEN 32
#define ADEXP_DEFAULT_MAX_ERRORS 16
#define ADEXP_MAX_DEPTH_LIMIT 1024     /* max_depth is clamped to this */

/* Recognition of AFTN envelopes at message boundaries. On by default: a
 * plain ADEXP text never holds a line that is ZCZC or NNNN, nor SOH or ETX,
 * so recognition changes nothing for it, while a live feed comes framed. */
typedef enum adexp_envelope_mode {
    ADEXP_ENVELOPE_AFTN = 0,   /* ZCZC/NNNN and SOH/STX/ETX framing (default) */
    ADEXP_ENVELOPE_NONE = 1    /* no recognition: envelope text is ADEXP text */
} adexp_envelope_mode;

typedef struct adexp_options {
    uint32_t max_depth;        /* nested compounds and lists */
    uint32_t max_fields;       /* fields in one message */
    uint32_t max_list_items;   /* items in one list */
    uint32_t max_keyword_len;  /* bytes in one keyword */
    uint32_t max_errors;       /* errors stored per message (and the ones
                                  that cut it: adexp_msg.errors) */
    size_t max_message_size;   /* bytes in one message */
    const struct adexp_dictionary *dictionary;   /* NULL: Edition 3.1 as built
                                  in; else an extended one (adexp_dict_load),
                                  which must outlive the parser */
    int view_title_only;       /* 1: msg->view holds its title alone, for
                                  callers that read only the fields (the
                                  whole view costs about a fifth of a parse);
                                  0 (the default): the whole view */
    adexp_envelope_mode envelope;   /* ADEXP_ENVELOPE_AFTN (the default) */
} adexp_options;

ADEXP_API adexp_options adexp_options_default(void);

typedef struct adexp_parser adexp_parser;

/* ------------------------------------------------------ dictionary extensions */

/* A dictionary extended at run time: Edition 3.1 plus the rows of an
 * extension file, in the columns of lib/dict/fields.tsv, tab-separated:
 *   keyword  level  kind  flags  subfields  value_class
 * (level: primary, subfield, reserved_primary, reserved_subfield; kind: b, c,
 * l; flags: TEXT, MSG_LIST comma-separated or -; subfields: space-separated
 * keywords or -; value_class: text or -; '#' starts a comment line; a header
 * line "keyword\tlevel..." is allowed). A new keyword is added; a known one
 * gets the union of its subfields and flags (its level and kind must be
 * those it has), and a value class given replaces its own. Extended fields
 * are known: no ADEXP_FIELD_UNKNOWN; their dict_id may be >= the built-in
 * count (look them up in the dictionary that parsed them). */
typedef struct adexp_dictionary adexp_dictionary;

/* Keywords an extended dictionary holds at most, the built-in ones
 * included: dict_id stays below it (tables by dict_id have this size). */
#define ADEXP_DICT_MAX_KEYWORDS 1023u

typedef struct adexp_dict_error {
    unsigned line, column;     /* 1-based; 0 when the error is not on a line */
    char message[200];
} adexp_dict_error;

/* Load an extension from data[0..len) on top of base (NULL: Edition 3.1).
 * The result does not refer to base or data: either may be freed first.
 * Returns NULL on a bad file or no memory, with *err (may be NULL) filled. */
ADEXP_API adexp_dictionary *adexp_dict_load(const adexp_dictionary *base,
                                            const char *data, size_t len,
                                            adexp_dict_error *err);
/* The same from a file (at most 64 MiB); I/O errors have line 0. */
ADEXP_API adexp_dictionary *adexp_dict_load_file(const adexp_dictionary *base,
                                                 const char *path,
                                                 adexp_dict_error *err);
/* Accepts NULL. */
ADEXP_API void adexp_dict_free(adexp_dictionary *d);

/* opts may be NULL: defaults; hooks may be NULL: malloc. Returns NULL on no
 * memory. */
ADEXP_API adexp_parser *adexp_parser_new(const adexp_options *opts,
                                         const adexp_allocator *hooks);
/* p may be NULL (nothing is done). */
ADEXP_API void adexp_parser_free(adexp_parser *p);
/* Start on a new buffer. No NUL terminator is needed; buf may be NULL (an
 * empty input, len ignored). A UTF-8 byte order mark at its start is
 * skipped. */
ADEXP_API void adexp_parser_reset(adexp_parser *p, const char *buf, size_t len);
/* Parse the next message into msg, allocating from arena. Returns ADEXP_END
 * when the buffer holds no more; otherwise the code of the message's first
 * error, or ADEXP_OK. A message with errors still holds what was parsed, and
 * the next call resumes at the next top-level -TITLE. msg->errors lives in
 * the arena (or in msg->lost): it stays valid after later calls and after
 * adexp_parser_free. */
ADEXP_API adexp_status adexp_parser_next(adexp_parser *p, adexp_arena *arena,
                                         adexp_msg *msg);

/* One-shot: parse the first message of buf (buf may be NULL if len is 0),
 * with the arena's allocator. */
ADEXP_API adexp_status adexp_parse(const char *buf, size_t len,
                                   adexp_arena *arena, adexp_msg *msg);

/* ---------------------------------------------------------------- decoders */

typedef struct adexp_level {
    char unit;                 /* 'F' flight level, 'A' altitude (100 ft),
                                  'S' standard metric (10 m), 'M' metric (10 m) */
    int value;                 /* in the unit's own steps: F390 -> 390 */
} adexp_level;

typedef struct adexp_datetime {
    int year, month, day, hour, minute, second;   /* absent parts are 0 */
} adexp_datetime;

/* Each returns 1 on success, 0 if s is not of the form (out may then be
 * partly written). */
ADEXP_API int adexp_decode_level(adexp_slice s, adexp_level *out);
/* ETO: YYMMDDhhmmss; also accepts YYMMDDhhmm. Years 00-69 are 20xx. */
ADEXP_API int adexp_decode_datetime(adexp_slice s, adexp_datetime *out);
/* EOBD: YYMMDD. */
ADEXP_API int adexp_decode_date(adexp_slice s, adexp_datetime *out);
/* EOBT, TO, CTOT: hhmm. */
ADEXP_API int adexp_decode_time(adexp_slice s, adexp_datetime *out);

/* ---------------------------------------------------------------- JSON */

/* A growable output buffer. */
typedef struct adexp_buf {
    char *data;
    size_t len, cap;
    adexp_allocator a;
} adexp_buf;

/* hooks may be NULL: malloc. */
ADEXP_API void adexp_buf_init(adexp_buf *b, const adexp_allocator *hooks);
/* b may be NULL (nothing is done). */
ADEXP_API void adexp_buf_free(adexp_buf *b);

/* Append one NDJSON line (with its '\n') for msg. source is the input's
 * name as given ("-" for stdin). Returns ADEXP_OK or ADEXP_E_NOMEM. */
ADEXP_API adexp_status adexp_json_write(adexp_buf *out, const adexp_msg *msg,
                                        const char *source);

/* ---------------------------------------------------------------- trees */

enum {
    ADEXP_SAME_FOLD = 1u << 0,      /* compare values folded (adexp_fold_copy) */
    ADEXP_SAME_ALL_FLAGS = 1u << 1  /* compare every flag, not only UNKNOWN
                                       and TEXT (but USUAL_POINT, which says
                                       how the parser read a field) */
};

/* Whether the trees from a and from b (first fields of two sibling chains)
 * are the same: keyword, value, kind, flags (UNKNOWN and TEXT, or all with
 * ADEXP_SAME_ALL_FLAGS) and children, in order; offsets are not compared.
 * Returns 1 if so; else 0 and, if where is not NULL, *where is the first
 * field of a that differs (or the last of a, or NULL for an empty a, when b
 * has more fields). */
ADEXP_API int adexp_tree_same(const adexp_field *a, const adexp_field *b,
                              unsigned how, const adexp_field **where);

/* Writes the path of field f in the tree from first into dst (cap bytes,
 * always NUL-terminated when cap > 0): keywords from the top down joined by
 * '/', each followed by [n] when it is the n-th (n > 1) of its parent's
 * children with that keyword: "RTEPTS/PT[3]/PTID". A list is named by its
 * name. Returns the path's length (which may exceed cap - 1: then it was
 * truncated), or 0 if f is not in the tree. */
ADEXP_API size_t adexp_field_path(const adexp_field *first, const adexp_field *f,
                                  char *dst, size_t cap);

/* ---------------------------------------------------------------- ADEXP out */

typedef enum adexp_layout {
    ADEXP_LAYOUT_LINE = 0,     /* a message on one line, fields separated by one
                                  space (values with kept line breaks aside) */
    ADEXP_LAYOUT_IFPS          /* one primary field per line with its subfields;
                                  -BEGIN, each list item and -END on lines of
                                  their own, items indented one level */
} adexp_layout;

typedef struct adexp_write_options {
    adexp_layout layout;
    int fold;                  /* 1: runs of space, CR, LF and TAB in a value
                                  become one space, ends trimmed (as in JSON);
                                  0: each value's bytes as they are */
    unsigned indent;           /* IFPS: spaces per nesting level */
    int verify;                /* 1: parse what was written and compare it with
                                  msg (adexp_tree_same; folded with fold):
                                  catches trees no text reads back as, e.g. a
                                  subfield its compound does not allow */
    const struct adexp_dictionary *dictionary;   /* the extended dictionary the
                                  messages are read with, or NULL */
    int envelope;              /* 1: a message that came in an AFTN envelope
                                  (msg->envelope.present) is written in it,
                                  ITA-2 form (ZCZC heading, address line,
                                  origin line, text, NNNN; parts folded with
                                  fold), as it stands: NNNN only when the
                                  message ended with one (closed), a garbled
                                  heading as it was; one with an ENVELOPE
                                  error that would not read back with the
                                  same envelope and error is refused
                                  (ADEXP_E_WRITE_VALUE at envelope*), verify
                                  or not; 0: the message alone */
} adexp_write_options;

/* Line layout, values kept, indent 2, no verify, no envelope. */
ADEXP_API adexp_write_options adexp_write_options_default(void);

typedef struct adexp_write_error {
    adexp_status code;         /* ADEXP_OK when nothing failed */
    const adexp_field *field;  /* the field that cannot be written, or NULL */
    char path[256];            /* its path (adexp_field_path), "" if none */
} adexp_write_error;

/* Appends msg (its fields, and its errors as said below) as ADEXP text ending
 * in '\n', so that parsing it gives the same tree: keywords as they are,
 * values as they are (or folded), ICAO text fields (MSGTXT, OLDMSG...) with
 * the brackets their value holds, lists as -BEGIN X ... -END X.
 * o == NULL: adexp_write_options_default(); err may be NULL.
 * Returns ADEXP_OK; or, with out as it was before the call and *err telling
 * which field: ADEXP_E_NOMEM; ADEXP_E_WRITE_KEYWORD (a keyword empty, not of
 * A-Z0-9, or BEGIN or END as a field); ADEXP_E_WRITE_VALUE (a '-' in a value
 * of a field that is not ICAO text; with fold 0, a value starting or ending
 * with a separator; ICAO text that would read back shorter: a '(' without
 * its ')', a -TITLE or, outside brackets, a known primary field inside, or
 * text without brackets followed by a field that is not primary; a '('
 * without its ')' is written as it stands when msg->errors hold
 * TEXT_UNCLOSED and nothing follows it, as the parser read it, and a list
 * msg->errors flag LIST_UNCLOSED at its offset is written without its -END);
 * ADEXP_E_WRITE_SHAPE (verify: the text reads back as another tree, or
 * another envelope). With o->envelope, a part of the envelope that would
 * not read back as itself (a line end in a one-line part, a -TITLE, SOH,
 * STX or ETX, ZCZC or NNNN starting a line) is ADEXP_E_WRITE_VALUE, with
 * err->path naming the part ("envelope.text") and err->field NULL. A tree
 * parsed without error is always written (the text has its tokens in the
 * same order), and reads back the same. */
ADEXP_API adexp_status adexp_write(adexp_buf *out, const adexp_msg *msg,
                                   const adexp_write_options *o,
                                   adexp_write_error *err);

/* ---------------------------------------------------------------- builder */

/* Makes a message field by field, for the writers:
 *
 *   adexp_builder *b = adexp_builder_new(&arena);
 *   adexp_builder_begin(b, "IFPL");                // -TITLE IFPL
 *   adexp_builder_add(b, "ARCID", "DLH66T");
 *   adexp_builder_begin_list(b, "RTEPTS");
 *   adexp_builder_begin_compound(b, "PT", NULL);
 *   adexp_builder_add(b, "PTID", "EDDM");
 *   adexp_builder_end_compound(b);
 *   adexp_builder_end_list(b);
 *   adexp_msg msg;
 *   if (adexp_builder_finish(b, &msg) == ADEXP_OK) ... adexp_write ...
 *
 * Everything (the builder, nodes, copies of keywords and values) comes from
 * the arena; resetting the arena ends the builder and its messages. Each
 * keyword is looked up in the dictionary: its dict_id, kind (a known compound
 * added with adexp_builder_add is a compound with a value, as the parser
 * reads it) and flags are those the parser would give (ADEXP_FIELD_UNKNOWN
 * for keywords it does not know, ADEXP_FIELD_TEXT for ICAO text fields).
 * Calls return ADEXP_OK, ADEXP_E_NOMEM, ADEXP_E_WRITE_KEYWORD (not A-Z0-9,
 * empty, BEGIN or END) or ADEXP_E_BUILD_ORDER; the first failure sticks:
 * later calls do nothing and return it, and finish returns it. Values are
 * checked by the writer, not here. */
typedef struct adexp_builder adexp_builder;

/* NULL when the arena is out of memory. */
ADEXP_API adexp_builder *adexp_builder_new(adexp_arena *arena);
/* Look keywords up in the extended dictionary d (NULL: the built-in one)
 * from now on; d must outlive the builder's messages. */
ADEXP_API void adexp_builder_use_dictionary(adexp_builder *b, const adexp_dictionary *d);
/* Starts a new message (forgetting any unfinished one) with -TITLE title;
 * the _n form takes the title's length (any bytes; NULL when tlen is 0). */
ADEXP_API adexp_status adexp_builder_begin(adexp_builder *b, const char *title);
ADEXP_API adexp_status adexp_builder_begin_n(adexp_builder *b, const char *title,
                                             size_t tlen);
/* A basic field; value NULL is an empty value. The _n forms take lengths
 * (keyword and value need no NUL; value may be NULL when vlen is 0). */
ADEXP_API adexp_status adexp_builder_add(adexp_builder *b, const char *keyword,
                                         const char *value);
ADEXP_API adexp_status adexp_builder_add_n(adexp_builder *b, const char *keyword,
                                           size_t klen, const char *value,
                                           size_t vlen);
/* A compound (value NULL: none); the fields added up to its end are its
 * subfields. */
ADEXP_API adexp_status adexp_builder_begin_compound(adexp_builder *b,
                                                    const char *keyword,
                                                    const char *value);
ADEXP_API adexp_status adexp_builder_begin_compound_n(adexp_builder *b,
                                                      const char *keyword,
                                                      size_t klen,
                                                      const char *value,
                                                      size_t vlen);
ADEXP_API adexp_status adexp_builder_end_compound(adexp_builder *b);
/* A list -BEGIN name ... -END name; the fields added up to its end are its
 * items. */
ADEXP_API adexp_status adexp_builder_begin_list(adexp_builder *b, const char *name);
ADEXP_API adexp_status adexp_builder_begin_list_n(adexp_builder *b,
                                                  const char *name, size_t len);
ADEXP_API adexp_status adexp_builder_end_list(adexp_builder *b);
/* The message: fields, nfields and view (title, arcid...) set, no errors,
 * offsets 0. Fails with ADEXP_E_BUILD_ORDER if a compound or list is still
 * open or no message was begun. The builder may then begin the next one. */
ADEXP_API adexp_status adexp_builder_finish(adexp_builder *b, adexp_msg *msg);

/* ---------------------------------------------------------------- validation */

/* What a finding says. The parser accepts any value; adexp_validate checks
 * each value against the syntax the dictionary gives its field, the ranges
 * the syntax cannot express, and the subfields of compounds and lists. */
typedef enum adexp_finding_code {
    ADEXP_V_BAD_VALUE = 0,     /* the value does not match its syntax */
    ADEXP_V_OUT_OF_RANGE,      /* matches the syntax, but a month, day, hour,
                                  minute, latitude, longitude, ... is out of range */
    ADEXP_V_MISSING_SUBFIELD,  /* a compound or list lacks a mandatory subfield */
    ADEXP_V_NOT_ALLOWED,       /* a subfield or item its compound or list does
                                  not allow */
    ADEXP_V_MISPLACED,         /* a subfield outside any compound or list */
    ADEXP_V_UNEXPECTED_VALUE,  /* text where a compound wants its subfields */
    ADEXP_V_NOT_CHECKED,       /* the value needed more than
                                  ADEXP_VALIDATE_MAX_STEPS steps to check */
    ADEXP_V_CODE_COUNT
} adexp_finding_code;

/* The matcher's budget for one value (steps, and nesting of its parts). */
#define ADEXP_VALIDATE_MAX_STEPS 100000
#define ADEXP_VALIDATE_MAX_NESTING 2000

typedef struct adexp_finding {
    adexp_finding_code code;
    const char *field;         /* path: "RFL", "RTEPTS/PT[2]/ETO"; [n] (from 1)
                                  on every list item and on a keyword repeated
                                  among its siblings; from the arena */
    const char *message;       /* a sentence, from the arena */
    const char *expected;      /* the syntax as the dictionary writes it
                                  ("flightlevel [point]"), or a compound's
                                  subfields ("(PTID ETO FL)"); "" if none.
                                  Static */
    adexp_slice value;         /* the value found (ptr NULL for structure) */
    size_t offset;             /* of the value, or of the field's '-' */
    uint32_t line, column;     /* 1-based, as for parse errors */
} adexp_finding;

/* The findings of one message. Keep one and pass it for each message of a
 * buffer in order: it remembers the last line counted, so finding lines
 * stays linear. Init it first, and again before a new buffer whose first
 * message (index 0) is not validated. */
typedef struct adexp_findings {
    adexp_finding *v;          /* n entries, from the arena given to validate */
    size_t n;
    size_t cap;
    const struct adexp_dictionary *dictionary;   /* the extended dictionary the
                                  messages were parsed with, or NULL (set it
                                  after adexp_findings_init): extended fields
                                  are then checked for their structure; their
                                  values have no generated check */
    int no_lines;              /* 1 (set after adexp_findings_init): the
                                  message's buffer is not whole (a copy,
                                  adexp_msg_copy): findings get line and
                                  column 0, no byte before the message is
                                  read */
    const char *lc_base;       /* line cache: buffer, offset, line, its start */
    size_t lc_off, lc_bol, lc_index;
    uint32_t lc_line;
} adexp_findings;

ADEXP_API void adexp_findings_init(adexp_findings *out);
/* Validate a parsed message (one with parse errors too: what was parsed is
 * checked). Fills out->v and out->n, replacing what it held; the findings,
 * their paths and messages live in arena (reset it after use, as for the
 * message). msg and out must not be NULL; arena must not be NULL. Returns
 * ADEXP_OK, or ADEXP_E_NOMEM (out then holds the findings stored so far).
 * Read-only on msg: messages may be validated from several threads, each
 * with its own arena and findings. */
ADEXP_API adexp_status adexp_validate(const adexp_msg *msg, adexp_arena *arena,
                                      adexp_findings *out);
/* Stable upper-case name of a finding code ("BAD_VALUE"), used in JSON. */
ADEXP_API const char *adexp_finding_name(adexp_finding_code c);
/* ---------------------------------------------------------------- more decoders */

/* adexp_decode_level_any's results. */
#define ADEXP_LEVEL_STANDARD 1     /* F390, A045, S1130, M0840 */
#define ADEXP_LEVEL_NONSTANDARD 2  /* FL390: not ADEXP syntax, seen in traffic */
/* adexp_decode_level, and also FL + 3 digits (read as F). Returns 0, or one
 * of the two codes above so that a caller can flag the loose form. */
ADEXP_API int adexp_decode_level_any(adexp_slice s, adexp_level *out);
/* SFL's value, a level then A (crossed at or above it) or B (at or below
 * it): F110A. The level as adexp_decode_level_any (its result), the letter
 * in *cond; 0 without the letter. */
ADEXP_API int adexp_decode_sfl(adexp_slice s, adexp_level *out, char *cond);
/* RFL's value, a level and optionally the point where it is requested:
 * F230 REDFA. The level as adexp_decode_level_any (its result), the point
 * in *point (ptr NULL when there is none). */
ADEXP_API int adexp_decode_rfl(adexp_slice s, adexp_level *out, adexp_slice *point);
/* A level in feet: F and A are hundreds of feet; S and M tens of metres,
 * converted (1 ft = 0.3048 m) and rounded. */
ADEXP_API long adexp_level_feet(adexp_level l);
/* A level in metres: S and M exactly, F and A converted and rounded. */
ADEXP_API long adexp_level_metres(adexp_level l);
/* LATTD (DDMMSSN, DDMMN) or LONGTD (DDDMMSSE, DDDMME) to signed decimal
 * degrees: south and west negative. Returns 1, or 0 if s is not of a form. */
ADEXP_API int adexp_decode_coord(adexp_slice s, double *deg);

/* What adexp_decode_when read. */
enum {
    ADEXP_WHEN_NONE = 0,
    ADEXP_WHEN_DATETIME,       /* YYMMDDhhmm[ss] */
    ADEXP_WHEN_DATE,           /* YYMMDD */
    ADEXP_WHEN_TIME            /* hhmm */
};
/* Any of the three by its length. Two-digit years 00-69 are 20xx, 70-99
 * 19xx. Returns ADEXP_WHEN_NONE if s is none of them. */
ADEXP_API int adexp_decode_when(adexp_slice s, adexp_datetime *out);
/* Seconds since 1970-01-01T00:00:00Z of a decoded date-time (UTC, as ADEXP
 * times are); a time without date counts from that day. */
ADEXP_API int64_t adexp_datetime_to_time(const adexp_datetime *d);
#define ADEXP_WHEN_BUF 24
/* ISO 8601 text of a decoded value, NUL-terminated, in buf: a date-time as
 * 2018-10-23T07:46:00Z, a date as 2018-10-23, a time alone as 07:46.
 * Returns its length (0 for ADEXP_WHEN_NONE). */
ADEXP_API size_t adexp_when_format(int kind, const adexp_datetime *d,
                                   char buf[ADEXP_WHEN_BUF]);

/* ---------------------------------------------------------------- dictionary */

typedef enum adexp_dict_level {
    ADEXP_DICT_PRIMARY = 0,
    ADEXP_DICT_SUBFIELD,
    ADEXP_DICT_RESERVED_PRIMARY,
    ADEXP_DICT_RESERVED_SUBFIELD,
    ADEXP_DICT_SYNTAX          /* BEGIN, END */
} adexp_dict_level;

/* How a value decodes, from its dictionary syntax. */
typedef enum adexp_value_type {
    ADEXP_VALUE_OTHER = 0,
    ADEXP_VALUE_LEVEL,         /* flightlevel: adexp_decode_level */
    ADEXP_VALUE_DATETIME,      /* YYMMDDhhmm[ss]: adexp_decode_datetime */
    ADEXP_VALUE_DATE,          /* YYMMDD: adexp_decode_date */
    ADEXP_VALUE_TIME,          /* hhmm: adexp_decode_time */
    ADEXP_VALUE_COORD,         /* latitude, longitude: adexp_decode_coord */
    ADEXP_VALUE_LEVEL_AB,      /* flightlevel!(A|B) (SFL): adexp_decode_sfl */
    ADEXP_VALUE_LEVEL_POINT    /* flightlevel [point] (RFL): adexp_decode_rfl */
} adexp_value_type;

/* One entry of the field dictionary (ADEXP Edition 3.1). Static data. */
typedef struct adexp_dict_info {
    const char *keyword;
    uint16_t id;               /* what adexp_field.dict_id holds */
    uint8_t kind;              /* adexp_kind */
    uint8_t level;             /* adexp_dict_level */
    uint8_t text;              /* 1: any-character ICAO text (MSGTXT) */
    uint8_t value_type;        /* adexp_value_type */
    const char *value_class;   /* the dictionary's value syntax in short,
                                  e.g. "timehhmm"; "-" for none */
    size_t nsub;               /* allowed subfields (compound) or elements (list) */
} adexp_dict_info;

/* The entry of keyword (upper case, NUL-terminated) into *out. Returns 1,
 * or 0 if the dictionary does not know it. Thread-safe. */
ADEXP_API int adexp_dict_find(const char *keyword, adexp_dict_info *out);
/* The entry of a field's dict_id. Returns 1, or 0 (ADEXP_DICT_NONE). */
ADEXP_API int adexp_dict_get(uint16_t id, adexp_dict_info *out);
/* The keyword of info's i-th allowed subfield (or list element), in
 * alphabetical order, i < info->nsub; NULL past the end. */
ADEXP_API const char *adexp_dict_sub(const adexp_dict_info *info, size_t i);

/* ---------------------------------------------------------------- paths */

#define ADEXP_PATH_MAX_PARTS 16

/* A walk over the fields at a path such as "RTEPTS/PT/PTID" ('.' may stand
 * for '/'): each part names a keyword one level down, the first one among
 * the message's top-level fields. Holds pointers into the path and the
 * message: keep both alive while iterating. */
typedef struct adexp_path_iter {
    adexp_slice part[ADEXP_PATH_MAX_PARTS];
    const adexp_field *at[ADEXP_PATH_MAX_PARTS];   /* current match per level */
    const adexp_field *first;  /* the top-level fields */
    int nparts, depth;         /* depth -1: not started */
    int done;
} adexp_path_iter;

/* Start a walk over msg's fields at path. Returns 1, or 0 if the path is
 * empty, has an empty part or more than ADEXP_PATH_MAX_PARTS parts (then
 * the walk yields nothing). */
ADEXP_API int adexp_path_begin(adexp_path_iter *it, const adexp_msg *msg,
                               const char *path);
/* The same from a list of sibling fields (a field's child, say). */
ADEXP_API int adexp_path_begin_at(adexp_path_iter *it, const adexp_field *first,
                                  const char *path);
/* The next field at the path, in document order, or NULL at the end. */
ADEXP_API const adexp_field *adexp_path_next(adexp_path_iter *it);
/* Decode s as type says (for ADEXP_VALUE_OTHER: by its length, as
 * adexp_decode_when). Returns an ADEXP_WHEN_* code. */
ADEXP_API int adexp_decode_when_as(adexp_value_type type, adexp_slice s, adexp_datetime *out);
/* The first field of msg at path, or NULL. */
ADEXP_API const adexp_field *adexp_msg_find(const adexp_msg *msg, const char *path);

/* ---------------------------------------------------------------- version */

/* The library's version at run time ("0.1.0"), which may differ from the
 * ADEXP_VERSION a program was compiled with. */
ADEXP_API const char *adexp_version(void);

/* The vector code this process's parser and writers run: "avx2" (with
 * BMI1, BMI2 and POPCNT, as glibc reports them usable), "avx2+avx512bw"
 * where AVX-512F and BW are usable too (a few loops then take 64 bytes a
 * step), "sse2" on an x86-64 CPU without them, "none" elsewhere. Each path
 * gives the same results; glibc's tunable GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2
 * turns the vector code off, as on a CPU without it, hwcaps=-AVX512BW the
 * AVX-512 loops alone. */
ADEXP_API const char *adexp_vector_code(void);

/* ---------------------------------------------------------------- outputs for data */

/* What to keep and how to lay it out: built once from option strings,
 * then read by any number of threads. */
typedef struct adexp_select adexp_select;

/* fields: comma-separated paths with an optional decoded suffix (RFL,
 * RFL_ft, ESTDATA.PTID, ETO_utc), or NULL; rows: a list keyword (RTEPTS)
 * for one CSV row per item, or NULL; titles: comma-separated titles to
 * keep (IFPL,CHG), or NULL for all. Returns NULL on a bad list, with a
 * sentence in err (cap bytes), or when out of memory (err says so). */
ADEXP_API adexp_select *adexp_select_new(const char *fields, const char *rows,
                                         const char *titles, char *err, size_t cap);
ADEXP_API void adexp_select_free(adexp_select *s);
/* Whether each keyword the selection names (every part of each fields
 * path, the rows list) is known to the dictionary d (NULL: the built-in
 * one, else an extended one), and rows is a list: unknown names give empty
 * columns, which is most often a typo. Returns 0, or -1 with a sentence in
 * err (cap bytes) naming the closest known keywords. */
ADEXP_API int adexp_select_check_names(const adexp_select *sel, const adexp_dictionary *d,
                                       char *err, size_t cap);
/* The selection's titles that adexp_select_keeps has met in no message so
 * far, comma-separated in out (cap bytes, may be 0). Returns their number.
 * (Titles are not in the dictionary, so an unknown one is only known
 * after the run.) */
ADEXP_API size_t adexp_select_unseen_titles(const adexp_select *sel, char *out, size_t cap);
/* Whether msg's title is one of the selection's (always 1 without titles;
 * sel may be NULL). */
ADEXP_API int adexp_select_keeps(const adexp_select *sel, const adexp_msg *msg);
/* Whether the selection names fields (then json and view are trimmed). */
ADEXP_API int adexp_select_has_fields(const adexp_select *sel);
/* A copy of msg in *out whose top-level list holds only the fields named by
 * the selection's paths (a path keeps its top-level field whole), TITLE
 * always. The copies come from arena; the subtrees are shared. Returns
 * ADEXP_OK or ADEXP_E_NOMEM. */
ADEXP_API adexp_status adexp_select_trim(const adexp_select *sel, const adexp_msg *msg,
                                         adexp_arena *arena, adexp_msg *out);

/* Append the typed view of msg as one JSON line (see doc/json.md's "Typed
 * view" table), trimmed to the selection's fields when sel names some
 * (sel may be NULL). The view is read from msg's fields, as the parser
 * fills msg->view, which is not read (a message parsed with
 * view_title_only writes the same line). Returns ADEXP_OK or
 * ADEXP_E_NOMEM (out unchanged). */
ADEXP_API adexp_status adexp_view_json_write(adexp_buf *out, const adexp_msg *msg,
                                             const char *source,
                                             const adexp_select *sel);

/* CSV (sep ',', RFC 4180, rows end in CRLF) or TSV (sep '\t', rows end in
 * LF); sel NULL: the default columns (doc/json.md's "CSV and TSV"). Each
 * returns ADEXP_OK or ADEXP_E_NOMEM (out unchanged). The header row: */
ADEXP_API adexp_status adexp_csv_header(adexp_buf *out, const adexp_select *sel, char sep);
/* msg's row; with the selection's rows, one row per item of that list (a
 * failed message without the list: one row with empty item columns). */
ADEXP_API adexp_status adexp_csv_write(adexp_buf *out, const adexp_msg *msg,
                                       const char *source, const adexp_select *sel,
                                       char sep);

#ifdef __cplusplus
}
#endif
#endif

/* The selection behind --fields, --rows and --title, shared by the view
 * and CSV writers. Not installed. */
#ifndef ADEXP_SELECT_H
#define ADEXP_SELECT_H

#include "adexp.h"

/* A column's decoded suffix. */
enum sel_suffix { SUF_NONE = 0, SUF_FT, SUF_M, SUF_UTC, SUF_DEG };

typedef struct sel_column {
    const char *name;          /* header: the path as given, upper-cased, with
                                  its suffix (ESTDATA.PTID, RFL_ft) */
    const char *path;          /* for adexp_path_begin: ESTDATA.PTID; for an
                                  item column, relative to the item */
    adexp_slice top;           /* its first part: what trimming keeps */
    uint8_t suffix;            /* enum sel_suffix */
    uint8_t item;              /* 1: a column of the --rows item */
    uint8_t value_type;        /* adexp_value_type of the last part */
    uint8_t eobt;              /* the path is EOBT: _utc joins EOBD */
    uint8_t one_part;          /* the path is one keyword: a scan of siblings */
    uint16_t dict_id;          /* that keyword's id (ADEXP_DICT_NONE: unknown,
                                  compared by its bytes) */
    uint8_t key;               /* column of one known keyword: its key in
                                  key_of[item] (1 to nkeys[item]); 0: the
                                  column scans for itself */
    uint8_t envelope;          /* enum sel_envelope: a part of the message's
                                  envelope, not a field */
} sel_column;

/* The envelope's parts a column names (envelope.originator): the keys of
 * the JSON "envelope" object, in its order. */
enum sel_envelope {
    ENV_NONE = 0, ENV_FORM, ENV_TRANSMISSION_ID, ENV_PRIORITY, ENV_ADDRESSEES, ENV_FILING_TIME,
    ENV_ORIGINATOR, ENV_TEXT
};
#define SEL_ENVELOPE_PREFIX "envelope."

/* The enum sel_envelope of part name[0..n) (any case), or -1 with a
 * sentence naming the closest parts in err. */
int sel_envelope_part(const char *name, size_t n, char *err, size_t cap);

/* key_of's size: dict ids masked to it; ADEXP_DICT_NONE masks to a zero
 * entry past the dictionary's ids. */
#define SEL_ID_TABLE 1024u

struct adexp_select {
    const sel_column *cols;    /* message columns, then item columns */
    sel_column *ccols;         /* cols when allocated (NULL: static) */
    size_t ncols;
    const char *rows;          /* list keyword, or NULL */
    const char **titles;
    size_t ntitles;
    unsigned char *seen;       /* per title: a message of it was met (set by
                                  adexp_select_keeps from any thread) */
    int has_fields;            /* --fields was given */
    char *text;                /* the strings above point in here */
    const uint8_t *key_of[2];  /* of the message's (0) and the item's (1)
                                  columns: by dict_id & (SEL_ID_TABLE - 1),
                                  the key of the columns of that keyword, or
                                  0; so that the CSV writer finds every
                                  column's field in one scan of the level */
    size_t nkeys[2];
    uint8_t *ckey_of;          /* key_of's block when allocated */
    const sel_column *level[2];   /* copies of the message's (0) and the
                                     item's (1) columns, each in order */
    size_t nlevel[2];
    sel_column *clevel;        /* level's block when allocated */
    int usual_points;          /* --rows RTEPTS with the default item columns:
                                  the usual point's row has a template */
};

/* Whether the selection keeps top-level keyword kw (1 when it names no
 * fields; sel may be NULL). */
int sel_keeps_keyword(const adexp_select *sel, adexp_slice kw);

/* sel, or the default CSV columns when sel is NULL. */
const adexp_select *sel_or_default(const adexp_select *sel);

#define SEL_TEXT_BUF 40
/* The decoded companion of value v for suffix, written at o (room for
 * SEL_TEXT_BUF bytes): feet or metres as an integer, the ISO 8601 text of
 * a time, decimal degrees. type: the value's adexp_value_type; eobd: the
 * message's EOBD, joined to an EOBT's time (ptr NULL: none). Returns the
 * end, or NULL when v does not decode. */
char *sel_companion_at(char *o, int suffix, int type, adexp_slice v, adexp_slice eobd);
/* sel_companion_at's decimal degrees of coordinate v (LATTD, LONGTD). */
char *sel_deg_at(char *o, adexp_slice v);

#endif

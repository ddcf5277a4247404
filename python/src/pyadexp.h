/* The adexp extension module's shared declarations: one file per concept
 * (text, options, records, message, field, dicts, view, files, table), all over
 * libadexp's public API only. */
#ifndef PYADEXP_H
#define PYADEXP_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "adexp.h"
#include "adexp_batch.h"

/* ---------------------------------------------------------------- text.c */

/* A str equal to what json.loads gives for the JSON writer's string of s:
 * with fold, separator runs become one space and the ends are trimmed;
 * valid UTF-8 is decoded and every other byte b becomes chr(b). */
PyObject *pa_str(adexp_slice s, int fold);
/* pa_str(keyword, 1), with the strings of dictionary keywords reused. */
PyObject *pa_keyword(const adexp_field *f);
void pa_text_clear(void);

/* Interned dict keys, created once at import. */
typedef struct pa_keys {
    PyObject *source, *index, *offset, *title, *fields, *errors, *name,
        *value, *items, *unknown, *code, *message, *line, *column, *misplaced;
} pa_keys;
extern pa_keys pa_k;
int pa_keys_init(void);

/* ---------------------------------------------------------------- options.c */

/* Fill *o from the limit keywords in kwargs (max_depth, ...) and dictionary
 * (an adexp._Dictionary or None), removing each one it reads. Returns 0, or -1 with TypeError/ValueError set. */
int pa_options_take(PyObject *kwargs, adexp_options *o);
/* TypeError naming the first key left in kwargs, if any: returns -1. */
int pa_no_more_kwargs(PyObject *kwargs, const char *func);

/* ---------------------------------------------------------------- records.c */

/* The messages parsed from one buffer; their trees are in one arena. */
typedef struct pa_msgs {
    adexp_msg *v;
    size_t n, cap;
} pa_msgs;

/* Parse every message of data[0..len) with p into arena. Runs without the
 * GIL. Returns 0, or -1 when out of memory (then r holds nothing). */
int pa_parse_all(adexp_parser *p, const char *data, size_t len,
                 adexp_arena *arena, pa_msgs *r);
void pa_msgs_free(pa_msgs *r);
/* An arena whose chunks suit an input of len bytes. */
void pa_arena_init(adexp_arena *a, size_t len);
/* A parser for o: the module's cached one when its limits match, else a
 * new one. Give it back with pa_parser_put. Needs the GIL. */
adexp_parser *pa_parser_get(const adexp_options *o);
void pa_parser_put(adexp_parser *p, const adexp_options *o);

/* An arena owned by a Python object, which also keeps base (the bytes the
 * trees point into) alive: what every Message holds. Takes over *a (and
 * frees it on failure). */
PyObject *pa_arena_new(adexp_arena *a, PyObject *base);
adexp_arena *pa_arena_of(PyObject *arena_obj);
extern PyTypeObject pa_ArenaType;

/* ---------------------------------------------------------------- chunks.c */

/* An arena of chunk_size chunks whose freed chunks are kept for the next
 * such arena (up to a bound), on any thread; pa_pool_drain frees those
 * kept. All such arenas share one chunk size. */
void pa_pool_arena_init(adexp_arena *a, size_t chunk_size);
void pa_pool_drain(void);

/* ---------------------------------------------------------------- message.c */

typedef struct pa_message {
    PyObject_HEAD
    PyObject *owner;           /* the _Arena of the tree, which keeps the bytes */
    PyObject *source;          /* str */
    PyObject *fields;          /* cached list of Field, or NULL */
    adexp_msg msg;
} pa_message;

extern PyTypeObject pa_MessageType;
/* A Message over msg, whose tree is in the _Arena owner. */
PyObject *pa_message_new(const adexp_msg *msg, PyObject *owner, PyObject *source);

/* ---------------------------------------------------------------- field.c */

typedef struct pa_field {
    PyObject_HEAD
    PyObject *owner;           /* the _Arena that holds f */
    const adexp_field *f;
} pa_field;

extern PyTypeObject pa_FieldType;
PyObject *pa_field_list(PyObject *owner, const adexp_field *first);
/* The folded value of the first basic field named key among first and its
 * siblings; NULL without an exception when there is none. */
PyObject *pa_first_value(const adexp_field *first, PyObject *key);

/* ---------------------------------------------------------------- dicts.c */

/* What json.loads gives for the JSON writer's object of f (and of a whole
 * message). */
PyObject *pa_field_dict(const adexp_field *f);
PyObject *pa_message_dict(const adexp_msg *m, PyObject *source);
/* The envelope of a message as a dict (the JSON "envelope"), or None. */
PyObject *pa_envelope_dict(const adexp_envelope *env);
PyObject *pa_errors_list(const adexp_msg *m);
extern PyTypeObject *pa_ErrorType;
int pa_error_type_init(void);

/* ---------------------------------------------------------------- view.c */

/* Message.view: json.loads of m's --format view line, without the members
 * that are Message attributes. */
PyObject *pa_view_dict(const adexp_msg *m);

/* ---------------------------------------------------------------- files.c */

extern PyTypeObject pa_FilesType;
PyObject *pa_parse_files(PyObject *self, PyObject *args, PyObject *kwargs);
/* _next_cut(data, at, envelope=True), _is_packed(data): the batch's cut
 * and packed-input rules (adexp_batch.h) for adexp.dask. */
PyObject *pa_next_cut(PyObject *self, PyObject *args);
/* _stop_all(): stop the batches of the iterators still alive (atexit). */
PyObject *pa_files_stop_all(PyObject *self, PyObject *unused);
PyObject *pa_is_packed(PyObject *self, PyObject *arg);
/* _count_before(data, cut, **limits) -> (count, next): for adexp.dask's
 * scan of a range, the messages that start before cut and where the first
 * at or after it starts (len(data) when none does), no Message made. */
PyObject *pa_count_before(PyObject *self, PyObject *args, PyObject *kwargs);
/* _line_breaks(data, end) -> (breaks, bol): the line breaks of data[:end]
 * (LF, CRLF, lone CR) and where its last line starts. */
PyObject *pa_line_breaks(PyObject *self, PyObject *args);

/* What _parse_files and _Table.add_files share: jobs (None: one per CPU),
 * errors ('raise' or 'skip'), one input tuple queued, a keyword popped
 * from a dict (a new reference, or NULL), and the errno whose strerror is
 * why (0 when none is). */
int pa_parse_jobs(PyObject *v, unsigned *jobs);
int pa_parse_errors_arg(PyObject *v, int *skip);
int pa_batch_add_input(adexp_batch *b, PyObject *in);
PyObject *pa_pop(PyObject *kw, const char *key);
int pa_errno_of(const char *why);

extern PyObject *pa_FileError;
/* Raise adexp.FileError(errno, strerror or why, source): returns NULL. */
PyObject *pa_file_error(int err, const char *why, PyObject *source);

/* ---------------------------------------------------------------- extension.c */

/* adexp._Dictionary: the dictionary extended by files (--dictionary). */
extern PyTypeObject pa_DictionaryType;
/* The dictionary of v (None: NULL, the built-in one) into *out. Returns 0,
 * or -1 with TypeError set. */
int pa_dictionary_of(PyObject *v, const adexp_dictionary **out);

/* ---------------------------------------------------------------- table.c */

/* adexp._Table: the rows of adexp-parse --format csv, as columns. */
extern PyTypeObject pa_TableType;
/* Appends m's rows to out as TSV: the CSV writer's cells, then the
 * warnings cell when the table validates. Needs no GIL, but no other call
 * on the table at the same time. Returns 1, 0 when the selection leaves m
 * out, or -1 when out of memory. */
int pa_table_rows(PyObject *t, const adexp_msg *m, const char *source, adexp_buf *out);
/* Cuts such rows into t's columns. Returns 0, or -1 with an exception set. */
int pa_table_cut(PyObject *t, const char *rows, size_t len);
/* t's selection, and whether it validates: what the batch's TSV writer
 * needs to write t's rows itself. */
const adexp_select *pa_table_select(PyObject *t, int *validate);

/* ---------------------------------------------------------------- table_files.c */

/* _Table.add_files(inputs, jobs=None, *, errors='raise', include=None,
 * **limits): the batch's messages written as rows straight into t. */
PyObject *pa_table_add_files(PyObject *t, PyObject *args, PyObject *kwargs);

/* ---------------------------------------------------------------- module.c */

PyObject *pa_parse(PyObject *self, PyObject *args, PyObject *kwargs);

#endif

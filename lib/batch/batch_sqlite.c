/* Batch driver, --format sqlite: the typed tables of a SQLite database,
 * filled by the batch's one writer in input order from the lines the
 * workers wrote (batch_sqlite_rows.c). The schema is made here, from the
 * columns of two CSV selections: a column's SQL type follows its name
 * (_ft, _m: INTEGER; _deg: REAL; others TEXT), so a table holds exactly
 * the values of `--format csv --fields` with the same list (doc/sqlite.md).
 * A database that exists is appended to: message ids go on from the
 * largest one. A transaction holds BATCH_SQLITE_TXN messages, or a live
 * stream's message (committed as it comes, for the database's readers). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_internal.h"
#include "buf.h"

/* The messages table's columns after id, source, offset, index, title: the
 * typed view's single fields, decoded where they decode. */
#define MESSAGE_FIELDS \
    "IFPLID,ARCID,ARCTYP,ADEP,ADES,EOBD,EOBD_utc,EOBT,EOBT_utc,RFL,RFL_ft,RFL_m," \
    "CTOT,CTOT_utc,SSRCODE,FLTRUL,FLTTYP,WKTRC,CEQPT,SEQPT,REG,OPR,PBN,ALTRNT1," \
    "ALTRNT2,ALTNZ,FILTIM,ORGNID,ROUTE,COMMENT"
/* The route_points table's columns after message_id, seq, item: the CSV's
 * --rows RTEPTS columns of the same names. */
#define POINT_LIST "RTEPTS"
#define POINT_FIELDS "RTEPTS.PTID,RTEPTS.FL_ft,RTEPTS.ETO_utc,RTEPTS.LATTD_deg,RTEPTS.LONGTD_deg"

#ifndef HAVE_SQLITE3

batch_sqlite *batch_sqlite_open(const adexp_batch_options *o, char *err, size_t cap)
{
    (void)o;
    snprintf(err, cap, "this adexp-parse was built without SQLite (libsqlite3-dev): "
             "--format sqlite is not available");
    return NULL;
}

const adexp_select *batch_sqlite_select(const batch_sqlite *s, int points)
{
    (void)s, (void)points;
    return NULL;
}

int batch_sqlite_put(batch_sqlite *s, const char *p, size_t n, int now, uint64_t *messages)
{
    (void)s, (void)p, (void)n, (void)now, (void)messages;
    return -1;
}

const char *batch_sqlite_error(const batch_sqlite *s)
{
    (void)s;
    return "no SQLite";
}

int batch_sqlite_close(batch_sqlite *s, int ok, uint64_t *messages, char *err, size_t cap)
{
    (void)s, (void)ok, (void)err, (void)cap;
    *messages = 0;
    return 0;
}

#else
#include "batch_libsqlite.h"

#define MAX_CELLS 64

enum col_type { COL_TEXT, COL_INT, COL_REAL };

typedef struct table {
    sqlite3_stmt *insert;
    uint8_t type[MAX_CELLS];   /* by cell of the line */
    int bind[MAX_CELLS];       /* the cell's parameter, 0: not stored */
    size_t ncells;
    size_t key_cell;           /* route_points: item_index's cell */
} table;

struct batch_sqlite {
    sqlite3 *db;
    adexp_select *sel[2];      /* the messages' columns, the points' rows */
    table msg, point, error, warning;
    int64_t id;                /* the last message's */
    int open_txn;              /* a transaction is open */
    int fresh;                 /* the database was empty (schema) */
    uint64_t in_txn;           /* messages in it */
    char err[256];
};

/* One cell of a line: p[0..n). */
typedef struct cell {
    const char *p;
    size_t n;
} cell;

static int fail(batch_sqlite *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int fail(batch_sqlite *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, sizeof s->err, fmt, ap);
    va_end(ap);
    return -1;
}

static int fail_db(batch_sqlite *s, const char *what)
{
    return fail(s, "%s: %s", what, batch_sq.errmsg(s->db));
}

static int exec(batch_sqlite *s, const char *sql)
{
    char *msg = NULL;
    if (batch_sq.exec(s->db, sql, NULL, NULL, &msg) == SQLITE_OK)
        return 0;
    fail(s, "%s", msg ? msg : batch_sq.errmsg(s->db));
    batch_sq.free(msg);
    return -1;
}

static enum col_type type_of(const char *name)
{
    size_t n = strlen(name);
    if (strcmp(name, "index") == 0 || strcmp(name, "item_index") == 0 ||
        (n > 3 && strcmp(name + n - 3, "_ft") == 0) || (n > 2 && strcmp(name + n - 2, "_m") == 0))
        return COL_INT;
    if (n > 4 && strcmp(name + n - 4, "_deg") == 0)
        return COL_REAL;
    return COL_TEXT;
}

static const char *const type_names[] = {"TEXT", "INTEGER", "REAL"};

/* The TSV header of sel, split into names (NUL-ended, in text). */
static size_t header_names(const adexp_select *sel, adexp_buf *text, const char **names)
{
    text->len = 0;
    if (adexp_csv_header(text, sel, '\t') != ADEXP_OK || !adexp_buf_put(text, "", 1))
        return 0;
    size_t n = 0;
    for (char *p = text->data; n < MAX_CELLS;) {
        names[n++] = p;
        char *e = p + strcspn(p, "\t\n");
        int last = *e != '\t';
        *e = '\0';
        if (last)
            break;
        p = e + 1;
    }
    return n;
}

/* A table's columns as they are added: its CREATE's, its INSERT's. */
typedef struct sqlbuf {
    adexp_buf create, cols, params;
    int nparams;
} sqlbuf;

static int put_s(adexp_buf *b, const char *s)
{
    return adexp_buf_put(b, s, strlen(s));
}

/* Column name of SQL type type, filled from the line's cell `cell`
 * (SIZE_MAX: from the message's id, every INSERT's first parameter). */
static int add_column(sqlbuf *q, table *t, size_t cell, const char *name, enum col_type type)
{
    const char *dot = strrchr(name, '.');   /* RTEPTS.PTID: PTID */
    name = dot ? dot + 1 : name;
    int first = q->nparams++ == 0;
    if (cell != SIZE_MAX) {
        t->type[cell] = (uint8_t)type;
        t->bind[cell] = q->nparams;
    }
    return put_s(&q->create, ", \"") && put_s(&q->create, name) && put_s(&q->create, "\" ") &&
           put_s(&q->create, type_names[type]) && put_s(&q->cols, first ? "\"" : ", \"") &&
           put_s(&q->cols, name) && put_s(&q->cols, "\"") &&
           put_s(&q->params, first ? "?" : ", ?");
}

/* CREATE TABLE IF NOT EXISTS name (head, the columns added) and its INSERT. */
static int make_table(batch_sqlite *s, sqlbuf *q, table *t, const char *name)
{
    adexp_buf sql;
    adexp_buf_init(&sql, NULL);
    int ok = put_s(&sql, "CREATE TABLE IF NOT EXISTS ") && put_s(&sql, name) &&
             put_s(&sql, " (") && adexp_buf_put(&sql, q->create.data + 2, q->create.len - 2) &&
             put_s(&sql, ")") && adexp_buf_put(&sql, "", 1);
    int rc = ok ? exec(s, sql.data) : fail(s, "out of memory");
    sql.len = 0;
    ok = put_s(&sql, "INSERT INTO ") && put_s(&sql, name) && put_s(&sql, " (") &&
         adexp_buf_put(&sql, q->cols.data, q->cols.len) && put_s(&sql, ") VALUES (") &&
         adexp_buf_put(&sql, q->params.data, q->params.len) && put_s(&sql, ")");
    if (rc == 0 && !ok)
        rc = fail(s, "out of memory");
    if (rc == 0 && batch_sq.prepare_v2(s->db, sql.data, (int)sql.len, &t->insert, NULL))
        rc = fail_db(s, name);
    adexp_buf_free(&sql);
    return rc;
}

static void sqlbuf_init(sqlbuf *q)
{
    memset(q, 0, sizeof *q);
    adexp_buf_init(&q->create, NULL);
    adexp_buf_init(&q->cols, NULL);
    adexp_buf_init(&q->params, NULL);
}

static void sqlbuf_free(sqlbuf *q)
{
    adexp_buf_free(&q->create);
    adexp_buf_free(&q->cols);
    adexp_buf_free(&q->params);
}

/* messages: id, source, offset, index, title, the columns, errors, json.
 * The line's cells: the JSON, offset, the TSV row (source ... errors). */
static int messages_table(batch_sqlite *s, adexp_buf *text)
{
    const char *names[MAX_CELLS];
    size_t n = header_names(s->sel[0], text, names);
    if (n < 4 || n + 2 > MAX_CELLS)
        return fail(s, "messages: the header has %zu cells", n);
    sqlbuf q;
    sqlbuf_init(&q);
    table *t = &s->msg;
    t->ncells = n + 2;
    int ok = add_column(&q, t, SIZE_MAX, "id", COL_INT) &&
             put_s(&q.create, " PRIMARY KEY") && add_column(&q, t, 2, "source", COL_TEXT) &&
             add_column(&q, t, 1, "offset", COL_INT);
    for (size_t i = 1; ok && i < n; i++)
        ok = add_column(&q, t, i + 2, names[i], type_of(names[i]));
    ok = ok && add_column(&q, t, 0, "json", COL_TEXT);
    int rc = ok ? make_table(s, &q, t, "messages") : fail(s, "out of memory");
    sqlbuf_free(&q);
    return rc;
}

/* route_points: message_id, seq, item, the item's columns. The line's
 * cells: the TSV row of --rows RTEPTS (the message's cells, item_index,
 * item, item_value, the item's, errors). */
static int points_table(batch_sqlite *s, adexp_buf *text)
{
    const char *names[MAX_CELLS];
    size_t n = header_names(s->sel[1], text, names), first = 0;
    while (first < n && strcmp(names[first], "item_index") != 0)
        first++;
    if (first + 3 >= n)
        return fail(s, "route_points: the header has no item columns");
    sqlbuf q;
    sqlbuf_init(&q);
    table *t = &s->point;
    t->ncells = n;
    t->key_cell = first;
    int ok = add_column(&q, t, SIZE_MAX, "message_id", COL_INT) &&
             put_s(&q.create, " REFERENCES messages(id)") &&
             add_column(&q, t, first, "seq", COL_INT) &&
             add_column(&q, t, first + 1, "item", COL_TEXT);
    for (size_t i = first + 3; ok && i + 1 < n; i++)   /* not item_value, not errors */
        ok = add_column(&q, t, i, names[i], type_of(names[i]));
    int rc = ok ? make_table(s, &q, t, "route_points") : fail(s, "out of memory");
    sqlbuf_free(&q);
    return rc;
}

/* errors and warnings: message_id, code, line, col, offset, [field,] message. */
static int findings_table(batch_sqlite *s, table *t, const char *name, int field)
{
    static const char *const cols[] = {"code", "line", "col", "offset", "field", "message"};
    sqlbuf q;
    sqlbuf_init(&q);
    t->ncells = field ? 6 : 5;
    int ok = add_column(&q, t, SIZE_MAX, "message_id", COL_INT) &&
             put_s(&q.create, " REFERENCES messages(id)");
    for (size_t i = 0, cell = 0; ok && i < 6; i++) {
        if (i == 4 && !field)
            continue;
        ok = add_column(&q, t, cell++, cols[i], i >= 1 && i <= 3 ? COL_INT : COL_TEXT);
    }
    int rc = ok ? make_table(s, &q, t, name) : fail(s, "out of memory");
    sqlbuf_free(&q);
    return rc;
}

static const char indexes[] =
    "CREATE INDEX IF NOT EXISTS messages_arcid ON messages(ARCID);"
    "CREATE INDEX IF NOT EXISTS messages_adep ON messages(ADEP);"
    "CREATE INDEX IF NOT EXISTS messages_ades ON messages(ADES);"
    "CREATE INDEX IF NOT EXISTS messages_eobd_eobt ON messages(EOBD, EOBT);"
    "CREATE INDEX IF NOT EXISTS messages_ifplid ON messages(IFPLID);"
    "CREATE INDEX IF NOT EXISTS route_points_ptid ON route_points(PTID);"
    "CREATE INDEX IF NOT EXISTS route_points_message ON route_points(message_id);"
    "CREATE INDEX IF NOT EXISTS errors_message ON errors(message_id);"
    "CREATE INDEX IF NOT EXISTS warnings_message ON warnings(message_id);";

/* The one number sql's first row holds. */
static int query_int(batch_sqlite *s, const char *sql, int64_t *v)
{
    sqlite3_stmt *st = NULL;
    int rc = batch_sq.prepare_v2(s->db, sql, -1, &st, NULL) == SQLITE_OK &&
                     batch_sq.step(st) == SQLITE_ROW ? 0 : fail_db(s, sql);
    if (rc == 0)
        *v = batch_sq.column_int64(st, 0);
    batch_sq.finalize(st);
    return rc;
}

/* A new database is loaded without waiting for the disk at each commit
 * (synchronous off) and with its journal in memory, so that no journal
 * file appears beside it (in a directory being walked, say): a crash can
 * only lose the file being made. The last
 * transaction, the indexes', is written with synchronous full, which
 * syncs the whole file. A database that holds data is written with full
 * at every commit, so that a crash leaves its earlier rows whole. */
static int schema(batch_sqlite *s)
{
    adexp_buf text;
    adexp_buf_init(&text, NULL);
    int64_t objects = 0;
    int rc = exec(s, "PRAGMA page_size = 16384; PRAGMA cache_size = -65536");
    if (rc == 0)
        rc = query_int(s, "SELECT count(*) FROM sqlite_master", &objects);
    s->fresh = objects == 0;
    if (rc == 0)
        rc = exec(s, s->fresh ? "PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; BEGIN"
                              : "BEGIN");
    if (rc == 0)
        rc = messages_table(s, &text);
    if (rc == 0)
        rc = points_table(s, &text);
    adexp_buf_free(&text);
    if (rc == 0)
        rc = findings_table(s, &s->error, "errors", 0);
    if (rc == 0)
        rc = findings_table(s, &s->warning, "warnings", 1);
    if (rc == 0)
        rc = query_int(s, "SELECT coalesce(max(id), 0) FROM messages", &s->id);
    if (rc == 0)
        rc = exec(s, "COMMIT");
    return rc;
}

static void finalize(batch_sqlite *s)
{
    batch_sq.finalize(s->msg.insert);
    batch_sq.finalize(s->point.insert);
    batch_sq.finalize(s->error.insert);
    batch_sq.finalize(s->warning.insert);
    batch_sq.close(s->db);
    adexp_select_free(s->sel[0]);
    adexp_select_free(s->sel[1]);
    free(s);
}

batch_sqlite *batch_sqlite_open(const adexp_batch_options *o, char *err, size_t cap)
{
    const char *why;
    if (batch_libsqlite_load(&why) != 0) {
        snprintf(err, cap, "%s", why);
        return NULL;
    }
    batch_sqlite *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, cap, "out of memory");
        return NULL;
    }
    char e[200] = "";
    s->sel[0] = adexp_select_new(MESSAGE_FIELDS, NULL, NULL, e, sizeof e);
    s->sel[1] = adexp_select_new(POINT_FIELDS, POINT_LIST, NULL, e, sizeof e);
    int rc = s->sel[0] && s->sel[1] ? 0 : fail(s, "%s", e);
    if (rc == 0 && batch_sq.open_v2(o->db_path, &s->db, SQLITE_OPEN_READWRITE |
                                   SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
        rc = s->db ? fail_db(s, "open") : fail(s, "out of memory");
    if (rc == 0)
        rc = schema(s);
    if (rc != 0) {
        snprintf(err, cap, "%s", s->err);
        finalize(s);
        return NULL;
    }
    return s;
}

const adexp_select *batch_sqlite_select(const batch_sqlite *s, int points)
{
    return s->sel[points != 0];
}

const char *batch_sqlite_error(const batch_sqlite *s)
{
    return s->err;
}

/* The cells of the line p[0..n) (no LF), at most max; -1 if more. */
static int split(const char *p, size_t n, cell *c, size_t max)
{
    size_t k = 0;
    const char *end = p + n;
    for (;;) {
        const char *tab = memchr(p, '\t', (size_t)(end - p));
        if (k == max)
            return -1;
        c[k].p = p;
        c[k++].n = (size_t)((tab ? tab : end) - p);
        if (!tab)
            return (int)k;
        p = tab + 1;
    }
}

/* A cell as its column's type: empty is NULL. A number column holds the
 * first field's number where the CSV cell joins several fields' ("35000
 * 37000": 35000), so that it compares as a number. */
static int bind_cell(sqlite3_stmt *st, int i, enum col_type type, cell c)
{
    if (c.n == 0)
        return batch_sq.bind_null(st, i);
    const char *sp = type != COL_TEXT ? memchr(c.p, ' ', c.n) : NULL;
    if (sp)
        c.n = (size_t)(sp - c.p);
    if (type != COL_TEXT && c.n < 32) {
        char t[32], *e;
        memcpy(t, c.p, c.n);
        t[c.n] = '\0';
        if (type == COL_INT) {
            long long v = strtoll(t, &e, 10);
            if (*e == '\0')
                return batch_sq.bind_int64(st, i, v);
        } else {
            double v = strtod(t, &e);
            if (*e == '\0')
                return batch_sq.bind_double(st, i, v);
        }
    }
    return batch_sq.bind_text(st, i, c.p, (int)c.n, SQLITE_STATIC);
}

/* One row of t from the cells c[0..n), for message id (bound first). */
static int insert(batch_sqlite *s, table *t, const cell *c, size_t n, const char *what)
{
    if (n != t->ncells)
        return fail(s, "%s: %zu cells where %zu were written", what, n, t->ncells);
    sqlite3_stmt *st = t->insert;
    int rc = batch_sq.bind_int64(st, 1, s->id);
    for (size_t i = 0; rc == SQLITE_OK && i < n; i++)
        if (t->bind[i])
            rc = bind_cell(st, t->bind[i], (enum col_type)t->type[i], c[i]);
    if (rc == SQLITE_OK)
        rc = batch_sq.step(st);
    batch_sq.reset(st);
    batch_sq.clear_bindings(st);
    return rc == SQLITE_DONE ? 0 : fail_db(s, what);
}

/* The next line of [*p, end) without its LF, *p moved past it. */
static int next_line(const char **p, const char *end, cell *line)
{
    if (*p >= end)
        return 0;
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    line->p = *p;
    line->n = (size_t)((nl ? nl : end) - *p);
    *p = nl ? nl + 1 : end;
    return 1;
}

/* The P line's count, then that many rows of route points (a row without
 * item_index is a failed message's, without the list: not a point). */
static int put_points(batch_sqlite *s, cell head, const char **p, const char *end)
{
    uint64_t rows = 0;
    for (size_t i = 2; i < head.n; i++)
        rows = rows * 10 + (uint64_t)(head.p[i] - '0');
    for (cell line, c[MAX_CELLS]; rows > 0 && next_line(p, end, &line); rows--) {
        int n = split(line.p, line.n, c, MAX_CELLS);
        if (n < 0)
            return fail(s, "route_points: too many cells");
        if ((size_t)n > s->point.key_cell && c[s->point.key_cell].n == 0)
            continue;
        if (insert(s, &s->point, c, (size_t)n, "route_points") != 0)
            return -1;
    }
    return 0;
}

/* The M line at *p: its JSON stepped over by its length, then its cells;
 * *p moved to the next line. */
static int message_line(batch_sqlite *s, const char **p, const char *end, cell *c)
{
    const char *q = *p + 2;
    size_t json = 0;
    if ((size_t)(end - *p) < 3 + BATCH_SQLITE_DIGITS)
        return fail(s, "messages: a line cut short");
    for (int i = 0; i < BATCH_SQLITE_DIGITS; i++)
        json = json * 10 + (size_t)(q[i] - '0');
    q += BATCH_SQLITE_DIGITS + 1;
    if (json >= (size_t)(end - q))
        return fail(s, "messages: a line cut short");
    cell line;
    const char *rest = q + json + 1;
    if (!next_line(&rest, end, &line))
        return fail(s, "messages: a line cut short");
    int k = split(line.p, line.n, c + 1, MAX_CELLS - 1);
    if (k < 0)
        return fail(s, "messages: too many cells");
    c[0] = (cell){q, json};
    *p = rest;
    s->id++;
    if (insert(s, &s->msg, c, (size_t)k + 1, "messages") != 0)
        return -1;
    s->in_txn++;
    return 0;
}

static int commit(batch_sqlite *s, uint64_t *messages)
{
    if (!s->open_txn)
        return 0;
    s->open_txn = 0;
    if (exec(s, "COMMIT") != 0)
        return -1;
    *messages += s->in_txn;
    s->in_txn = 0;
    return 0;
}

int batch_sqlite_put(batch_sqlite *s, const char *p, size_t n, int now, uint64_t *messages)
{
    const char *end = p + n;
    cell line, c[MAX_CELLS];
    *messages = 0;
    if (n && !s->open_txn) {
        if (exec(s, "BEGIN") != 0)
            return -1;
        s->open_txn = 1;
    }
    while (p < end) {
        if (*p == 'M') {
            if (message_line(s, &p, end, c) != 0)
                return -1;
            continue;
        }
        next_line(&p, end, &line);
        if (line.n < 2 || line.p[1] != '\t')
            return fail(s, "a line the writer does not know");
        if (line.p[0] == 'P') {
            if (put_points(s, line, &p, end) != 0)
                return -1;
            continue;
        }
        int k = split(line.p + 2, line.n - 2, c, MAX_CELLS), rc;
        if (k < 0)
            return fail(s, "too many cells");
        switch (line.p[0]) {
        case 'E':
            rc = insert(s, &s->error, c, (size_t)k, "errors");
            break;
        case 'W':
            rc = insert(s, &s->warning, c, (size_t)k, "warnings");
            break;
        default:
            rc = fail(s, "a line the writer does not know");
        }
        if (rc != 0)
            return -1;
    }
    return now || s->in_txn >= BATCH_SQLITE_TXN ? commit(s, messages) : 0;
}

int batch_sqlite_close(batch_sqlite *s, int ok, uint64_t *messages, char *err, size_t cap)
{
    *messages = 0;
    int rc = ok ? commit(s, messages) : 0;
    if (s->open_txn)           /* a failed write's batch: none of it stays */
        exec(s, "ROLLBACK");
    s->open_txn = 0;
    /* built once over a new table's rows, faster than kept up row by row */
    if (rc == 0)
        rc = exec(s, "PRAGMA synchronous = FULL; BEGIN");
    if (rc == 0 && (rc = exec(s, indexes)) == 0)
        rc = exec(s, "COMMIT");
    if (rc != 0) {
        snprintf(err, cap, "%s", s->err);
        exec(s, "ROLLBACK");
    }
    finalize(s);
    return rc;
}
#endif

/* Batch driver: one big input parsed by the whole pool.
 *
 * The input is cut into pieces of about piece_size bytes, each cut at a
 * message start (lexer_next_start: a -TITLE, or an AFTN envelope) found at
 * or after an even split point, and the workers parse
 * the pieces side by side. A cut is only a guess: the "-TITLE" may lie in
 * an IFPDLONG or MSGTXT text. So piece k is parsed from its start over the
 * rest of the input, and ends before the first message that starts at or
 * after its cut: where that message starts (real_end) is where the whole
 * input's parse really crosses the cut. Piece k + 1 was parsed from the
 * guess; if the guess was wrong, the writer parses it again from real_end.
 * The output is then that of one parse of the whole input, byte for byte:
 * offsets, lines and columns are rebased as each piece is parsed, and each
 * message's index, known when the pieces before it are written, is patched
 * into the output as it is written (batch_rebase.c).
 *
 * The worker whose chunk holds the input (the owner) holds the output's
 * turn: it writes the pieces in order as they are done. Pieces are taken
 * in order, within a window of slots past the last one written. A piece
 * holds at most PIECE_HOLD bytes of output and diagnostics (and one
 * message's): its parse stops before the message that would go past, and
 * the owner, once it has written what the piece holds, parses it on from
 * there. The output held is then a few pieces' worth of bytes whatever the
 * input, even one whose output is hundreds of times its size (tiny
 * messages under a long path, a diagnostic every few bytes).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "batch_internal.h"
#include "csv.h"
#include "json_out.h"
#include "lexer.h"

enum { FREE, BUSY, DONE };

/* The JSON of a piece of n bytes is about 2.5 n: a slot's buffer (reused
 * from piece to piece) is made 3 n at once, rather than grown by doubling
 * from 4 KiB, which copied each slot's output ten times over and touched
 * twice its pages. A bigger output still grows it. Not reserving (out of
 * memory) is not an error here: the growth reports it. */
#define JSON_PIECE_ROOM(n) ((n) / 2 * 6 + ((size_t)64 << 10))
/* What a piece holds at most (and one message's output more): about
 * twice a megabyte piece's JSON, so that ordinary inputs never stop. */
#define PIECE_HOLD ((size_t)6 << 20)

typedef struct piece {
    size_t k;                  /* piece number */
    size_t start;              /* where it was parsed from */
    size_t real_end;           /* first message start at or after its cut */
    size_t resume;             /* 0, or where its parse stopped: it held PIECE_HOLD */
    int state;
    uint64_t count, bad;       /* messages, failed messages */
    batch_result res;
    batch_marks out_index, err_index;   /* where its messages' indexes are */
    size_t csv_source;         /* CSV, TSV: the bytes of each row's source cell */
} piece;

struct batch_split {
    const char *path, *in;
    const batch_map *map;      /* the mapping of in, or NULL */
    int envelope;              /* AFTN envelopes start messages too */
    size_t len;
    size_t n;                  /* pieces; piece k ends at cut[k] */
    size_t *cut;
    uint64_t *lines;           /* line breaks of [cut[k-1], cut[k]), once known */
    unsigned char *counted;
    size_t next, written;      /* next piece to take; pieces written */
    size_t window;
    piece *slot;               /* piece k in slot[k % window] */
    pthread_mutex_t mu;
    pthread_cond_t cv;
};

int batch_split_pays(const adexp_batch_options *o, size_t len)
{
    size_t piece = o->piece_size ? o->piece_size : ADEXP_BATCH_DEFAULT_PIECE_SIZE;
    /* the index patch knows where each text format puts the index
     * (mark_indexes); SQLite's rows, and inputs written unordered, are
     * parsed whole */
    return len / 2 >= piece && o->jobs > 1 && o->format != ADEXP_BATCH_SQLITE &&
           !o->unordered;
}

int batch_split_wanted(const batch_worker *w, size_t len)
{
    return batch_split_pays(&w->b->o, len) && w->run;
}

static size_t cut_start(const batch_split *s, size_t k)
{
    return k ? s->cut[k - 1] : 0;
}

size_t adexp_batch_next_cut(const char *data, size_t len, size_t at, int envelope)
{
    return at < len ? lexer_next_start(data, len, at, envelope) : len;
}

/* The cuts: the first message start at or after each multiple of piece. */
static void plan_cuts(batch_split *s, size_t piece)
{
    size_t k = 0, from = 0;
    while (k + 1 < s->n) {
        size_t target = (k + 1) * piece;
        if (target <= from)
            target = from + 1;
        size_t t = adexp_batch_next_cut(s->in, s->len, target, s->envelope);
        if (t == s->len)
            break;
        from = s->cut[k++] = t;
    }
    s->cut[k] = s->len;
    s->n = k + 1;
}

/* Line of offset x (in the region of piece k), from 1: the line breaks of
 * the regions before it are counted once, by whoever needs them first. */
static uint64_t line_at(batch_split *s, size_t k, size_t x)
{
    uint64_t line = 1;
    for (size_t j = 0; j < k; j++) {
        pthread_mutex_lock(&s->mu);
        int known = s->counted[j];
        uint64_t n = s->lines[j];
        pthread_mutex_unlock(&s->mu);
        if (!known) {
            n = lines_count(s->in, s->len, cut_start(s, j), s->cut[j]);
            pthread_mutex_lock(&s->mu);
            s->lines[j] = n;
            s->counted[j] = 1;
            pthread_mutex_unlock(&s->mu);
        }
        line += n;
    }
    return line + lines_count(s->in, s->len, cut_start(s, k), x);
}

/* Record where the index of the message just written at out[from..] is:
 * in JSON and the view, after its line's source, which batch_emit quoted
 * for this input; in CSV and TSV, after the source cell of each of its
 * rows (pc->csv_source of them), each row ending at its only '\n'. ADEXP
 * writes no index. Returns -1 when out of memory. */
static int mark_indexes(batch_worker *w, piece *pc, size_t from, uint64_t index)
{
    const adexp_buf *out = &w->res.out;
    if (batch_gives_items(&w->b->o))
        return 0;              /* the items' indexes move on as they are handed over */
    switch (w->b->o.format) {
    case ADEXP_BATCH_JSON:
    case ADEXP_BATCH_VIEW:
        return batch_mark_number(&pc->out_index, from + JSON_INDEX_AT(w->source.quoted.len),
                                 index);
    case ADEXP_BATCH_CSV:
    case ADEXP_BATCH_TSV:
        for (size_t row = from; row < out->len;) {
            if (!pc->csv_source ||
                batch_mark_number(&pc->out_index, row + pc->csv_source + 1, index) != 0)
                return -1;
            const char *end = memchr(out->data + row, '\n', out->len - row);
            row = end ? (size_t)(end - out->data) + 1 : out->len;
        }
        return 0;
    default:
        return 0;
    }
}

static void piece_msg(batch_worker *w, batch_split *s, piece *pc, adexp_msg *m,
                      batch_base *base, lines_cursor *nl)
{
    batch_mark_nul(&w->arena, nl, s->in + pc->start, m);   /* the piece's numbers */
    if ((m->nerrors || w->b->o.validate) && base->line == 0) {   /* for the findings too */
        base->line = line_at(s, pc->k, pc->start);
        base->column0 = pc->start - line_start(s->in, s->len, pc->start);
    }
    batch_rebase_msg(m, base);
    pc->count++;
    if (m->nerrors_total) {
        size_t at = 0;
        pc->bad++;
        batch_report_errors(w, s->path, m, &at);
        if (at)
            batch_mark(&pc->err_index, at);
    }
    size_t from = w->res.out.len;
    adexp_status st = batch_emit(w, s->path, m, base);
    if (st == ADEXP_OK && w->res.out.len > from && mark_indexes(w, pc, from, m->index) != 0)
        st = ADEXP_E_NOMEM;
    if (st == ADEXP_E_NOMEM) {         /* a refusal is said by batch_emit */
        batch_put_head(w, s->path, 0, 0, BATCH_ERROR);
        batch_str_printf(&w->res.err, "out of memory writing the output of message ");
        batch_mark(&pc->err_index, w->res.err.len);
        batch_str_printf(&w->res.err, "%zu\n", m->index);
    }
    if (st != ADEXP_OK)
        pc->bad += m->nerrors_total ? 0 : 1;
}

/* Parse piece pc from pc->start into its own buffers. */
static void parse_piece(batch_worker *w, batch_split *s, piece *pc)
{
    batch_result chunk = w->res;   /* the piece is written into its own result */
    w->res = pc->res;
    batch_result_clear(&w->res);
    size_t room = JSON_PIECE_ROOM(s->cut[pc->k] - pc->start);
    if (w->b->o.format == ADEXP_BATCH_JSON && !batch_gives_items(&w->b->o))
        adexp_buf_room(&w->res.out, room < PIECE_HOLD ? room : PIECE_HOLD);
    pc->out_index.n = pc->err_index.n = 0;
    pc->count = pc->bad = 0;
    int f = w->b->o.format;
    if (f == ADEXP_BATCH_CSV || f == ADEXP_BATCH_TSV)
        pc->csv_source = csv_source_cell_len(s->path, f == ADEXP_BATCH_CSV ? ',' : '\t');
    pc->real_end = pc->start;
    pc->resume = 0;
    size_t cut = s->cut[pc->k];
    if (pc->start < cut) {
        batch_base base = {pc->start, 0, 0, 0};   /* line 0: not known yet */
        lines_cursor nl = lines_cursor_of(s->in + pc->start, s->len - pc->start);
        adexp_msg m;
        pc->real_end = s->len;
        adexp_parser_reset(w->parser, s->in + pc->start, s->len - pc->start);
        while (adexp_parser_next(w->parser, &w->arena, &m) != ADEXP_END) {
            if (pc->start + m.offset >= cut) {
                pc->real_end = pc->start + m.offset;
                adexp_arena_reset(&w->arena);
                break;
            }
            if (batch_map_lost(s->map, s->in + pc->start, &m)) {
                adexp_arena_reset(&w->arena);
                break;         /* batch_do_entry reports it */
            }
            if (batch_held(&w->res) >= PIECE_HOLD) {
                pc->resume = pc->start + m.offset;   /* a message start: parsed on from */
                adexp_arena_reset(&w->arena);
                break;
            }
            w->index_marks = &pc->err_index;
            piece_msg(w, s, pc, &m, &base, &nl);
            w->index_marks = NULL;
            adexp_arena_reset(&w->arena);
        }
    }
    batch_progress(w, pc->real_end > pc->start ? pc->real_end - pc->start : 0, 0, pc->count);
    pc->res = w->res;
    w->res = chunk;
}

/* Take the next piece if the window has room; called with s->mu held. */
static piece *take(batch_split *s)
{
    if (s->next >= s->n || s->next >= s->written + s->window)
        return NULL;
    piece *pc = &s->slot[s->next % s->window];
    pc->k = s->next++;
    pc->start = cut_start(s, pc->k);
    pc->state = BUSY;
    return pc;
}

static void parse_taken(batch_split *s, batch_worker *w, piece *pc)
{
    parse_piece(w, s, pc);
    pthread_mutex_lock(&s->mu);
    pc->state = DONE;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

int batch_split_help(batch_split *s, batch_worker *w)
{
    pthread_mutex_lock(&s->mu);
    piece *pc = take(s);
    pthread_mutex_unlock(&s->mu);
    if (pc)
        parse_taken(s, w, pc);
    return pc != NULL;
}

/* Write piece pc, its indexes moved on by index (messages before it). */
static int write_piece(batch_worker *w, piece *pc, uint64_t index)
{
    if (index == 0)
        return batch_write(w, &pc->res);
    if (pc->res.err.len) {         /* diagnostics: few, copied */
        if (batch_patch_numbers(&w->scratch, pc->res.err.data, pc->res.err.len, &pc->err_index,
                                index) != 0)
            return -1;
        batch_result diag = {.err = {w->scratch.data, w->scratch.len, w->scratch.cap}};
        batch_write(w, &diag);
        pc->res.err.len = 0;
    }
    if (batch_gives_items(&w->b->o)) {
        batch_items_add_index(&pc->res, index);
        return batch_write(w, &pc->res);
    }
    int stop = batch_write_patched(w, pc->res.out.data, pc->res.out.len, &pc->out_index, index);
    batch_result_clear(&pc->res);
    pc->res.lines = 0;
    return stop;
}

static batch_split *split_new(const char *path, const char *in, size_t len,
                              size_t piece_size, unsigned jobs, int envelope)
{
    batch_split *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->path = path, s->in = in, s->len = len;
    s->envelope = envelope;
    s->n = len / piece_size + 1;
    s->window = (size_t)jobs * 2 + 2;
    s->cut = malloc(s->n * sizeof *s->cut);
    s->lines = calloc(s->n, sizeof *s->lines);
    s->counted = calloc(s->n, 1);
    s->slot = calloc(s->window, sizeof *s->slot);
    if (!s->cut || !s->lines || !s->counted || !s->slot) {
        free(s->cut), free(s->lines), free(s->counted), free(s->slot), free(s);
        return NULL;
    }
    for (size_t i = 0; i < s->window; i++)
        adexp_buf_init(&s->slot[i].res.out, NULL);
    plan_cuts(s, piece_size);
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    return s;
}

static void split_free(batch_split *s)
{
    for (size_t i = 0; i < s->window; i++) {
        adexp_buf_free(&s->slot[i].res.out);
        batch_str_free(&s->slot[i].res.err);
        batch_items_free(&s->slot[i].res);
        batch_marks_free(&s->slot[i].out_index);
        batch_marks_free(&s->slot[i].err_index);
    }
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    free(s->cut), free(s->lines), free(s->counted), free(s->slot), free(s);
}

/* The owner's loop: parse pieces and write the done ones in order. After
 * an output failure, take no more and wait for those taken. */
static void own(batch_worker *w, batch_split *s, uint64_t *count, uint64_t *bad)
{
    size_t end = 0;            /* where the pieces written so far really end */
    int stop = 0;
    pthread_mutex_lock(&s->mu);
    while (s->written < s->next || (!stop && s->written < s->n)) {
        piece *pc = &s->slot[s->written % s->window];
        if (pc->state == DONE) {
            pthread_mutex_unlock(&s->mu);
            if (!stop && pc->start != end) {   /* its cut was a guess, and wrong */
                pc->start = end;
                parse_piece(w, s, pc);
            }
            while (!stop) {
                stop = write_piece(w, pc, *count) != 0;
                *count += pc->count;
                *bad += pc->bad;
                end = pc->real_end;
                if (!pc->resume)
                    break;
                pc->start = pc->resume;        /* it held all it may: on from there */
                parse_piece(w, s, pc);
            }
            pthread_mutex_lock(&s->mu);
            pc->state = FREE;
            s->written++;
            if (stop)
                s->n = s->next;
            pthread_mutex_unlock(&s->mu);
            batch_split_publish(w, s);   /* a slot is free: wake the helpers */
            pthread_mutex_lock(&s->mu);
            continue;
        }
        piece *mine = stop ? NULL : take(s);
        if (mine) {
            pthread_mutex_unlock(&s->mu);
            parse_taken(s, w, mine);
            pthread_mutex_lock(&s->mu);
        } else {
            pthread_cond_wait(&s->cv, &s->mu);
        }
    }
    pthread_mutex_unlock(&s->mu);
}

void batch_split_parse(batch_worker *w, const char *path, const char *in, size_t len)
{
    const adexp_batch_options *o = &w->b->o;
    size_t piece = o->piece_size ? o->piece_size : ADEXP_BATCH_DEFAULT_PIECE_SIZE;
    batch_split *s = split_new(path, in, len, piece, o->jobs,
                               o->parser.envelope == ADEXP_ENVELOPE_AFTN);
    if (!s) {
        batch_parse_all(w, path, in, len);
        return;
    }
    s->map = w->map;
    uint64_t count = 0, bad = 0;
    batch_split_publish(w, s);
    own(w, s, &count, &bad);
    batch_split_publish(w, NULL);
    split_free(s);
    batch_input_counted(w, path, len, count, bad);
}

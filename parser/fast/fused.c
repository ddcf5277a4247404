/* The runs' AVX2 loop: the fields that the run would read as they are,
 * made nodes straight from the input with no token in between (see
 * fused_loop). Only built with AVX2 (RUN_FUSED). */
#include "grammar.h"
#include "run.h"

#if RUN_FUSED


/* The entry of the list named by the value of a -BEGIN or -END that
 * scan_field_avx2 took (x; w the window it scanned), as list_bracket would
 * make it with no error: the value is one hot keyword, a list. NULL for
 * anything else, which the run's token path reads. */
__attribute__((target(AVX2_TARGET))) static inline const dict_entry *
fused_list_name(const char *w, const field_scan *x)
{
    unsigned n = x->end - x->st;
    if (n - 1 >= 8 || x->st + 8 > 32)
        return NULL;
    uint64_t key;
    memcpy(&key, w + x->st, 8);
    const dict_entry *e = hot_hit(_bzhi_u64(key, 8 * n), n);
    return e && is_list(e) ? e : NULL;
}

/* r's node space for a frame of max_items items, items of them so far
 * (run_limit). */
static ALWAYS_INLINE char *fused_limit(char *ptr, char *end, uint32_t max_items,
                                       uint32_t items)
{
    size_t left = max_items - items;
    return (size_t)(end - ptr) / sizeof(adexp_field) > left
               ? ptr + left * sizeof(adexp_field)
               : end;
}

/* The input's last bytes (at most 32, after a field's '-'), where a 32-byte
 * load would read past its end: copied to a buffer, with a '-' right after
 * them. The scan takes a value there as the lexer does at the input's end
 * (right-trimmed, maybe empty), since it stops at the '-' as at a field's. */
typedef struct tail_window {
    char bytes[64];
    size_t start;              /* the input's offset of bytes[0] */
} tail_window;

static void tail_window_fill(tail_window *tw, const char *b, size_t start, size_t end)
{
    memset(tw->bytes, 0, sizeof tw->bytes);
    memcpy(tw->bytes, b + start, end - start);
    tw->bytes[end - start] = '-';
    tw->start = start;
}

/* A node's last eight bytes (nchildren 0, kind, flags 0, dict_id) as one
 * word: run_fused's fields are never text (no hot keyword is), and x86-64,
 * where it is built, is little-endian. */
_Static_assert(offsetof(adexp_field, kind) == offsetof(adexp_field, nchildren) + 4 &&
                   offsetof(adexp_field, flags) == offsetof(adexp_field, kind) + 1 &&
                   offsetof(adexp_field, dict_id) == offsetof(adexp_field, kind) + 2 &&
                   sizeof(adexp_field) == offsetof(adexp_field, nchildren) + 8,
               "nchildren, kind, flags and dict_id end the node, in that order");

static ALWAYS_INLINE adexp_field *fused_node(char **ptr, adexp_field ***tail,
                                             const char *kw, const field_scan *x,
                                             size_t dash, adexp_kind kind)
{
    adexp_field *n = (adexp_field *)(void *)*ptr;
    uint64_t last = (uint64_t)kind << 32 | (uint64_t)x->id << 48;
    *ptr += sizeof(adexp_field);
    n->keyword.ptr = kw;
    n->keyword.len = x->k;
    n->value.ptr = kw + x->st;
    n->value.len = x->end - x->st;
    n->child = n->next = NULL;
    n->offset = dash;
    memcpy(&n->nchildren, &last, sizeof last);
    **tail = n;
    *tail = &n->next;
    return n;
}

/* A route point in its usual shape, -PT -PTID x -FL y -ETO z (most of the
 * nodes of a flight plan), read from one 64-byte window rather than by four
 * scans, each field as scan_field_avx2 would take it (the same keyword,
 * value and next '-'), with no dictionary lookup or subfield test: the
 * three are basic subfields of -PT, none text (lib/dict/dict_test.c checks).
 * The window's bytes are all below the run's bound; up to 8 more after it
 * are read (not used). */
#define POINT_WINDOW 64
#define POINT_READ (POINT_WINDOW + 8)

/* The node at n of a basic subfield: keyword kw of k bytes, its '-' at
 * offset dash; value from w + kw + k + 1, right after the keyword's
 * separator, which is no separator nor '-', to the last byte that is no
 * separator before w + de, the next '-' (nsep: the window's bytes that
 * are no separator); linked before the node after it. */
__attribute__((target(AVX2_TARGET))) static ALWAYS_INLINE void
point_node(adexp_field *n, const char *w, size_t dash, unsigned kw, unsigned k,
           uint64_t nsep, unsigned de, unsigned id, adexp_kind kind)
{
    unsigned st = kw + k + 1;
    unsigned last = past_top_bit(_bzhi_u64(nsep, de));    /* > st */
    uint64_t tail8 = (uint64_t)kind << 32 | (uint64_t)id << 48;
    n->keyword.ptr = w + kw;
    n->keyword.len = k;
    n->value.ptr = w + st;
    n->value.len = last - st;
    n->child = NULL;
    n->next = n + 1;
    n->offset = dash;
    memcpy(&n->nchildren, &tail8, sizeof tail8);
}

/* The route point whose -PT is at bit 0 of the 64-byte window w (at
 * offset d): if it is -PT -PTID x -FL y -ETO z, each keyword whole with
 * one separator after it (so that the -PT's value is empty and -PTID's
 * '-' is at 4: one compare of eight bytes; and each value starts at a
 * fixed place from its keyword, and is not empty), its four nodes at n
 * (the -PT's children linked, the last ones' next NULL), and the bit of
 * the '-' after it; else 0, with nothing written (the fused loop then
 * reads the point field by field). No '-' is in a keyword, so the three
 * '-' after bit 4 are those of the last two subfields and the next field,
 * each after the keyword before it. */
__attribute__((target(AVX2_TARGET), always_inline)) static inline unsigned
point_at(const char *w, size_t d, adexp_field *n)
{
    uint64_t head;
    memcpy(&head, w + 1, 8);
    if ((head | 0xff0000u) != PACK8('P', 'T', 0xff, '-', 'P', 'T', 'I', 'D'))
        return 0;
    __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)w);
    __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(w + 32));
    uint64_t sep = avx2_sep_mask(lo) | (uint64_t)avx2_sep_mask(hi) << 32;
    uint64_t dm = avx2_byte_mask(lo, '-') | (uint64_t)avx2_byte_mask(hi, '-') << 32;
    uint64_t m = dm & ~(uint64_t)0x1f;          /* but -PT's and -PTID's */
    unsigned f = (unsigned)_tzcnt_u64(m);       /* -FL; 64 if none */
    m = _blsr_u64(m);
    unsigned e = (unsigned)_tzcnt_u64(m);       /* -ETO */
    m = _blsr_u64(m);
    if (!m)
        return 0;
    unsigned z = (unsigned)_tzcnt_u64(m);       /* the next field's */
    uint16_t kf;
    uint32_t ke;
    memcpy(&kf, w + f + 1, 2);
    memcpy(&ke, w + e + 1, 4);
    if ((kf ^ (uint16_t)PACK8('F', 'L', 0, 0, 0, 0, 0, 0)) |
        ((ke ^ (uint32_t)PACK8('E', 'T', 'O', 0, 0, 0, 0, 0)) & 0xffffff))
        return 0;
    /* a separator after each keyword, and but for -PT's, a byte of its
     * value after that (no separator, no '-'): the keywords matched, so
     * each is before the next '-', and the separators' bits are in the
     * window (a value's first may not be: then its separator's test
     * fails, as bit 63 is the next '-') */
    uint64_t after = 0x208 | (uint64_t)1 << (f + 3) | (uint64_t)1 << (e + 4);
    uint64_t first = (after & ~(uint64_t)0x8) << 1;
    if ((after & ~sep) | (first & (sep | dm)))
        return 0;
    uint64_t nsep = ~sep;
    /* the -PT: keyword at 1, value empty where -PTID's '-' is */
    n->keyword.ptr = w + 1;
    n->keyword.len = 2;
    n->value.ptr = w + 4;
    n->value.len = 0;
    n->child = n + 1;
    n->next = NULL;
    n->offset = d;
    uint64_t pt8 = (uint64_t)ADEXP_COMPOUND << 32 | (uint64_t)DICT_ID_PT << 48;
    memcpy(&n->nchildren, &pt8, sizeof pt8);
    point_node(n + 1, w, d + 4, 5, 4, nsep, f, DICT_ID_PTID, ADEXP_BASIC);
    point_node(n + 2, w, d + f, f + 1, 2, nsep, e, DICT_ID_FL, ADEXP_BASIC);
    point_node(n + 3, w, d + e, e + 1, 3, nsep, z, DICT_ID_ETO, ADEXP_BASIC);
    n[3].next = NULL;
    return z;
}

/* What fused_points read: the last point (still open: a subfield may
 * follow; each point after the first is four nodes after the one before),
 * and the '-' after it. */
typedef struct point_run {
    adexp_field *c;
    size_t dash;
} point_run;

/* The route from the -PT at c (just opened, its '-' at d): its usual
 * subfields as nodes after c (c written again, the same), then, with more
 * (a route list, whose elements -PT are), each usual point that follows
 * (closing the one before, as the fused loop would), while room (nodes
 * after c) allows and the POINT_READ bytes from its '-' are below lim.
 * Returns dash 0 (nothing changed) if the first point is not a usual one.
 * Out of line, so that the fused loop keeps its registers. */
__attribute__((target(AVX2_TARGET), noinline)) static point_run
fused_points(const char *b, size_t d, size_t lim, adexp_field *c, size_t room, int more)
{
    point_run r = {c, 0};
    unsigned z = point_at(b + d, d, c);
    if (!z)
        return r;
    d += z;
    room -= 3;
    while (more && room >= 4 && lim >= d + POINT_READ) {
        adexp_field *n = r.c + 4;
        z = point_at(b + d, d, n);
        if (!z)
            break;
        r.c->nchildren = 3;    /* closed: the next point is its sibling */
        r.c->next = n;
        r.c = n;
        d += z;
        room -= 4;
    }
    r.dash = d;
    return r;
}

/* The fields from the '-' at *dash that repeat the keyword of field x (at
 * kw), a basic field the fused loop has just made a node of with no
 * compound open (-FAC in an ADDR, -ATSRT, -EETFIR): each as
 * scan_field_avx2 would take it (the same keyword, a separator or '-'
 * after it, the value and the next '-' in its 32 bytes), made a node as
 * the loop would make it: the same entry in the same frame gets the same
 * answer from the grammar (but -TITLE, which the loop reads only as a
 * message's first field), so only the room (up to plim) and the bound
 * (lim) are checked, and the keyword is not looked up again. Inlined in
 * the loop, whose state it moves on (a call made the loop keep more of it
 * on the stack); the loop comes here only where the next keyword starts
 * with the same four bytes (same_start). */
__attribute__((target(AVX2_TARGET))) static ALWAYS_INLINE void
fused_same(const char *b, size_t *dash, size_t lim, const char *kw, field_scan x,
           char **ptr, const char *plim, adexp_field ***tail, uint32_t *items)
{
    uint64_t key;
    memcpy(&key, kw, 8);       /* of the 32 bytes the scan read at kw */
    key = _bzhi_u64(key, 8 * x.k);
    if (x.id == DICT_ID_TITLE) /* a second one starts the next message */
        return;
    while (lim > *dash + 32 && *ptr != plim) {
        const char *p = b + *dash + 1;
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
        uint32_t sep = avx2_sep_mask(v), dm = avx2_byte_mask(v, '-');
        if (_bzhi_u64((uint64_t)_mm256_extract_epi64(v, 0), 8 * x.k) != key ||
            !((sep | dm) >> x.k & 1) || !dm)
            break;
        scan_short_value(sep, dm, x.k, x.k + (unsigned)_tzcnt_u64(~(uint64_t)sep >> x.k), &x);
        fused_node(ptr, tail, p, &x, *dash, ADEXP_BASIC);
        *dash += 1 + x.de;
        ++*items;
    }
}

/* Whether the keywords at a and b start with the same four bytes (with
 * their separator, if shorter): the test for fused_same, cheap enough for
 * every basic field, and which few fields that are no repeat pass (-EOBD
 * after -EOBT does not). The loop calls it where both are among the 32
 * bytes the scan read at b. */
static ALWAYS_INLINE int same_start(const char *a, const char *b)
{
    uint32_t x, y;
    memcpy(&x, a, 4);
    memcpy(&y, b, 4);
    return x == y;
}

/* scan_field_avx2 for a keyword of 9 to kmax bytes (-NETWORKTYPE, in most
 * -ORIGIN compounds), which no hot slot holds: looked up in the dictionary,
 * and taken if it is there and no text field, with its value and the next
 * '-' in the 32 bytes at p, as the lexer's general state reads it (the
 * keyword right after the '-', all of it alphanumeric, within the limit).
 * Out of line: it is tried only where the scan refused a field in a
 * compound, which the lexer would read at a higher cost. */
__attribute__((target(AVX2_TARGET), noinline)) static int
scan_long_keyword(const char *p, unsigned kmax, field_scan *fs)
{
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
    uint32_t sep = avx2_sep_mask(x), dm = avx2_byte_mask(x, '-');
    unsigned k = _tzcnt_u32(sep | dm);
    if (k <= 8 || k > kmax || !dm)
        return 0;
    const dict_entry *e = dict_lookup(p, k);
    if (!e || is_text(e))
        return 0;
    scan_short_value(sep, dm, k, k + (unsigned)_tzcnt_u64(~(uint64_t)sep >> k), fs);
    fs->id = dict_id(e);
    fs->e = e;
    return 1;
}

/* scan_field_avx2 for a field whose value may run to the input's end, the
 * avail bytes after p being all the input has left (more than 32): the
 * same field, or one whose value ends at the input's end (de is then
 * avail). Out of line: it is tried once, where a loop of scans stopped, so
 * on a field that scan_field_avx2 refused; only a value with no '-' in the
 * first 32 bytes can fare differently here. */
__attribute__((target(AVX2_TARGET), noinline)) static int
scan_field_to_end(const char *p, size_t avail, unsigned kmax, field_scan *fs)
{
    return scan_field_at(p, p + avail, kmax, 1, fs);
}

/* The count of fs->nested_c, which has ended, without the nodes of the
 * compounds in it (counted as its own where it ended). */
static void fused_mend(fused_state *fs)
{
    if (fs->nested_c)
        fs->nested_c->nchildren -= (uint32_t)fs->nested;
    fs->nested_c = NULL;
    fs->nested = 0;
}

/* Whether the keyword at kw is MSGTXT, ended by a separator. */
static ALWAYS_INLINE int is_msgtxt(const char *kw)
{
    return memcmp(kw, "MSGTXT", 6) == 0 && is_sep((unsigned char)kw[6]);
}

/* The node of the -MSGTXT at dash with value [vs, ve). */
static void fused_text_node(char **ptr, adexp_field ***tail, const char *b, size_t dash,
                            size_t vs, size_t ve)
{
    adexp_field *n = (adexp_field *)(void *)*ptr;
    *ptr += sizeof(adexp_field);
    n->keyword.ptr = b + dash + 1;
    n->keyword.len = 6;
    n->value.ptr = b + vs;
    n->value.len = ve - vs;
    n->child = n->next = NULL;
    n->offset = dash;
    n->nchildren = 0;
    n->kind = ADEXP_BASIC;
    n->flags = ADEXP_FIELD_TEXT;
    n->dict_id = DICT_ID_MSGTXT;
    **tail = n;
    *tail = &n->next;
}

/* The node of list le opened by the -BEGIN that x is (run_list's). */
static ALWAYS_INLINE adexp_field *fused_list_node(char **ptr, adexp_field ***tail,
                                                  const char *kw, const field_scan *x,
                                                  size_t dash, const dict_entry *le)
{
    adexp_field *n = (adexp_field *)(void *)*ptr;
    *ptr += sizeof(adexp_field);
    n->keyword.ptr = kw + x->st;
    n->keyword.len = x->end - x->st;
    n->value.ptr = NULL;
    n->value.len = 0;
    n->child = n->next = NULL;
    n->offset = dash;
    n->nchildren = 0;
    n->kind = ADEXP_LIST;
    n->flags = node_text_flag(le);
    n->dict_id = dict_id(le);
    **tail = n;
    *tail = &n->next;
    return n;
}

/* Whether compound c, a list element, keeps field e (which c does not
 * allow and its list fr does not take as an element) rather than ending
 * with it: the grammar out of line, called for a list only (where the
 * list takes e as an element, e ends c, as the next -PT of a route does,
 * without a call): inlined whole, its test of e's bit in the list's row
 * shares the bit's word and shift with the compound's test, which gcc then
 * keeps on the stack for every field. */
__attribute__((noinline)) static int fused_keeps(const adexp_field *c, const frame *fr,
                                                 const dict_entry *e)
{
    return grammar_in_compound(&dict_table[c->dict_id], fr, e) == GR_CHILD;
}

/* The run's loop (run_loop, which has taken all the lexer's tokens, the
 * last of them ending at a field's '-') going on in the input itself: the
 * fields that scan_field_avx2 takes and the run would read as they are
 * (basic fields, compounds of them) become nodes with no token in between,
 * and so do, out of the main loop, a -BEGIN/-END list opened here, a
 * -MSGTXT group, a last value that runs to the input's end, a compound in
 * a compound, a route's usual points (fused_points), the fields after a
 * basic field that repeat its keyword (fused_same) and a basic subfield
 * whose keyword is too long for the scan (scan_long_keyword). The input's
 * last 32 bytes are read from a padded copy (at_tail, run_fused_tail). At any
 * other field, or at max_message_size, the lexer resumes at its '-' (with
 * the field as its token if the scan took it) and run_loop reads on from
 * that token, or from a list or compound this loop left open (run_items,
 * run_stop_nested): it makes the same decisions in the same order, and
 * this loop has changed nothing for that field yet. */
static void run_fused_tail(const adexp_parser *p, const frame *f, fused_state *fs,
                           int in_compound, const uint64_t *row);

__attribute__((target(AVX2_TARGET))) static ALWAYS_INLINE void
fused_loop(const adexp_parser *p, const frame *f, fused_state *fs, int in_compound,
           const uint64_t *row, int at_tail)
{
    char *ptr = fs->ptr, *plim = fs->lim;
    adexp_field **tail = fs->tail, *c = fs->c;
    uint32_t items = fs->items;
    const uint64_t *crow = fs->crow;
    adexp_field *list = fs->list;
    const frame *fr = list ? &fs->lf : f;      /* the frame being read */
    lexer *lx = fs->lx;
    const char *b = lx->buf;
    size_t dash = at_tail ? fs->dash : lx->pos;
    size_t lim = lx->len < fs->bound ? lx->len : fs->bound;
    field_scan x;
    tail_window tw;
    if (at_tail)
        tail_window_fill(&tw, b, dash, lim);
    /* the 32 bytes the scan read for the field at dash */
#define FUSED_WINDOW (at_tail ? tw.bytes + (dash - tw.start) + 1 : b + dash + 1)
    /* the loop's state back into fs */
#define FUSED_SAVE()                                                           \
    (fs->ptr = ptr, fs->tail = tail, fs->items = items, fs->c = c, fs->crow = crow, \
     fs->lim = plim, fs->list = list)
    /* after a basic node, with no compound open: the fields that repeat its
     * keyword (fused_same) */
#define FUSED_SAME()                                                           \
    do {                                                                       \
        if (!in_compound && !at_tail && x.de < 28 && same_start(kw + x.de + 1, kw))  \
            fused_same(b, &dash, lim, kw, x, &ptr, plim, &tail, &items);        \
    } while (0)
    /* max_keyword_len >= 8 */
again:
    while ((at_tail ? dash < lim : lim > dash + 32) &&
           scan_field_avx2(FUSED_WINDOW, at_tail ? FUSED_WINDOW + 32 : b + lim, 8, &x)) {
        const char *kw = b + dash + 1;
        const dict_entry *e = x.e;
        if (c) {
            if (row_allows(crow, e)) {
                if (!is_basic(e) || ptr == plim)
                    goto compound_in_c;
                fused_node(&ptr, &tail, kw, &x, dash, ADEXP_BASIC);
                dash += 1 + x.de;
                continue;
            }
            if (is_bracket(e)) {
                /* -END, or -BEGIN of a list c has no place for, ends c
                 * (run_ends); the token path reads anything else */
                const dict_entry *le;
                if (in_compound || !(le = fused_list_name(FUSED_WINDOW, &x)) ||
                    (x.id == DICT_ID_BEGIN &&
                     grammar_list_in_compound(&dict_table[c->dict_id], fr, le) == GR_CHILD))
                    goto scanned;
            } else if (fr->kind == FR_LIST &&
                       !list_holds(fr, e) &&
                       fused_keeps(c, fr, e)) {
                goto scanned;
            }
            c = close_compound(c, ptr, &tail);
        }
        if (!in_compound && grammar_plain_basic(e, x.id)) {
            /* the common field, ahead of the general tests below */
            if (ptr == plim)
                goto scanned;
            fused_node(&ptr, &tail, kw, &x, dash, ADEXP_BASIC);
            items++;
            dash += 1 + x.de;
            FUSED_SAME();
            continue;
        }
        if (!in_compound && is_bracket(e)) {
            /* -BEGIN X opens list X (run_list), -END X closes it: only a
             * list opened here, and not one inside it */
            const dict_entry *le = fused_list_name(FUSED_WINDOW, &x);
            if (!le)
                goto scanned;
            if (x.id == DICT_ID_BEGIN) {
                if (list || ptr == plim || f->depth >= p->opt.max_depth)
                    goto scanned;
                list = fused_list_node(&ptr, &tail, kw, &x, dash, le);
                fs->lf = (frame){
                    .up = f, .kind = FR_LIST, .node = list, .tail = &list->child,
                    .entry = le, .depth = f->depth + 1, .max_items = p->opt.max_list_items,
                    .holds = frame_row(FR_LIST, le),
                };
                fr = &fs->lf;
                tail = &list->child;
                fs->outer_items = items + 1;
                items = 0;
                plim = fused_limit(ptr, fs->end, p->opt.max_list_items, 0);
            } else {
                if (!list || le != fs->lf.entry)
                    goto scanned;
                list->nchildren = items;
                tail = &list->next;
                items = fs->outer_items;
                plim = fused_limit(ptr, fs->end, f->max_items, items);
                list = NULL;
                fr = f;
            }
            dash += 1 + x.de;
            continue;
        }
        if (in_compound ? !row_allows(row, e)
                        : !grammar_plain_child(fr, items, e, x.id))
            goto scanned;
        if (ptr == plim)
            goto scanned;
        if (is_basic(e)) {
            fused_node(&ptr, &tail, kw, &x, dash, ADEXP_BASIC);
            items++;
            dash += 1 + x.de;
            FUSED_SAME();
            continue;
        } else if (is_compound(e) && fr->depth < p->opt.max_depth) {
            c = fused_node(&ptr, &tail, kw, &x, dash, ADEXP_COMPOUND);
            crow = subfield_row(e);
            tail = &c->child;
            if (!in_compound && !at_tail && x.id == DICT_ID_PT) {
                /* its usual subfields at once, and the points after it in
                 * a route; the last point stays open for more subfields */
                size_t room = (size_t)(plim - ptr) / sizeof(adexp_field);
                point_run pr;
                if (lim >= dash + POINT_READ && room >= 3 &&
                    (pr = fused_points(b, dash, lim, c, room,
                                       fr->kind == FR_LIST && list_holds(fr, e))).dash) {
                    items += 1 + (uint32_t)(pr.c - c) / 4;
                    c = pr.c;
                    ptr = (char *)(void *)(c + 4);
                    tail = &c[3].next;
                    dash = pr.dash;
                    continue;
                }
            }
        } else {
            goto scanned;
        }
        items++;
        dash += 1 + x.de;
    }
    /* a keyword too long for the scan (scan_long_keyword): its node here if
     * it is a basic subfield of the compound open, as the loop would make
     * it (outside the loop, whose fields the call would make it keep on
     * the stack) */
    if (!in_compound && !at_tail && c && ptr != plim && lim > dash + 32) {
        field_scan t;
        if (scan_long_keyword(b + dash + 1, p->opt.max_keyword_len, &t) &&
            is_basic(t.e) && row_allows(crow, t.e)) {
            fused_node(&ptr, &tail, b + dash + 1, &t, dash, ADEXP_BASIC);
            dash += 1 + t.de;
            goto again;
        }
    }
    /* a -MSGTXT (ICAO text, which may hold '-'): its node here if its value
     * is a group in parentheses, as the run would make it from the lexer's
     * token (with -MSGTXT primary, a compound c ends at it) */
    if (!in_compound && !at_tail && lim > dash + 32 && is_msgtxt(b + dash + 1)) {
        const dict_entry *te = &dict_table[DICT_ID_MSGTXT];
        size_t vs, ve, next;
        if (ptr != plim && !(c && grammar_in_compound(&dict_table[c->dict_id], fr, te) == GR_CHILD) &&
            lexer_text_group(lx, dash + 7, &vs, &ve, &next) && ve <= lim) {
            if (c) {
                c = close_compound(c, ptr, &tail);
            }
            fused_text_node(&ptr, &tail, b, dash, vs, ve);
            items++;
            dash = next;
            goto again;
        }
    }
    /* a field of the message or a list whose value runs to the input's end
     * (a last -COMMENT or -ROUTE): a node here, as the loop would make it */
    if (!in_compound && !at_tail && !c && lim == lx->len && lim > dash + 32) {
        field_scan t;
        if (scan_field_to_end(b + dash + 1, lim - dash - 1, 8, &t) &&
            is_basic(t.e) && !is_bracket(t.e) &&
            t.id != DICT_ID_TITLE && grammar_plain_child(fr, items, t.e, t.id) && ptr != plim) {
            fused_node(&ptr, &tail, b + dash + 1, &t, dash, ADEXP_BASIC);
            items++;
            dash += 1 + t.de;
            goto again;
        }
    }
    /* the bound, or a field the scan does not take: the lexer reads it (also
     * if it is the first, so that the lexer does not scan it again; the loop
     * ends before the bound only at a scan) */
    if (!at_tail && lim <= dash + 32 && dash < lim && lim == lx->len) {
        fs->dash = dash;      /* on in the copy of the input's last bytes */
        FUSED_SAVE();
        run_fused_tail(p, f, fs, in_compound, row);
        return;
    }
    fs->resumed = dash != lx->pos || (at_tail ? dash < lim : lim > dash + 32);
    if (fs->resumed)
        lexer_resume(lx, dash, NULL);
    goto out;
compound_in_c:  /* an allowed subfield of c that is no basic field */
    if (in_compound || at_tail || !is_compound(x.e) || ptr == plim || list ||
        fr->depth + 1 >= p->opt.max_depth)
        goto scanned;
    {
        /* read here with its basic subfields; then the loop goes on in c
         * from the field that ends it (scanned again) */
        if (fs->nested_c != c) {
            fused_mend(fs);
            fs->nested_c = c;
        }
        adexp_field *in = fused_node(&ptr, &tail, b + dash + 1, &x, dash, ADEXP_COMPOUND);
        const uint64_t *irow = subfield_row(x.e);
        tail = &in->child;
        dash += 1 + x.de;
        for (;;) {
            int took = lim > dash + 32 && scan_field_avx2(b + dash + 1, b + lim, 8, &x);
            if (took && row_allows(irow, x.e)) {
                if (!is_basic(x.e) || ptr == plim)
                    goto stop_in;
                fused_node(&ptr, &tail, b + dash + 1, &x, dash, ADEXP_BASIC);
                dash += 1 + x.de;
                continue;
            }
            /* it ends at a field it does not take (its compound is no list:
             * no stray subfield stays), at -END or at -BEGIN of a list it
             * has no place for; anything else is read by the general code */
            const dict_entry *le;
            if (!took || (is_bracket(x.e) &&
                          (!(le = fused_list_name(b + dash + 1, &x)) ||
                           (x.id == DICT_ID_BEGIN && row_allows(irow, le))))) {
            stop_in:
                fs->outer = c;
                fs->outer_row = crow;
                c = in;
                crow = irow;
                if (took)
                    goto scanned;
                fs->resumed = 1;
                lexer_resume(lx, dash, NULL);
                goto out;
            }
            close_compound(in, ptr, &tail);
            fs->nested += in->nchildren;
            goto again;
        }
    }
scanned:        /* a field the run does not take as it stands: its token */
    fs->resumed = 1;
    {
        field_scan y = x;      /* a copy, so that x need not live in memory */
        lexer_resume(lx, dash, &y);
    }
out:
    if (fs->nested_c && fs->nested_c != c && fs->nested_c != fs->outer)
        fused_mend(fs);        /* it has ended */
    FUSED_SAVE();
}
#undef FUSED_WINDOW
#undef FUSED_SAVE
#undef FUSED_SAME

/* fused_loop for the message or a list, and for a compound. Not inlined:
 * compiled for AVX2, and called once per stretch of such fields. */
__attribute__((target(AVX2_TARGET), noinline)) void
run_fused(const adexp_parser *p, const frame *f, fused_state *fs)
{
    fused_loop(p, f, fs, 0, NULL, 0);
}

__attribute__((target(AVX2_TARGET), noinline)) void
run_fused_in(const adexp_parser *p, const frame *f, fused_state *fs, const uint64_t *row)
{
    fused_loop(p, f, fs, 1, row, 0);
}

/* fused_loop on the input's last 32 bytes, for both kinds of frame. */
__attribute__((target(AVX2_TARGET), noinline)) static void
run_fused_tail(const adexp_parser *p, const frame *f, fused_state *fs, int in_compound,
               const uint64_t *row)
{
    fused_loop(p, f, fs, in_compound, row, 1);
}
#endif

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

/* The separators and the '-' of the 64-byte window w, as bits. */
__attribute__((target(AVX2_TARGET), always_inline)) static inline void
window_masks(const char *w, uint64_t *sep, uint64_t *dm)
{
    __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)w);
    __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(w + 32));
    *sep = avx2_sep_mask(lo) | (uint64_t)avx2_sep_mask(hi) << 32;
    *dm = avx2_byte_mask(lo, '-') | (uint64_t)avx2_byte_mask(hi, '-') << 32;
}

/* The route point whose -PT is at bit 0 of the 64-byte window w (at
 * offset d): if it is -PT -PTID x -FL y -ETO z, each keyword whole with
 * one separator after it (so that the -PT's value is empty and -PTID's
 * '-' is at 4: one compare of eight bytes; and each value starts at a
 * fixed place from its keyword, and is not empty), its four nodes at n
 * (the -PT's children linked, the last ones' next NULL, the -PT flagged
 * ADEXP_FIELD_USUAL_POINT at no cost: its last eight bytes are one
 * constant; parser/usual_point.h says what the flag claims), and the bit of
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
    uint64_t sep, dm;
    window_masks(w, &sep, &dm);
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
    uint64_t pt8 = (uint64_t)ADEXP_COMPOUND << 32 | (uint64_t)ADEXP_FIELD_USUAL_POINT << 40 |
                   (uint64_t)DICT_ID_PT << 48;
    memcpy(&n->nchildren, &pt8, sizeof pt8);
    point_node(n + 1, w, d + 4, 5, 4, nsep, f, DICT_ID_PTID, ADEXP_BASIC);
    point_node(n + 2, w, d + f, f + 1, 2, nsep, e, DICT_ID_FL, ADEXP_BASIC);
    point_node(n + 3, w, d + e, e + 1, 3, nsep, z, DICT_ID_ETO, ADEXP_BASIC);
    n[3].next = NULL;
    return z;
}

/* A compound of three basic subfields in their usual order, -ESTDATA
 * -PTID x -ETO y -FL z or -GEO -GEOID x -LATTD y -LONGTD z (several in a
 * flight plan), read from one 64-byte window as point_at reads a route
 * point: each keyword whole with one separator after it, each value not
 * empty, the next field's '-' within the window. Its keywords packed, the
 * compound's length and the subfields', their ids. */
typedef struct usual_three {
    uint64_t key0, key[3];
    unsigned k0, k[3], id0, id[3];
} usual_three;

static const usual_three estdata_three = {
    PACK8('E', 'S', 'T', 'D', 'A', 'T', 'A', 0),
    {PACK8('P', 'T', 'I', 'D', 0, 0, 0, 0), PACK8('E', 'T', 'O', 0, 0, 0, 0, 0),
     PACK8('F', 'L', 0, 0, 0, 0, 0, 0)},
    7, {4, 3, 2}, DICT_ID_ESTDATA, {DICT_ID_PTID, DICT_ID_ETO, DICT_ID_FL}};
static const usual_three geo_three = {
    PACK8('G', 'E', 'O', 0, 0, 0, 0, 0),
    {PACK8('G', 'E', 'O', 'I', 'D', 0, 0, 0), PACK8('L', 'A', 'T', 'T', 'D', 0, 0, 0),
     PACK8('L', 'O', 'N', 'G', 'T', 'D', 0, 0)},
    3, {5, 5, 6}, DICT_ID_GEO, {DICT_ID_GEOID, DICT_ID_LATTD, DICT_ID_LONGTD}};

/* Whether the k bytes at p are keyword key (packed). */
__attribute__((target(AVX2_TARGET))) static ALWAYS_INLINE int
keyword_is(const char *p, uint64_t key, unsigned k)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return _bzhi_u64(w ^ key, 8 * k) == 0;
}

/* The field whose '-' is at bit 0 of the 64-byte window w (at offset d):
 * if it is compound u with u's subfields in u's shape, its node at n (no
 * value, next NULL) and its subfields' three nodes after it (n's children,
 * the last one's next NULL), each as the fused loop would make it, and the
 * bit of the '-' after them; else 0, with nothing written. */
__attribute__((target(AVX2_TARGET), always_inline)) static inline unsigned
three_at(const char *w, size_t d, adexp_field *n, const usual_three *u)
{
    uint64_t sep, dm;
    window_masks(w, &sep, &dm);
    unsigned a = u->k0 + 2;                     /* the first subfield's '-' */
    if (!(dm >> a & 1))
        return 0;
    uint64_t m = dm >> (a + 1) << (a + 1);      /* the '-' after it */
    unsigned f = (unsigned)_tzcnt_u64(m);       /* the second's; 64 if none */
    m = _blsr_u64(m);
    unsigned e = (unsigned)_tzcnt_u64(m);       /* the third's */
    m = _blsr_u64(m);
    if (!m)
        return 0;
    unsigned z = (unsigned)_tzcnt_u64(m);       /* the next field's */
    /* each value's first byte before the next '-' (so every bit below is
     * in the window), each keyword whole: a separator after it, and no
     * separator nor '-' after that */
    if (a + u->k[0] + 2 >= f || f + u->k[1] + 2 >= e || e + u->k[2] + 2 >= z ||
        !keyword_is(w + 1, u->key0, u->k0) || !keyword_is(w + a + 1, u->key[0], u->k[0]) ||
        !keyword_is(w + f + 1, u->key[1], u->k[1]) || !keyword_is(w + e + 1, u->key[2], u->k[2]))
        return 0;
    uint64_t own = (uint64_t)1 << (u->k0 + 1);  /* the compound's, before a */
    uint64_t after = (uint64_t)1 << (a + 1 + u->k[0]) | (uint64_t)1 << (f + 1 + u->k[1]) |
                     (uint64_t)1 << (e + 1 + u->k[2]);
    if (((after | own) & ~sep) | ((after << 1) & (sep | dm)))
        return 0;
    uint64_t nsep = ~sep;
    uint64_t head8 = (uint64_t)ADEXP_COMPOUND << 32 | (uint64_t)u->id0 << 48;
    n->keyword.ptr = w + 1;
    n->keyword.len = u->k0;
    n->value.ptr = w + a;
    n->value.len = 0;
    n->child = n + 1;
    n->next = NULL;
    n->offset = d;
    memcpy(&n->nchildren, &head8, sizeof head8);
    point_node(n + 1, w, d + a, a + 1, u->k[0], nsep, f, u->id[0], ADEXP_BASIC);
    point_node(n + 2, w, d + f, f + 1, u->k[1], nsep, e, u->id[1], ADEXP_BASIC);
    point_node(n + 3, w, d + e, e + 1, u->k[2], nsep, z, u->id[2], ADEXP_BASIC);
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

/* The compound at c read whole, its '-' at d, then, with more, each one
 * of the same kind that follows (closing the one before, as the fused loop
 * would), while room (nodes after c) allows and the POINT_READ bytes from
 * its '-' are below lim: route points (point_at) where u is NULL, else u's
 * compounds (three_at), the next field's keyword told first. Dash 0
 * (nothing changed) if the first is not a usual one. */
__attribute__((target(AVX2_TARGET), always_inline)) static inline point_run
whole_run(const char *b, size_t d, size_t lim, adexp_field *c, size_t room, int more,
          const usual_three *u)
{
    point_run r = {c, 0};
    unsigned z = u ? three_at(b + d, d, c, u) : point_at(b + d, d, c);
    if (!z)
        return r;
    d += z;
    room -= 3;
    while (more && room >= 4 && lim >= d + POINT_READ &&
           (!u || keyword_is(b + d + 1, u->key0, u->k0))) {
        adexp_field *n = r.c + 4;
        z = u ? three_at(b + d, d, n, u) : point_at(b + d, d, n);
        if (!z)
            break;
        r.c->nchildren = 3;    /* closed: the next one is its sibling */
        r.c->next = n;
        r.c = n;
        d += z;
        room -= 4;
    }
    r.dash = d;
    return r;
}

/* The route from the -PT at c (just opened, its '-' at d): its usual
 * subfields as nodes after c (c written again, the same), then, with more
 * (a route list, whose elements -PT are), each usual point that follows.
 * Out of line, so that the fused loop keeps its registers. */
__attribute__((target(AVX2_TARGET), noinline)) static point_run
fused_points(const char *b, size_t d, size_t lim, adexp_field *c, size_t room, int more)
{
    return whole_run(b, d, lim, c, room, more, NULL);
}

/* The usual -ESTDATA or -GEO just opened as compound c, with more (in the
 * message, where each one ends the one before) those of its kind after it:
 * whole_run, its constants folded in for each kind. */
__attribute__((target(AVX2_TARGET), noinline)) static point_run
fused_three(const char *b, size_t d, size_t lim, adexp_field *c, size_t room, int more)
{
    if (c->dict_id == DICT_ID_GEO)
        return whole_run(b, d, lim, c, room, more, &geo_three);
    return whole_run(b, d, lim, c, room, more, &estdata_three);
}

/* The fused loop's state, kept in fused_loop's registers (every case below
 * is inlined there): the node space of the frame being read, where its next
 * node is linked, its items, the compound open in it and that compound's
 * row, the list opened here, and the '-' of the field being read. */
typedef struct fused_cursor {
    const adexp_parser *p;
    const frame *f;            /* the run's frame */
    const frame *fr;           /* the frame being read: f, or the list's */
    fused_state *fs;
    lexer *lx;
    const char *b;             /* the input */
    size_t lim;                /* its end, or the bound max_message_size sets */
    size_t dash;
    char *ptr, *plim;
    adexp_field **tail, *c;
    uint32_t items;
    const uint64_t *crow;
    adexp_field *list;
} fused_cursor;

/* The fields from the '-' at k->dash that repeat the keyword of field
 * first (at kw), a basic field the fused loop has just made a node of with no
 * compound open (-FAC in an ADDR, -ATSRT, -EETFIR): each as
 * scan_field_avx2 would take it (the same keyword, a separator or '-'
 * after it, the value and the next '-' in its 32 bytes), made a node as
 * the loop would make it: the same entry in the same frame gets the same
 * answer from the grammar (but -TITLE, which the loop reads only as a
 * message's first field), so only the room (up to k->plim) and the bound
 * (k->lim) are checked, and the keyword is not looked up again. Inlined in
 * the loop, whose state it moves on (a call made the loop keep more of it
 * on the stack); the loop comes here only where the next keyword starts
 * with the same four bytes (same_start). */
__attribute__((target(AVX2_TARGET))) static ALWAYS_INLINE void
fused_same(fused_cursor *k, const char *kw, const field_scan *first)
{
    /* each repeat's scan, from first's keyword and id */
    field_scan x = {.k = first->k, .id = first->id};
    uint64_t key;
    memcpy(&key, kw, 8);       /* of the 32 bytes the scan read at kw */
    key = _bzhi_u64(key, 8 * x.k);
    /* a second -TITLE starts the next message; a keyword longer than the
     * key's eight bytes (a cold one in a list: -REFATSRTE) is not told from
     * another that starts the same (-REFATSRTA) */
    if (x.id == DICT_ID_TITLE || x.k > 8)
        return;
    while (k->lim > k->dash + 32 && k->ptr != k->plim) {
        const char *p = k->b + k->dash + 1;
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
        uint32_t sep = avx2_sep_mask(v), dm = avx2_byte_mask(v, '-');
        if (_bzhi_u64((uint64_t)_mm256_extract_epi64(v, 0), 8 * x.k) != key ||
            !((sep | dm) >> x.k & 1) || !dm)
            break;
        scan_short_value(sep, dm, x.k, x.k + (unsigned)_tzcnt_u64(~(uint64_t)sep >> x.k), &x);
        fused_node(&k->ptr, &k->tail, p, &x, k->dash, ADEXP_BASIC);
        k->dash += 1 + x.de;
        ++k->items;
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

/* scan_cold_keyword for a keyword after separators (`- TITLE FSA`, as some
 * sources write every field): fewer than 8, the next '-' within 28 bytes
 * of the keyword, so that fused_repeats reads within the 32 bytes at p.
 * The masks are taken from the keyword on, the bytes past the window read
 * as no separator and no '-'. */
__attribute__((target(AVX2_TARGET), noinline)) static int
scan_spaced_keyword(const char *p, uint32_t sep, uint32_t dm, unsigned kmax, field_scan *fs)
{
    unsigned skip = _tzcnt_u32(~sep);
    if (skip >= 8 || _tzcnt_u32(dm >> skip) + 2 * skip >= 28)
        return 0;
    sep >>= skip;
    dm >>= skip;
    unsigned k = _tzcnt_u32(sep | dm);
    if (k - 1 >= kmax)
        return 0;
    const dict_entry *e = dict_lookup(p + skip, k);
    if (!e || is_text(e))
        return 0;
    scan_short_value(sep, dm, k, k + (unsigned)_tzcnt_u64(~(uint64_t)sep >> k), fs);
    fs->de += skip;
    fs->id = dict_id(e);
    fs->e = e;
    return 1 + (int)skip;
}

/* scan_field_avx2 for a keyword that no hot slot holds (k bytes, 1 to kmax,
 * ended by a separator or '-' in the 32 bytes at p), or one after
 * separators (scan_spaced_keyword): looked up in the dictionary, and taken
 * if it is there and no text field, with its value and the next '-' in the
 * 32 bytes at p, or for a keyword right after the '-' further on within the
 * avail bytes readable from p (scan_long_value), as the lexer's general
 * state reads it (a keyword equal to an entry's is all alphanumeric). Real
 * traffic holds many such keywords, which the hot ones, chosen on
 * generated messages, miss: -NUM, -FLBLOCK, -AIRROUTE, -ORGN, -ATA,
 * -VALPERIOD, -NETWORKTYPE. fs's start and end count from the keyword, its
 * de from p. Returns 0, or 1 + the separators before the keyword. Out of
 * line: it is tried only where the loop's scan refused a field, which the
 * lexer would read at a higher cost. */
__attribute__((target(AVX2_TARGET), noinline)) static int
scan_cold_keyword(const char *p, size_t avail, unsigned kmax, field_scan *fs)
{
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
    uint32_t sep = avx2_sep_mask(x), dm = avx2_byte_mask(x, '-');
    if (__builtin_expect(sep & 1, 0))
        return scan_spaced_keyword(p, sep, dm, kmax, fs);
    unsigned k = _tzcnt_u32(sep | dm);
    if (k - 1 >= kmax || k == 32)
        return 0;
    const dict_entry *e = dict_lookup(p, k);
    if (!e || is_text(e))
        return 0;
    if (!dm) {         /* a long value: on to its '-' as a hot keyword's */
        const hot_slot hs = {0, e, k, dict_id(e)};
        return scan_long_value(p, avail, 0, sep, k, &hs, fs);
    }
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

/* What the loop does after a compound in a compound (fused_nested). */
typedef enum fused_step {
    FUSED_NEXT,      /* it has ended: on to the next field */
    FUSED_SCANNED,   /* the run stops in it: the lexer makes the field its token */
    FUSED_RESUMED,   /* the run stops in it: the lexer has resumed, with no token */
} fused_step;

/* The 32 bytes the scan reads for the field at k->dash: the input's, or on
 * the input's last bytes their padded copy tw. */
static ALWAYS_INLINE const char *fused_window(const fused_cursor *k, const tail_window *tw,
                                              int at_tail)
{
    return at_tail ? tw->bytes + (k->dash - tw->start) + 1 : k->b + k->dash + 1;
}

/* The loop's state back into fs. */
static ALWAYS_INLINE void fused_save(const fused_cursor *k)
{
    fused_state *fs = k->fs;
    fs->ptr = k->ptr;
    fs->tail = k->tail;
    fs->items = k->items;
    fs->c = k->c;
    fs->crow = k->crow;
    fs->lim = k->plim;
    fs->list = k->list;
}

/* After basic field x (at kw) made a node with no compound open: the fields
 * that repeat its keyword (fused_same), where the next keyword starts as
 * its does. Seldom, which gcc is told: it then keeps the loop's state in
 * registers on the common path (measured: about 1% fewer instructions
 * on a parse). */
__attribute__((target(AVX2_TARGET))) static ALWAYS_INLINE void
fused_repeats(fused_cursor *k, const field_scan *x, const char *kw, int in_compound,
              int at_tail)
{
    if (__builtin_expect(!in_compound && !at_tail && x->de < 28 &&
                             same_start(kw + x->de + 1, kw),
                         0))
        fused_same(k, kw, x);
}

/* A basic subfield x (at kw) of the compound open:
 *   compound = "-" KEYWORD { subfield } ;
 * its node (the compound's count is set where it ends). */
static ALWAYS_INLINE void fused_subfield(fused_cursor *k, const field_scan *x, const char *kw)
{
    fused_node(&k->ptr, &k->tail, kw, x, k->dash, ADEXP_BASIC);
    k->dash += 1 + x->de;
}

/* The end of the compound open: whether field x, which it does not allow
 * (tw for its window), ends it as run_ends says: -END, -BEGIN of a list
 * it has no place for, a keyword that it, as a list's element, does not
 * keep. Then it is closed and the frame's cases read x; else (0) the token
 * path reads x. */
__attribute__((target(AVX2_TARGET))) static ALWAYS_INLINE int
fused_ends_compound(fused_cursor *k, const field_scan *x, const tail_window *tw,
                    int in_compound, int at_tail)
{
    const dict_entry *e = x->e;
    if (is_bracket(e)) {
        const dict_entry *le;
        if (in_compound || !(le = fused_list_name(fused_window(k, tw, at_tail), x)) ||
            (x->id == DICT_ID_BEGIN &&
             grammar_list_in_compound(&dict_table[k->c->dict_id], k->fr, le) == GR_CHILD))
            return 0;
    } else if (k->fr->kind == FR_LIST && !list_holds(k->fr, e) && fused_keeps(k->c, k->fr, e)) {
        return 0;
    }
    k->c = close_compound(k->c, k->ptr, &k->tail);
    return 1;
}

/* The hot basic field: a basic primary field but -TITLE (grammar_plain_basic)
 * in the message or a list with no compound open, ahead of the general
 * tests (the caller checked the room); then the fields that repeat its
 * keyword. */
__attribute__((target(AVX2_TARGET))) static ALWAYS_INLINE void
fused_hot_basic(fused_cursor *k, const field_scan *x, const char *kw, int at_tail)
{
    fused_node(&k->ptr, &k->tail, kw, x, k->dash, ADEXP_BASIC);
    k->items++;
    k->dash += 1 + x->de;
    fused_repeats(k, x, kw, 0, at_tail);
}

/* The start of a list, -BEGIN X (x, at kw), X's entry le:
 *   list = "-BEGIN" NAME { item } "-END" NAME ;
 * its node, and its frame (fs->lf) the one being read, as run_list's. */
static ALWAYS_INLINE void fused_open_list(fused_cursor *k, const field_scan *x, const char *kw,
                                          const dict_entry *le)
{
    fused_state *fs = k->fs;
    const adexp_parser *p = k->p;
    k->list = fused_list_node(&k->ptr, &k->tail, kw, x, k->dash, le);
    fs->lf = (frame){
        .up = k->f, .kind = FR_LIST, .node = k->list, .tail = &k->list->child,
        .entry = le, .depth = k->f->depth + 1, .max_items = p->opt.max_list_items,
        .holds = frame_row(FR_LIST, le),
    };
    k->fr = &fs->lf;
    k->tail = &k->list->child;
    fs->outer_items = k->items + 1;
    k->items = 0;
    k->plim = fused_limit(k->ptr, fs->end, p->opt.max_list_items, 0);
}

/* The end of a list: -END X of the list opened here; the run's frame is
 * read on. */
static ALWAYS_INLINE void fused_close_list(fused_cursor *k)
{
    k->list->nchildren = k->items;
    k->tail = &k->list->next;
    k->items = k->fs->outer_items;
    k->plim = fused_limit(k->ptr, k->fs->end, k->f->max_items, k->items);
    k->list = NULL;
    k->fr = k->f;
}

/* -BEGIN or -END (x, at kw; tw for its window) in the message or a list with no
 * compound open: -BEGIN X opens list X, -END X closes it; only a list
 * opened here, and not one inside it (0: the token path reads the others). */
__attribute__((target(AVX2_TARGET))) static ALWAYS_INLINE int
fused_list_bracket(fused_cursor *k, const field_scan *x, const char *kw,
                   const tail_window *tw, int at_tail)
{
    const dict_entry *le = fused_list_name(fused_window(k, tw, at_tail), x);
    if (!le)
        return 0;
    if (x->id == DICT_ID_BEGIN) {
        if (k->list || k->ptr == k->plim || k->f->depth >= k->p->opt.max_depth)
            return 0;
        fused_open_list(k, x, kw, le);
    } else {
        if (!k->list || le != k->fs->lf.entry)
            return 0;
        fused_close_list(k);
    }
    k->dash += 1 + x->de;
    return 1;
}

/* A compound read whole: the -PT, -ESTDATA or -GEO of known field e
 * just opened as compound c, its usual subfields read at once, and for a
 * -PT the points after it in a route (a list whose ELEMENT it is:
 * fused_points); the last compound stays open for more subfields. Returns
 * 0, with nothing changed, if its subfields are not the usual ones. */
__attribute__((target(AVX2_TARGET))) static ALWAYS_INLINE int
fused_usual_compound(fused_cursor *k, const dict_entry *e)
{
    size_t room = (size_t)(k->plim - k->ptr) / sizeof(adexp_field);
    point_run pr;
    if (k->lim < k->dash + POINT_READ || room < 3)
        return 0;
    if (k->c->dict_id == DICT_ID_PT)
        pr = fused_points(k->b, k->dash, k->lim, k->c, room,
                          k->fr->kind == FR_LIST && list_holds(k->fr, e));
    else
        pr = fused_three(k->b, k->dash, k->lim, k->c, room, k->fr->kind == FR_ROOT);
    if (pr.dash) {
        k->items += 1 + (uint32_t)(pr.c - k->c) / 4;
        k->c = pr.c;
        k->ptr = (char *)(void *)(k->c + 4);
        k->tail = &k->c[3].next;
        k->dash = pr.dash;
        return 1;
    }
    return 0;
}

/* Whether compounds of dictionary id id are read whole when usual
 * (fused_usual_compound). */
static ALWAYS_INLINE int read_whole(unsigned id)
{
    return id == DICT_ID_PT || id == DICT_ID_ESTDATA || id == DICT_ID_GEO;
}

/* Any other field x (at kw) as the run reads it: a plain child of the frame
 * (grammar_plain_child; in a compound frame whose row is row, its subfield),
 * a basic field or a compound, which opens (a -PT, -ESTDATA or -GEO with
 * its usual subfields read whole); 0 for the token path. */
__attribute__((target(AVX2_TARGET))) static ALWAYS_INLINE int
fused_plain_child(fused_cursor *k, const field_scan *x, const char *kw, int in_compound,
                  const uint64_t *row, int at_tail)
{
    const dict_entry *e = x->e;
    if (in_compound ? !row_allows(row, e) : !grammar_plain_child(k->fr, k->items, e, x->id))
        return 0;
    if (k->ptr == k->plim)
        return 0;
    if (is_basic(e)) {
        fused_node(&k->ptr, &k->tail, kw, x, k->dash, ADEXP_BASIC);
        k->items++;
        k->dash += 1 + x->de;
        fused_repeats(k, x, kw, in_compound, at_tail);
        return 1;
    }
    if (!is_compound(e) || k->fr->depth >= k->p->opt.max_depth)
        return 0;
    k->c = fused_node(&k->ptr, &k->tail, kw, x, k->dash, ADEXP_COMPOUND);
    k->crow = subfield_row(e);
    k->tail = &k->c->child;
    if (!in_compound && !at_tail && read_whole(x->id) && fused_usual_compound(k, e))
        return 1;
    k->items++;
    k->dash += 1 + x->de;
    return 1;
}

/* A field whose keyword is no hot one (scan_cold_keyword): read here as
 * the loop reads a hot one, in the frame's cases (fused_plain_child, row
 * the frame's if it is a compound): a basic subfield of the compound open,
 * or a field that ends that compound (fused_ends_compound) and is then a
 * basic primary field or a plain child of the frame (a compound opens);
 * anything else is for the token path. Out of the loop, which then scans on
 * from the next field (a call in the loop would make it keep its state on
 * the stack). Returns 1 if it is read. */
__attribute__((target(AVX2_TARGET))) static ALWAYS_INLINE int
fused_cold_field(fused_cursor *k, int in_compound, const uint64_t *row, int at_tail)
{
    if (at_tail || k->ptr == k->plim || k->lim <= k->dash + 32)
        return 0;
    const char *kw = k->b + k->dash + 1;
    field_scan t;
    int at = scan_cold_keyword(kw, k->lim - k->dash - 1, k->p->opt.max_keyword_len, &t);
    if (!at || is_bracket(t.e))
        return 0;
    kw += at - 1;      /* the keyword, after the separators */
    if (k->c) {
        if (row_allows(k->crow, t.e)) {
            if (!is_basic(t.e))
                return 0;
            fused_subfield(k, &t, kw);
            return 1;
        }
        if (!fused_ends_compound(k, &t, NULL, in_compound, 0))
            return 0;
    }
    if (!in_compound && grammar_plain_basic(t.e, t.id)) {
        fused_node(&k->ptr, &k->tail, kw, &t, k->dash, ADEXP_BASIC);
        k->items++;
        k->dash += 1 + t.de;
        return 1;
    }
    return fused_plain_child(k, &t, kw, in_compound, row, 0);
}

/* A -MSGTXT (ICAO text, which may hold '-'): its node here if its value is
 * a group in parentheses, as the run would make it from the lexer's token
 * (with -MSGTXT primary, a compound open ends at it, but in a list element,
 * which keeps it). Returns 1 if it is read. */
static ALWAYS_INLINE int fused_msgtxt(fused_cursor *k, int in_compound, int at_tail)
{
    if (in_compound || at_tail || k->lim <= k->dash + 32 || !is_msgtxt(k->b + k->dash + 1))
        return 0;
    const dict_entry *te = &dict_table[DICT_ID_MSGTXT];
    size_t vs, ve, next;
    if (k->ptr == k->plim ||
        (k->c && grammar_in_compound(&dict_table[k->c->dict_id], k->fr, te) == GR_CHILD) ||
        !lexer_text_group(k->lx, k->dash + 7, &vs, &ve, &next) || ve > k->lim)
        return 0;
    if (k->c)
        k->c = close_compound(k->c, k->ptr, &k->tail);
    fused_text_node(&k->ptr, &k->tail, k->b, k->dash, vs, ve);
    k->items++;
    k->dash = next;
    return 1;
}

/* A field of the message or a list whose value runs to the input's end (a
 * last -COMMENT or -ROUTE): a node here, as the loop would make it.
 * Returns 1 if it is read. */
static ALWAYS_INLINE int fused_last_value(fused_cursor *k, int in_compound, int at_tail)
{
    if (in_compound || at_tail || k->c || k->lim != k->lx->len || k->lim <= k->dash + 32)
        return 0;
    const char *kw = k->b + k->dash + 1;
    field_scan t;
    if (!scan_field_to_end(kw, k->lim - k->dash - 1, 8, &t) || !is_basic(t.e) ||
        is_bracket(t.e) || t.id == DICT_ID_TITLE ||
        !grammar_plain_child(k->fr, k->items, t.e, t.id) || k->ptr == k->plim)
        return 0;
    fused_node(&k->ptr, &k->tail, kw, &t, k->dash, ADEXP_BASIC);
    k->items++;
    k->dash += 1 + t.de;
    return 1;
}

/* Stop in compound in (its row irow), which fused_nested opened in the
 * compound open: the run goes on in it, then in the outer one
 * (run_stop_nested); at the field scanned if the scan took it (took). */
static ALWAYS_INLINE fused_step fused_stop_in(fused_cursor *k, adexp_field *in,
                                              const uint64_t *irow, int took)
{
    k->fs->outer = k->c;
    k->fs->outer_row = k->crow;
    k->c = in;
    k->crow = irow;
    if (took)
        return FUSED_SCANNED;
    k->fs->resumed = 1;
    lexer_resume(k->lx, k->dash, NULL);
    return FUSED_RESUMED;
}

/* A field in a compound in the compound open (fused_nested) whose keyword
 * is no hot one (-VALPERIOD after -FLBLOCK's subfields): scan_cold_keyword
 * at kw (avail bytes readable), its scan in fs->cold, as fused_cold_field
 * takes it (no bracket). Out of line, its scan in fs rather than in the
 * loop's: the loop keeps its registers. Returns 0, or 1 + the separators
 * before the keyword. */
__attribute__((target(AVX2_TARGET), noinline)) static int
nested_cold(fused_state *fs, const char *kw, size_t avail, unsigned kmax)
{
    int at = scan_cold_keyword(kw, avail, kmax, &fs->cold);
    return at && !is_bracket(fs->cold.e) ? at : 0;
}

/* A compound in the compound open (x, its subfield: -REFDATA -SENDER -FAC X,
 * or -FLBLOCK -FL F100 in a list's -AIRSPACE), in the message or a list:
 * read here with its basic subfields, a cold one too (nested_cold); then
 * the loop goes on in the compound open from the field that ends it,
 * scanned again (FUSED_NEXT): in a list element, any field the inner
 * compound does not allow ends it (it stands in a compound, not in the
 * list: grammar_in_compound), and the element decides on that field as on
 * any other. Its nodes are not the open compound's own: counted in
 * fs->nested, mended where that one ends (fused_mend). */
__attribute__((target(AVX2_TARGET))) static ALWAYS_INLINE fused_step
fused_nested(fused_cursor *k, field_scan *x, int in_compound, int at_tail)
{
    if (in_compound || at_tail || !is_compound(x->e) || k->ptr == k->plim ||
        k->fr->depth + 1 >= k->p->opt.max_depth)
        return FUSED_SCANNED;
    fused_state *fs = k->fs;
    if (fs->nested_c != k->c) {
        fused_mend(fs);
        fs->nested_c = k->c;
    }
    adexp_field *in = fused_node(&k->ptr, &k->tail, k->b + k->dash + 1, x, k->dash, ADEXP_COMPOUND);
    const uint64_t *irow = subfield_row(x->e);
    k->tail = &in->child;
    k->dash += 1 + x->de;
    for (;;) {
        const char *kw = k->b + k->dash + 1;
        int took = k->lim > k->dash + 32 && scan_field_avx2(kw, k->b + k->lim, 8, x);
        if (took && row_allows(irow, x->e)) {
            if (!is_basic(x->e) || k->ptr == k->plim)
                return fused_stop_in(k, in, irow, took);
            fused_node(&k->ptr, &k->tail, kw, x, k->dash, ADEXP_BASIC);
            k->dash += 1 + x->de;
            continue;
        }
        int at;
        if (__builtin_expect(!took && k->lim > k->dash + 32, 0) &&
            (at = nested_cold(fs, kw, k->lim - k->dash - 1, k->p->opt.max_keyword_len))) {
            if (!row_allows(irow, fs->cold.e))
                break;         /* it ends here, the loop reads it again */
            if (!is_basic(fs->cold.e) || k->ptr == k->plim)
                return fused_stop_in(k, in, irow, 0);
            fused_node(&k->ptr, &k->tail, kw + at - 1, &fs->cold, k->dash, ADEXP_BASIC);
            k->dash += 1 + fs->cold.de;
            continue;
        }
        /* it ends at a field it does not take (its compound is no list:
         * no stray subfield stays), at -END or at -BEGIN of a list it has
         * no place for; the token path reads anything else */
        const dict_entry *le;
        if (!took || (is_bracket(x->e) && (!(le = fused_list_name(kw, x)) ||
                                           (x->id == DICT_ID_BEGIN && row_allows(irow, le)))))
            return fused_stop_in(k, in, irow, took);
        break;
    }
    close_compound(in, k->ptr, &k->tail);
    fs->nested += in->nchildren;
    return FUSED_NEXT;
}

/* Field x, which the compound open does not end at: in a list element,
 * a basic one that is no ELEMENT of the list is the element's local
 * (fused_ends_compound, grammar_in_compound: -RFL after a -PT's subfields,
 * S31 4.3.7 example 3), its node here as a subfield's; 0 for the token
 * path (-BEGIN of a list the element keeps, a compound). */
static ALWAYS_INLINE int fused_local(fused_cursor *k, const field_scan *x)
{
    if (k->fr->kind != FR_LIST || is_bracket(x->e) || !is_basic(x->e) || k->ptr == k->plim)
        return 0;
    fused_subfield(k, x, k->b + k->dash + 1);
    return 1;
}

/* Whether the loop stopped where the input's last 32 bytes start, not at
 * the bound nor at a field the scan does not take: it goes on from the
 * '-' at k->dash (fs->dash) in their padded copy (run_fused_tail). */
static ALWAYS_INLINE int fused_at_tail(const fused_cursor *k)
{
    if (!(k->lim <= k->dash + 32 && k->dash < k->lim && k->lim == k->lx->len))
        return 0;
    k->fs->dash = k->dash;
    return 1;
}

/* The bound, or a field the scan does not take: the lexer reads it (also if
 * it is the first, so that the lexer does not scan it again; the loop ends
 * before the bound only at a scan). */
static ALWAYS_INLINE void fused_resume(const fused_cursor *k, int at_tail)
{
    fused_state *fs = k->fs;
    fs->resumed = k->dash != k->lx->pos ||
                  (at_tail ? k->dash < k->lim : k->lim > k->dash + 32);
    if (fs->resumed)
        lexer_resume(k->lx, k->dash, NULL);
}

/* A field x the run does not take as it stands: the lexer's token. x is
 * copied, so that the loop's scan need not live in memory. */
static ALWAYS_INLINE void fused_resume_at_token(const fused_cursor *k, field_scan x)
{
    k->fs->resumed = 1;
    lexer_resume(k->lx, k->dash, &x);
}

/* The loop's end: its state back into fs, and the count of a compound
 * read in the compound open mended if that has ended. */
static ALWAYS_INLINE void fused_leave(const fused_cursor *k)
{
    fused_state *fs = k->fs;
    if (fs->nested_c && fs->nested_c != k->c && fs->nested_c != fs->outer)
        fused_mend(fs);
    fused_save(k);
}

/* The run's loop (run_loop, which has taken all the lexer's tokens, the
 * last of them ending at a field's '-') going on in the input itself: the
 * fields that scan_field_avx2 takes and the run would read as they are
 * become nodes with no token in between, by case: a field while a compound
 * is open (fused_subfield, fused_ends_compound, and a compound in it:
 * fused_nested), the hot basic field, the start and end of a list opened
 * here (fused_list_bracket), a plain child (fused_plain_child, and
 * fused_usual_compound for a -PT, -ESTDATA or -GEO); out of the main loop,
 * a keyword that is no hot one (fused_cold_field), a -MSGTXT group and a
 * last value that runs to the input's end. Each case reads the field or
 * leaves it, unchanged, to the token path (goto scanned). The input's last
 * 32 bytes are read from a padded copy (at_tail,
 * run_fused_tail). At any other field, or at max_message_size, the lexer
 * resumes at its '-' (with the field as its token if the scan took it) and
 * run_loop reads on from that token, or from a list or compound this loop
 * left open (run_items, run_stop_nested): it makes the same decisions in
 * the same order, and this loop has changed nothing for that field yet. */
static void run_fused_tail(const adexp_parser *p, const frame *f, fused_state *fs,
                           int in_compound, const uint64_t *row);

__attribute__((target(AVX2_TARGET))) static ALWAYS_INLINE void
fused_loop(const adexp_parser *p, const frame *f, fused_state *fs, int in_compound,
           const uint64_t *row, int at_tail)
{
    lexer *lx = fs->lx;
    fused_cursor k = {
        .p = p, .f = f, .fr = fs->list ? &fs->lf : f, .fs = fs, .lx = lx, .b = lx->buf,
        .lim = lx->len < fs->bound ? lx->len : fs->bound,
        .dash = at_tail ? fs->dash : lx->pos,
        .ptr = fs->ptr, .plim = fs->lim, .tail = fs->tail, .c = fs->c, .items = fs->items,
        .crow = fs->crow, .list = fs->list,
    };
    field_scan x;
    tail_window tw;
    if (at_tail)
        tail_window_fill(&tw, k.b, k.dash, k.lim);
    /* max_keyword_len >= 8 */
again:
    while ((at_tail ? k.dash < k.lim : k.lim > k.dash + 32) &&
           scan_field_avx2(fused_window(&k, &tw, at_tail),
                           at_tail ? fused_window(&k, &tw, at_tail) + 32 : k.b + k.lim, 8, &x)) {
        const char *kw = k.b + k.dash + 1;
        const dict_entry *e = x.e;
        if (k.c) {
            if (row_allows(k.crow, e)) {
                if (!is_basic(e) || k.ptr == k.plim)
                    goto nested;
                fused_subfield(&k, &x, kw);
                continue;
            }
            if (!fused_ends_compound(&k, &x, &tw, in_compound, at_tail))
                goto kept;
        }
        if (!in_compound && grammar_plain_basic(e, x.id)) {
            if (k.ptr == k.plim)
                goto scanned;
            fused_hot_basic(&k, &x, kw, at_tail);
            continue;
        }
        if (!in_compound && is_bracket(e)) {
            if (!fused_list_bracket(&k, &x, kw, &tw, at_tail))
                goto scanned;
            continue;
        }
        if (!fused_plain_child(&k, &x, kw, in_compound, row, at_tail))
            goto scanned;
    }
    /* the cases out of the loop (gcc told that they read the field: it then
     * keeps the loop's registers best, measured) */
    if (__builtin_expect(fused_msgtxt(&k, in_compound, at_tail), 1))
        goto again;
    if (__builtin_expect(fused_cold_field(&k, in_compound, row, at_tail), 1))
        goto again;
    if (__builtin_expect(fused_last_value(&k, in_compound, at_tail), 1))
        goto again;
    if (!at_tail && fused_at_tail(&k)) {
        fused_save(&k);        /* on in the copy of the input's last bytes */
        run_fused_tail(p, f, fs, in_compound, row);
        return;
    }
    fused_resume(&k, at_tail);
    goto out;
nested:
    switch (fused_nested(&k, &x, in_compound, at_tail)) {
    case FUSED_NEXT:
        goto again;
    case FUSED_RESUMED:
        goto out;
    default:
        break;
    }
kept:
    if (__builtin_expect(fused_local(&k, &x), 1))
        goto again;
scanned:        /* a field the run does not take as it stands: its token */
    fused_resume_at_token(&k, x);
out:
    fused_leave(&k);
}

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

/* The typed view as one JSON line per message (--format view): the view's
 * fields under lower-case keys, raw values folded as in the tree, decoded
 * companions beside them (_ft, _m, _utc, _deg), and every other top-level
 * field under "other". The table of doc/json.md's "Typed view" is the schema. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "adexp.h"
#include "decode_words.h"
#include "dict_ids.h"
#include "field_word.h"
#include "internal.h"
#include "json_names.h"
#include "json_out.h"
#include "json_avx2.h"
#include "json_runs.h"
#include "json_string.h"
#include "select.h"

/* The quick paths (the usual single fields, route points and members of
 * "other" written without the general calls) are on; outputs_test.c
 * compiles this file again with VIEW_QUICK 0 and compares the two. */
#ifndef VIEW_QUICK
#define VIEW_QUICK 1
#endif

/* ------------------------------------------------------------ writing */

typedef struct vw {
    adexp_buf *b;
    int ok;
    int comma;                 /* the next key or element needs a ',' */
    int trim;                  /* the selection names fields */
    const adexp_select *sel;
    adexp_slice eobd;          /* for eobt_utc */
    int eobd_ok;               /* eobd is a date of 6 digits: checked once for both */
} vw;

/* Room for n more bytes at the end of the output: a pointer to them, or
 * NULL (and the writer fails). Reserving a member's worst case once and
 * then writing without checks keeps the view as cheap as the tree's JSON. */
static inline char *room(vw *w, size_t n)
{
    return adexp_buf_room_ok(w->b, n, &w->ok);
}

static void commit(vw *w, char *end)
{
    w->b->len = (size_t)(end - w->b->data);
}

static inline void raw(vw *w, const char *s, size_t n)
{
    char *o = room(w, n);
    if (!o)
        return;
    if (n == 1)
        *o = *s;
    else
        memcpy(o, s, n);
    commit(w, o + n);
}
#define RAW(w, lit) raw((w), (lit), sizeof(lit) - 1)

/* json_string folded, its first run inline (as json.c writes values): most
 * of the view's strings are one run. A long one (a route, a text) is
 * written 32 bytes at a time where the CPU can, as json.c writes it. */
#define LONG_STRING 32
static ALWAYS_INLINE char *put_str(char *o, adexp_slice s)
{
#if JSON_AVX2
    if (VIEW_QUICK && s.len >= LONG_STRING && cpu_has_avx2())
        return json_string_avx2(o, s, 1);
#endif
    return string_first(o, s, 1, JSON_RUN, json_string_rest);
}

/* put_str, and a value of 4 to 16 plain bytes (no space, nothing to
 * escape: most values) copied and checked in one vector (plain_short), as
 * json.c writes its quick fields, or of 1 to 3 plain bytes checked by their
 * classes. Room: json_string_room(s.len). */
static ALWAYS_INLINE char *put_val(char *o, adexp_slice s)
{
    size_t n = s.len;
    const unsigned char *p = (const unsigned char *)s.ptr;
    if (VIEW_QUICK && n - 4 <= 12 && plain_short(p, n, o + 1)) {
        o[0] = '"';
        o[n + 1] = '"';
        return o + n + 2;
    }
    if (VIEW_QUICK && n - 1 < 3) {   /* 1 to 3 bytes: the first, middle and last */
        unsigned char a = p[0], m = p[n >> 1], z = p[n - 1];
        if ((json_class[a] | json_class[m] | json_class[z]) == J_PLAIN) {
            o[0] = '"';
            o[1] = (char)a;
            o[1 + (n >> 1)] = (char)m;
            o[n] = (char)z;
            o[n + 1] = '"';
            return o + n + 2;
        }
    }
    return put_str(o, s);
}

/* put_val for values that often hold single spaces (ATSRT, DCT, EETFIR:
 * words), 1 to 16 bytes checked in one vector with their spaces
 * (plain_upto16) rather than twice. */
static ALWAYS_INLINE char *put_words(char *o, adexp_slice s)
{
    size_t n = s.len;
    if (VIEW_QUICK && n - 1 < 16 && plain_upto16((const unsigned char *)s.ptr, n, o + 1) > 0) {
        o[0] = '"';
        o[n + 1] = '"';
        return o + n + 2;
    }
    return put_str(o, s);
}

#if JSON_AVX2
/* put_words by json.c's quick value (the same bytes), 1 to 16 bytes with
 * their spaces checked in one vector by a shuffle. */
AVX2_INLINE char *put_words_avx2(char *o, adexp_slice s)
{
    if (plain_upto16_avx2((const unsigned char *)s.ptr, s.len, o + 1) == 1) {
        o[0] = '"';
        o[s.len + 1] = '"';
        return o + s.len + 2;
    }
    return put_val(o, s);
}

/* Whether the string rule with fold writes p[0..n), 16 < n <= 32, as it
 * is (plain bytes, and single spaces between plain bytes, as
 * plain_upto16 has it), copied to o: two vectors that overlap, their
 * lanes' tests joined in one mask of the n bytes. */
AVX2_INLINE int plain_upto32_avx2(const unsigned char *p, size_t n, char *o)
{
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + n - 16));
    _mm_storeu_si128((__m128i *)(void *)o, a);
    _mm_storeu_si128((__m128i *)(void *)(o + n - 16), b);
    unsigned shift = 32 - (unsigned)n;   /* b's lanes before byte 16 are a's too */
    uint32_t np = not_plain_avx2(a) | (not_plain_avx2(b) >> shift) << 16;
    const __m128i sp = _mm_set1_epi8(' ');
    uint32_t spaces = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(a, sp)) |
                      ((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(b, sp)) >> shift) << 16;
    uint32_t ends = 1u | 1u << (n - 1);
    return !(np & ~spaces) && !(spaces & (spaces >> 1 | ends));
}

/* put_words_avx2 for the values of ATSRT and DCT (a route's segment, of
 * three words: often 17 to 20 bytes), 17 to 32 bytes in two vectors. */
AVX2_INLINE char *put_segment_avx2(char *o, adexp_slice s)
{
    if (s.len - 17 < 16 && plain_upto32_avx2((const unsigned char *)s.ptr, s.len, o + 1)) {
        o[0] = '"';
        o[s.len + 1] = '"';
        return o + s.len + 2;
    }
    return put_words_avx2(o, s);
}
#endif

/* s as a JSON string, folded: the library's one rule (json_string.h), by
 * put_val's quick paths first. */
static void str(vw *w, adexp_slice s)
{
    size_t need = json_string_room(s.len);
    char *o = need == SIZE_MAX ? NULL : room(w, need);
    if (o)
        commit(w, put_val(o, s));
    else
        w->ok = 0;
}

static void sep(vw *w)
{
    if (w->comma)
        RAW(w, ",");
    w->comma = 1;
}

/* A key with its ',' before and its ':' after: ",\"arcid\":", in a
 * fixed-size array so that it is copied by one fixed-size move: writing a
 * key reserves KEY_ROOM bytes. */
#define KEY_ROOM 24
typedef struct key_text {
    char s[KEY_ROOM + 1];
    uint8_t len;
} key_text;
#define KT(lit) {lit, sizeof(lit) - 1}
_Static_assert(sizeof(",\"sender_fac_deg\":") <= KEY_ROOM, "the longest key fits");

/* Most values are short: one of at most SHORT_ITEM bytes is given the
 * room of the longest such (with a key and two bytes more), so that its
 * room is one compare with a constant, json_string_room's arithmetic
 * left to the longer ones. */
#define SHORT_ITEM 16
#define SHORT_ITEM_ROOM (json_string_room(SHORT_ITEM) + KEY_ROOM + 2)

/* The key at o (room: KEY_ROOM), with its comma when one is due. */
static inline char *put_key(vw *w, char *o, const key_text *k)
{
    size_t skip = !w->comma;
    memcpy(o, k->s + skip, KEY_ROOM);
    w->comma = 1;
    return o + k->len - skip;
}

static void key(vw *w, const key_text *k)
{
    char *o = room(w, KEY_ROOM);
    if (o)
        commit(w, put_key(w, o, k));
}

static void open_(vw *w, const char *c)
{
    raw(w, c, 1);
    w->comma = 0;
}

static void close_(vw *w, const char *c)
{
    raw(w, c, 1);
    w->comma = 1;
}

static void put_u64(vw *w, uint64_t v)
{
    char tmp[20];
    raw(w, tmp, (size_t)(adexp_json_u64_at(tmp, v) - tmp));
}

/* ------------------------------------------------------------ values */

/* How a member decodes. */
enum dec { D_NONE = 0, D_LEVEL, D_DATETIME, D_DATE, D_TIME, D_COORD, D_EOBT, D_SFL, D_RFL };

/* The value type a level's decoding reads: SFL's with its A or B, RFL's
 * with its point. */
static const adexp_value_type level_type[] = {
    [D_LEVEL] = ADEXP_VALUE_LEVEL, [D_SFL] = ADEXP_VALUE_LEVEL_AB,
    [D_RFL] = ADEXP_VALUE_LEVEL_POINT,
};

static const adexp_value_type when_type[] = {
    [D_DATETIME] = ADEXP_VALUE_DATETIME, [D_DATE] = ADEXP_VALUE_DATE,
    [D_TIME] = ADEXP_VALUE_TIME, [D_EOBT] = ADEXP_VALUE_TIME,
};

/* A member's keys: its own, then with _ft, _m, _utc, _deg. */
typedef struct keys {
    key_text k[5];
} keys;
#define KEYS(name) \
    {{KT(",\"" name "\":"), KT(",\"" name "_ft\":"), KT(",\"" name "_m\":"), \
      KT(",\"" name "_utc\":"), KT(",\"" name "_deg\":")}}

static const key_text k_rfl_point = KT(",\"rfl_point\":");

/* The companions of v at o (room: COMPANION_ROOM, and for an RFL the room
 * of v as a string again, for its point: value_room). */
#define COMPANION_ROOM (3 * (KEY_ROOM + SEL_TEXT_BUF + 2))
static char *companions(vw *w, char *o, const keys *ks, adexp_slice v, int dec)
{
    char *e;
    switch (dec) {
    case D_LEVEL: case D_SFL: case D_RFL: {
        int type = level_type[dec];
        char *at = put_key(w, o, &ks->k[SUF_FT]);
        if (!(e = sel_companion_at(at, SUF_FT, type, v, (adexp_slice){0})))
            return o;
        o = e;
        if (v.ptr[0] == 'S' || v.ptr[0] == 'M')
            o = sel_companion_at(put_key(w, o, &ks->k[SUF_M]), SUF_M, type, v, (adexp_slice){0});
        adexp_level l;
        adexp_slice point;
        if (dec == D_RFL && adexp_decode_rfl(v, &l, &point) && point.ptr)
            o = put_val(put_key(w, o, &k_rfl_point), point);
        return o;
    }
    case D_COORD: {
        char *at = put_key(w, o, &ks->k[SUF_DEG]);
        return (e = sel_companion_at(at, SUF_DEG, 0, v, (adexp_slice){0})) ? e : o;
    }
    case D_DATETIME: case D_DATE: case D_TIME: case D_EOBT: {
        char *at = put_key(w, o, &ks->k[SUF_UTC]);
        *at = '"';
        e = sel_companion_at(at + 1, SUF_UTC, when_type[dec], v,
                             dec == D_EOBT ? w->eobd : (adexp_slice){0});
        if (!e)
            return o;
        *e++ = '"';
        return e;
    }
    default:
        return o;
    }
}

/* The room of value v as a string, and for an RFL of its point too. */
static inline size_t value_room(size_t len, int dec)
{
    size_t r = json_string_room(len);
    return dec == D_RFL && r <= SIZE_MAX / 2 ? 2 * r : r;
}

/* "k": value and its companions, if the value is there: one reservation
 * for all three pieces. */
static void member(vw *w, const keys *ks, adexp_slice v, int dec)
{
    if (!v.ptr)
        return;
    size_t need = v.len <= SHORT_ITEM ? value_room(SHORT_ITEM, D_RFL) : value_room(v.len, dec);
    if (need > SIZE_MAX - KEY_ROOM - COMPANION_ROOM) {
        w->ok = 0;
        return;
    }
    char *o = room(w, KEY_ROOM + need + COMPANION_ROOM);
    if (!o)
        return;
    o = put_val(put_key(w, o, &ks->k[0]), v);
    if (dec != D_NONE && v.len)
        o = companions(w, o, ks, v, dec);
    commit(w, o);
}

/* ------------------------------------------------------------ the view */

typedef struct single {
    keys ks;
    adexp_slice kw;
    uint16_t off;              /* offset of its slice in adexp_view */
    uint8_t dec;
} single;

#define S(k, KW, d) {KEYS(#k), {#KW, sizeof(#KW) - 1}, offsetof(adexp_view, k), d}
static const single singles[] = {
    S(arcid, ARCID, D_NONE), S(adep, ADEP, D_NONE), S(ades, ADES, D_NONE),
    S(arctyp, ARCTYP, D_NONE), S(eobt, EOBT, D_EOBT), S(eobd, EOBD, D_DATE),
    S(ifplid, IFPLID, D_NONE), S(ssrcode, SSRCODE, D_NONE), S(fltrul, FLTRUL, D_NONE),
    S(flttyp, FLTTYP, D_NONE), S(wktrc, WKTRC, D_NONE), S(ceqpt, CEQPT, D_NONE),
    S(seqpt, SEQPT, D_NONE), S(rfl, RFL, D_RFL), S(route, ROUTE, D_NONE),
    S(altrnt1, ALTRNT1, D_NONE), S(altrnt2, ALTRNT2, D_NONE), S(reg, REG, D_NONE),
    S(opr, OPR, D_NONE), S(pbn, PBN, D_NONE), S(msgtxt, MSGTXT, D_NONE),
    S(comment, COMMENT, D_NONE), S(filtim, FILTIM, D_NONE), S(orgnid, ORGNID, D_NONE),
    S(ctot, CTOT, D_TIME), S(altnz, ALTNZ, D_NONE),
};
#undef S

static int kept(const vw *w, adexp_slice kw)
{
    return !w->trim || sel_keeps_keyword(w->sel, kw);
}

#define NSINGLES (sizeof singles / sizeof *singles)
/* The value of single field e, if the walk met it (met: its r->singles). */
static adexp_slice single_value(const adexp_view *v, uint64_t met, const single *e)
{
    static const adexp_slice none;
    const adexp_slice *slot = (const adexp_slice *)(const void *)((const char *)v + e->off);
    return met & VIEW_SINGLE_BIT(e->off) ? *slot : none;
}

/* A single field's member at o, if it is there (and kept), with the room
 * up to *end checked: o, its end, or NULL when out of memory. After the
 * head, a member always has its comma. Inlined with a constant e (see
 * put_singles), its key, its decoding and its slice's place are constants. */
/* The room of any member of at most SHORT_SINGLE bytes (its key, its
 * value, an RFL's twice for its point, and its companions), which a short
 * value checks at once. */
#define SHORT_SINGLE 64
#define SHORT_SINGLE_ROOM (KEY_ROOM + COMPANION_ROOM + value_room(SHORT_SINGLE, D_RFL))
static ALWAYS_INLINE char *single_member(vw *w, char *o, char **end, const single *e,
                                         adexp_slice val, int trim)
{
    if (!val.ptr || (trim && !sel_keeps_keyword(w->sel, e->kw)))
        return o;
    if (val.len > SHORT_SINGLE || (size_t)(*end - o) < SHORT_SINGLE_ROOM) {
        size_t r = value_room(val.len, e->dec);
        if (r > SIZE_MAX - KEY_ROOM - COMPANION_ROOM) {
            w->ok = 0;
            return NULL;
        }
        r += KEY_ROOM + COMPANION_ROOM;
        if ((size_t)(*end - o) < r) {
            commit(w, o);
            if (!(o = room(w, r)))
                return NULL;
            *end = w->b->data + w->b->cap;
        }
    }
    memcpy(o, e->ks.k[0].s, KEY_ROOM);
    o = put_val(o + e->ks.k[0].len, val);
    if (e->dec == D_NONE || !val.len)
        return o;
    /* the usual companions inline (as sel_companion_at decodes them) */
    const key_text *ft = &e->ks.k[SUF_FT], *utc = &e->ks.k[SUF_UTC];
    if (VIEW_QUICK && (e->dec == D_LEVEL || e->dec == D_RFL) && val.len == 4 &&
        (val.ptr[0] == 'F' || val.ptr[0] == 'A')) {
        memcpy(o, ft->s, KEY_ROOM);
        char *c = dw_feet(o + ft->len, val.ptr);
        return c ? c : o;
    }
    if (VIEW_QUICK && e->dec == D_DATE && val.len == 6) {
        if (!(e->off == offsetof(adexp_view, eobd) ? w->eobd_ok : dw_date_ok(val.ptr)))
            return o;
        memcpy(o, utc->s, KEY_ROOM);
        char *c = o + utc->len;
        *c++ = '"';
        c = dw_iso_date(c, val.ptr);
        *c++ = '"';
        return c;
    }
    if (VIEW_QUICK && e->dec == D_EOBT && val.len == 4 && w->eobd_ok && dw_time_ok(val.ptr)) {
        memcpy(o, utc->s, KEY_ROOM);
        char *c = o + utc->len;
        *c++ = '"';
        c = dw_iso_day_time(c, w->eobd.ptr, val.ptr);
        *c++ = '"';
        return c;
    }
    return companions(w, o, &e->ks, val, e->dec);
}

/* The single fields, in singles' order, each by its own single_member
 * (unrolled: an absent field costs a test), the cursor in a local; trim is
 * a constant in each of the two copies. */
static ALWAYS_INLINE void put_singles_trim(vw *w, const adexp_view *v, uint64_t met, int trim)
{
    adexp_buf *b = w->b;
    char *o = b->data + b->len, *end = b->data + b->cap;
#pragma GCC unroll 32
    for (size_t i = 0; i < NSINGLES; i++)
        if (!(o = single_member(w, o, &end, &singles[i], single_value(v, met, &singles[i]), trim)))
            return;
    commit(w, o);
}

static void put_singles(vw *w, const adexp_view *v, uint64_t met)
{
    if (w->trim)
        put_singles_trim(w, v, met, 1);
    else
        put_singles_trim(w, v, met, 0);
}

/* The subfields' keys, one table for all the view's objects. */
enum { K_PTID, K_FL, K_ETO, K_TO, K_SFL, K_LATTD, K_LONGTD, K_GEOID, K_SENDER,
       K_RECVR, K_SEQNUM, K_STO, K_TFL, K_COUNT };
static const keys sub_keys[K_COUNT] = {
    KEYS("ptid"), KEYS("fl"), KEYS("eto"), KEYS("to"), KEYS("sfl"), KEYS("lattd"),
    KEYS("longtd"), KEYS("geoid"), KEYS("sender_fac"), KEYS("recvr_fac"),
    KEYS("seqnum"), KEYS("sto"), KEYS("tfl"),
};
#define SUB(w, k, v, d) member((w), &sub_keys[k], (v), (d))

static const key_text
    k_addr = KT(",\"addr\":"), k_eetfir = KT(",\"eetfir\":"), k_speed = KT(",\"speed\":"),
    k_regul = KT(",\"regul\":"), k_rtepts = KT(",\"rtepts\":"), k_estdata = KT(",\"estdata\":"),
    k_geo = KT(",\"geo\":"), k_refdata = KT(",\"refdata\":"), k_msgref = KT(",\"msgref\":"),
    k_coordata = KT(",\"coordata\":"), k_cfl = KT(",\"cfl\":"), k_other = KT(",\"other\":"),
    k_errors = KT(",\"errors\":"), k_value = KT(",\"value\":");
#define KW(lit) ((adexp_slice){lit, sizeof(lit) - 1})

/* The top-level fields of kind k, in order, one a call (NULL at the end):
 * the chain of those the walk kept, or when there were more, those found
 * again. */
typedef struct kind_iter {
    const adexp_view_fields *r;
    unsigned k, i;
    const adexp_field *f;
} kind_iter;

static kind_iter kinds_of(const adexp_view_fields *r, unsigned k)
{
    return (kind_iter){r, k, r->kinds >> k & 1 ? r->head[k] : VIEW_END, r->first};
}

static inline const adexp_field *next_of(kind_iter *it)
{
    const adexp_view_fields *r = it->r;
    if (r->n <= VIEW_REPEATS) {
        if (it->i == VIEW_END)
            return NULL;
        const adexp_field *f = r->rep[it->i];
        it->i = r->next[it->i];
        return f;
    }
    for (const adexp_field *f = it->f; f; f = f->next)
        if (adexp_view_kind(f) == it->k) {
            it->f = f->next;
            return f;
        }
    return it->f = NULL;
}

/* Whether the fields hold a kind k, and the selection keeps it. */
static int has_kind(const vw *w, const adexp_view_fields *r, unsigned k, adexp_slice kw)
{
    return (r->kinds >> k & 1) && kept(w, kw);
}

/* A list of strings being written: the cursor in a local, the key and
 * its '[' written before the first. */
typedef struct str_list {
    char *o, *end;
    const key_text *k;
    int open;
} str_list;

/* A string's writer: put_val, put_words or their AVX2 kin. */
typedef char *str_fn(char *o, adexp_slice s);

/* s as the list's next string by put, its comma and room for the ']': 0
 * when the writer failed. */
static ALWAYS_INLINE int str_item(vw *w, str_list *l, adexp_slice s, str_fn *put)
{
    if (s.len > SHORT_ITEM || (size_t)(l->end - l->o) < SHORT_ITEM_ROOM) {
        size_t r = json_string_room(s.len);
        if (r > SIZE_MAX - KEY_ROOM - 2) {
            w->ok = 0;
            return 0;
        }
        if ((size_t)(l->end - l->o) < r + KEY_ROOM + 2) {
            commit(w, l->o);
            if (!(l->o = room(w, r + KEY_ROOM + 2)))
                return 0;
            l->end = w->b->data + w->b->cap;
        }
    }
    char *o = l->o;
    if (l->open) {
        *o++ = ',';
    } else {
        o = put_key(w, o, l->k);
        *o++ = '[';
        l->open = 1;
    }
    l->o = put(o, s);
    return 1;
}

/* The values of the fields of kind k (EETFIR, SPEED, REGUL), or for ADDR
 * its lists' FAC items, as a list of strings: the view's arrays, read
 * from the fields. EETFIR's values, which hold spaces, by words, the
 * others by val. */
static ALWAYS_INLINE void strings_with(vw *w, const key_text *k, const adexp_view_fields *r,
                                       unsigned kind, str_fn *words, str_fn *val)
{
    adexp_buf *b = w->b;
    str_list l = {b->data + b->len, b->data + b->cap, k, 0};
    kind_iter it = kinds_of(r, kind);
    for (const adexp_field *f; (f = next_of(&it));) {
        if (kind != VIEW_ADDR) {
            if (!str_item(w, &l, f->value, kind == VIEW_EETFIR ? words : val))
                return;
            continue;
        }
        for (const adexp_field *c = f->child; c; c = c->next)
            if (c->dict_id == DICT_ID_FAC && !str_item(w, &l, c->value, val))
                return;
    }
    if (l.open)
        *l.o++ = ']';
    commit(w, l.o);
}

static void strings_of_sse2(vw *w, const key_text *k, const adexp_view_fields *r, unsigned kind)
{
    strings_with(w, k, r, kind, put_words, put_val);
}

#if JSON_AVX2
__attribute__((target(AVX2_TARGET))) static void
strings_of_avx2(vw *w, const key_text *k, const adexp_view_fields *r, unsigned kind)
{
    strings_with(w, k, r, kind, put_words_avx2, put_words_avx2);
}
#endif

/* The list of kind k, if the fields hold it (the call only then). */
static inline void strings(vw *w, const key_text *k, adexp_slice kw, const adexp_view_fields *r,
                           unsigned kind)
{
    if (!has_kind(w, r, kind, kw))
        return;
#if JSON_AVX2
    if (VIEW_QUICK && cpu_has_avx2()) {
        strings_of_avx2(w, k, r, kind);
        return;
    }
#endif
    strings_of_sse2(w, k, r, kind);
}

/* The usual route point, {"ptid":..,"fl":"F390","fl_ft":39000,"eto":..,
 * "eto_utc":".."}, and ESTDATA's usual item, written without the members'
 * calls: the F or A level and the date-time are written as they are once
 * their companions decoded (which checks that they are digits). A
 * message's points mostly share their ETO's day and often their level: the
 * last level found valid and its feet, and the last day and its
 * "YYYY-MM-", are kept (dw_point_memo), so that a point with the same bytes
 * checks only its time. Any other shape takes the members' path. */
#define POINT_FIXED 128

/* The usual point's fixed text, each piece copied whole (32 bytes, one or
 * two moves) with its values then stored over it. */
static const char fl_text[32] = ",\"fl\":\"....\",\"fl_ft\":";
static const char eto_text[32] = ",\"eto\":\"............\",\"eto_utc\":";
_Static_assert(sizeof ",\"eto\":\"............\",\"eto_utc\":" == 33, "eto_text is full");

/* A piece of fixed text (32 bytes) at o: one move where the CPU has AVX2
 * (copy_head_avx2), two else. */
typedef void copy32_fn(char *o, const void *text);

static ALWAYS_INLINE void copy32(char *o, const void *text)
{
    memcpy(o, text, 32);
}

/* ',"fl":"F390","fl_ft":39000' of a level that decoded (the memo's). */
static ALWAYS_INLINE char *put_fl_with(char *o, const char *fl, const dw_point_memo *pm,
                                       copy32_fn *copy)
{
    copy(o, fl_text);
    memcpy(o + 7, fl, 4);
    memcpy(o + 21, &pm->feet, 8);
    return o + 21 + pm->feet_len;
}

static ALWAYS_INLINE char *put_usual_fl(char *o, const char *fl, const dw_point_memo *pm)
{
    return put_fl_with(o, fl, pm, copy32);
}

/* ',"eto":"..","eto_utc":"' and the memo's "YYYY-MM-" of a date-time that
 * decoded: the end, where its "DDThh:mm:ssZ" goes. */
static ALWAYS_INLINE char *put_eto_head(char *o, const char *e, const dw_point_memo *pm,
                                        copy32_fn *copy)
{
    copy(o, eto_text);
    memcpy(o + 8, e, 12);
    o[32] = '"';
    memcpy(o + 33, &pm->iso_head, 8);
    return o + 41;
}

/* ',"eto":"..","eto_utc":".."' of a date-time that decoded (the memo's). */
static ALWAYS_INLINE char *put_usual_eto(char *o, const char *e, const dw_point_memo *pm)
{
    o = dw_iso12_tail(put_eto_head(o, e, pm, copy32), e);
    *o++ = '"';
    return o;
}

/* The subfields of a usual -PT item, -PTID -FL -ETO (the shape the view's
 * build takes at once, adexp_view_point), in s, if its level (4 bytes)
 * decodes and its date-time is of 12 bytes; else 0. */
static ALWAYS_INLINE int usual_item(const adexp_field *item, const adexp_field *s[3],
                                    dw_point_memo *pm)
{
    const adexp_field *a = item->child, *b, *c;
    if (VIEW_QUICK && field_point_whole(item)) {   /* the parser's word for the shape */
        b = a + 1;
        c = a + 2;
    } else if (item->nchildren != 3 || !a || !(b = a->next) || !(c = b->next) ||
               a->dict_id != DICT_ID_PTID || b->dict_id != DICT_ID_FL ||
               c->dict_id != DICT_ID_ETO || !a->value.ptr)
        return 0;
    if (((b->value.len ^ 4) | (c->value.len ^ 12)) || !dw_memo_level(b->value.ptr, pm))
        return 0;
    s[0] = a;
    s[1] = b;
    s[2] = c;
    return 1;
}

/* The pieces of the usual point that differ by CPU: its PTID's string,
 * and ',"eto":"..","eto_utc":".."' of a date-time that decodes (checked
 * against the memo, which it updates: NULL if not). */
typedef char *ptid_fn(char *o, adexp_slice s);
typedef char *eto_fn(char *o, const char *e, dw_point_memo *pm);

static ALWAYS_INLINE char *put_eto(char *o, const char *e, dw_point_memo *pm)
{
    int d = dw_memo_day(e, pm);
    if (!d || (d == 1 && !dw_time12_ok(e)))
        return NULL;
    return put_usual_eto(o, e, pm);
}

#if JSON_AVX2
/* put_eto with the date-time in one vector: its time checked and its ISO
 * text shuffled from it. */
AVX2_INLINE char *put_eto_avx2(char *o, const char *e, dw_point_memo *pm)
{
    int d = dw_memo_day(e, pm);
    __m128i x = dw_datetime_vec(e);
    if (!d || (d == 1 && !dw_time12_ok_avx2(x, e)))
        return NULL;
    o = dw_iso12_tail_avx2(put_eto_head(o, e, pm, copy_head_avx2), x);
    *o++ = '"';
    return o;
}
#endif

/* The usual points from item on, of one RTEPTS list, the cursor in a
 * local: the first -PT item that is not one, or NULL at the list's end
 * (and when the writer failed). A point whose date-time does not decode
 * is written over by the members' path. */
static ALWAYS_INLINE const adexp_field *usual_points_with(vw *w, const adexp_field *item,
                                                          dw_point_memo *pm, ptid_fn *ptid,
                                                          copy32_fn *copy, eto_fn *eto)
{
    adexp_buf *b = w->b;
    char *o = b->data + b->len, *end = b->data + b->cap;
    unsigned comma = (unsigned)w->comma;
    const adexp_field *s[3];
    for (; item; item = item->next) {
        if (item->dict_id != DICT_ID_PT)
            continue;
        if (!usual_item(item, s, pm))
            break;
        if (s[0]->value.len > SHORT_ITEM ||
            (size_t)(end - o) < json_string_room(SHORT_ITEM) + POINT_FIXED) {
            size_t need = json_string_room(s[0]->value.len);
            if (need > SIZE_MAX - POINT_FIXED) {
                w->ok = 0;
                return NULL;
            }
            if ((size_t)(end - o) < need + POINT_FIXED) {
                commit(w, o);
                if (!(o = room(w, need + POINT_FIXED)))
                    return NULL;
                end = b->data + b->cap;
            }
        }
        char *at = o, *e;
        *o = ',';
        o += comma;
        memcpy(o, "{\"ptid\":", 8);
        o = put_fl_with(ptid(o + 8, s[0]->value), s[1]->value.ptr, pm, copy);
        if (!(e = eto(o, s[2]->value.ptr, pm))) {
            o = at;
            break;
        }
        o = e;
        *o++ = '}';
        comma = 1;
    }
    commit(w, o);
    w->comma = (int)comma;
    return item;
}

static const adexp_field *usual_points_sse2(vw *w, const adexp_field *item, dw_point_memo *pm)
{
    return usual_points_with(w, item, pm, put_val, copy32, put_eto);
}

#if JSON_AVX2
__attribute__((target(AVX2_TARGET))) static const adexp_field *
usual_points_avx2(vw *w, const adexp_field *item, dw_point_memo *pm)
{
    return usual_points_with(w, item, pm, put_words_avx2, copy_head_avx2, put_eto_avx2);
}
#endif

static const adexp_field *usual_points(vw *w, const adexp_field *item, dw_point_memo *pm)
{
#if JSON_AVX2
    if (cpu_has_avx2())
        return usual_points_avx2(w, item, pm);
#endif
    return usual_points_sse2(w, item, pm);
}

/* ESTDATA's usual item, {"ptid":..,"eto":..,"eto_utc":..,"fl":..,
 * "fl_ft":..}, as the usual point's, its date-time by eto and its fixed
 * text by copy (the CPU's pieces): written, or 0 (nothing written). */
static ALWAYS_INLINE int usual_estdata(vw *w, const adexp_estdata *e, dw_point_memo *pm,
                                       eto_fn *eto, copy32_fn *copy)
{
    if (!e->ptid.ptr || ((e->fl.len ^ 4) | (e->eto.len ^ 12)) || e->sfl.ptr ||
        !dw_memo_level(e->fl.ptr, pm))
        return 0;
    size_t need = json_string_room(e->ptid.len <= SHORT_ITEM ? SHORT_ITEM : e->ptid.len);
    char *o = need > SIZE_MAX - POINT_FIXED ? NULL : room(w, need + POINT_FIXED);
    if (!o) {
        w->ok = 0;
        return 1;
    }
    *o = ',';
    o += w->comma;
    memcpy(o, "{\"ptid\":", 8);
    if (!(o = eto(put_val(o + 8, e->ptid), e->eto.ptr, pm)))
        return 0;
    o = put_fl_with(o, e->fl.ptr, pm, copy);
    *o++ = '}';
    commit(w, o);
    w->comma = 1;
    return 1;
}

/* A point of a PTID of at most SHORT_ITEM bytes and of at most an FL and
 * an ETO of the usual point's forms (4 and 12 bytes that decode), in any
 * order and beside subfields the view does not hold, written as the usual
 * point is (its memo's too), or 0 (nothing written). */
static int parts_point(vw *w, const adexp_point *p, dw_point_memo *pm)
{
    if (!p->ptid.ptr || p->ptid.len > SHORT_ITEM || p->to.ptr || p->sfl.ptr || p->lattd.ptr ||
        p->longtd.ptr || (p->fl.ptr && (p->fl.len != 4 || !dw_memo_level(p->fl.ptr, pm))) ||
        (p->eto.ptr && p->eto.len != 12))
        return 0;
    char *o = room(w, json_string_room(SHORT_ITEM) + POINT_FIXED);
    if (!o)
        return 1;
    *o = ',';
    o += w->comma;
    memcpy(o, "{\"ptid\":", 8);
    o = put_val(o + 8, p->ptid);
    if (p->fl.ptr)
        o = put_usual_fl(o, p->fl.ptr, pm);
    if (p->eto.ptr && !(o = put_eto(o, p->eto.ptr, pm)))
        return 0;
    *o++ = '}';
    commit(w, o);
    w->comma = 1;
    return 1;
}

/* The -PT items of the RTEPTS lists, each as a point (adexp_view_point). */
static void points(vw *w, const adexp_view_fields *r, dw_point_memo *memo)
{
    if (!has_kind(w, r, VIEW_RTEPTS, KW("RTEPTS")))
        return;
    dw_point_memo pm = *memo;
    int open = 0;
    kind_iter it = kinds_of(r, VIEW_RTEPTS);
    for (const adexp_field *f; w->ok && (f = next_of(&it));) {
        for (const adexp_field *item = f->child; item && w->ok; item = item->next) {
            if (item->dict_id != DICT_ID_PT)
                continue;
            if (!open) {
                key(w, &k_rtepts);
                open_(w, "[");
                open = 1;
            }
            if (VIEW_QUICK && !(item = usual_points(w, item, &pm)))
                break;
            adexp_point p;
            adexp_view_point(&p, item);
            if (VIEW_QUICK && parts_point(w, &p, &pm))
                continue;
            sep(w);
            open_(w, "{");
            SUB(w, K_PTID, p.ptid, D_NONE);
            SUB(w, K_FL, p.fl, D_LEVEL);
            SUB(w, K_ETO, p.eto, D_DATETIME);
            SUB(w, K_TO, p.to, D_TIME);
            SUB(w, K_SFL, p.sfl, D_SFL);
            SUB(w, K_LATTD, p.lattd, D_COORD);
            SUB(w, K_LONGTD, p.longtd, D_COORD);
            close_(w, "}");
        }
    }
    if (open)
        close_(w, "]");
    *memo = pm;
}

/* The ESTDATA fields, each as an item, by the CPU's pieces. */
static ALWAYS_INLINE void estdata_with(vw *w, const adexp_view_fields *r, dw_point_memo *memo,
                                       eto_fn *eto, copy32_fn *copy)
{
    dw_point_memo pm = *memo;
    key(w, &k_estdata);
    open_(w, "[");
    kind_iter it = kinds_of(r, VIEW_ESTDATA);
    for (const adexp_field *f; (f = next_of(&it));) {
        adexp_estdata e;
        adexp_view_estdata(&e, f);
        if (VIEW_QUICK && usual_estdata(w, &e, &pm, eto, copy))
            continue;
        sep(w);
        open_(w, "{");
        SUB(w, K_PTID, e.ptid, D_NONE);
        SUB(w, K_ETO, e.eto, D_DATETIME);
        SUB(w, K_FL, e.fl, D_LEVEL);
        SUB(w, K_SFL, e.sfl, D_SFL);
        close_(w, "}");
    }
    close_(w, "]");
}

static void estdata_sse2(vw *w, const adexp_view_fields *r, dw_point_memo *memo)
{
    estdata_with(w, r, memo, put_eto, copy32);
}

#if JSON_AVX2
__attribute__((target(AVX2_TARGET))) static void
estdata_avx2(vw *w, const adexp_view_fields *r, dw_point_memo *memo)
{
    estdata_with(w, r, memo, put_eto_avx2, copy_head_avx2);
}
#endif

static void estdata(vw *w, const adexp_view_fields *r, dw_point_memo *memo)
{
    if (!has_kind(w, r, VIEW_ESTDATA, KW("ESTDATA")))
        return;
#if JSON_AVX2
    if (VIEW_QUICK && cpu_has_avx2()) {
        estdata_avx2(w, r, memo);
        return;
    }
#endif
    estdata_sse2(w, r, memo);
}

/* GEO's usual item, {"geoid":..,"lattd":..,"lattd_deg":..,"longtd":..,
 * "longtd_deg":..}, when its three subfields are there, each of at most
 * SHORT_ITEM bytes, and both coordinates decode: written in one
 * reservation without the members' calls, or 0 (nothing written). */
#define GEO_FIXED (64 + 2 * SEL_TEXT_BUF)
static int usual_geo(vw *w, const adexp_geo *g)
{
    if (!g->geoid.ptr || !g->lattd.ptr || !g->longtd.ptr || g->geoid.len > SHORT_ITEM ||
        g->lattd.len > SHORT_ITEM || g->longtd.len > SHORT_ITEM)
        return 0;
    char *o = room(w, 3 * json_string_room(SHORT_ITEM) + GEO_FIXED);
    if (!o)
        return 1;
    *o = ',';
    o += w->comma;
    memcpy(o, "{\"geoid\":", 9);
    o = put_val(o + 9, g->geoid);
    memcpy(o, ",\"lattd\":", 9);
    o = put_val(o + 9, g->lattd);
    memcpy(o, ",\"lattd_deg\":", 13);
    if (!(o = sel_deg_at(o + 13, g->lattd)))
        return 0;
    memcpy(o, ",\"longtd\":", 10);
    o = put_val(o + 10, g->longtd);
    memcpy(o, ",\"longtd_deg\":", 14);
    if (!(o = sel_deg_at(o + 14, g->longtd)))
        return 0;
    *o++ = '}';
    commit(w, o);
    w->comma = 1;
    return 1;
}

static void geo(vw *w, const adexp_view_fields *r)
{
    if (!has_kind(w, r, VIEW_GEO, KW("GEO")))
        return;
    key(w, &k_geo);
    open_(w, "[");
    kind_iter it = kinds_of(r, VIEW_GEO);
    for (const adexp_field *f; (f = next_of(&it));) {
        adexp_geo g;
        adexp_view_geo(&g, f);
        if (VIEW_QUICK && usual_geo(w, &g))
            continue;
        sep(w);
        open_(w, "{");
        SUB(w, K_GEOID, g.geoid, D_NONE);
        SUB(w, K_LATTD, g.lattd, D_COORD);
        SUB(w, K_LONGTD, g.longtd, D_COORD);
        close_(w, "}");
    }
    close_(w, "]");
}

/* REFDATA's or MSGREF's usual object, its three parts there and each of
 * at most SHORT_ITEM bytes, in one reservation without the members'
 * calls: written, or 0 (nothing written). */
#define REF_FIXED 64
static int usual_ref(vw *w, const key_text *k, const adexp_ref *r)
{
    if (!r->sender_fac.ptr || !r->recvr_fac.ptr || !r->seqnum.ptr ||
        r->sender_fac.len > SHORT_ITEM || r->recvr_fac.len > SHORT_ITEM ||
        r->seqnum.len > SHORT_ITEM)
        return 0;
    char *o = room(w, KEY_ROOM + 3 * json_string_room(SHORT_ITEM) + REF_FIXED);
    if (!o)
        return 1;
    o = put_key(w, o, k);
    memcpy(o, "{\"sender_fac\":", 14);
    o = put_val(o + 14, r->sender_fac);
    memcpy(o, ",\"recvr_fac\":", 13);
    o = put_val(o + 13, r->recvr_fac);
    memcpy(o, ",\"seqnum\":", 10);
    o = put_val(o + 10, r->seqnum);
    *o++ = '}';
    commit(w, o);
    return 1;
}

static void ref(vw *w, const key_text *k, adexp_slice kw, int has, const adexp_ref *r)
{
    if (!has || !kept(w, kw))
        return;
    if (VIEW_QUICK && usual_ref(w, k, r))
        return;
    key(w, k);
    open_(w, "{");
    SUB(w, K_SENDER, r->sender_fac, D_NONE);
    SUB(w, K_RECVR, r->recvr_fac, D_NONE);
    SUB(w, K_SEQNUM, r->seqnum, D_NONE);
    close_(w, "}");
}

static void coordata(vw *w, const adexp_view *v)
{
    if (!v->has_coordata || !kept(w, KW("COORDATA")))
        return;
    const adexp_coordata *c = &v->coordata;
    key(w, &k_coordata);
    open_(w, "{");
    SUB(w, K_PTID, c->ptid, D_NONE);
    SUB(w, K_TO, c->to, D_TIME);
    SUB(w, K_STO, c->sto, D_TIME);
    SUB(w, K_TFL, c->tfl, D_LEVEL);
    SUB(w, K_SFL, c->sfl, D_SFL);
    close_(w, "}");
}

/* CFL: its level, and the point and SFL it may hold (or a plain level,
 * -CFL F190, as the specification's examples write it). */
static void cfl(vw *w, const adexp_view *v)
{
    if (!v->has_cfl || !kept(w, KW("CFL")))
        return;
    const adexp_cfl *c = &v->cfl;
    key(w, &k_cfl);
    open_(w, "{");
    SUB(w, K_FL, c->fl, D_LEVEL);
    SUB(w, K_PTID, c->ptid, D_NONE);
    SUB(w, K_SFL, c->sfl, D_SFL);
    close_(w, "}");
}

/* ------------------------------------------------------------ other */

/* Pointer windows for grouping siblings by keyword: a stack block, and a
 * heap block for a level that does not fit. */
#define SCRATCH 256
typedef struct scratch {
    const adexp_field **v;
    size_t used, cap;
    adexp_allocator a;
} scratch;

/* Known keywords by dictionary id (the table is in byte order of
 * keywords), unknown ones after them by bytes; equal keywords by offset. */
static int before(const adexp_field *a, const adexp_field *b)
{
    if (a->dict_id != b->dict_id)
        return a->dict_id < b->dict_id;
    if (a->dict_id == ADEXP_DICT_NONE) {
        size_t n = a->keyword.len < b->keyword.len ? a->keyword.len : b->keyword.len;
        int c = memcmp(a->keyword.ptr, b->keyword.ptr, n);
        if (c || a->keyword.len != b->keyword.len)
            return c ? c < 0 : a->keyword.len < b->keyword.len;
    }
    return a->offset < b->offset;
}

static int by_keyword(const void *pa, const void *pb)
{
    const adexp_field *a = *(const adexp_field *const *)pa, *b = *(const adexp_field *const *)pb;
    return before(a, b) ? -1 : before(b, a);
}

/* The usual few known fields in before's order, by their keywords: the
 * distinct dictionary ids (a few: ATSRT and DCT repeated among the others)
 * ordered, then each field placed after those of smaller ids, in list
 * order, which is offset order within an id. Returns 0 (v unchanged) for
 * a level with an unknown keyword, more than SORT_KINDS keywords, or
 * offsets of one keyword out of list order. */
#define SORT_FIELDS 64
#define SORT_KINDS 16
static int sort_known(const adexp_field **v, size_t n)
{
    uint16_t id[SORT_KINDS];
    size_t at[SORT_KINDS], last[SORT_KINDS];
    uint8_t kind[SORT_FIELDS], order[SORT_KINDS], slot[32] = {0};   /* kinds + 1 by id & 31 */
    size_t d = 0;
    for (size_t i = 0; i < n; i++) {
        const adexp_field *f = v[i];
        unsigned t = slot[f->dict_id & 31];
        size_t k = 0;
        if (t && id[t - 1] == f->dict_id)
            k = t - 1;
        else
            while (k < d && id[k] != f->dict_id)
                k++;
        if (k == d) {
            if (d == SORT_KINDS || f->dict_id == ADEXP_DICT_NONE)
                return 0;
            id[d] = f->dict_id;
            at[d] = 0;
            if (!t)
                slot[f->dict_id & 31] = (uint8_t)(d + 1);
            d++;
        } else if (f->offset < last[k]) {
            return 0;
        }
        last[k] = f->offset;
        at[k]++;
        kind[i] = (uint8_t)k;
    }
    for (size_t k = 0; k < d; k++) {   /* the kinds by id */
        size_t j = k;
        for (; j > 0 && id[order[j - 1]] > id[k]; j--)
            order[j] = order[j - 1];
        order[j] = (uint8_t)k;
    }
    size_t pos = 0, moved = 0;
    for (size_t r = 0; r < d; r++) {   /* counts to first places */
        size_t c = at[order[r]];
        moved |= order[r] != r;
        at[order[r]] = pos;
        pos += c;
    }
    if (!moved && (d == 1 || n == d))
        return 1;
    const adexp_field *placed[SORT_FIELDS];
    for (size_t i = 0; i < n; i++)
        placed[at[kind[i]]++] = v[i];
    memcpy(v, placed, n * sizeof *v);
    return 1;
}

/* Insertion sort for the usual few fields, qsort beyond. */
static void sort_fields(const adexp_field **v, size_t n)
{
    if (n > SORT_FIELDS) {
        qsort(v, n, sizeof *v, by_keyword);
        return;
    }
    if (sort_known(v, n))
        return;
    for (size_t i = 1; i < n; i++) {
        const adexp_field *f = v[i];
        size_t j = i;
        for (; j > 0 && before(f, v[j - 1]); j--)
            v[j] = v[j - 1];
        v[j] = f;
    }
}

static int same_keyword(const adexp_field *a, const adexp_field *b)
{
    if (a->dict_id != ADEXP_DICT_NONE || b->dict_id != ADEXP_DICT_NONE)
        return a->dict_id == b->dict_id;
    return a->keyword.len == b->keyword.len &&
           memcmp(a->keyword.ptr, b->keyword.ptr, a->keyword.len) == 0;
}

static void put_value(vw *w, const adexp_field *f, scratch *s);

/* Whether f is one string: not a list, not a compound with subfields. */
static int one_string(const adexp_field *f)
{
    return f->kind != ADEXP_LIST && !(f->kind == ADEXP_COMPOUND && f->child);
}

static void kw_key(vw *w, adexp_slice kw)
{
    sep(w);
    str(w, kw);
    RAW(w, ":");
}

/* "KEYWORD":"value" of a field that is one string (not a list, not a
 * compound with subfields), in one reservation: the usual member of
 * "other"; braced, the list item {"KEYWORD":"value"} (inlined: braced
 * is a constant at each call). Returns 0, writing nothing, for others. */
static ALWAYS_INLINE int one_member(vw *w, const adexp_field *f, int braced)
{
    if (!one_string(f))
        return 0;
    size_t extra = braced ? 4 : 2;
    size_t nk = json_string_room(f->keyword.len), nv = json_string_room(f->value.len);
    char *o = nk == SIZE_MAX || nv == SIZE_MAX || nk > SIZE_MAX - extra - nv ? NULL
              : room(w, nk + nv + extra);
    if (!o) {
        w->ok = 0;
        return 1;
    }
    if (w->comma)
        *o++ = ',';
    if (braced)
        *o++ = '{';
    o = put_val(o, f->keyword);
    *o++ = ':';
    o = put_val(o, f->value);
    if (braced)
        *o++ = '}';
    commit(w, o);
    w->comma = 1;
    return 1;
}

/* "KEYWORD":["value",...] of n > 1 fields of one keyword that are each
 * one string (ATSRT, DCT repeated), in one pass, the room checked a value
 * at a time. Returns 0, having written nothing, if any of them is not. */
static ALWAYS_INLINE int one_array_with(vw *w, const adexp_field *const *v, size_t n,
                                         str_fn *words)
{
    adexp_buf *b = w->b;
    size_t start = b->len, nk = json_string_room(v[0]->keyword.len);
    char *o = nk > SIZE_MAX - 8 ? NULL : room(w, nk + 8);
    if (!o) {
        w->ok = 0;
        return 1;
    }
    if (w->comma)
        *o++ = ',';
    o = put_val(o, v[0]->keyword);
    o[0] = ':', o[1] = '[';
    o += 2;
    char *end = b->data + b->cap;
    for (size_t i = 0; i < n; i++) {   /* each value, its comma and the ']' */
        const adexp_field *f = v[i];
        if (!one_string(f)) {
            b->len = start;
            return 0;
        }
        if (f->value.len > SHORT_ITEM || (size_t)(end - o) < SHORT_ITEM_ROOM) {
            size_t r = json_string_room(f->value.len);
            if (r > SIZE_MAX - 2) {
                w->ok = 0;
                return 1;
            }
            if ((size_t)(end - o) < r + 2) {
                commit(w, o);
                if (!(o = room(w, r + 2)))
                    return 1;
                end = b->data + b->cap;
            }
        }
        *o = ',';
        o = words(o + (i > 0), f->value);
    }
    *o++ = ']';
    commit(w, o);
    w->comma = 1;
    return 1;
}

static int one_array_sse2(vw *w, const adexp_field *const *v, size_t n)
{
    return one_array_with(w, v, n, put_words);
}

#if JSON_AVX2
__attribute__((target(AVX2_TARGET))) static int one_array_avx2(vw *w, const adexp_field *const *v,
                                                               size_t n)
{
    return one_array_with(w, v, n, put_segment_avx2);
}
#endif

/* one_array by the CPU's best copy. */
static int one_array(vw *w, const adexp_field *const *v, size_t n)
{
#if JSON_AVX2
    if (VIEW_QUICK && cpu_has_avx2())
        return one_array_avx2(w, v, n);
#endif
    return one_array_sse2(w, v, n);
}

/* One keyword's fields v[0..n) as a member: one occurrence a value, more
 * an array of values. */
static void put_group(vw *w, const adexp_field *const *v, size_t n, scratch *s)
{
    if (n == 1 ? one_member(w, v[0], 0) : one_array(w, v, n))
        return;
    kw_key(w, v[0]->keyword);
    if (n > 1)
        open_(w, "[");
    for (size_t k = 0; k < n; k++) {
        if (n > 1)
            sep(w);
        put_value(w, v[k], s);
    }
    if (n > 1)
        close_(w, "]");
}

/* The fields v[0..n) as object members, grouped by keyword (sorted as
 * before says). */
static void put_grouped(vw *w, const adexp_field **v, size_t n, scratch *s)
{
    sort_fields(v, n);
    for (size_t i = 0, j; i < n && w->ok; i = j) {
        for (j = i + 1; j < n && same_keyword(v[j], v[i]); j++)
            ;
        put_group(w, v + i, j - i, s);
    }
}

/* A window of n pointers: from the scratch, or its own block (*own). */
static const adexp_field **window(scratch *s, size_t n, int *own)
{
    *own = 0;
    if (s->cap - s->used >= n) {
        const adexp_field **v = s->v + s->used;
        s->used += n;
        return v;
    }
    *own = 1;
    return n > SIZE_MAX / sizeof *s->v ? NULL : s->a.alloc(s->a.ctx, n * sizeof *s->v);
}

static void release(scratch *s, const adexp_field **v, size_t n, int own)
{
    if (own)
        s->a.free(s->a.ctx, (void *)v, n * sizeof *v);
    else
        s->used -= n;
}

/* A compound of a few subfields of distinct known keywords, each one
 * string, and no text of its own (ORIGIN: FAC, NETWORKTYPE), as its object
 * in one reservation, the subfields by dictionary id. Returns 0, writing
 * nothing, for any other compound. */
#define SMALL_OBJECT 8
static int small_object(vw *w, const adexp_field *f)
{
    const adexp_field *v[SMALL_OBJECT];
    size_t n = 0, need = 2;
    if (f->value.len)
        return 0;
    for (const adexp_field *c = f->child; c && n < f->nchildren; c = c->next) {
        if (n == SMALL_OBJECT || c->dict_id == ADEXP_DICT_NONE || c->kind == ADEXP_LIST ||
            (c->kind == ADEXP_COMPOUND && c->child))
            return 0;
        size_t j = n++;
        for (; j > 0 && v[j - 1]->dict_id >= c->dict_id; j--)
            if (v[j - 1]->dict_id == c->dict_id)
                return 0;
            else
                v[j] = v[j - 1];
        v[j] = c;
        size_t nk = json_string_room(c->keyword.len), nv = json_string_room(c->value.len);
        if (nk == SIZE_MAX || nv == SIZE_MAX || nk > SIZE_MAX - 2 - nv ||
            need > SIZE_MAX - 2 - nv - nk)
            return 0;
        need += nk + nv + 2;
    }
    char *o = room(w, need);
    if (!o)
        return 1;
    *o++ = '{';
    for (size_t i = 0; i < n; i++) {
        *o = ',';
        o = put_val(o + (i > 0), v[i]->keyword);
        *o++ = ':';
        o = put_val(o, v[i]->value);
    }
    *o++ = '}';
    commit(w, o);
    w->comma = 1;
    return 1;
}

/* A compound's subfields as an object (its own text under "value"). */
static void put_compound(vw *w, const adexp_field *f, scratch *s)
{
    if (small_object(w, f))
        return;
    int own;
    const adexp_field **v = window(s, f->nchildren, &own);
    if (!v) {
        w->ok = 0;
        return;
    }
    size_t n = 0;
    for (const adexp_field *c = f->child; c && n < f->nchildren; c = c->next)
        v[n++] = c;
    open_(w, "{");
    if (f->value.len) {
        key(w, &k_value);
        str(w, f->value);
    }
    put_grouped(w, v, n, s);
    close_(w, "}");
    release(s, v, f->nchildren, own);
}

/* A basic field's value; a compound's object; a list's items, each a
 * one-member object {KEYWORD: value}. */
static void put_value(vw *w, const adexp_field *f, scratch *s)
{
    if (f->kind == ADEXP_LIST) {
        open_(w, "[");
        for (const adexp_field *c = f->child; c && w->ok; c = c->next) {
            if (VIEW_QUICK && one_member(w, c, 1))
                continue;
            sep(w);
            open_(w, "{");
            kw_key(w, c->keyword);
            put_value(w, c, s);
            close_(w, "}");
        }
        close_(w, "]");
    } else if (f->kind == ADEXP_COMPOUND && f->child) {
        put_compound(w, f, s);
    } else {
        str(w, f->value);
    }
}

/* "other" in the usual case: at most QUICK_OTHER fields, all of built-in
 * dictionary keywords (a keyword's fields in list order by offset). They
 * are sorted by one pass: each id's bit set in a bitmap of the dictionary
 * (its first field and the chain of the others kept by field index), then
 * the bits read in order, which is before's. A member of one string is
 * written from the keyword's json_names entry ('{"name":"KW"': '"KW"' at 8,
 * one fixed-size copy) and its value by put_val; the others go to put_group.
 * Returns 0, having written nothing, for any other level. */
#define QUICK_OTHER 64
#define ID_WORDS ((DICT_COUNT + 63) / 64)
#define KW_COPY (JSON_NAME_SIZE - 8)   /* '"KW"' and the padding after it */
_Static_assert(DICT_MAX_KEYWORD_LEN + 2 <= KW_COPY,
               "a keyword's quotes are copied from json_names at once");

/* The quotes of known keyword id at o, from its json_names entry (one
 * fixed-size copy; room: KW_COPY). */
static ALWAYS_INLINE char *put_kw(char *o, unsigned id, size_t len)
{
    memcpy(o, json_names[id].text + 8, KW_COPY);
    return o + len + 2;
}

/* small_object's compound (ORIGIN: FAC, NETWORKTYPE) as a member of
 * "other", "KW":{...}, when its own keyword is known (id) and each
 * subfield's keyword has its json_names entry and its value at most
 * SHORT_ITEM bytes: in one reservation of constant room, the keys copied
 * from json_names. Returns 0, having written nothing, for any other. */
static int quick_object(vw *w, const adexp_field *f, unsigned id)
{
    const adexp_field *v[SMALL_OBJECT];
    size_t n = 0;
    if (f->value.len || f->kind != ADEXP_COMPOUND)
        return 0;
    for (const adexp_field *c = f->child; c && n < f->nchildren; c = c->next) {
        unsigned cid = c->dict_id;
        if (n == SMALL_OBJECT || cid >= DICT_COUNT || json_names[cid].len != c->keyword.len + 10 ||
            c->kind == ADEXP_LIST || (c->kind == ADEXP_COMPOUND && c->child) ||
            c->value.len > SHORT_ITEM)
            return 0;
        size_t j = n++;
        for (; j > 0 && v[j - 1]->dict_id >= cid; j--)
            if (v[j - 1]->dict_id == cid)
                return 0;
            else
                v[j] = v[j - 1];
        v[j] = c;
    }
    if (!n)
        return 0;
    char *o = room(w, KW_COPY + 4 + SMALL_OBJECT * (KW_COPY + 2 + json_string_room(SHORT_ITEM)));
    if (!o)
        return 1;
    *o = ',';
    o = put_kw(o + w->comma, id, f->keyword.len);
    o[0] = ':';
    o[1] = '{';
    o += 2;
    for (size_t i = 0; i < n; i++) {
        *o = ',';
        o = put_kw(o + (i > 0), v[i]->dict_id, v[i]->keyword.len);
        *o++ = ':';
        o = put_val(o, v[i]->value);
    }
    *o++ = '}';
    commit(w, o);
    w->comma = 1;
    return 1;
}

static int quick_other(vw *w, const adexp_view_fields *r, scratch *s)
{
    const adexp_field *v[QUICK_OTHER];
    uint8_t first[DICT_COUNT], last[DICT_COUNT], next[QUICK_OTHER];   /* read where set */
    uint64_t ids[ID_WORDS];    /* read where words has its bit */
    unsigned words = 0;        /* bit j: ids[j] holds an id */
    _Static_assert(ID_WORDS <= 32, "the bitmap's words are bits of a word");
    size_t k = 0;
    if (r->nrest > VIEW_REST)
        return 0;
    for (size_t j = 0; j < r->nrest; j++) {
        const adexp_field *f = r->rest[j];
        unsigned id = f->dict_id;
        if (!kept(w, f->keyword))
            continue;
        if (id >= DICT_COUNT || k == QUICK_OTHER || json_names[id].len != f->keyword.len + 10)
            return 0;
        uint64_t bit = (uint64_t)1 << (id & 63);
        if (!(words >> (id >> 6) & 1)) {   /* the word's first id */
            words |= 1u << (id >> 6);
            ids[id >> 6] = 0;
        }
        if (ids[id >> 6] & bit) {
            if (f->offset < v[last[id]]->offset)
                return 0;
            next[last[id]] = (uint8_t)k;
        } else {
            ids[id >> 6] |= bit;
            first[id] = (uint8_t)k;
        }
        last[id] = (uint8_t)k;
        next[k] = 0;           /* none: the first field is never a next */
        v[k++] = f;
    }
    if (!k)
        return 1;
    key(w, &k_other);
    open_(w, "{");
    for (; words && w->ok; words &= words - 1) {
        unsigned word = (unsigned)__builtin_ctz(words);
        for (uint64_t bits = ids[word]; bits && w->ok; bits &= bits - 1) {
            unsigned id = word * 64 + (unsigned)__builtin_ctzll(bits);
            size_t i = first[id];
            const adexp_field *f = v[i];
            if (!next[i] && f->kind == ADEXP_COMPOUND && f->child && quick_object(w, f, id))
                continue;
            if (next[i] || !one_string(f)) {   /* an array, a compound or a list */
                const adexp_field *g[QUICK_OTHER];
                size_t n = 0;
                do
                    g[n++] = v[i];
                while ((i = next[i]) != 0);
                put_group(w, g, n, s);
                continue;
            }
            size_t r = json_string_room(f->value.len);
            char *o = r > SIZE_MAX - 2 - KW_COPY ? NULL : room(w, r + 2 + KW_COPY);
            if (!o) {
                w->ok = 0;
                break;
            }
            *o = ',';
            o = put_kw(o + w->comma, id, f->keyword.len);
            *o++ = ':';
            commit(w, put_val(o, f->value));
            w->comma = 1;
        }
    }
    close_(w, "}");
    return 1;
}

/* The top-level fields the view does not hold (the walk's rest) and the
 * selection keeps, under "other": in the scratch's free room, or when they
 * do not fit there, in a window of their count. */
static void other(vw *w, const adexp_msg *m, const adexp_view_fields *r, scratch *s)
{
    if (VIEW_QUICK && quick_other(w, r, s))
        return;
    int own;
    size_t n = r->nrest, k = 0;
    const adexp_field **v = window(s, n, &own);
    if (!v) {
        w->ok = 0;
        return;
    }
    if (n <= VIEW_REST)
        memcpy(v, r->rest, n * sizeof *v);
    else
        adexp_view_rest(m->fields, v);
    for (size_t i = 0; i < n; i++)
        if (kept(w, v[i]->keyword))
            v[k++] = v[i];
    if (!own) {   /* the scratch past the fields is for the compounds' windows */
        s->used -= n - k;
        n = k;
    }
    if (k) {
        key(w, &k_other);
        open_(w, "{");
        put_grouped(w, v, k, s);
        close_(w, "}");
    }
    release(s, v, n, own);
}

/* ------------------------------------------------------------ the line */

/* The errors, the envelope and the line's end of any line but the usual
 * one (errors() writes that): out of line, so that write_view's body stays
 * within what the compiler inlines whole. */
__attribute__((noinline)) static void errors_of(vw *w, const adexp_msg *m)
{
    key(w, &k_errors);
    open_(w, "[");
    for (size_t i = 0; i < m->nerrors; i++) {
        const adexp_error *e = &m->errors[i];
        const char *name = adexp_status_name(e->code);
        sep(w);
        RAW(w, "{\"code\":\"");
        raw(w, name, strlen(name));
        RAW(w, "\",\"message\":");
        str(w, (adexp_slice){e->message, strlen(e->message)});
        RAW(w, ",\"line\":");
        put_u64(w, e->line);
        RAW(w, ",\"column\":");
        put_u64(w, e->column);
        RAW(w, ",\"offset\":");
        put_u64(w, e->offset);
        RAW(w, "}");
    }
    RAW(w, "]");
    if (m->envelope.present && adexp_json_put_envelope(w->b, &m->envelope) != 0)
        w->ok = 0;
    RAW(w, "}\n");
}

/* The errors and the line's end: the usual end inline, any other out of
 * line. */
static inline void errors(vw *w, const adexp_msg *m)
{
    if (m->nerrors == 0 && w->comma && !m->envelope.present)
        RAW(w, ",\"errors\":[]}\n");
    else
        errors_of(w, m);
}


/* source, index, offset, title: in one reservation, as json.c's head. The
 * source is a name (src) or, quoted, its JSON string already written. */
static void head(vw *w, const adexp_msg *m, adexp_slice title, adexp_slice src, int quoted)
{
    size_t ns = quoted ? src.len : json_string_room(src.len), nt = json_string_room(title.len);
    char *o = ns == SIZE_MAX || nt == SIZE_MAX || ns + nt > SIZE_MAX - 128 ? NULL
              : room(w, ns + nt + 128);
    if (!o) {
        w->ok = 0;
        return;
    }
    memcpy(o, "{\"source\":", 10);
    if (quoted)
        o = (char *)memcpy(o + 10, src.ptr, src.len) + src.len;
    else
        o = adexp_json_name_is_utf8(src) ? json_string(o + 10, src, 0)
                                         : adexp_json_name_at(o + 10, src);
    memcpy(o, ",\"index\":", 9);
    o = adexp_json_u64_at(o + 9, m->index);
    memcpy(o, ",\"offset\":", 10);
    o = adexp_json_u64_at(o + 10, m->offset);
    memcpy(o, ",\"title\":", 9);
    o = title.ptr ? put_val(o + 9, title) : (memcpy(o + 9, "null", 4), o + 13);
    commit(w, o);
    w->comma = 1;
}

/* The view is read from the fields (msg->view is not read): its single
 * fields and the fields of its arrays by one walk, the arrays' items
 * straight from those fields. */
static adexp_status write_view(adexp_buf *out, const adexp_msg *msg, adexp_slice src,
                               int quoted, const adexp_select *sel)
{
    const adexp_field *stack[SCRATCH];
    scratch s = {stack, 0, SCRATCH, out->a};
    adexp_view v;              /* the walk fills its single fields, no array */
    v.has_refdata = v.has_msgref = v.has_coordata = v.has_cfl = 0;   /* their parts set whole */
    adexp_view_fields r;
    adexp_view_walk(&v, msg->fields, &r);   /* the single fields read by r.singles */
    static const adexp_slice none;
    adexp_slice title = r.singles & VIEW_SINGLE_BIT(offsetof(adexp_view, title)) ? v.title : none;
    adexp_slice eobd = r.singles & VIEW_SINGLE_BIT(offsetof(adexp_view, eobd)) ? v.eobd : none;
    int eobd_ok = eobd.len == 6 && dw_date_ok(eobd.ptr);
    vw w = {out, 1, 0, adexp_select_has_fields(sel), sel, eobd, eobd_ok};
    size_t start = out->len;
    head(&w, msg, title, src, quoted);
    put_singles(&w, &v, r.singles);
    strings(&w, &k_addr, KW("ADDR"), &r, VIEW_ADDR);
    strings(&w, &k_eetfir, KW("EETFIR"), &r, VIEW_EETFIR);
    strings(&w, &k_speed, KW("SPEED"), &r, VIEW_SPEED);
    strings(&w, &k_regul, KW("REGUL"), &r, VIEW_REGUL);
    dw_point_memo pm = {0, 0, 0, 0, 0};   /* ESTDATA's days and levels are mostly the points' */
    points(&w, &r, &pm);
    estdata(&w, &r, &pm);
    geo(&w, &r);
    ref(&w, &k_refdata, KW("REFDATA"), v.has_refdata, &v.refdata);
    ref(&w, &k_msgref, KW("MSGREF"), v.has_msgref, &v.msgref);
    coordata(&w, &v);
    cfl(&w, &v);
    other(&w, msg, &r, &s);
    errors(&w, msg);
    if (!w.ok) {
        out->len = start;
        return ADEXP_E_NOMEM;
    }
    return ADEXP_OK;
}

adexp_status adexp_view_json_write(adexp_buf *out, const adexp_msg *msg, const char *source,
                                   const adexp_select *sel)
{
    adexp_slice src = {source, strlen(source)};
    return write_view(out, msg, src, 0, sel);
}

adexp_status adexp_view_json_write_quoted(adexp_buf *out, const adexp_msg *msg,
                                          adexp_slice quoted, const adexp_select *sel)
{
    return write_view(out, msg, quoted, 1, sel);
}

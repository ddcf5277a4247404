/* The JSON writer's strings and names: every fast string writer against
 * json_string_scalar, the plain byte-by-byte rule, on random bytes of every
 * class (separators, quotes, backslashes, control bytes, valid and invalid
 * UTF-8, long runs), each input placed right before a page that cannot be
 * read, so that a read past its end crashes; the names table against the
 * dictionary; and the quick fields against the general path, with the
 * SSE2 pieces and the CPU's best (AVX2) alike. */
#define _DEFAULT_SOURCE 1   /* MAP_ANONYMOUS */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "adexp.h"
#include "dict.h"
#include "json_avx2.h"
#include "json_names.h"
#include "json_out.h"
#include "json_string.h"

typedef char *string_fn(char *o, adexp_slice s, int fold);

static const struct {
    const char *name;
    string_fn *fn;
} writers[] = {
    {"json_string", json_string},
    {"bytes", json_string_bytes},
    {"swar", json_string_swar},
#if JSON_STRING_SSE2
    {"sse2", json_string_sse2},
#endif
#if JSON_AVX2
    {"avx2", json_string_avx2},    /* skipped where the CPU has no AVX2 (main says so) */
#endif
};
#define NWRITERS (sizeof writers / sizeof writers[0])

/* A buffer of MAXLEN bytes whose end is followed by a PROT_NONE page. */
#define MAXLEN 4096
static unsigned char *guarded;

static unsigned char *guarded_end(void)
{
    if (!guarded) {
        long page = sysconf(_SC_PAGESIZE);
        size_t span = ((MAXLEN + (size_t)page - 1) / (size_t)page) * (size_t)page;
        void *m = mmap(NULL, span + (size_t)page, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        assert_true(m != MAP_FAILED);
        assert_int_equal(mprotect((char *)m + span, (size_t)page, PROT_NONE), 0);
        guarded = (unsigned char *)m + span;
    }
    return guarded;
}

/* Whether the CPU runs the AVX2 writers (as json.c asks). */
static int has_avx2(void)
{
#if JSON_AVX2
    return cpu_has_avx2();
#else
    return 0;
#endif
}

/* Every writer against the scalar one on s[0..n) (copied to end right
 * before the guard page), both with and without fold. The output buffers
 * are exactly json_string_room(n) long, so that a sanitizer sees a store
 * past the room. */
static void check_all(const unsigned char *s, size_t n)
{
    assert_true(n <= MAXLEN);
    unsigned char *in = guarded_end() - n;
    memcpy(in, s, n);
    adexp_slice sl = {(const char *)in, n};
    size_t room = json_string_room(n);
    char *want = malloc(room), *got = malloc(room);
    assert_non_null(want);
    assert_non_null(got);
    for (int fold = 0; fold < 2; fold++) {
        size_t wn = (size_t)(json_string_scalar(want, sl, fold) - want);
        assert_true(wn <= 6 * n + 2);
        for (size_t k = 0; k < NWRITERS; k++) {
            if (!strcmp(writers[k].name, "avx2") && !has_avx2())
                continue;
            size_t gn = (size_t)(writers[k].fn(got, sl, fold) - got);
            if (gn != wn || memcmp(got, want, wn) != 0) {
                print_error("%s, fold %d, %zu bytes: %.*s, want %.*s\n", writers[k].name,
                            fold, n, (int)gn, got, (int)wn, want);
                fail();
            }
        }
    }
    free(want);
    free(got);
}

static uint64_t rng = 20261201;

static uint64_t rnd(void)      /* splitmix64 */
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* One random piece at p (at most 8 bytes), its length. Plain bytes are the
 * most common, as in ADEXP values, so that runs are long enough to reach the
 * word and vector loops; every other class comes often. */
static size_t piece(unsigned char *p)
{
    static const unsigned char utf8[][4] = {
        {0xC3, 0xA9}, {0xE2, 0x82, 0xAC}, {0xF0, 0x9F, 0x98, 0x80}, /* valid */
        {0xC0, 0x80}, {0xED, 0xA0, 0x80}, {0xF4, 0x90, 0x80, 0x80}, /* overlong, surrogate, > 10FFFF */
        {0xE2, 0x82}, {0x80}, {0xFF}, {0xC3, 'A'},                 /* cut, stray, bad */
    };
    static const unsigned char ulen[] = {2, 3, 4, 2, 3, 4, 2, 1, 1, 2};
    unsigned r = (unsigned)(rnd() % 100);
    if (r < 55) {
        p[0] = (unsigned char)(0x21 + rnd() % 0x5F);   /* 0x21..0x7F */
        return 1;
    }
    if (r < 70) {
        p[0] = ' ';
        return 1;
    }
    if (r < 78) {
        static const unsigned char seps[] = {' ', '\t', '\n', '\r'};
        p[0] = seps[rnd() % 4];
        return 1;
    }
    if (r < 84) {
        p[0] = rnd() & 1 ? '"' : '\\';
        return 1;
    }
    if (r < 90) {
        p[0] = (unsigned char)(rnd() % 0x20);
        return 1;
    }
    if (r < 96) {
        size_t k = (size_t)(rnd() % (sizeof ulen));
        memcpy(p, utf8[k], ulen[k]);
        return ulen[k];
    }
    p[0] = (unsigned char)(0x80 + rnd() % 0x80);
    return 1;
}

static void test_random_strings(void **state)
{
    (void)state;
    unsigned char buf[MAXLEN];
    for (int t = 0; t < 20000; t++) {
        size_t want = (size_t)(t < 15000 ? rnd() % 80 : rnd() % 600), n = 0;
        while (n + 8 <= want)
            n += piece(buf + n);
        check_all(buf, n);
    }
}

/* Long runs of plain bytes with at most a few others: the vector loops'
 * whole blocks, their last partial block and the bytes after a block. */
static void test_long_runs(void **state)
{
    (void)state;
    unsigned char buf[MAXLEN + 8];
    for (int t = 0; t < 3000; t++) {
        size_t n = (size_t)(rnd() % MAXLEN);
        for (size_t i = 0; i < n; i++)
            buf[i] = rnd() % 8 ? (unsigned char)('A' + rnd() % 26) : ' ';
        for (int k = (int)(rnd() % 4); k > 0 && n; k--)
            piece(buf + rnd() % n);       /* may write past n: within buf */
        check_all(buf, n);
    }
}

/* Each length up to 70, a plain string with one other byte (or a pair of
 * spaces, or a space at either end) at each position. */
static void test_every_position(void **state)
{
    (void)state;
    static const unsigned char odd[] = {' ', '\t', '\n', '\r', '"', '\\', 0, 0x1F, 0x7F,
                                        0x80, 0xC3, 0xFF};
    unsigned char buf[80] = {0};
    for (size_t n = 0; n <= 70; n++) {
        for (size_t i = 0; i < n; i++)
            buf[i] = (unsigned char)('A' + i % 26);
        check_all(buf, n);
        for (size_t at = 0; at < n; at++)
            for (size_t k = 0; k < sizeof odd; k++) {
                unsigned char keep = buf[at];
                buf[at] = odd[k];
                check_all(buf, n);
                if (at + 1 < n) {
                    unsigned char next = buf[at + 1];
                    buf[at + 1] = ' ';
                    check_all(buf, n);
                    buf[at + 1] = next;
                }
                buf[at] = keep;
            }
    }
}

/* adexp_json_put_string is json_string with its room reserved. */
static void test_put_string(void **state)
{
    (void)state;
    adexp_buf b;
    adexp_buf_init(&b, NULL);
    const char *in = "  A\t\tB \"q\" \\ \x01 \xC3\xA9 \xFF  ";
    adexp_slice s = {in, strlen(in)};
    assert_true(adexp_json_put_string(&b, s, 1));
    const char *want = "\"A B \\\"q\\\" \\\\ \\u0001 \xC3\xA9 \\udcff\"";
    assert_int_equal(b.len, strlen(want));
    assert_memory_equal(b.data, want, b.len);
    adexp_buf_free(&b);
}

/* json_names[id] is '{"name":"KEYWORD"' for every dictionary entry. */
static void test_names_table(void **state)
{
    (void)state;
    for (size_t id = 0; id < dict_count; id++) {
        char want[JSON_NAME_SIZE] = {0};
        int n = snprintf(want, sizeof want, "{\"name\":\"%s\"", dict_table[id].keyword);
        assert_int_equal(json_names[id].len, n);
        assert_memory_equal(json_names[id].text, want, sizeof want);
    }
}

/* table[id] is '{"name":"KEYWORD' then tail for every entry, or len 0
 * where that is longer than JSON_HEAD_SIZE (written as the others are). */
static void check_heads(const json_head *table, const char *tail)
{
    for (size_t id = 0; id < dict_count; id++) {
        char want[64] = {0};
        int n = snprintf(want, sizeof want, "{\"name\":\"%s%s", dict_table[id].keyword, tail);
        if (n > JSON_HEAD_SIZE) {
            assert_int_equal(table[id].len, 0);
            continue;
        }
        assert_int_equal(table[id].len, n);
        assert_memory_equal(table[id].text, want, JSON_HEAD_SIZE);
    }
}

/* json_heads[id] is '{"name":"KEYWORD","value":"' for every entry. */
static void test_heads_table(void **state)
{
    (void)state;
    check_heads(json_heads, "\",\"value\":\"");
}

/* json_opens[id] is '{"name":"KEYWORD","fields":[' for every entry. */
static void test_opens_table(void **state)
{
    (void)state;
    check_heads(json_opens, "\",\"fields\":[");
}

/* m's line, written into a fresh buffer. */
static adexp_buf line_of(const adexp_msg *m)
{
    adexp_buf b;
    adexp_buf_init(&b, NULL);
    assert_int_equal(adexp_json_write(&b, m, "x"), ADEXP_OK);
    return b;
}

/* line_of with the SSE2 pieces of the fields' writer; the same bytes as
 * the CPU's best (AVX2 where it has it), which the caller has in best.
 * Without AVX2 both are the SSE2 pieces and this checks nothing more
 * (main says so). */
static void assert_sse2_is_best(const adexp_msg *m, const adexp_buf *best)
{
    adexp_json_use_avx2(0);
    adexp_buf b = line_of(m);
    adexp_json_use_avx2(1);
    assert_int_equal(b.len, best->len);
    assert_memory_equal(b.data, best->data, b.len);
    adexp_buf_free(&b);
}

/* Random bytes of every class, 0 to 20 of them, right before the guard
 * page (a multi-byte piece may be cut: bad UTF-8). */
static adexp_slice guarded_value(void)
{
    unsigned char buf[32];
    size_t want = (size_t)(rnd() % 21), n = 0;
    while (n < want)
        n += piece(buf + n);
    n = want < n ? want : n;
    unsigned char *v = guarded_end() - n;
    memcpy(v, buf, n);
    return (adexp_slice){(const char *)v, n};
}

/* Flags for a test field: none mostly, TEXT (not shown), the two the
 * output shows, and bits no flag uses yet. */
static uint8_t some_flags(void)
{
    static const uint8_t flags[] = {0, 0, 0, 0, ADEXP_FIELD_TEXT, ADEXP_FIELD_UNKNOWN,
                                    ADEXP_FIELD_MISPLACED, 0x08, 0x80,
                                    ADEXP_FIELD_TEXT | 0x40};
    return flags[rnd() % (sizeof flags / sizeof flags[0])];
}

/* The quick fields (basic, of the dictionary, a value of at most 16
 * bytes) and compounds opened at once against the general path, which
 * writes the same bytes for a field of no entry: random values of every
 * byte class, 0 to 20 bytes, each right before the guard page, as the
 * values of a top-level field and of a route point's subfields, with
 * random flags; the route point with a value or no subfields at times,
 * in a list or nested in another compound at times. */
static void test_quick_fields(void **state)
{
    (void)state;
    for (int t = 0; t < 20000; t++) {
        adexp_slice val = guarded_value();
        unsigned shape = (unsigned)(rnd() % 8);
        adexp_field eto = {.keyword = {"ETO", 3}, .value = val, .dict_id = DICT_ID_ETO,
                           .flags = some_flags()};
        adexp_field ptid = {.keyword = {"PTID", 4}, .value = val, .dict_id = DICT_ID_PTID,
                            .next = &eto, .flags = some_flags()};
        adexp_field pt = {.keyword = {"PT", 2}, .child = shape == 1 ? NULL : &ptid,
                          .value = shape == 2 ? val : (adexp_slice){NULL, 0},
                          .kind = ADEXP_COMPOUND, .dict_id = DICT_ID_PT, .flags = some_flags()};
        adexp_field fl = {.keyword = {"FL", 2}, .value = val, .dict_id = DICT_ID_FL,
                          .next = &pt, .flags = some_flags()};
        adexp_field outer = {.keyword = {shape == 3 ? "RTEPTS" : "ESTDATA", shape == 3 ? 6 : 7},
                             .child = &fl, .kind = shape == 3 ? ADEXP_LIST : ADEXP_COMPOUND,
                             .dict_id = shape == 3 ? DICT_ID_RTEPTS : DICT_ID_ESTDATA,
                             .flags = some_flags()};
        adexp_field arcid = {.keyword = {"ARCID", 5}, .value = val, .dict_id = DICT_ID_ARCID,
                             .next = shape >= 3 ? &outer : &pt, .flags = some_flags()};
        adexp_msg m = {.fields = &arcid};
        adexp_buf quick = line_of(&m);
        assert_sse2_is_best(&m, &quick);
        eto.dict_id = ptid.dict_id = pt.dict_id = arcid.dict_id = ADEXP_DICT_NONE;
        fl.dict_id = outer.dict_id = ADEXP_DICT_NONE;
        adexp_buf general = line_of(&m);
        assert_int_equal(quick.len, general.len);
        assert_memory_equal(quick.data, general.data, quick.len);
        adexp_buf_free(&quick);
        adexp_buf_free(&general);
    }
}

/* m's line with its fields' entries against the same with none. */
static void assert_quick_is_general(adexp_msg *m, adexp_field *fields, size_t n)
{
    adexp_buf quick = line_of(m);
    assert_sse2_is_best(m, &quick);
    uint16_t ids[8];
    for (size_t i = 0; i < n; i++) {
        ids[i] = fields[i].dict_id;
        fields[i].dict_id = ADEXP_DICT_NONE;
    }
    adexp_buf general = line_of(m);
    for (size_t i = 0; i < n; i++)
        fields[i].dict_id = ids[i];
    assert_int_equal(quick.len, general.len);
    assert_memory_equal(quick.data, general.data, quick.len);
    adexp_buf_free(&quick);
    adexp_buf_free(&general);
}

/* A value for a route point's subfield in a buffer of its own length (so
 * that a sanitizer sees a read past it): mostly 1 to 16 plain bytes, as
 * the points written straight have them; else 0 to 20 random pieces
 * (spaces, escapes, bad UTF-8, empty, too long), which are not. */
static adexp_slice point_value(unsigned char **mem)
{
    unsigned char buf[32];
    size_t n = 0;
    if (rnd() % 4) {
        n = 1 + (size_t)(rnd() % 16);
        for (size_t i = 0; i < n; i++)
            buf[i] = (unsigned char)(0x21 + rnd() % 0x5F);   /* '"' and '\\' too, at times */
    } else {
        size_t want = (size_t)(rnd() % 21);
        while (n < want)
            n += piece(buf + n);
        n = want < n ? want : n;
    }
    *mem = malloc(n ? n : 1);
    assert_non_null(*mem);
    memcpy(*mem, buf, n);
    return (adexp_slice){(const char *)*mem, n};
}

/* Route points (-PT -PTID -FL -ETO, which the writer takes straight when
 * their values are short and plain) against the general path: random
 * values, flags now and then, and points that are not of that shape: a
 * fourth subfield, one missing, two swapped, a subfield of no entry or of
 * another keyword's length, a point with a value; two points in a row, in
 * a list at times. */
static void test_route_points(void **state)
{
    (void)state;
    for (int t = 0; t < 20000; t++) {
        unsigned char *mem[5];
        unsigned shape = (unsigned)(rnd() % 12);
        uint8_t fl_flags = rnd() % 8 ? 0 : some_flags();
        adexp_field sfl = {.keyword = {"SFL", 3}, .value = point_value(&mem[0]),
                           .dict_id = DICT_ID_SFL};
        adexp_field eto = {.keyword = {"ETO", 3}, .value = point_value(&mem[1]),
                           .dict_id = DICT_ID_ETO, .next = shape == 1 ? &sfl : NULL};
        adexp_field fl = {.keyword = {"FL", shape == 5 ? 3 : 2}, .value = point_value(&mem[2]),
                          .dict_id = shape == 4 ? ADEXP_DICT_NONE : DICT_ID_FL,
                          .next = shape == 2 ? NULL : &eto, .flags = fl_flags};
        adexp_field ptid = {.keyword = {"PTID", 4}, .value = point_value(&mem[3]),
                            .dict_id = DICT_ID_PTID, .next = &fl};
        if (shape == 3) {          /* -FL -PTID -ETO */
            ptid.next = &eto;
            fl.next = &ptid;
        }
        adexp_field pt2 = {.keyword = {"PT", 2}, .child = &ptid, .kind = ADEXP_COMPOUND,
                           .dict_id = DICT_ID_PT};
        adexp_field pt = {.keyword = {"PT", 2}, .child = shape == 3 ? &fl : &ptid,
                          .value = shape == 6 ? point_value(&mem[4]) : (adexp_slice){NULL, 0},
                          .kind = ADEXP_COMPOUND, .dict_id = DICT_ID_PT,
                          .next = shape >= 8 ? &pt2 : NULL,
                          .flags = shape == 7 ? ADEXP_FIELD_TEXT : 0};
        adexp_field list = {.keyword = {"RTEPTS", 6}, .child = &pt, .kind = ADEXP_LIST,
                            .dict_id = DICT_ID_RTEPTS};
        adexp_field arcid = {.keyword = {"ARCID", 5}, .value = {"ABC", 3},
                             .dict_id = DICT_ID_ARCID, .next = shape % 2 ? &list : &pt};
        adexp_msg m = {.fields = &arcid};
        adexp_field *all[] = {&sfl, &eto, &fl, &ptid, &pt2, &pt, &list, &arcid};
        adexp_buf quick = line_of(&m);
        assert_sse2_is_best(&m, &quick);
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
            all[i]->dict_id = ADEXP_DICT_NONE;
        adexp_buf general = line_of(&m);
        assert_int_equal(quick.len, general.len);
        assert_memory_equal(quick.data, general.data, quick.len);
        adexp_buf_free(&quick);
        adexp_buf_free(&general);
        for (size_t i = 0; i < 4; i++)
            free(mem[i]);
        if (shape == 6)
            free(mem[4]);
    }
}

/* Quick values of 1 to 16 plain bytes with a separator (space, or TAB)
 * at every place and a second space at every place after it, each right
 * before the guard page: single spaces between plain bytes are written
 * as they are, every other case is folded or trimmed by the string rule. */
static void test_quick_spaces(void **state)
{
    (void)state;
    unsigned char *end = guarded_end();
    for (size_t n = 1; n <= 16; n++)
        for (size_t i = 0; i < n; i++)
            for (size_t j = i; j <= n; j++)
                for (int tab = 0; tab < 2; tab++) {
                    unsigned char *v = end - n;
                    for (size_t k = 0; k < n; k++)
                        v[k] = (unsigned char)('A' + k);
                    v[i] = tab && j == n ? '\t' : ' ';
                    if (j < n)
                        v[j] = ' ';
                    adexp_field f[2] = {
                        {.keyword = {"ARCID", 5}, .value = {(const char *)v, n},
                         .dict_id = DICT_ID_ARCID, .next = &f[1]},
                        {.keyword = {"FL", 2}, .value = {(const char *)v, n}, .dict_id = DICT_ID_FL},
                    };
                    adexp_msg m = {.fields = f};
                    assert_quick_is_general(&m, f, 2);
                }
}

/* A message's title, of every byte class and 0 to 20 bytes before the
 * guard page, against json_string's (the quick values' path takes the
 * plain ones). */
static void test_titles(void **state)
{
    (void)state;
    for (int t = 0; t < 5000; t++) {
        adexp_msg m = {0};
        m.view.title = guarded_value();
        adexp_buf b = line_of(&m);
        char want_head[256] = "{\"source\":\"x\",\"index\":0,\"offset\":0,\"title\":";
        size_t h = strlen(want_head);
        h = (size_t)(json_string(want_head + h, m.view.title, 1) - want_head);
        memcpy(want_head + h, ",\"fields\":[", 11);
        h += 11;
        assert_true(b.len > h);
        assert_memory_equal(b.data, want_head, h);
        adexp_buf_free(&b);
    }
}

/* index and offset in decimal, at every count of digits and of bits, and
 * their edges. */
static void test_numbers(void **state)
{
    (void)state;
    uint64_t v[256];
    size_t n = 0;
    v[n++] = 0;
    for (unsigned b = 1; b < 64; b++) {   /* where the count of bits changes */
        v[n++] = ((uint64_t)1 << b) - 1;
        v[n++] = (uint64_t)1 << b;
    }
    for (uint64_t p = 1; p <= UINT64_MAX / 10; p *= 10) {
        v[n++] = p * 10 - 1;
        v[n++] = p * 10;
        v[n++] = p * 10 + 7 * p / 3;
    }
    v[n++] = UINT64_MAX;
    for (size_t i = 0; i < n; i++) {
        adexp_field title = {.keyword = {"TITLE", 5}, .value = {"IFPL", 4},
                             .dict_id = DICT_ID_TITLE};
        adexp_msg m = {.fields = &title, .index = (size_t)v[i], .offset = (size_t)(v[i] / 3)};
        adexp_buf b = line_of(&m);
        char want[128];
        snprintf(want, sizeof want, "{\"source\":\"x\",\"index\":%llu,\"offset\":%llu,",
                 (unsigned long long)m.index, (unsigned long long)m.offset);
        assert_true(b.len > strlen(want));
        assert_memory_equal(b.data, want, strlen(want));
        adexp_buf_free(&b);
    }
}

/* A field whose keyword is not its entry's length gets its name written in
 * full, from its own bytes. */
static void test_name_fallback(void **state)
{
    (void)state;
    adexp_field f = {.keyword = {"ADEP2", 5}, .value = {"X", 1},
                     .dict_id = DICT_ID_ADEP};
    adexp_field title = {.keyword = {"TITLE", 5}, .value = {"IFPL", 4},
                         .dict_id = DICT_ID_TITLE, .next = &f};
    adexp_msg m = {.fields = &title};
    adexp_buf b;
    adexp_buf_init(&b, NULL);
    assert_int_equal(adexp_json_write(&b, &m, "x"), ADEXP_OK);
    const char *want = "{\"source\":\"x\",\"index\":0,\"offset\":0,\"title\":null,\"fields\":["
                       "{\"name\":\"TITLE\",\"value\":\"IFPL\"},"
                       "{\"name\":\"ADEP2\",\"value\":\"X\"}],\"errors\":[]}\n";
    assert_int_equal(b.len, strlen(want));
    assert_memory_equal(b.data, want, b.len);
    adexp_buf_free(&b);
}

/* An allocator that fails once `left` allocations have succeeded. */
static void *fail_alloc(void *ctx, size_t size)
{
    size_t *left = ctx;
    if (*left == 0)
        return NULL;
    --*left;
    return malloc(size);
}

static void fail_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    (void)size;
    free(ptr);
}

/* Out of memory at each of the writer's allocations in turn: ADEXP_E_NOMEM
 * and the buffer as it was; given enough, the line of a writer that never
 * failed. The message has errors, unknown fields, lists and compounds, and
 * enough fields that the buffer grows several times. */
static void test_out_of_memory(void **state)
{
    (void)state;
    char msg[16384];
    size_t n = (size_t)snprintf(msg, sizeof msg, "-TITLE IFPL -ADEP EDDF -XYZ \"odd\"\t\x01 "
                                "-BEGIN RTEPTS -PT -PTID NDG -FL F311 -END RTEPTS "
                                "-ESTDATA -PTID XETBO -ETO 170302032300 -BEGIN ADDR ");
    while (n < sizeof msg - 64)
        n += (size_t)snprintf(msg + n, sizeof msg - n, "-EETFIR EDUU %04zu ", n % 10000);
    adexp_arena arena;
    adexp_msg m;
    adexp_arena_init(&arena, NULL);
    assert_int_not_equal(adexp_parse(msg, n, &arena, &m), ADEXP_OK);  /* ADDR unclosed */
    assert_true(m.nerrors > 0);

    adexp_buf want;
    adexp_buf_init(&want, NULL);
    assert_int_equal(adexp_json_write(&want, &m, "src"), ADEXP_OK);
    assert_true(want.len > 3 * 4096);
    for (size_t k = 0;; k++) {
        size_t left = k;
        adexp_allocator hooks = {fail_alloc, fail_free, &left};
        adexp_buf b;
        adexp_buf_init(&b, &hooks);
        int ok = 0;
        if (k > 0) {                        /* a line already there stays as it was */
            assert_true(adexp_buf_put(&b, "prefix", 6));
            ok = 1;
        }
        adexp_status st = adexp_json_write(&b, &m, "src");
        if (st == ADEXP_OK) {
            assert_int_equal(b.len, 6 + want.len);
            assert_memory_equal(b.data + 6, want.data, want.len);
            adexp_buf_free(&b);
            break;
        }
        assert_int_equal(st, ADEXP_E_NOMEM);
        assert_int_equal(b.len, ok ? 6 : 0);
        if (ok)
            assert_memory_equal(b.data, "prefix", 6);
        adexp_buf_free(&b);
        assert_true(k < 16);
    }
    adexp_buf_free(&want);
    adexp_arena_free(&arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_strings),
        cmocka_unit_test(test_long_runs),
        cmocka_unit_test(test_every_position),
        cmocka_unit_test(test_put_string),
        cmocka_unit_test(test_names_table),
        cmocka_unit_test(test_name_fallback),
        cmocka_unit_test(test_heads_table),
        cmocka_unit_test(test_opens_table),
        cmocka_unit_test(test_quick_fields),
        cmocka_unit_test(test_quick_spaces),
        cmocka_unit_test(test_route_points),
        cmocka_unit_test(test_titles),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_out_of_memory),
    };
    if (!has_avx2())           /* said, not skipped silently */
        print_message("no AVX2 (build or CPU): the AVX2 writers are not tested, and the "
                      "fields' SSE2 pieces are compared with themselves\n");
    return cmocka_run_group_tests(tests, NULL, NULL);
}

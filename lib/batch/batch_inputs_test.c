/* Unit tests of the batch driver's input pieces: names escaped for
 * diagnostics, lossless JSON sources, first-byte recognition of packed
 * inputs, the gzip reader's checks, the set of walked directories, a
 * directory's names in strcmp's order, the NUL probe. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zlib.h>

#include "batch_internal.h"
#include "json_out.h"

static char *shown(const char *name)
{
    static batch_str s;
    s.len = 0;
    assert_int_equal(batch_str_put_name(&s, name), 0);
    return s.data ? s.data : "";
}

static void test_names_escaped(void **state)
{
    (void)state;
    assert_string_equal(shown("dir/a b.adexp"), "dir/a b.adexp");
    assert_string_equal(shown("new\nline"), "new\\nline");
    assert_string_equal(shown("esc\x1b[31m"), "esc\\x1B[31m");
    assert_string_equal(shown("back\\x41"), "back\\\\x41");   /* not "A" */
    assert_string_equal(shown("caf\xc3\xa9"), "caf\xc3\xa9");  /* UTF-8 kept */
    assert_string_equal(shown("lat\xe9"), "lat\\xE9");
    assert_string_equal(shown("c1\xc2\x9b"), "c1\\xC2\\x9B");  /* CSI in UTF-8 */
    assert_string_equal(shown("over\xc0\xae"), "over\\xC0\\xAE");
    assert_string_equal(shown("del\x7f\t\r"), "del\\x7F\\t\\r");
}

static char *source(const char *name)
{
    static char out[256];
    adexp_slice s = {name, strlen(name)};
    char *end = adexp_json_name_at(out, s);
    *end = '\0';
    return out;
}

static void test_json_sources(void **state)
{
    (void)state;
    adexp_slice utf8 = {"caf\xc3\xa9", 5}, latin = {"caf\xe9", 4};
    assert_true(adexp_json_name_is_utf8(utf8));
    assert_false(adexp_json_name_is_utf8(latin));
    assert_string_equal(source("caf\xe9"), "\"caf\\udce9\"");
    assert_string_equal(source("\xc3\xa9\xff\"\\\n"), "\"\xc3\xa9\\udcff\\\"\\\\\\u000a\"");
    assert_string_equal(source("\xed\xa0\x80"), "\"\\udced\\udca0\\udc80\"");  /* a surrogate */
}

static void test_packed_kinds(void **state)
{
    (void)state;
    assert_int_equal(batch_packed_kind("\x1f\x8b\x08", 3), BATCH_COMPRESSED);
    assert_int_equal(batch_packed_kind("\x28\xb5\x2f\xfd", 4), BATCH_COMPRESSED);
    assert_int_equal(batch_packed_kind("\xfd" "7zXZ\0", 6), BATCH_COMPRESSED);
    assert_int_equal(batch_packed_kind("BZh91AY&SY", 10), BATCH_COMPRESSED);
    assert_int_equal(batch_packed_kind("BZh9 not bzip", 13), BATCH_PLAIN);
    assert_int_equal(batch_packed_kind("PK\3\4", 4), BATCH_ARCHIVE);
    assert_int_equal(batch_packed_kind("-TITLE IFPL", 11), BATCH_PLAIN);
    assert_int_equal(batch_packed_kind("\x1f", 1), BATCH_PLAIN);
    char tar[512];
    memset(tar, 0, sizeof tar);
    memcpy(tar + 257, "ustar", 5);
    assert_int_equal(batch_packed_kind(tar, sizeof tar), BATCH_PLAIN);  /* bad sum */
    unsigned sum = 0;
    memset(tar + 148, ' ', 8);
    for (size_t i = 0; i < sizeof tar; i++)
        sum += (unsigned char)tar[i];
    snprintf(tar + 148, 8, "%06o", sum);
    assert_int_equal(batch_packed_kind(tar, sizeof tar), BATCH_ARCHIVE);
    assert_int_equal(batch_packed_kind("PK\5\6", 4), BATCH_ARCHIVE);
    assert_int_equal(batch_packed_kind("PK", 2), BATCH_PLAIN);
    assert_int_equal(batch_packed_kind("", 0), BATCH_PLAIN);
    /* a tar whose first member's name starts as a compressed stream or a
     * zip would (the first bytes of bzip2, gzip, zstd, xz and zip) */
    for (const char *first = "B" "\x1f" "(" "\xfd" "P"; *first; first++) {
        memset(tar, 0, sizeof tar);
        memcpy(tar + 257, "ustar", 5);
        tar[0] = *first;
        memset(tar + 148, ' ', 8);
        sum = 0;
        for (size_t i = 0; i < sizeof tar; i++)
            sum += (unsigned char)tar[i];
        snprintf(tar + 148, 8, "%06o", sum);
        assert_int_equal(batch_packed_kind(tar, sizeof tar), BATCH_ARCHIVE);
    }
}

/* A name and its place in the input, in strcmp's order (as qsort gave
 * the walk's names before). */
typedef struct named {
    const char *name;
    size_t at;
} named;

static int cmp_named(const void *a, const void *b)
{
    return strcmp(((const named *)a)->name, ((const named *)b)->name);
}

/* Sorts names[0..n) with batch_dirnames and checks the order (and each
 * name's type byte) against qsort with strcmp. */
static void check_sorted(char **names, size_t n)
{
    batch_dirnames d;
    batch_dirnames_init(&d);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(batch_dirnames_add(&d, names[i], strlen(names[i]),
                                            (unsigned char)(i % 13)), 0);
    assert_int_equal(batch_dirnames_sort(&d), 0);
    named *want = malloc((n + 1) * sizeof *want);
    assert_non_null(want);
    for (size_t i = 0; i < n; i++)
        want[i] = (named){names[i], i};
    qsort(want, n, sizeof *want, cmp_named);
    assert_int_equal(d.n, n);
    for (size_t i = 0; i < n; i++) {
        unsigned char type;
        assert_string_equal(batch_dirnames_name(&d, i, &type), want[i].name);
        assert_int_equal(type, want[i].at % 13);
    }
    free(want);
    batch_dirnames_free(&d);
}

static uint32_t rnd_state = 12345;
static uint32_t rnd(void)
{
    rnd_state = rnd_state * 1103515245u + 12345u;
    return rnd_state >> 8;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Up to n distinct names (as a directory's are; *got of them) from
 * alphabet, with a shared prefix, lengths from 1 to maxlen past it, in a
 * random order. */
static char **make_names(size_t n, const char *prefix, const char *alphabet,
                         size_t maxlen, size_t *got)
{
    char **v = malloc(n * sizeof *v);
    assert_non_null(v);
    size_t plen = strlen(prefix), alen = strlen(alphabet);
    for (size_t i = 0; i < n; i++) {
        char buf[300];
        size_t len = plen + 1 + rnd() % maxlen;
        memcpy(buf, prefix, plen);
        for (size_t k = plen; k < len; k++)
            buf[k] = alphabet[rnd() % alen];
        buf[len] = '\0';
        v[i] = strdup(buf);
    }
    qsort(v, n, sizeof *v, cmp_str);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && strcmp(v[m - 1], v[i]) == 0)
            free(v[i]);
        else
            v[m++] = v[i];
    }
    for (size_t i = m; i > 1; i--) {
        size_t j = rnd() % i;
        char *t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
    *got = m;
    return v;
}

static void free_names(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void test_dirnames_order(void **state)
{
    (void)state;
    static const char *fixed[] = {
        "a", "ab", "abc", "abcdefg", "abcdefgh", "abcdefghi", "abcdefgh\x80",
        "abcdefgh\xff", "abcdefgh0", "abcdefghijklmnop", "abcdefghijklmnopq",
        "abcdefghijklmnoo", "\x80", "\xff", "\xff\xff", "\x7f", "Z", "z", "0",
        "00001.adexp", "00010.adexp", "0001.adexp", "caf\xc3\xa9", "cafe",
        "caf\xe9", "-", "~", " ", "a b", "\x01", "\x01\x01", "abcdefgg\xff",
    };
    size_t nf = sizeof fixed / sizeof *fixed;
    check_sorted((char **)fixed, nf);
    check_sorted((char **)fixed, 5);   /* a few: insertion only */
    check_sorted((char **)fixed, 0);

    struct { const char *prefix, *alphabet; size_t maxlen, n; } cases[] = {
        {"", "ab", 12, 3000},                       /* many alike */
        {"", "0123456789.", 11, 2000},
        {"IFPL_20240101_", "0123456789", 6, 1500},  /* long shared prefix */
        {"message-0000000000000000000000000000-", "01\x80\xff", 20, 1000},
        {"", "\x80\x81\xfe\xff\x01a", 17, 2500},  /* high bytes */
        {"abcdefgh", "a", 40, 40},                  /* prefixes of each other */
        {"", "xyz", 3, 39},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        size_t got;
        char **v = make_names(cases[c].n, cases[c].prefix, cases[c].alphabet,
                              cases[c].maxlen, &got);
        for (size_t n = 0; n < got; n = n < 40 ? n + 1 : n * 3)
            check_sorted(v, n);
        check_sorted(v, got);
        free_names(v, got);
    }
}

/* batch_find_nul against memchr: every length to 600 and a few above,
 * every start alignment, a NUL at each place or none. */
static void test_find_nul(void **state)
{
    (void)state;
    size_t cap = 2048 + 64;
    char *buf = malloc(cap);
    assert_non_null(buf);
    memset(buf, 'x', cap);
    for (size_t len = 0; len <= 2048; len += len < 600 ? 1 : 97) {
        for (size_t start = 0; start < 33; start += len < 64 ? 1 : 11) {
            char *p = buf + start;
            assert_ptr_equal(batch_find_nul(p, len), NULL);
            for (size_t at = 0; at < len; at += len < 300 ? 1 : 13) {
                p[at] = '\0';
                assert_ptr_equal(batch_find_nul(p, len), memchr(p, 0, len));
                if (at + 1 < len) {   /* a second NUL: the first one counts */
                    p[len - 1] = '\0';
                    assert_ptr_equal(batch_find_nul(p, len), p + at);
                    p[len - 1] = 'x';
                }
                p[at] = 'x';
            }
            for (size_t back = 1; back <= 40 && back <= len; back++) {   /* the tail */
                p[len - back] = '\0';
                assert_ptr_equal(batch_find_nul(p, len), p + len - back);
                p[len - back] = 'x';
            }
            if (len) {   /* high bytes are no NUL */
                memset(p, 0x80, len);
                assert_ptr_equal(batch_find_nul(p, len), NULL);
                memset(p, 'x', len);
            }
        }
    }
    free(buf);
}

/* gzip of s in a buffer of cap bytes; returns its length. */
static size_t gz(const char *s, unsigned char *out, size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (unsigned char *)(uintptr_t)s;
    z.avail_in = (uInt)strlen(s);
    z.next_out = out;
    z.avail_out = (uInt)cap;
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    size_t n = cap - z.avail_out;
    deflateEnd(&z);
    return n;
}

/* Read all of a gzip reader over data[0..len): the bytes, or NULL with
 * the error in err. */
static char *gunzip(const unsigned char *data, size_t len, char *err)
{
    static char out[4096];
    batch_gzip g;
    assert_int_equal(batch_gzip_open(&g, (const char *)data, len), 0);
    size_t n = 0;
    ssize_t r;
    while ((r = g.r.read(&g.r, out + n, 7)) > 0)   /* small reads on purpose */
        n += (size_t)r;
    strcpy(err, r < 0 ? g.r.error : "");
    g.r.close(&g.r);
    out[n] = '\0';
    return r < 0 ? NULL : out;
}

static void test_gzip_reader(void **state)
{
    (void)state;
    unsigned char a[512];
    char err[256];
    size_t n = gz("-TITLE ACK\n", a, 256);
    size_t m = gz("-TITLE REJ\n", a + n, 256);
    assert_string_equal(gunzip(a, n + m, err), "-TITLE ACK\n-TITLE REJ\n");
    memset(a + n + m, 0, 8);   /* zero padding after the last member is fine */
    assert_non_null(gunzip(a, n + m + 8, err));
    a[n + m] = 'x';
    assert_null(gunzip(a, n + m + 8, err));
    assert_non_null(strstr(err, "not gzip after the last member"));
    assert_null(gunzip(a, n - 3, err));
    assert_non_null(strstr(err, "truncated gzip data"));
    a[n - 6] ^= 0xFF;          /* the CRC */
    assert_null(gunzip(a, n, err));
    assert_non_null(strstr(err, "corrupt gzip data"));
}

static void test_seen_set(void **state)
{
    (void)state;
    walk_seen *s = NULL;
    for (int i = 0; i < 1000; i++)
        assert_int_equal(batch_seen_add(&s, 1, (ino_t)i * 7919), 0);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(batch_seen_add(&s, 1, (ino_t)i * 7919), 1);
    assert_int_equal(batch_seen_add(&s, 2, 0), 0);   /* another device */
    batch_seen_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_escaped),
        cmocka_unit_test(test_json_sources),
        cmocka_unit_test(test_packed_kinds),
        cmocka_unit_test(test_gzip_reader),
        cmocka_unit_test(test_seen_set),
        cmocka_unit_test(test_dirnames_order),
        cmocka_unit_test(test_find_nul),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

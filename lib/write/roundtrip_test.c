/* Round trips: for every message that parses without error, in every layout
 * and with values kept or folded, parse(write(parse(x))) has the same tree
 * as parse(x), compared node by node (keyword, value, kind, every flag,
 * children in order), and the writer never refuses such a message. For
 * every message, flagged ones too, write_parsed gives adexp_write's text.
 *
 *   roundtrip_test TESTDATA N    the .adexp files of TESTDATA's folders
 *                                and N generated messages (ref_gen_corpus) */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "adexp.h"
#include "ref.h"
#include "write_parsed.h"

static const char *testdata;
static size_t generated = 2000;

/* Both layouts, kept and folded; and the IFPS layout with an indent whose
 * leads pass the fast paths' 32 bytes from depth 2 on. */
static const adexp_write_options *layouts(size_t *n)
{
    static adexp_write_options o[6];
    for (int i = 0; i < 6; i++) {
        o[i] = adexp_write_options_default();
        o[i].layout = i & 1 || i >= 4 ? ADEXP_LAYOUT_IFPS : ADEXP_LAYOUT_LINE;
        o[i].fold = i < 4 ? i >> 1 : i & 1;
        if (i >= 4)
            o[i].indent = 16;
    }
    *n = 6;
    return o;
}

typedef struct counts {
    size_t messages, skipped_with_errors;
} counts;

/* Writes m in layout o, parses it back and compares; fails the test with
 * the name and the first differing field. */
static void check_one(const adexp_msg *m, const adexp_write_options *o, const char *name,
                      adexp_buf *out, adexp_arena *arena2, adexp_parser *p2)
{
    adexp_write_error err;
    out->len = 0;
    adexp_status st = adexp_write(out, m, o, &err);
    if (st != ADEXP_OK) {
        print_error("%s message %zu layout %d fold %d: %s at %s\n", name, m->index,
                    (int)o->layout, o->fold, adexp_status_name(st), err.path);
        fail();
    }
    adexp_parser_reset(p2, out->data, out->len);
    adexp_msg back;
    assert_int_equal(adexp_parser_next(p2, arena2, &back), ADEXP_OK);
    const adexp_field *where = NULL;
    unsigned how = ADEXP_SAME_ALL_FLAGS | (o->fold ? ADEXP_SAME_FOLD : 0);
    if (!adexp_tree_same(m->fields, back.fields, how, &where)) {
        char path[256];
        adexp_field_path(m->fields, where, path, sizeof path);
        print_error("%s message %zu layout %d fold %d: differs at %s\n%.*s\n", name,
                    m->index, (int)o->layout, o->fold, path, (int)out->len, out->data);
        fail();
    }
    assert_int_equal(adexp_parser_next(p2, arena2, &back), ADEXP_END);
    if (o->layout == ADEXP_LAYOUT_LINE && o->fold)
        assert_ptr_equal(memchr(out->data, '\n', out->len), out->data + out->len - 1);
    adexp_arena_reset(arena2);
}

/* write_parsed and adexp_write of m in layout o: the same status, the
 * same text. */
static void check_parsed_same(const adexp_msg *m, const adexp_write_options *o,
                              const char *name, adexp_buf *a, adexp_buf *b)
{
    a->len = b->len = 0;
    adexp_status sa = adexp_write(a, m, o, NULL), sb = write_parsed(b, m, o, NULL);
    if (sa != sb || a->len != b->len || (a->len && memcmp(a->data, b->data, a->len) != 0)) {
        print_error("%s message %zu layout %d fold %d: write_parsed differs\n%.*s\n%.*s\n",
                    name, m->index, (int)o->layout, o->fold, (int)a->len, a->data,
                    (int)b->len, b->data);
        fail();
    }
}

/* Every message of buf[0..len) that parses without error. */
static void check_buffer(const char *buf, size_t len, const char *name, counts *c)
{
    adexp_arena arena, arena2;
    adexp_arena_init(&arena, NULL);
    adexp_arena_init(&arena2, NULL);
    adexp_parser *p = adexp_parser_new(NULL, NULL), *p2 = adexp_parser_new(NULL, NULL);
    assert_non_null(p);
    assert_non_null(p2);
    adexp_buf out, out2;
    adexp_buf_init(&out, NULL);
    adexp_buf_init(&out2, NULL);
    size_t nl;
    const adexp_write_options *o = layouts(&nl);
    adexp_msg m;
    adexp_parser_reset(p, buf, len);
    while (adexp_parser_next(p, &arena, &m) != ADEXP_END) {
        for (size_t i = 0; i < nl; i++)
            check_parsed_same(&m, &o[i], name, &out, &out2);
        if (m.nerrors_total == 0) {
            for (size_t i = 0; i < nl; i++)
                check_one(&m, &o[i], name, &out, &arena2, p2);
            c->messages++;
        } else {
            c->skipped_with_errors++;
        }
        adexp_arena_reset(&arena);
    }
    adexp_buf_free(&out);
    adexp_buf_free(&out2);
    adexp_parser_free(p);
    adexp_parser_free(p2);
    adexp_arena_free(&arena);
    adexp_arena_free(&arena2);
}

static void check_dir(const char *sub, counts *c)
{
    char dir[4096], path[8192];
    snprintf(dir, sizeof dir, "%s/%s", testdata, sub);
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l < 7 || strcmp(e->d_name + l - 6, ".adexp") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len;
        char *buf = ref_read_file(path, &len);
        assert_non_null(buf);
        check_buffer(buf, len, path, c);
        free(buf);
    }
    closedir(d);
}

static void test_testdata_round_trips(void **state)
{
    (void)state;
    counts c = {0, 0};
    check_dir("messages", &c);
    check_dir("invalid", &c);
    check_dir("regress", &c);
    print_message("testdata: %zu messages round-trip in 6 layouts, %zu with errors left out\n",
                  c.messages, c.skipped_with_errors);
    assert_true(c.messages > 100);
}

static void test_generated_round_trips(void **state)
{
    (void)state;
    char *buf;
    size_t len, *offs;
    assert_int_equal(ref_gen_corpus(19, generated, &buf, &len, &offs), 0);
    counts c = {0, 0};
    check_buffer(buf, len, "generated", &c);
    print_message("generated: %zu messages round-trip in 6 layouts\n", c.messages);
    assert_int_equal(c.messages, generated);
    free(buf);
    free(offs);
}

int main(int argc, char **argv)
{
    testdata = argc > 1 ? argv[1] : getenv("ADEXP_TESTDATA");
    if (argc > 2)
        generated = strtoul(argv[2], NULL, 10);
    if (!testdata) {
        fprintf(stderr, "usage: roundtrip_test TESTDATA [N]\n");
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_testdata_round_trips),
        cmocka_unit_test(test_generated_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

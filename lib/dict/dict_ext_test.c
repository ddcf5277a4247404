/* Tests of dictionary extensions loaded at run time (dict_ext.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adexp.h"
#include "dict_ext.h"
#include "dict_ids.h"

static adexp_dictionary *load(const adexp_dictionary *base, const char *text,
                              adexp_dict_error *err)
{
    return adexp_dict_load(base, text, strlen(text), err);
}

static const dict_entry *find(const adexp_dictionary *d, const char *kw)
{
    return dict_ext_lookup(d, kw, strlen(kw));
}

static int allows(const adexp_dictionary *d, const char *parent, const char *child)
{
    const dict_entry *p = find(d, parent), *c = find(d, child);
    assert_non_null(p);
    assert_non_null(c);
    return c->sub_bit != DICT_SUB_WORDS * 64 - 1 && dict_allows_entry(p, c);
}

/* With no extension row, every entry and every answer is the built-in one. */
static void test_empty_is_builtin(void **state)
{
    (void)state;
    adexp_dict_error err;
    adexp_dictionary *d = load(NULL, "# nothing\n\nkeyword\tlevel\tkind\tflags\tsubfields\tvalue_class\n", &err);
    assert_non_null(d);
    assert_int_equal(d->count, dict_count);
    for (size_t i = 0; i < dict_count; i++) {
        const dict_entry *e = &d->entries[i];
        assert_ptr_equal(find(d, dict_table[i].keyword), &dict_table[i]);
        assert_int_equal(e->kind, dict_table[i].kind);
        for (size_t j = 0; j < dict_count; j++)
            if (dict_table[j].sub_bit != DICT_SUB_WORDS * 64 - 1)
                assert_int_equal(dict_allows_entry(e, &d->entries[j]),
                                 dict_allows_entry(&dict_table[i], &dict_table[j]));
    }
    assert_null(find(d, "TTO"));
    adexp_dict_free(d);
}

/* ETFMS's TTO (a new compound of known subfields), a national ISPASS added
 * to PT, a new list with new items. */
static void test_new_and_extended(void **state)
{
    (void)state;
    adexp_dict_error err;
    adexp_dictionary *d = load(NULL,
        "TTO\tprimary\tc\t-\tPTID TO FL\t-\n"
        "ISPASS\tsubfield\tb\t-\t-\tY|N\n"
        "PT\tsubfield\tc\t-\tISPASS TEAM18\t-\n"
        "TEAM18\tsubfield\tb\t-\t-\t-\r\n"
        "LOCALLIST\tprimary\tl\t-\tLOCALITEM\t-\n"
        "LOCALITEM\tsubfield\tc\t-\tPTID ISPASS\t-\n", &err);
    assert_non_null(d);
    const dict_entry *tto = find(d, "TTO");
    assert_non_null(tto);
    assert_int_equal(tto->kind, ADEXP_COMPOUND);
    assert_int_equal(tto->level, DICT_PRIMARY);
    assert_true(tto - d->entries >= (ptrdiff_t)dict_count);
    assert_true(allows(d, "TTO", "PTID"));
    assert_true(allows(d, "TTO", "TO"));
    assert_true(allows(d, "TTO", "FL"));
    assert_false(allows(d, "TTO", "ETO"));
    /* PT keeps its own subfields and gains the new ones. */
    assert_true(allows(d, "PT", "PTID"));
    assert_true(allows(d, "PT", "ETO"));
    assert_true(allows(d, "PT", "ISPASS"));
    assert_true(allows(d, "PT", "TEAM18"));
    assert_int_equal(find(d, "PT")->nsub, dict_table[DICT_ID_PT].nsub + 2);
    /* The others are untouched: ESTDATA has no ISPASS. */
    assert_false(allows(d, "ESTDATA", "ISPASS"));
    assert_true(allows(d, "ESTDATA", "PTID"));
    assert_string_equal(find(d, "ISPASS")->value_class, "Y|N");
    assert_int_equal(find(d, "LOCALLIST")->kind, ADEXP_LIST);
    assert_true(allows(d, "LOCALLIST", "LOCALITEM"));
    assert_true(allows(d, "LOCALITEM", "ISPASS"));
    /* The built-in table itself is never changed: its PT keeps its own
     * subfields and has no place for the extension's ISPASS. */
    assert_false(dict_allows_entry(&dict_table[DICT_ID_PT], find(d, "ISPASS")));
    assert_ptr_not_equal(find(d, "PT"), &dict_table[DICT_ID_PT]);
    assert_ptr_equal(find(d, "ESTDATA"), &dict_table[DICT_ID_ESTDATA]);
    assert_null(dict_lookup("TTO", 3));
    assert_null(dict_lookup("ISPASS", 6));
    adexp_dict_free(d);
}

/* Later files extend earlier ones; the result does not need its base. */
static void test_layers(void **state)
{
    (void)state;
    adexp_dict_error err;
    adexp_dictionary *a = load(NULL, "ISPASS\tsubfield\tb\t-\t-\t-\n"
                                     "PT\tsubfield\tc\t-\tISPASS\t-\n", &err);
    assert_non_null(a);
    adexp_dictionary *b = load(a, "TTO\tprimary\tc\t-\tPTID TO FL ISPASS\t-\n"
                                  "PT\tsubfield\tc\tTEXT\tTTO\tptclass\n", &err);
    assert_non_null(b);
    adexp_dict_free(a);
    assert_true(allows(b, "PT", "ISPASS"));
    assert_true(allows(b, "PT", "TTO"));
    assert_true(allows(b, "PT", "PTID"));
    assert_true(allows(b, "TTO", "ISPASS"));
    assert_string_equal(find(b, "ISPASS")->keyword, "ISPASS");
    assert_string_equal(find(b, "PT")->value_class, "ptclass");
    assert_true(find(b, "PT")->flags & DICT_TEXT);
    adexp_dict_free(b);
}

typedef struct bad_case {
    const char *text;
    unsigned line, column;
    const char *says;
} bad_case;

static void test_errors(void **state)
{
    (void)state;
    static const bad_case cases[] = {
        {"TTO\tprimary\tc\t-\tPTID TO FL\n", 1, 27, "5 tab-separated columns"},
        {"# c\nTTO\tprimary\tc\t-\tPTID\t-\textra\n", 2, 24, "more than 6"},
        {"tto\tprimary\tc\t-\tPTID\t-\n", 1, 1, "A-Z and 0-9"},
        {"T-O\tprimary\tb\t-\t-\t-\n", 1, 1, "A-Z and 0-9"},
        {"TTO\tprimry\tc\t-\tPTID\t-\n", 1, 5, "level"},
        {"TTO\tprimary\tx\t-\tPTID\t-\n", 1, 13, "kind"},
        {"TTO\tprimary\tc\tBOLD\tPTID\t-\n", 1, 15, "flags"},
        {"TTO\tprimary\tc\t-\tPTID NOSUCH\t-\n", 1, 22, "NOSUCH is not defined"},
        {"TTO\tprimary\tb\t-\tPTID\t-\n", 1, 17, "basic field has no subfields"},
        {"TTO\tprimary\tc\t-\t-\t-\n", 1, 17, "needs its subfields"},
        {"ARCID\tprimary\tc\t-\tPTID\t-\n", 1, 15, "another kind"},
        {"PTID\tprimary\tb\t-\t-\t-\n", 1, 6, "another level"},
        {"BEGIN\tprimary\tb\t-\t-\t-\n", 1, 1, "cannot be extended"},
        {"TITLE\tprimary\tb\t-\t-\tx\n", 1, 1, "cannot be extended"},
        /* -TITLE starts a message, -BEGIN and -END bracket a list: none
         * can be a compound's subfield or a list's item */
        {"TTO\tprimary\tc\t-\tPTID TITLE\t-\n", 1, 22, "TITLE is the message's syntax"},
        {"LOCALLIST\tprimary\tl\t-\tTITLE\t-\n", 1, 23, "cannot be a subfield or a list item"},
        {"ADDR\tprimary\tl\t-\tFAC TITLE\t-\n", 1, 22, "TITLE is the message's syntax"},
        {"TTO\tprimary\tc\t-\tBEGIN\t-\n", 1, 17, "BEGIN is the message's syntax"},
        {"LOCALLIST\tprimary\tl\t-\tPT END\t-\n", 1, 26, "END is the message's syntax"},
        {"X\tprimary\tb\t-\t-\t-\nX\tprimary\tb\t-\t-\t-\n", 2, 1, "already defined on line 1"},
        {"X\tprimary\tb\t-\t-\t-\nY\0\tprimary\tb\t-\t-\t-\n", 2, 1, "NUL"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        adexp_dict_error err;
        const bad_case *c = &cases[i];
        size_t len = strlen(c->text);
        if (strstr(c->says, "NUL"))
            len = 34;
        adexp_dictionary *d = adexp_dict_load(NULL, c->text, len, &err);
        if (d || err.line != c->line || err.column != c->column ||
            !strstr(err.message, c->says))
            fail_msg("case %zu: got %s, %u:%u: %s", i, d ? "a dictionary" : "NULL",
                     err.line, err.column, err.message);
    }
}

/* Subfield bits run out at 255: a clear error, no overflow. */
static void test_too_many_subfields(void **state)
{
    (void)state;
    size_t cap = 1 << 16, n = 0;
    char *t = malloc(cap);
    n += (size_t)snprintf(t + n, cap - n, "BIG\tprimary\tc\t-\t");
    for (int i = 0; i < 60; i++)
        n += (size_t)snprintf(t + n, cap - n, "%sZ%d", i ? " " : "", i);
    n += (size_t)snprintf(t + n, cap - n, "\t-\n");
    for (int i = 0; i < 60; i++)
        n += (size_t)snprintf(t + n, cap - n, "Z%d\tsubfield\tb\t-\t-\t-\n", i);
    adexp_dict_error err;
    adexp_dictionary *d = adexp_dict_load(NULL, t, n, &err);
    assert_null(d);
    assert_non_null(strstr(err.message, "too many subfield keywords"));
    free(t);
}

/* dict_id stays below ADEXP_DICT_MAX_KEYWORDS: the 400th new keyword is
 * refused with its line. */
static void test_too_many_keywords(void **state)
{
    (void)state;
    size_t cap = 1 << 16, n = 0;
    char *t = malloc(cap);
    for (int i = 0; i < 400; i++)
        n += (size_t)snprintf(t + n, cap - n, "NEWKW%d\tprimary\tb\t-\t-\t-\n", i);
    adexp_dict_error err;
    assert_null(adexp_dict_load(NULL, t, n, &err));
    assert_int_equal(err.line, ADEXP_DICT_MAX_KEYWORDS - dict_count + 1);
    assert_non_null(strstr(err.message, "too many keywords"));
    adexp_dictionary *d = adexp_dict_load(NULL, t, n - strlen("NEWKW399\tprimary\tb\t-\t-\t-\n"), &err);
    assert_non_null(d);
    assert_int_equal(d->count, ADEXP_DICT_MAX_KEYWORDS);
    adexp_dict_free(d);
    free(t);
}

static void test_file_and_null(void **state)
{
    (void)state;
    adexp_dict_error err;
    assert_null(adexp_dict_load_file(NULL, "/nonexistent/ext.tsv", &err));
    assert_int_equal(err.line, 0);
    assert_non_null(strstr(err.message, "No such file"));
    assert_null(adexp_dict_load(NULL, NULL, 5, NULL));
    adexp_dictionary *d = adexp_dict_load(NULL, NULL, 0, NULL);
    assert_non_null(d);
    adexp_dict_free(d);
    adexp_dict_free(NULL);
}

/* ------------------------------------------------ parsing with an extension */

static const char etfms[] =
    "# ETFMS target time over, a national point field and a local list\n"
    "TTO\tprimary\tc\t-\tPTID TO FL\t-\n"
    "ISPASS\tsubfield\tb\t-\t-\tY|N\n"
    "TEAM18\tsubfield\tc\t-\tPTID ETO\t-\n"
    "PT\tsubfield\tc\t-\tISPASS TEAM18\t-\n"
    "LOCALLIST\tprimary\tl\t-\tLOCALITEM\t-\n"
    "LOCALITEM\tsubfield\tc\t-\tPTID ISPASS\t-\n"
    "LOCALTEXT\tprimary\tb\tTEXT\t-\t-\n";

/* The JSON line of the first message of text, parsed with dictionary d. */
static char *json_of(const adexp_dictionary *d, const char *text, size_t len)
{
    adexp_options o = adexp_options_default();
    o.dictionary = d;
    adexp_parser *p = adexp_parser_new(&o, NULL);
    adexp_arena arena;
    adexp_arena_init(&arena, NULL);
    adexp_buf out;
    adexp_buf_init(&out, NULL);
    adexp_msg m;
    adexp_parser_reset(p, text, len);
    while (adexp_parser_next(p, &arena, &m) != ADEXP_END) {
        assert_int_equal(adexp_json_write(&out, &m, "t"), ADEXP_OK);
        adexp_arena_reset(&arena);
    }
    char *s = malloc(out.len + 1);
    memcpy(s, out.data ? out.data : "", out.len);
    s[out.len] = '\0';
    adexp_buf_free(&out);
    adexp_arena_free(&arena);
    adexp_parser_free(p);
    return s;
}

static void expect_json(const adexp_dictionary *d, const char *text, const char *json)
{
    char *got = json_of(d, text, strlen(text));
    if (!strstr(got, json))
        fail_msg("parsed\n  %s\ngot\n  %s\nwanted in it\n  %s", text, got, json);
    free(got);
}

static void test_parse_extended(void **state)
{
    (void)state;
    adexp_dictionary *d = load(NULL, etfms, NULL);
    assert_non_null(d);
    /* TTO: known, a compound of its three subfields; REGUL after it is
     * the message's again */
    const char *sam = "-TITLE SAM -ARCID ABC12 -TTO -PTID VEULE -TO 1050 -FL F300 -REGUL LFPG1\n";
    expect_json(NULL, sam, "{\"name\":\"TTO\",\"fields\":[");
    expect_json(NULL, sam, "\"unknown\":true");
    expect_json(d, sam, "{\"name\":\"TTO\",\"fields\":[{\"name\":\"PTID\",\"value\":\"VEULE\"},"
                "{\"name\":\"TO\",\"value\":\"1050\"},{\"name\":\"FL\",\"value\":\"F300\"}]},"
                "{\"name\":\"REGUL\",\"value\":\"LFPG1\"}],\"errors\":[]}");
    char *j = json_of(d, sam, strlen(sam));
    assert_null(strstr(j, "unknown"));
    free(j);
    /* ISPASS and the compound TEAM18 inside route points */
    const char *ifpl = "-TITLE IFPL -BEGIN RTEPTS -PT -PTID A -FL F300 -ISPASS Y -TEAM18 -PTID A -ETO 231012010000"
                       " -PT -PTID B -ISPASS N -END RTEPTS";
    expect_json(d, ifpl, "{\"name\":\"RTEPTS\",\"items\":["
                "{\"name\":\"PT\",\"fields\":[{\"name\":\"PTID\",\"value\":\"A\"},"
                "{\"name\":\"FL\",\"value\":\"F300\"},{\"name\":\"ISPASS\",\"value\":\"Y\"},"
                "{\"name\":\"TEAM18\",\"fields\":[{\"name\":\"PTID\",\"value\":\"A\"},"
                "{\"name\":\"ETO\",\"value\":\"231012010000\"}]}]},"
                "{\"name\":\"PT\",\"fields\":[{\"name\":\"PTID\",\"value\":\"B\"},"
                "{\"name\":\"ISPASS\",\"value\":\"N\"}]}]}],\"errors\":[]}");
    j = json_of(d, ifpl, strlen(ifpl));
    assert_null(strstr(j, "unknown"));
    free(j);
    /* a new list of new items */
    expect_json(d, "-TITLE X -BEGIN LOCALLIST -LOCALITEM -PTID P -ISPASS Y -LOCALITEM -PTID Q -END LOCALLIST",
                "{\"name\":\"LOCALLIST\",\"items\":[{\"name\":\"LOCALITEM\",\"fields\":["
                "{\"name\":\"PTID\",\"value\":\"P\"},{\"name\":\"ISPASS\",\"value\":\"Y\"}]},"
                "{\"name\":\"LOCALITEM\",\"fields\":[{\"name\":\"PTID\",\"value\":\"Q\"}]}]}],"
                "\"errors\":[]}");
    /* a new text field: ICAO text with hyphens, in its brackets */
    expect_json(d, "-TITLE X -LOCALTEXT (FPL-ABC-IS) -ARCID ABC",
                "{\"name\":\"LOCALTEXT\",\"value\":\"(FPL-ABC-IS)\"},{\"name\":\"ARCID\"");
    adexp_dict_free(d);
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* With an empty extension, and with one that the messages do not use, every
 * message of testdata parses exactly as with the built-in dictionary (the
 * general path then reads everything: this also checks it against the
 * runs). */
static void test_testdata_unchanged(void **state)
{
    (void)state;
    const char *testdata = getenv("ADEXP_TESTDATA");
    if (!testdata)
        skip();
    adexp_dictionary *empty = load(NULL, "", NULL);
    adexp_dictionary *unused = load(NULL, "LOCALLIST\tprimary\tl\t-\tLOCALITEM\t-\n"
                                          "LOCALITEM\tsubfield\tc\t-\tPTID\t-\n", NULL);
    assert_non_null(empty);
    assert_non_null(unused);
    static const char *const dirs[] = {"messages", "invalid", "tricky"};
    size_t files = 0;
    for (size_t k = 0; k < 3; k++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", testdata, dirs[k]);
        DIR *dp = opendir(dir);
        if (!dp)
            continue;
        struct dirent *de;
        while ((de = readdir(dp))) {
            size_t n = strlen(de->d_name);
            if (n < 6 || strcmp(de->d_name + n - 6, ".adexp") != 0)
                continue;
            char path[8192], *a, *b, *c;
            size_t len;
            snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
            char *text = read_all(path, &len);
            a = json_of(NULL, text, len);
            b = json_of(empty, text, len);
            c = json_of(unused, text, len);
            if (strcmp(a, b) != 0 || strcmp(a, c) != 0)
                fail_msg("%s: parsed differently with an extension", path);
            free(a), free(b), free(c), free(text);
            files++;
        }
        closedir(dp);
    }
    assert_true(files > 20);
    adexp_dict_free(empty);
    adexp_dict_free(unused);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_is_builtin),
        cmocka_unit_test(test_new_and_extended),
        cmocka_unit_test(test_layers),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_too_many_subfields),
        cmocka_unit_test(test_too_many_keywords),
        cmocka_unit_test(test_file_and_null),
        cmocka_unit_test(test_parse_extended),
        cmocka_unit_test(test_testdata_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

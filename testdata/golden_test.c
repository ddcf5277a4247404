/* Golden files: for every X.adexp under the given folders, the JSON lines
 * of all its messages must equal X.json byte for byte. The source named in
 * the JSON is the path relative to testdata/.
 *
 *   golden_test TESTDATA_DIR SUBDIR...            check
 *   golden_test --update TESTDATA_DIR SUBDIR...   rewrite the .json files */
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

static const char *root;
static char **subdirs;
static int nsubdirs;
static int update;

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    while ((got = fread(buf + n, 1, cap - n, fp)) > 0) {
        n += got;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(fp);
    *len = n;
    return buf;
}

/* All JSON lines for the messages of one file. */
static void to_json(const char *rel, const char *src, size_t len, adexp_buf *out)
{
    adexp_parser *p = adexp_parser_new(NULL, NULL);
    adexp_arena arena;
    adexp_msg m;
    adexp_arena_init(&arena, NULL);
    adexp_parser_reset(p, src, len);
    while (adexp_parser_next(p, &arena, &m) != ADEXP_END) {
        assert_int_equal(adexp_json_write(out, &m, rel), ADEXP_OK);
        adexp_arena_reset(&arena);
    }
    adexp_arena_free(&arena);
    adexp_parser_free(p);
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* Check (or rewrite) one file; returns 1 if it matched. */
static int check_file(const char *sub, const char *name)
{
    char rel[1024], path[2048], golden[2048];
    snprintf(rel, sizeof rel, "%s/%s", sub, name);
    snprintf(path, sizeof path, "%s/%s", root, rel);
    snprintf(golden, sizeof golden, "%.*s.json", (int)(strlen(path) - 6), path);
    size_t len = 0, glen = 0;
    char *src = slurp(path, &len);
    assert_non_null(src);
    adexp_buf out;
    adexp_buf_init(&out, NULL);
    to_json(rel, src, len, &out);
    int ok = 1;
    if (update) {
        FILE *fp = fopen(golden, "wb");
        assert_non_null(fp);
        fwrite(out.data, 1, out.len, fp);
        fclose(fp);
    } else {
        char *want = slurp(golden, &glen);
        ok = want && glen == out.len && (glen == 0 || memcmp(want, out.data, glen) == 0);
        if (!ok)
            fprintf(stderr, "golden mismatch: %s (%s)\n", rel,
                    want ? "differs" : "no .json file");
        free(want);
    }
    adexp_buf_free(&out);
    free(src);
    return ok;
}

static void test_golden_files(void **state)
{
    (void)state;
    size_t files = 0, bad = 0;
    for (int i = 0; i < nsubdirs; i++) {
        char dir[1024];
        struct dirent **ents;
        snprintf(dir, sizeof dir, "%s/%s", root, subdirs[i]);
        int n = scandir(dir, &ents, NULL, by_name);
        assert_true(n >= 0);
        for (int j = 0; j < n; j++) {
            if (has_suffix(ents[j]->d_name, ".adexp")) {
                files++;
                bad += !check_file(subdirs[i], ents[j]->d_name);
            }
            free(ents[j]);
        }
        free(ents);
    }
    printf("golden: %zu files, %zu mismatches%s\n", files, bad,
           update ? " (updated)" : "");
    assert_true(files > 0);
    assert_int_equal(bad, 0);
}

int main(int argc, char **argv)
{
    int a = 1;
    if (a < argc && strcmp(argv[a], "--update") == 0)
        update = 1, a++;
    if (argc - a < 2) {
        fprintf(stderr, "usage: golden_test [--update] TESTDATA_DIR SUBDIR...\n");
        return 2;
    }
    root = argv[a];
    subdirs = argv + a + 1;
    nsubdirs = argc - a - 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_files),
    };
    return cmocka_run_group_tests_name("golden", tests, NULL, NULL);
}

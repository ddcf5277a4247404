/* Replays inputs through a fuzz target without libFuzzer: every file given,
 * and every file found (recursively) in the directories given, is read and
 * passed to LLVMFuzzerTestOneInput once. A failed invariant aborts. Used by
 * the fuzz-replay test suite in builds without clang/libFuzzer. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t nfiles;

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        return 1;
    }
    for (;;) {
        if (len == cap) {
            uint8_t *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                fclose(f);
                return 1;
            }
            buf = b;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "%s: read error\n", path);
        free(buf);
        return 1;
    }
    /* an exactly sized copy, as libFuzzer gives */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        free(buf);
        return 1;
    }
    if (len)
        memcpy(exact, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    nfiles++;
    return 0;
}

static int compare(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode))
        return replay_file(path);
    DIR *d = opendir(path);
    if (!d) {
        perror(path);
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;                  /* ., .., hidden files */
        if (n == cap) {
            char **nn = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *names);
            if (!nn) {
                rc = 1;
                break;
            }
            names = nn;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        if (!(names[n] = malloc(len))) {
            rc = 1;
            break;
        }
        snprintf(names[n++], len, "%s/%s", path, e->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, compare);
    for (size_t i = 0; i < n; i++) {
        struct stat s2;
        if (stat(names[i], &s2) == 0 && (S_ISDIR(s2.st_mode) || S_ISREG(s2.st_mode)))
            rc |= replay(names[i]);
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    int rc = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        fprintf(stderr, "%s: replaying %s\n", argv[0], argv[i]);
        rc |= replay(argv[i]);
    }
    fprintf(stderr, "%s: %zu inputs replayed%s\n", argv[0], nfiles, rc ? ", with errors" : "");
    return rc;
}

/* The floor of the batch CLI: walk the same tree and read every file the
 * way the batch driver does (a sorted readdir walk trusting d_type, then
 * workers taking chunks of 32 files through an atomic index, open O_NONBLOCK
 * + fstat + read to st_size into a reused buffer), without parsing anything.
 *
 *   read_floor [-j N] DIR...     prints: files=N bytes=B seconds=S
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CHUNK 32

static char **paths;
static size_t npaths, cap;
static atomic_size_t next_chunk;

static void add(const char *p)
{
    if (npaths == cap) {
        cap = cap ? cap * 2 : 1024;
        paths = realloc(paths, cap * sizeof *paths);
        if (!paths)
            exit(1);
    }
    paths[npaths++] = strdup(p);
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a + 1, *(char *const *)b + 1);
}

static void walk(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char **names = NULL;
    size_t n = 0, ncap = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;

        if (n == ncap) {
            ncap = ncap ? ncap * 2 : 64;
            names = realloc(names, ncap * sizeof *names);
        }
        /* d_type byte, then the name, as the driver keeps them */
        size_t len = strlen(de->d_name) + 1;
        names[n] = malloc(len + 1);
        names[n][0] = (char)de->d_type;
        memcpy(names[n++] + 1, de->d_name, len);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp);
    for (size_t i = 0; i < n; i++) {
        char p[4096];
        struct stat st;
        memset(&st, 0, sizeof st);
        snprintf(p, sizeof p, "%s/%s", dir, names[i] + 1);
        if (names[i][0] == DT_REG)   /* as the driver: no stat() for files */
            add(p);
        else if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
            walk(p);
        else if (S_ISREG(st.st_mode))
            add(p);
        free(names[i]);
    }
    free(names);
}

typedef struct result {
    size_t files, bytes;
} result;

static void *reader(void *arg)
{
    result *r = arg;
    size_t bufcap = 1 << 20;
    char *buf = malloc(bufcap);
    size_t nchunks = (npaths + CHUNK - 1) / CHUNK;
    for (size_t c; (c = atomic_fetch_add(&next_chunk, 1)) < nchunks;) {
        for (size_t i = c * CHUNK; i < npaths && i < (c + 1) * CHUNK; i++) {
            int fd = open(paths[i], O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
            struct stat st;
            if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
                if (fd >= 0)
                    close(fd);
                continue;
            }
            size_t size = (size_t)st.st_size, n = 0;
            if (size >= bufcap) {
                while (bufcap <= size)
                    bufcap *= 2;
                buf = realloc(buf, bufcap);
            }
            ssize_t got;
            while (n < size && (got = read(fd, buf + n, size - n)) > 0)
                n += (size_t)got;
            close(fd);
            r->files++;
            r->bytes += n;
        }
    }
    free(buf);
    return NULL;
}

int main(int argc, char **argv)
{
    int jobs = 1, i = 1;
    if (argc > 2 && strcmp(argv[1], "-j") == 0)
        jobs = atoi(argv[2]), i = 3;
    if (jobs < 1 || jobs > 256 || i >= argc) {
        fputs("usage: read_floor [-j N] DIR...\n", stderr);
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (; i < argc; i++)
        walk(argv[i]);
    struct timespec tw;
    clock_gettime(CLOCK_MONOTONIC, &tw);
    pthread_t tid[256];
    result res[256];
    memset(res, 0, sizeof res);
    for (int k = 0; k < jobs; k++)
        pthread_create(&tid[k], NULL, reader, &res[k]);
    size_t files = 0, bytes = 0;
    for (int k = 0; k < jobs; k++) {
        pthread_join(tid[k], NULL);
        files += res[k].files;
        bytes += res[k].bytes;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("files=%zu bytes=%zu seconds=%.6f walk=%.6f\n", files, bytes, s,
           (double)(tw.tv_sec - t0.tv_sec) + (double)(tw.tv_nsec - t0.tv_nsec) / 1e9);
    for (size_t k = 0; k < npaths; k++)
        free(paths[k]);
    free(paths);
    return 0;
}

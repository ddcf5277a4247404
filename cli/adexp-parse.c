/* adexp-parse: ADEXP message files to JSON lines. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adexp.h"

static const char usage[] =
    "usage: adexp-parse [options] PATH...\n"
    "Parse ADEXP messages and write one JSON object per message (NDJSON).\n"
    "A PATH is a file, or - for standard input.\n"
    "\n"
    "  -h, --help      show this help and exit\n"
    "      --version   show the version and exit\n"
    "\n"
    "Errors go to standard error as PATH:LINE:COLUMN: CODE: message.\n"
    "Exit status: 0 if every input parsed, 1 if any failed, 2 on a usage error.\n";

typedef struct input_buf {
    char *data;
    size_t len, cap;
} input_buf;

/* Read all of fd into b (reused across files). Returns 0 or an errno. */
static int read_all(int fd, input_buf *b)
{
    b->len = 0;
    for (;;) {
        if (b->cap - b->len < 65536) {
            size_t cap = b->cap ? b->cap * 2 : 1 << 20;
            char *d = realloc(b->data, cap);
            if (!d)
                return ENOMEM;
            b->data = d;
            b->cap = cap;
        }
        ssize_t n = read(fd, b->data + b->len, b->cap - b->len);
        if (n == 0)
            return 0;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        b->len += (size_t)n;
    }
}

typedef struct run {
    adexp_parser *parser;
    adexp_arena arena;
    adexp_buf out;
    input_buf in;
    int failed;
} run;

static void flush_out(run *r)
{
    if (r->out.len && fwrite(r->out.data, 1, r->out.len, stdout) != r->out.len) {
        perror("adexp-parse: stdout");
        exit(1);
    }
    r->out.len = 0;
}

static void report(const char *path, const adexp_msg *m)
{
    for (size_t i = 0; i < m->nerrors; i++) {
        const adexp_error *e = &m->errors[i];
        fprintf(stderr, "%s:%u:%u: %s: %s\n", path, (unsigned)e->line,
                (unsigned)e->column, adexp_status_name(e->code), e->message);
    }
    if (m->nerrors_total > m->nerrors)
        fprintf(stderr, "%s: %zu more errors in message %zu\n", path,
                m->nerrors_total - m->nerrors, m->index);
}

static void parse_buffer(run *r, const char *path)
{
    adexp_msg m;
    size_t count = 0;
    adexp_parser_reset(r->parser, r->in.data, r->in.len);
    while (adexp_parser_next(r->parser, &r->arena, &m) != ADEXP_END) {
        count++;
        if (m.nerrors_total) {
            r->failed = 1;
            report(path, &m);
        }
        if (adexp_json_write(&r->out, &m, path) != ADEXP_OK) {
            fprintf(stderr, "%s: out of memory writing JSON\n", path);
            r->failed = 1;
        }
        if (r->out.len >= (1u << 20))
            flush_out(r);
        adexp_arena_reset(&r->arena);
    }
    if (count == 0) {
        fprintf(stderr, "%s: no ADEXP message\n", path);
        r->failed = 1;
    }
}

static void parse_path(run *r, const char *path)
{
    int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        r->failed = 1;
        return;
    }
    struct stat st;
    if (fd != STDIN_FILENO && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s: is a directory\n", path);
        r->failed = 1;
        close(fd);
        return;
    }
    int err = read_all(fd, &r->in);
    if (fd != STDIN_FILENO)
        close(fd);
    if (err) {
        fprintf(stderr, "%s: %s\n", path, strerror(err));
        r->failed = 1;
        return;
    }
    parse_buffer(r, path);
}

int main(int argc, char **argv)
{
    int npaths = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        }
        if (strcmp(a, "--version") == 0) {
            printf("adexp-parse %s\n", ADEXP_VERSION);
            return 0;
        }
        if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "adexp-parse: unknown option %s\n%s", a, usage);
            return 2;
        }
        npaths++;
    }
    if (npaths == 0) {
        fputs(usage, stderr);
        return 2;
    }
    run r;
    memset(&r, 0, sizeof r);
    r.parser = adexp_parser_new(NULL, NULL);
    if (!r.parser) {
        fputs("adexp-parse: out of memory\n", stderr);
        return 1;
    }
    adexp_arena_init(&r.arena, NULL);
    adexp_buf_init(&r.out, NULL);
    for (int i = 1; i < argc; i++)
        parse_path(&r, argv[i]);
    flush_out(&r);
    adexp_buf_free(&r.out);
    adexp_arena_free(&r.arena);
    adexp_parser_free(r.parser);
    free(r.in.data);
    return r.failed ? 1 : 0;
}

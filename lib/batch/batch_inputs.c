/* Batch driver: turning paths, directories and file lists into a queue. */
#define _DEFAULT_SOURCE        /* d_type, DT_* */
#include <dirent.h>
#include <fnmatch.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch_internal.h"

struct batch_block {
    batch_block *next;
    char data[];
};

#define BLOCK_SIZE ((size_t)64 << 10)

/* Copy s (of len bytes and a NUL) into string storage that never moves;
 * NULL on no memory. */
static const char *store(adexp_batch *b, const char *s, size_t len)
{
    len++;
    if ((size_t)(b->bend - b->bptr) < len || !b->bptr) {
        size_t size = len > BLOCK_SIZE ? len : BLOCK_SIZE;
        batch_block *blk = malloc(sizeof *blk + size);
        if (!blk)
            return NULL;
        blk->next = b->blocks;
        b->blocks = blk;
        b->bptr = blk->data;
        b->bend = blk->data + size;
    }
    char *p = b->bptr;
    memcpy(p, s, len);
    b->bptr += len;
    return p;
}

/* Queue one entry, its path of plen bytes; data and len only for
 * BATCH_BUFFER. */
static int push_entry(adexp_batch *b, int kind, const char *path, size_t plen,
                      const char *note, const char *data, size_t len)
{
    size_t si = b->n >> BATCH_SEG_BITS;
    if (si >= BATCH_MAX_SEGS)
        goto nomem;
    if (!b->seg[si] && !(b->seg[si] = malloc(BATCH_SEG_SIZE * sizeof **b->seg)))
        goto nomem;
    batch_entry *e = &b->seg[si][b->n & (BATCH_SEG_SIZE - 1)];
    e->kind = kind;
    e->data = data;
    e->len = len;
    e->path = store(b, path, plen);
    e->note = note ? store(b, note, strlen(note)) : NULL;
    if (!e->path || (note && !e->note))
        goto nomem;
    b->n++;
    /* Release: a worker that sees the count sees the entry. */
    atomic_store_explicit(&b->published, b->n, memory_order_release);
    if (b->on_publish && (b->n & 15) == 0)
        b->on_publish(b->publish_ctx);
    return 0;
nomem:
    b->nomem = 1;
    return -1;
}

int batch_push(adexp_batch *b, int kind, const char *path, const char *note)
{
    return push_entry(b, kind, path, strlen(path), note, NULL, 0);
}

void batch_inputs_free(adexp_batch *b)
{
    for (size_t i = 0; i < BATCH_MAX_SEGS && b->seg && b->seg[i]; i++)
        free(b->seg[i]);
    free(b->seg);
    while (b->blocks) {
        batch_block *next = b->blocks->next;
        free(b->blocks);
        b->blocks = next;
    }
    for (size_t i = 0; i < b->nroots; i++)
        free(b->roots[i].path);
    free(b->roots);
    batch_seen_free(b->seen);
}

/* Queue a path that stat() could not follow. lstat() tells a dangling
 * symbolic link (the link exists, its target does not) from a missing one. */
static int push_stat_error(adexp_batch *b, const char *path, int err)
{
    struct stat st;
    if (err == ENOENT && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        return batch_push(b, BATCH_FAIL, path, "dangling symbolic link");
    return batch_push(b, BATCH_FAIL, path, strerror(err));
}

static const char *kind_name(mode_t m)
{
    if (S_ISFIFO(m))
        return "FIFO";
    if (S_ISSOCK(m))
        return "socket";
    if (S_ISCHR(m) || S_ISBLK(m))
        return "device";
    return "special file";
}

/* The directories on the current walk path, by identity: a directory met
 * again below itself (through a symbolic link or a bind mount) is a loop. */
typedef struct walk_stack {
    struct { dev_t dev; ino_t ino; } *v;
    size_t n, cap;
} walk_stack;

static int stack_has(const walk_stack *s, const struct stat *st)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].dev == st->st_dev && s->v[i].ino == st->st_ino)
            return 1;
    return 0;
}

static int stack_push(walk_stack *s, const struct stat *st)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        void *v = realloc(s->v, cap * sizeof *s->v);
        if (!v)
            return -1;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n].dev = st->st_dev;
    s->v[s->n].ino = st->st_ino;
    s->n++;
    return 0;
}

static int walk_dir(adexp_batch *b, const char *dir, walk_stack *stack);

static int matches_any(const char *const *pats, const char *name)
{
    for (; pats && *pats; pats++)
        if (fnmatch(*pats, name, 0) == 0)
            return 1;
    return 0;
}

/* Whether a file met in a walk, of this name, is left out: it matches no
 * include pattern (when some are given), or an exclude one. */
static int filtered_out(const adexp_batch *b, const char *name)
{
    int some = b->o.include || (b->o.includes && *b->o.includes);
    int in = !some || (b->o.include && fnmatch(b->o.include, name, 0) == 0) ||
             matches_any(b->o.includes, name);
    return !in || matches_any(b->o.excludes, name);
}

/* A regular file met in a walk, path of plen bytes: queued unless the
 * patterns leave it out. */
static int add_walked_file(adexp_batch *b, const char *path, size_t plen,
                           const char *name)
{
    if (filtered_out(b, name)) {
        b->filtered++;
        return 0;
    }
    return push_entry(b, BATCH_FILE, path, plen, NULL, NULL, 0);
}

/* Queue one directory entry (or a path from the command line: top = 1). */
static int add_entry(adexp_batch *b, const char *path, int top,
                     walk_stack *stack)
{
    struct stat st;
    const char *slash = strrchr(path, '/');
    if (stat(path, &st) != 0) {
        /* a dangling link the patterns would leave out is no failure */
        if (!top && filtered_out(b, slash ? slash + 1 : path))
            return b->filtered++, 0;
        return push_stat_error(b, path, errno);
    }
    if (b->out_is_file && st.st_dev == b->out_dev && st.st_ino == b->out_ino)
        return top ? batch_push(b, BATCH_FAIL, path, "is the output file: not read")
                   : batch_push(b, BATCH_SKIP, path, "the output file: left out of the walk");
    if (S_ISREG(st.st_mode) && !top)
        return add_walked_file(b, path, strlen(path), slash ? slash + 1 : path);
    if (S_ISREG(st.st_mode))
        return batch_push(b, BATCH_FILE, path, NULL);
    if (S_ISDIR(st.st_mode)) {
        if (stack_has(stack, &st))
            return batch_push(b, BATCH_FAIL, path,
                              "directory loop: leads back to a directory above it, not followed");
        int seen = batch_seen_add(&b->seen, st.st_dev, st.st_ino);
        if (seen > 0)
            return batch_push(b, BATCH_SKIP, path,
                              "directory already walked by another path: skipped");
        if (seen < 0 || stack_push(stack, &st) != 0)
            return b->nomem = 1, -1;
        int rc = walk_dir(b, path, stack);
        stack->n--;
        return rc;
    }
    /* Named on the command line, a FIFO or a character device is read as a
     * stream by a worker (batch_file.c opens it so that it cannot block
     * the walk). Met in a walk, it is skipped like any other special file:
     * a FIFO without a writer would hold the run. */
    if (top && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)))
        return batch_push(b, BATCH_STREAM, path, NULL);
    char note[80];
    snprintf(note, sizeof note, "%s, not a regular file%s", kind_name(st.st_mode),
             top ? "" : ": skipped");
    return batch_push(b, top ? BATCH_FAIL : BATCH_SKIP, path, note);
}

/* A name whose inode number is the output file's is marked DT_UNKNOWN, so
 * that the walk stat()s it and leaves the output out. */
static unsigned char type_of(const struct dirent *de, const adexp_batch *b)
{
    return b->out_is_file && de->d_ino == b->out_ino ? DT_UNKNOWN : de->d_type;
}

/* Read the names of dir, sorted by bytes, so that output does not depend
 * on the order the file system returns them in. */
static int read_names(const adexp_batch *b, DIR *d, batch_dirnames *names)
{
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        const char *s = de->d_name;
        if (s[0] == '.' && (s[1] == '\0' || (s[1] == '.' && s[2] == '\0')))
            continue;
        if (batch_dirnames_add(names, s, strlen(s), type_of(de, b)) != 0)
            return -1;
    }
    return batch_dirnames_sort(names);
}

/* Paths are built by hand in one buffer reused for the whole directory:
 * snprintf and a malloc per entry were half of the walk's cost. */
static int walk_names(adexp_batch *b, const char *dir, const batch_dirnames *names,
                      walk_stack *stack)
{
    size_t dlen = strlen(dir), cap = 0;
    size_t plen = dlen + (dlen == 0 || dir[dlen - 1] != '/');
    char *path = NULL;
    int rc = 0;
    for (size_t i = 0; i < names->n && rc == 0; i++) {
        unsigned char type;
        const char *name = batch_dirnames_name(names, i, &type);
        size_t nlen = strlen(name);
        if (plen + nlen + 1 > cap) {
            cap = 2 * (plen + nlen + 1);
            char *p = realloc(path, cap);
            if (!p)
                return free(path), b->nomem = 1, -1;
            path = p;
            memcpy(path, dir, dlen);
            path[plen - 1] = '/';
        }
        memcpy(path + plen, name, nlen + 1);
        if (name[0] == '.')
            rc = batch_push(b, BATCH_SKIP, path, "hidden entry: skipped");
        else if (type == DT_REG)  /* no stat(): the worker's fstat checks */
            rc = add_walked_file(b, path, plen + nlen, name);
        else
            rc = add_entry(b, path, 0, stack);
    }
    free(path);
    return rc;
}

static int walk_dir(adexp_batch *b, const char *dir, walk_stack *stack)
{
    DIR *d = opendir(dir);
    if (!d)
        return batch_push(b, BATCH_FAIL, dir, strerror(errno));
    batch_dirnames names;
    batch_dirnames_init(&names);
    int bad = read_names(b, d, &names);
    closedir(d);
    int rc = bad ? (b->nomem = 1, -1) : walk_names(b, dir, &names, stack);
    batch_dirnames_free(&names);
    return rc;
}

/* Queued paths are walked by run, in the calling thread, while the workers
 * already parse what the walk has found. */
static int add_root(adexp_batch *b, const char *path, const char *data, size_t len)
{
    if (b->nroots == b->roots_cap) {
        size_t cap = b->roots_cap ? b->roots_cap * 2 : 16;
        batch_root *v = realloc(b->roots, cap * sizeof *v);
        if (!v)
            return b->nomem = 1, -1;
        b->roots = v;
        b->roots_cap = cap;
    }
    batch_root *r = &b->roots[b->nroots];
    if ((r->path = strdup(path)) == NULL)
        return b->nomem = 1, -1;
    r->data = data;
    r->len = len;
    r->fd = -1;
    b->nroots++;
    return 0;
}

int adexp_batch_add_path(adexp_batch *b, const char *path)
{
    return add_root(b, path, NULL, 0);
}

int adexp_batch_add_fd(adexp_batch *b, const char *name, int fd)
{
    if (add_root(b, name, NULL, 0) != 0)
        return -1;
    b->roots[b->nroots - 1].fd = fd;
    return 0;
}

int adexp_batch_add_buffer(adexp_batch *b, const char *name, const char *data,
                           size_t len)
{
    return add_root(b, name, data ? data : "", data ? len : 0);
}

static void walk_root(adexp_batch *b, const char *path)
{
    if (strcmp(path, "-") == 0) {
        struct stat st;
        if (b->out_is_file && fstat(STDIN_FILENO, &st) == 0 &&
            st.st_dev == b->out_dev && st.st_ino == b->out_ino)
            batch_push(b, BATCH_FAIL, path, "standard input is the output file: not read");
        else
            batch_push(b, BATCH_STDIN, path, NULL);
        return;
    }
    if (path[0] == '\0') {
        batch_push(b, BATCH_FAIL, path, "empty path");
        return;
    }
    walk_stack stack = {0};
    size_t n = b->n, filtered = b->filtered;
    add_entry(b, path, 1, &stack);
    free(stack.v);
    /* only a directory's walk can queue nothing: say so, or a mistyped or
     * empty folder would pass as a run over nothing with exit 0 */
    if (b->n == n && b->filtered == filtered && !b->nomem)
        batch_push(b, BATCH_SKIP, path, "no file in the directory or below it: nothing parsed");
}

void batch_walk_roots(adexp_batch *b)
{
    for (size_t i = 0; i < b->nroots && !b->nomem; i++) {
        const batch_root *r = &b->roots[i];
        if (r->data)   /* a buffer is queued as it is, with the caller's bytes */
            push_entry(b, BATCH_BUFFER, r->path, strlen(r->path), NULL, r->data, r->len);
        else if (r->fd >= 0)   /* so is a descriptor, its number in len */
            push_entry(b, BATCH_FD, r->path, strlen(r->path), NULL, NULL, (size_t)r->fd);
        else
            walk_root(b, r->path);
    }
}

/* Read all of fd into a malloc'ed string of *len bytes. */
static char *slurp(int fd, size_t *len, int *err)
{
    size_t cap = 1 << 16;
    char *s = malloc(cap);
    *len = 0;
    for (;;) {
        if (!s)
            return *err = ENOMEM, NULL;
        ssize_t r = read(fd, s + *len, cap - *len);
        if (r == 0)
            break;
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return *err = errno, free(s), NULL;
        *len += (size_t)r;
        if (cap - *len < 2) {
            char *t = realloc(s, cap *= 2);
            if (!t)
                free(s);
            s = t;
        }
    }
    return s;
}

/* 1-based line of s[off] (a NUL byte met in a list of lines). */
static size_t line_of(const char *s, size_t off)
{
    size_t line = 1;
    for (const char *p = s, *end = s + off; (p = memchr(p, '\n', (size_t)(end - p))); p++)
        line++;
    return line;
}

/* Queue each item of s[0..len), items ended by sep (the last one may lack
 * it); a list of lines also drops a CR before the newline (lists written
 * on Windows). Empty items are ignored. */
static int add_items(adexp_batch *b, char *s, size_t len, char sep)
{
    for (char *item = s, *end = s + len; item < end;) {
        char *stop = memchr(item, sep, (size_t)(end - item));
        if (!stop)
            stop = end;
        *stop = '\0';   /* end is inside the buffer: slurp keeps a spare byte */
        size_t n = (size_t)(stop - item);
        if (sep == '\n' && n && item[n - 1] == '\r')
            item[--n] = '\0';
        if (n && adexp_batch_add_path(b, item) != 0)
            return ENOMEM;
        item = stop + 1;
    }
    return 0;
}

int adexp_batch_add_list_sep(adexp_batch *b, const char *list, int nul,
                             size_t *bad_line)
{
    int fromstdin = strcmp(list, "-") == 0;
    int fd = fromstdin ? STDIN_FILENO : open(list, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    int err = 0;
    size_t len;
    char *s = slurp(fd, &len, &err);
    if (!fromstdin)
        close(fd);
    if (!s)
        return err;
    const char *z = nul ? NULL : memchr(s, '\0', len);
    if (z) {
        if (bad_line)
            *bad_line = line_of(s, (size_t)(z - s));
        free(s);
        return EILSEQ;
    }
    err = add_items(b, s, len, nul ? '\0' : '\n');
    free(s);
    return err;
}

int adexp_batch_add_list(adexp_batch *b, const char *list)
{
    return adexp_batch_add_list_sep(b, list, 0, NULL);
}

/* Is path (or "-": standard input) the file st describes? */
static int same_file(const char *path, const struct stat *st)
{
    struct stat ps;
    int rc = strcmp(path, "-") == 0 ? fstat(STDIN_FILENO, &ps) : stat(path, &ps);
    return rc == 0 && ps.st_dev == st->st_dev && ps.st_ino == st->st_ino;
}

const char *adexp_batch_find_input(const adexp_batch *b, int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return NULL;
    for (size_t i = 0; i < b->nroots; i++)
        if (!b->roots[i].data && b->roots[i].fd < 0 && same_file(b->roots[i].path, &st))
            return b->roots[i].path;
    return NULL;
}

/* Would the walk of directory dir parse the file at real path file? It
 * does if file is below dir (both real paths), no name on the way is
 * hidden, and the include and exclude patterns keep its name. */
static int walk_would_parse(const adexp_batch *b, const char *dir, const char *file)
{
    size_t n = strlen(dir);
    if (strncmp(file, dir, n) != 0 || (n > 0 && dir[n - 1] != '/' && file[n] != '/'))
        return 0;
    const char *name = file + n;
    for (const char *c = name; c; c = strchr(c, '/')) {
        while (*c == '/')
            c++;
        if (*c == '.')
            return 0;
        name = c;
    }
    return !filtered_out(b, name);
}

const char *adexp_batch_find_walked_input(const adexp_batch *b, int fd)
{
    struct stat st;
    char link[64], file[PATH_MAX + 1], dir[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, file, sizeof file - 1);
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0 || n <= 0 ||
        file[0] != '/')
        return NULL;
    file[n] = '\0';
    for (size_t i = 0; i < b->nroots; i++)
        if (!b->roots[i].data && b->roots[i].fd < 0 && strcmp(b->roots[i].path, "-") != 0 &&
            realpath(b->roots[i].path, dir) && walk_would_parse(b, dir, file))
            return b->roots[i].path;
    return NULL;
}

size_t adexp_batch_count(const adexp_batch *b)
{
    return b->ran ? b->n : b->nroots;
}

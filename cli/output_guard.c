#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output_guard.h"

static int stdout_was_closed;

void cli_guard_std_fds(void)
{
    static const int mode[3] = {O_WRONLY, O_RDONLY, O_WRONLY};
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            int n = open("/dev/null", mode[fd]);
            if (n >= 0 && n != fd)   /* the lowest free one: fd itself */
                close(n);
            stdout_was_closed |= fd == STDOUT_FILENO;
        }
}

int cli_stdout_writable(const char *prog)
{
    int fl = fcntl(STDOUT_FILENO, F_GETFL);
    if (fl >= 0 && (fl & O_ACCMODE) != O_RDONLY)
        return 1;
    fprintf(stderr, "%s: standard output is %s: nothing read or written\n", prog,
            stdout_was_closed || fl < 0 ? "closed" : "not open for writing");
    return 0;
}

int cli_open_output(const char *prog, const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0)
        fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
    return fd;
}

/* Is name (or "-": standard input) the file st describes? */
static int same_file(const char *name, const struct stat *st)
{
    struct stat ns;
    int rc = strcmp(name, "-") == 0 ? fstat(STDIN_FILENO, &ns) : stat(name, &ns);
    return rc == 0 && ns.st_dev == st->st_dev && ns.st_ino == st->st_ino;
}

const char *cli_find_input(int fd, char *const *names, int n)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return NULL;
    for (int i = 0; i < n; i++)
        if (same_file(names[i], &st))
            return names[i];
    return NULL;
}

int cli_claim_output(const char *prog, int fd, const char *output, const char *input)
{
    if (input) {
        fprintf(stderr, "%s: the output %s is the input %s: refused, "
                "nothing read or written\n", prog, output ? output : "(standard output)",
                input);
        return 2;
    }
    struct stat st;
    if (output && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ftruncate(fd, 0) != 0) {
        fprintf(stderr, "%s: %s: %s\n", prog, output, strerror(errno));
        return 1;
    }
    return 0;
}

int cli_flush_stdout(const char *prog)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    fprintf(stderr, "%s: standard output: %s\n", prog, strerror(errno));
    return 1;
}

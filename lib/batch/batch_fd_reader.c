/* Batch driver: a batch_reader over a descriptor, for standard input,
 * FIFOs, devices and process substitution (/dev/fd/N). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "batch_internal.h"

/* Wait until fd has bytes or is at its end. On Linux a FIFO that never
 * had a writer is not at its end for poll (read() would return 0 at once):
 * poll waits for the first writer. */
static int wait_readable(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    while (poll(&p, 1, -1) < 0)
        if (errno != EINTR)
            return -1;
    return 0;
}

static ssize_t fd_read(batch_reader *r, char *buf, size_t cap)
{
    batch_fd_reader *f = (batch_fd_reader *)r;
    for (;;) {
        if (f->poll && wait_readable(f->fd) != 0)
            break;
        ssize_t n = read(f->fd, buf, cap);
        if (n >= 0) {
            f->offset += (uint64_t)n;
            return n;
        }
        if (errno != EINTR && !(f->poll && (errno == EAGAIN || errno == EWOULDBLOCK)))
            break;
    }
    snprintf(r->error, sizeof r->error, "%s (after %llu bytes)", strerror(errno),
             (unsigned long long)f->offset);
    return -1;
}

static int fd_idle(batch_reader *r, int ms)
{
    struct pollfd p = {.fd = ((batch_fd_reader *)r)->fd, .events = POLLIN};
    int n;
    while ((n = poll(&p, 1, ms)) < 0 && errno == EINTR)
        ;
    return n == 0;
}

void batch_fd_reader_init(batch_fd_reader *f, int fd, int poll_first)
{
    memset(f, 0, sizeof *f);
    f->r.read = fd_read;
    f->r.idle = fd_idle;
    f->fd = fd;
    f->poll = poll_first;
}

/* Proof that malloc() in adexp-parse's link is jemalloc's: the thread's
 * allocation counter must grow by the size of a malloc. A loaded libjemalloc
 * is not enough (under ASan, mallctl answers while malloc is ASan's). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <jemalloc/jemalloc.h>

int main(void)
{
    uint64_t a0 = 0, a1 = 0;
    size_t sz = sizeof a0;
    if (mallctl("thread.allocated", &a0, &sz, NULL, 0) != 0) {
        puts("mallctl(thread.allocated) failed");
        return 1;
    }
    void *volatile q = malloc(1 << 16);
    sz = sizeof a1;
    mallctl("thread.allocated", &a1, &sz, NULL, 0);
    free(q);
    int ok = a1 - a0 >= (1u << 16);
    printf("malloc() served by jemalloc: %s (thread.allocated +%llu)\n",
           ok ? "yes" : "NO", (unsigned long long)(a1 - a0));
    return ok ? 0 : 1;
}

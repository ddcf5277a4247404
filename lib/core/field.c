/* Small accessors over the field tree and its slices. */
#include <string.h>

#include "adexp.h"

int adexp_slice_eq(adexp_slice s, const char *cstr)
{
    size_t n = strlen(cstr);
    return s.len == n && (n == 0 || memcmp(s.ptr, cstr, n) == 0);
}

const adexp_field *adexp_field_find(const adexp_field *first, const char *keyword)
{
    for (const adexp_field *f = first; f; f = f->next)
        if (adexp_slice_eq(f->keyword, keyword))
            return f;
    return NULL;
}

static int is_fold_sep(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

size_t adexp_fold_copy(adexp_slice s, char *dst, size_t cap)
{
    size_t n = 0;
    int pending = 0;           /* a separator run waits for the next byte */
    for (size_t i = 0; i < s.len; i++) {
        char c = s.ptr[i];
        if (is_fold_sep(c)) {
            pending = n > 0;
            continue;
        }
        if (pending) {
            if (n + 1 < cap)
                dst[n] = ' ';
            n++;
            pending = 0;
        }
        if (n + 1 < cap)
            dst[n] = c;
        n++;
    }
    if (cap > 0)
        dst[n < cap ? n : cap - 1] = '\0';
    return n;
}

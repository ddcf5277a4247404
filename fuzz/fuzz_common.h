/* Shared by the fuzz targets: option selection, checks, input copy.
 *
 * Option byte: an input whose first byte is a control byte other than a
 * separator (0x00-0x08, 0x0B, 0x0C, 0x0E-0x1F) uses that byte to pick the
 * parser options and parses the rest; any other input (every text file,
 * so testdata/ replays as it is) is parsed whole with the default options.
 *   bit 0     small limits (else the defaults)
 *   bits 1-2  max_errors: 0 (clamped to 1), 1, 3, default
 *   bits 3-4  scale of the small limits */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adexp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A failed invariant: say which and abort, so that libFuzzer saves the input
 * and the replay programs exit non-zero. */
#define FUZZ_CHECK(cond)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__,         \
                    __LINE__, #cond);                                          \
            abort();                                                           \
        }                                                                      \
    } while (0)

static inline int fuzz_is_option_byte(uint8_t c)
{
    return c < 0x20 && c != '\t' && c != '\n' && c != '\r';
}

/* Options for the input; advances *data and *size past an option byte. */
static inline adexp_options fuzz_options(const uint8_t **data, size_t *size)
{
    adexp_options o = adexp_options_default();
    if (*size == 0 || !fuzz_is_option_byte(**data))
        return o;
    unsigned c = **data;
    ++*data;
    --*size;
    static const uint32_t errs[4] = {0, 1, 3, ADEXP_DEFAULT_MAX_ERRORS};
    o.max_errors = errs[(c >> 1) & 3];
    if (c & 1) {
        unsigned v = (c >> 3) & 3;
        o.max_depth = 2 + v;
        o.max_fields = 4u << v;
        o.max_list_items = 3 + v;
        o.max_keyword_len = 5 + 2 * v;      /* TITLE must fit */
        o.max_message_size = (size_t)128 << v;
    }
    return o;
}

/* The input in a malloc'd buffer of exactly size bytes, so that ASan
 * reports any read past its end. Free with free(). */
static inline char *fuzz_copy(const uint8_t *data, size_t size)
{
    char *b = malloc(size ? size : 1);
    if (!b)
        abort();
    b[0] = 0;                  /* an empty input is still initialized memory */
    if (size)
        memcpy(b, data, size);
    return b;
}

/* s lies inside buf[0..len] (an empty slice may sit at buf + len). */
static inline int fuzz_slice_in(const char *buf, size_t len, const char *p, size_t n)
{
    return p >= buf && p <= buf + len && n <= (size_t)(buf + len - p);
}

#endif

/* The rule that a NUL byte inside a message is that message's NUL_BYTE
 * error (batch_nul.c). Shared by the batch driver and the Python module,
 * so that both say the same of the same bytes; not installed. */
#ifndef ADEXP_BATCH_NUL_H
#define ADEXP_BATCH_NUL_H

#include <stddef.h>
#include <stdint.h>

#include "adexp.h"
#include "lines.h"

/* A NUL byte inside message m of in becomes its error (its line and
 * column counted from the cursor, lines_cursor_at(0) for each input, which
 * sees its messages in order). Returns 1 if added. */
int batch_mark_nul(adexp_arena *arena, lines_cursor *c, const char *in, adexp_msg *m);

/* The first NUL of each message of one input, its messages in order: the
 * input is looked at ahead in steps of BATCH_NUL_STEP bytes, not message by
 * message (the call and the tail of each search cost as much as a short
 * message's bytes). `seen`: the bytes before it are looked at; `nul`: the
 * first NUL found there that no message has passed yet, or SIZE_MAX. */
#define BATCH_NUL_STEP (16u << 10)
typedef struct batch_nul_cursor {
    const char *in;
    size_t len, seen, nul;
} batch_nul_cursor;

batch_nul_cursor batch_nul_cursor_of(const char *in, size_t len);

/* The offset of the first NUL in in[from, to), at or past the last call's
 * `to`; SIZE_MAX if none. */
size_t batch_nul_in(batch_nul_cursor *c, size_t from, size_t to);

/* batch_mark_nul for the NUL at offset nul of in, inside m (from
 * batch_nul_in). Returns 1 if added. */
int batch_mark_nul_at(adexp_arena *arena, lines_cursor *c, const char *in, adexp_msg *m,
                      size_t nul);

/* memchr(p, 0, n), faster where there is none (the common case): the
 * binary probe of files and streams, and the search inside a message. */
const char *batch_find_nul(const char *p, size_t n);

#endif

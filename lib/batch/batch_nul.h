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

/* memchr(p, 0, n), faster where there is none (the common case): the
 * binary probe of files and streams, and the search inside a message. */
const char *batch_find_nul(const char *p, size_t n);

#endif

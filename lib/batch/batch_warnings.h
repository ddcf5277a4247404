/* The "warnings" cell of a CSV or TSV row (--validate): CODE:FIELD per
 * finding joined by ';'. Codes and paths hold no separator, quote or line
 * break, so the cell needs no quoting. One rule for adexp-parse's rows and
 * the Python tables (python/src/table.c). */
#ifndef BATCH_WARNINGS_H
#define BATCH_WARNINGS_H

#include <stddef.h>

#include "adexp.h"

/* The cell of fs (malloc'd, NUL-terminated, *len bytes; "" when fs has no
 * finding), or NULL when out of memory. */
char *batch_warnings_cell(const adexp_findings *fs, size_t *len);

#endif

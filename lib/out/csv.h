/* What the batch driver needs to know of a CSV row beyond adexp.h's
 * writers. Not installed. */
#ifndef ADEXP_CSV_H
#define ADEXP_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "adexp.h"

/* The bytes source's cell takes at the start of each row adexp_csv_write
 * writes (rows end at their only '\n': every value is folded), so that the
 * message's index, the next cell, is found after it: 0 when out of memory. */
size_t csv_source_cell_len(const char *source, char sep);

/* adexp_csv_write, adding the rows it wrote to *rows: the '\n's it wrote,
 * so that the driver need not count them again. */
adexp_status csv_write_rows(adexp_buf *out, const adexp_msg *msg, const char *source,
                            const adexp_select *sel, char sep, uint64_t *rows);

#endif

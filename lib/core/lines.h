/* Line breaks, counted by the parser's rule: LF, CRLF and a lone CR each
 * end a line. */
#ifndef ADEXP_LINES_H
#define ADEXP_LINES_H

#include <stddef.h>
#include <stdint.h>

/* Line breaks in in[from..to) of an input of len bytes. */
uint64_t lines_count(const char *in, size_t len, size_t from, size_t to);
/* Offset of the start of the line holding in[at]. */
size_t line_start(const char *in, size_t len, size_t at);

#endif

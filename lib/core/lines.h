/* Line breaks, counted by the parser's rule: LF, CRLF and a lone CR each
 * end a line. */
#ifndef ADEXP_LINES_H
#define ADEXP_LINES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Line breaks in in[from..to) of an input of len bytes. */
uint64_t lines_count(const char *in, size_t len, size_t from, size_t to);
/* Offset of the start of the line holding in[at] (its column 1: after a
 * byte order mark on line 1). */
size_t line_start(const char *in, size_t len, size_t at);

/* Where the last offset asked was: line and column are counted on from it
 * (forward, or back when an offset comes before it), so that asking for
 * offsets in about their order scans the input once. */
typedef struct lines_cursor {
    size_t start;              /* line 1, column 1 (after a byte order mark) */
    size_t off, bol;           /* the last offset asked, the start of its line */
    uint32_t line;             /* its line, from 1 */
} lines_cursor;

/* A cursor for an input whose line 1 starts at in[start]. */
static inline lines_cursor lines_cursor_at(size_t start)
{
    return (lines_cursor){start, start, start, 1};
}

/* The bytes of a UTF-8 byte order mark at the start of in[0..len) (3), or
 * 0. Editors write one and show none: it is no part of the text, and line
 * 1's columns count from the byte after it, in every position reported. */
static inline size_t lines_bom(const char *in, size_t len)
{
    return len >= 3 && memcmp(in, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

/* A cursor for the input in[0..len): line 1 starts after a byte order mark. */
static inline lines_cursor lines_cursor_of(const char *in, size_t len)
{
    return lines_cursor_at(lines_bom(in, len));
}

/* Line and column (both from 1; the column in bytes) of in[off], of an
 * input of len bytes, counted on from the cursor, which moves to off. */
void lines_locate(lines_cursor *c, const char *in, size_t len, size_t off, uint32_t *line,
                  uint32_t *column);

/* A line and column counted in a piece of an input made those of the
 * whole input, where the piece starts on line `line`, column0 bytes into
 * it: only the piece's first line is shifted right. */
static inline void lines_rebase(uint32_t *line, uint32_t *column, uint64_t piece_line,
                                size_t column0)
{
    if (*line == 1)
        *column += (uint32_t)column0;
    *line += (uint32_t)(piece_line - 1);
}

#endif

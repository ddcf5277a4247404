/* One message of adexp-parse's JSON (doc/json.md) back into a
 * field tree, by the library's builder. */
#ifndef ADEXP_JSON_MSG_H
#define ADEXP_JSON_MSG_H

#include <jansson.h>

#include "adexp.h"

/* The JSON line line[0..len) with its \udcXX escapes (bytes that are not
 * UTF-8) and \u0000 made readable by jansson and by json_msg_build, which
 * gives the bytes back: malloc'd, its length in *out_len; NULL when out of
 * memory. */
char *json_msg_line(const char *line, size_t len, size_t *out_len);

/* Builds msg from the JSON object root (of a line json_msg_line made) into b,
 * its "envelope" (if any) into msg->envelope with its strings in arena.
 * Returns 0, or -1 with a sentence in why[cap] naming the place
 * ("fields[4].items[1]: ...", "envelope: ..."). */
int json_msg_build(const json_t *root, adexp_builder *b, adexp_arena *arena, adexp_msg *msg,
                   char *why, size_t cap);

#endif

/* One message of adexp-parse's JSON (doc/json.md) back into a
 * field tree, by the library's builder. */
#ifndef ADEXP_JSON_MSG_H
#define ADEXP_JSON_MSG_H

#include <jansson.h>

#include "adexp.h"

/* Builds msg from the JSON object root into b. Returns 0, or -1 with a
 * sentence in why[cap] naming the place ("fields[4].items[1]: ..."). */
int json_msg_build(const json_t *root, adexp_builder *b, adexp_msg *msg, char *why,
                   size_t cap);

#endif

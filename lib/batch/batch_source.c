/* Batch driver: the `source` of a JSON line, quoted once per input.
 *
 * Every message of an input has the same source; escaping it (and checking
 * that it is UTF-8) for each message cost about 2% of the JSON output of a
 * big file. The worker keeps the last name it quoted; a name is compared
 * by its bytes, not its pointer, as an archive's member names are built in
 * one reused buffer. */
#include <string.h>

#include "batch_internal.h"
#include "json_out.h"

/* The quoted source of path (adexp_json_put_name's bytes), or a slice
 * with ptr NULL when out of memory. */
adexp_slice batch_json_source(batch_worker *w, const char *path)
{
    adexp_slice none = {NULL, 0};
    batch_source *c = &w->source;
    size_t n = strlen(path);
    if (!(c->name.data && c->name.len == n + 1 && memcmp(c->name.data, path, n) == 0)) {
        c->name.len = c->quoted.len = 0;
        if (!adexp_buf_put(&c->name, path, n + 1) ||
            !adexp_json_put_name(&c->quoted, (adexp_slice){path, n})) {
            c->name.len = 0;
            return none;
        }
    }
    return (adexp_slice){c->quoted.data, c->quoted.len};
}

void batch_source_free(batch_source *c)
{
    adexp_buf_free(&c->name);
    adexp_buf_free(&c->quoted);
}

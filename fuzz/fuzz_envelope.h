/* For the targets that write messages back: the envelopes of two messages
 * compared as their JSON objects. */
#ifndef FUZZ_ENVELOPE_H
#define FUZZ_ENVELOPE_H

#include "fuzz_common.h"
#include "json_out.h"

/* The JSON envelope objects of a and b are the same. */
static inline void fuzz_same_envelope(const adexp_msg *a, const adexp_msg *b)
{
    FUZZ_CHECK(a->envelope.present == b->envelope.present);
    if (!a->envelope.present)
        return;
    adexp_buf ja, jb;
    adexp_buf_init(&ja, NULL);
    adexp_buf_init(&jb, NULL);
    FUZZ_CHECK(adexp_json_put_envelope(&ja, &a->envelope) == 0);
    FUZZ_CHECK(adexp_json_put_envelope(&jb, &b->envelope) == 0);
    FUZZ_CHECK(ja.len == jb.len && memcmp(ja.data, jb.data, ja.len) == 0);
    adexp_buf_free(&ja);
    adexp_buf_free(&jb);
}

#endif

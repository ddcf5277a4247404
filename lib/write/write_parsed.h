/* adexp_write for a tree as the parser made it (write.c). Not installed. */
#ifndef ADEXP_WRITE_PARSED_H
#define ADEXP_WRITE_PARSED_H

#include "adexp.h"

/* adexp_write(out, msg, o, err) for msg as the parser made it, unchanged:
 * each field's dict_id is its keyword's entry or ADEXP_DICT_NONE (the
 * parser looked the keyword up), so a known keyword is written as its
 * entry's name without comparing its bytes; and, when the parser found no
 * error in it, the value of a field that is not ICAO text holds no '-'
 * (the parser ended it there: fuzz_roundtrip holds it to that), so that a
 * value is tested for separators only. The same text as adexp_write's for
 * such a tree; a tree built or changed by a program goes to adexp_write. */
adexp_status write_parsed(adexp_buf *out, const adexp_msg *msg, const adexp_write_options *o,
                          adexp_write_error *err);

#endif

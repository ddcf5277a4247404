/* The AFTN envelope around a written message (envelope.c). Not installed. */
#ifndef ADEXP_WRITE_ENVELOPE_H
#define ADEXP_WRITE_ENVELOPE_H

#include "adexp.h"

/* The name of env's first part that would not read back as itself
 * ("envelope.text"), or NULL when every part does. */
const char *write_envelope_check(const adexp_envelope *env);

/* Appends env's heading lines in its form, parts folded when fold, and the
 * text before the message; its end after it (NNNN, or VT ETX for IA-5; the
 * writer writes each when the message had it: present, closed). ADEXP_OK
 * or ADEXP_E_NOMEM (out as it was). */
adexp_status write_envelope_head(adexp_buf *out, const adexp_envelope *env, int fold);
adexp_status write_envelope_tail(adexp_buf *out, const adexp_envelope *env);

/* Whether a and b are the same envelope (present, closed, form) as the JSON
 * object shows it: the
 * same parts, word for word, and the same pieces of text that hold
 * words, in order (whichever lines held them). */
int write_envelope_same(const adexp_envelope *a, const adexp_envelope *b);

/* For a message with an ENVELOPE error (a garbled heading, NNNN missing),
 * which verify would refuse, or in bare lines (which read back as such
 * only when each is of its form): whether what was written at
 * out->data + from reads back with the same envelope and an ENVELOPE error
 * as it had or not. *part: NULL, or the first part that does not
 * ("envelope" when the error is lost or found).
 * ADEXP_OK or ADEXP_E_NOMEM. */
adexp_status write_envelope_reread(adexp_buf *out, size_t from, const adexp_msg *msg,
                                   const char **part);

#endif

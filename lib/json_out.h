/* The JSON writer's pieces shared by the library's other JSON outputs
 * (the typed view, validation warnings, ...): one escaping rule for every
 * string the library writes. Not installed. */
#ifndef ADEXP_JSON_OUT_H
#define ADEXP_JSON_OUT_H

#include "adexp.h"

/* Appends n bytes. Returns 0 when out of memory (out unchanged). */
int adexp_buf_put(adexp_buf *out, const char *s, size_t n);
/* Appends s as a JSON string, quotes included, escaped as adexp_json_write
 * does; fold: separator runs become one space and the ends are trimmed.
 * Returns 0 when out of memory (out unchanged). */
int adexp_json_put_string(adexp_buf *out, adexp_slice s, int fold);

/* json_name.c: `source`, lossless when the name is not UTF-8. */
int adexp_json_name_is_utf8(adexp_slice s);
/* Writes s as a JSON string at o (room: 6 * s.len + 2); returns the end. */
char *adexp_json_name_at(char *o, adexp_slice s);
/* Appends s so; returns 0 when out of memory (out unchanged). */
int adexp_json_put_name(adexp_buf *out, adexp_slice s);

#endif

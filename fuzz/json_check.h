/* A small strict JSON validator (RFC 8259 grammar, UTF-8 per RFC 3629). */
#ifndef FUZZ_JSON_CHECK_H
#define FUZZ_JSON_CHECK_H

#include <stddef.h>

/* Whether s[0..n) is one JSON text: ws value ws. On failure *err (if not
 * NULL) is the offset of the first bad byte. */
int json_check(const char *s, size_t n, size_t *err);

/* Whether s[0..n) is valid UTF-8: no overlong forms, no surrogates, nothing
 * above U+10FFFF. */
int utf8_check(const char *s, size_t n, size_t *err);

#endif

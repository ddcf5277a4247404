/* JSON strings as the library writes them: valid JSON and valid UTF-8
 * (bytes that are not UTF-8 become \udcXX), optionally folded (runs of
 * space, TAB, LF and CR become one space, both ends trimmed). Not installed.
 *
 * json_string is the fastest version this build has: it copies runs of
 * bytes that need no escape and no folding 16 (SSE2) or 8 (SWAR) bytes at a
 * time. The others are kept for lib/json/json_test.c, which checks on random
 * bytes that all of them write what json_string_scalar, the plain byte by
 * byte rule, writes. */
#ifndef ADEXP_JSON_STRING_H
#define ADEXP_JSON_STRING_H

#include "adexp.h"
#include "simd.h"

/* Bytes a string writer may store past the end of what it writes (its
 * output is at most 6 * s.len + 2 bytes: every byte \udcXX, two quotes). */
#define JSON_STRING_SLACK 16

/* Room a string of n bytes needs at o, or SIZE_MAX if that overflows. */
static inline size_t json_string_room(size_t n)
{
    return n > (SIZE_MAX - 2 - JSON_STRING_SLACK) / 6 ? SIZE_MAX
                                                      : 6 * n + 2 + JSON_STRING_SLACK;
}

/* Each writes s as a JSON string, quotes included, at o (room:
 * json_string_room(s.len)) and returns the end of what it wrote. */
char *json_string(char *o, adexp_slice s, int fold);
char *json_string_scalar(char *o, adexp_slice s, int fold);
char *json_string_bytes(char *o, adexp_slice s, int fold);   /* runs byte by byte */
char *json_string_swar(char *o, adexp_slice s, int fold);
#if SIMD_SSE2 && !defined(ADEXP_JSON_SCALAR)
#define JSON_STRING_SSE2 1
char *json_string_sse2(char *o, adexp_slice s, int fold);
#else
#define JSON_STRING_SSE2 0
#endif

#endif

/* The JSON writer's pieces shared by the library's other JSON outputs
 * (the typed view, validation warnings, ...): one escaping rule for every
 * string the library writes. Not installed. */
#ifndef ADEXP_JSON_OUT_H
#define ADEXP_JSON_OUT_H

#include "adexp.h"
#include "buf.h"
#include "utf8.h"

/* Appends s as a JSON string, quotes included, escaped as adexp_json_write
 * does; fold: separator runs become one space and the ends are trimmed.
 * Returns 0 when out of memory (out unchanged). */
int adexp_json_put_string(adexp_buf *out, adexp_slice s, int fold);
/* Appends ,"envelope":{...}, the message's AFTN envelope as adexp_json_write
 * writes it (doc/feeds.md), for the view's line. Returns 0, or -1 (out of
 * memory: out as it was). */
int adexp_json_put_envelope(adexp_buf *out, const adexp_envelope *env);

/* json_name.c: `source`, lossless when the name is not UTF-8. */
int adexp_json_name_is_utf8(adexp_slice s);
/* Writes s as a JSON string at o (room: 6 * s.len + 2); returns the end. */
char *adexp_json_name_at(char *o, adexp_slice s);
/* Appends s so; returns 0 when out of memory (out unchanged). */
int adexp_json_put_name(adexp_buf *out, adexp_slice s);
/* adexp_json_write with the source's JSON string (adexp_json_put_name's
 * bytes, quotes included) given: for a batch that writes many messages of
 * one input. The message's index starts at JSON_INDEX_AT(quoted.len)
 * bytes into its line. */
adexp_status adexp_json_write_quoted(adexp_buf *out, const adexp_msg *msg, adexp_slice quoted);
/* adexp_view_json_write alike (view_json.c). */
adexp_status adexp_view_json_write_quoted(adexp_buf *out, const adexp_msg *msg,
                                          adexp_slice quoted, const adexp_select *sel);
/* 0: adexp_json_write takes its SSE2 pieces on any CPU (for tests, which
 * check them against the AVX2 ones); 1 (the default): the CPU's best. */
void adexp_json_use_avx2(int on);
/* v in decimal at o (at most 20 bytes); returns the end. */
char *adexp_json_u64_at(char *o, uint64_t v);
#define JSON_INDEX_AT(quoted_len) (sizeof "{\"source\":" - 1 + (quoted_len) + sizeof ",\"index\":" - 1)

/* Length of the valid UTF-8 sequence at s[0..n) (n > 0), or 0: the one
 * rule of utf8.h; inline, as the JSON string writer's slow path calls it. */
static inline size_t json_utf8_len(const unsigned char *s, size_t n)
{
    unsigned cp;
    return adexp_utf8_seq(s, n, &cp);
}

#endif

/* The start of a known field's JSON object, '{"name":"KEYWORD"', and of a
 * basic one's, '{"name":"KEYWORD","value":"', for each dictionary entry
 * (generated into json_names.c by lib/gen_json_names.py), each written
 * with one fixed-size copy. Not installed. */
#ifndef ADEXP_JSON_NAMES_H
#define ADEXP_JSON_NAMES_H

#include "dict_ids.h"

/* '{"name":"' (9 bytes), the keyword, '"': at most 25 bytes. */
#define JSON_NAME_SIZE 31

typedef struct json_name {
    char text[JSON_NAME_SIZE];         /* NUL-padded */
    unsigned char len;                 /* of text; 0: no entry (write it in full) */
} json_name;

_Static_assert(9 + DICT_MAX_KEYWORD_LEN + 1 <= JSON_NAME_SIZE,
               "a dictionary keyword is too long for json_name");

extern const json_name json_names[DICT_COUNT];

/* '{"name":"' (9 bytes), the keyword, '","value":"' (11): at most 35. */
#define JSON_HEAD_SIZE 47
/* Bytes of a json_head copied at once: its text at the longest. */
#define JSON_HEAD_COPY 36

typedef struct json_head {
    char text[JSON_HEAD_SIZE];         /* NUL-padded */
    unsigned char len;                 /* of text: the keyword's length + 20 */
} json_head;

_Static_assert(9 + DICT_MAX_KEYWORD_LEN + 11 <= JSON_HEAD_COPY &&
                   JSON_HEAD_COPY <= JSON_HEAD_SIZE,
               "a dictionary keyword is too long for json_head");

extern const json_head json_heads[DICT_COUNT];

#endif

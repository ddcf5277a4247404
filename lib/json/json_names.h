/* The start of a known field's JSON object, '{"name":"KEYWORD"', and of a
 * basic one's, '{"name":"KEYWORD","value":"', for each dictionary entry
 * (generated into json_names.c by lib/json/gen_json_names.py), each written
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

/* '{"name":"' (9 bytes), the keyword, '","value":"' (11), for keywords of
 * at most 11 bytes (every usual one); len 0 for the longer ones, which the
 * writer writes as it writes the others. Copied whole, 32 bytes. */
#define JSON_HEAD_SIZE 31

typedef struct json_head {
    char text[JSON_HEAD_SIZE];         /* NUL-padded */
    unsigned char len;                 /* of text: the keyword's length + 20, or 0 */
} json_head;

extern const json_head json_heads[DICT_COUNT];

/* '{"name":"' (9 bytes), the keyword, '","fields":[' (12): a compound's
 * object up to its children, for keywords of at most 10 bytes; len 0 for
 * the others. Copied whole, 32 bytes, as json_heads. */
extern const json_head json_opens[DICT_COUNT];

#endif

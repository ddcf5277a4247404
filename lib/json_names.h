/* The start of a known field's JSON object, '{"name":"KEYWORD"', for each
 * dictionary entry (generated into json_names.c by lib/gen_json_names.py),
 * written with one fixed-size copy. Not installed. */
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

#endif

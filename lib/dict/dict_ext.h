/* A dictionary extended at run time (adexp_dict_load): the Edition 3.1
 * table with the rows of an extension file applied. Entries keep their ids:
 * the built-in keywords have the ids of dict_table, new keywords follow
 * them; allowed subfields are rows of bits as in the built-in table, in the
 * extension's own array of rows. Not installed. */
#ifndef ADEXP_DICT_EXT_H
#define ADEXP_DICT_EXT_H

#include "adexp.h"
#include "dict.h"

struct adexp_dictionary {
    dict_entry *entries;       /* count entries: dict_table's, then new ones */
    size_t count;
    uint8_t *changed;          /* per entry: not the built-in one (new, or
                                  extended): lookups give &entries[id] */
    uint16_t *check_as;        /* per entry: the built-in id whose value check
                                  applies (a basic field with the value class
                                  of a built-in basic field), or
                                  ADEXP_DICT_NONE */
    uint64_t (*rows)[DICT_SUB_WORDS];   /* nrows rows; sub_row indexes them */
    size_t nrows;
    uint16_t *slots;           /* open addressing over the new keywords' ids */
    size_t nslots;             /* a power of two, or 0 */
    void **owned;              /* keywords, value classes, subfield arrays */
    size_t nowned, owned_cap;
};

/* The entry for keyword[0..len) in d (NULL: the built-in table), or NULL. */
const dict_entry *dict_ext_lookup(const adexp_dictionary *d, const char *keyword,
                                  size_t len);

/* The entry of id in d (NULL: built-in), or NULL if there is none. */
static inline const dict_entry *dict_ext_entry(const adexp_dictionary *d, unsigned id)
{
    if (d)
        return id >= d->count ? NULL : d->changed[id] ? &d->entries[id] : &dict_table[id];
    return id < dict_count ? &dict_table[id] : NULL;
}

#endif

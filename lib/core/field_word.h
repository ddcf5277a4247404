/* A field's kind, flags and dict_id as one word, kind lowest, flags in
 * bits 8 to 15, dict_id in 16 to 31: a writer's "basic, no flag it shows,
 * an entry of the dictionary" is one or two tests of it. One load where
 * the three are neighbours in this order (adexp.h's layout,
 * little-endian). */
#ifndef ADEXP_FIELD_WORD_H
#define ADEXP_FIELD_WORD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "adexp.h"
#include "dict_ids.h"

#define FIELD_WORD(kind, flags, id) \
    ((uint32_t)(kind) | (uint32_t)(flags) << 8 | (uint32_t)(id) << 16)
#define FIELD_WORD_FLAGS FIELD_WORD(0, 0xFFu, 0)

static inline __attribute__((always_inline)) uint32_t field_word(const adexp_field *f)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    _Static_assert(offsetof(adexp_field, flags) == offsetof(adexp_field, kind) + 1 &&
                       offsetof(adexp_field, dict_id) == offsetof(adexp_field, kind) + 2,
                   "kind, flags and dict_id are neighbours");
    uint32_t w;
    memcpy(&w, (const char *)f + offsetof(adexp_field, kind), sizeof w);
    return w;
#else
    return FIELD_WORD(f->kind, f->flags, f->dict_id);
#endif
}

/* Whether the parser read route point f whole (ADEXP_FIELD_USUAL_POINT)
 * and its three subfields are all it has: they are then -PTID, -FL and
 * -ETO, basic, of no flag, not empty, at f->child[0..2], their values in
 * that order in one text, and f's value is empty (the flag's claim,
 * parser/usual_point.h, which paths_test and fuzz_paths hold the parser
 * to). One compare of the node's last eight bytes: nchildren 3, then the
 * field word (kind, flags, dict_id). */
static inline __attribute__((always_inline)) int field_point_whole(const adexp_field *f)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    _Static_assert(offsetof(adexp_field, kind) == offsetof(adexp_field, nchildren) + 4,
                   "nchildren is just before kind, flags and dict_id");
    uint64_t t;
    memcpy(&t, &f->nchildren, sizeof t);
    return t == (3u | (uint64_t)FIELD_WORD(ADEXP_COMPOUND, ADEXP_FIELD_USUAL_POINT, DICT_ID_PT)
                          << 32);
#else
    return f->nchildren == 3 &&
           field_word(f) == FIELD_WORD(ADEXP_COMPOUND, ADEXP_FIELD_USUAL_POINT, DICT_ID_PT);
#endif
}

#endif

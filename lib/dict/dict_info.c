/* The field dictionary for library users: the generated table behind
 * adexp_dict_info, and what kind of value each keyword decodes to. */
#include <string.h>

#include "adexp.h"
#include "dict.h"

/* The decoder a value class calls for. Classes with alternatives keep
 * their first form (date!timehhmm!seconds is a date-time). */
static adexp_value_type value_type(const char *vc)
{
    if (strcmp(vc, "flightlevel!(A|B)") == 0)
        return ADEXP_VALUE_LEVEL_AB;
    if (strcmp(vc, "flightlevel [point]") == 0)
        return ADEXP_VALUE_LEVEL_POINT;
    if (strncmp(vc, "flightlevel", 11) == 0)
        return ADEXP_VALUE_LEVEL;
    if (strncmp(vc, "latitude", 8) == 0 || strncmp(vc, "longitude", 9) == 0)
        return ADEXP_VALUE_COORD;
    if (strncmp(vc, "datetime", 8) == 0 || strncmp(vc, "date!timehhmm", 13) == 0)
        return ADEXP_VALUE_DATETIME;
    if (strcmp(vc, "date") == 0)
        return ADEXP_VALUE_DATE;
    if (strcmp(vc, "timehhmm") == 0 || strcmp(vc, "timehhmm!seconds") == 0)
        return ADEXP_VALUE_TIME;
    return ADEXP_VALUE_OTHER;
}

static void fill(const dict_entry *e, adexp_dict_info *out)
{
    out->keyword = e->keyword;
    out->id = dict_id(e);
    out->kind = e->kind;
    out->level = e->level;
    out->text = (e->flags & DICT_TEXT) != 0;
    out->value_class = e->value_class && e->value_class[0] ? e->value_class : "-";
    out->value_type = (uint8_t)value_type(out->value_class);
    out->nsub = e->nsub;
}

int adexp_dict_find(const char *keyword, adexp_dict_info *out)
{
    size_t n = keyword ? strlen(keyword) : 0;
    const dict_entry *e = n ? dict_lookup(keyword, n) : NULL;
    if (!e)
        return 0;
    fill(e, out);
    return 1;
}

int adexp_dict_get(uint16_t id, adexp_dict_info *out)
{
    if (id >= dict_count)
        return 0;
    fill(&dict_table[id], out);
    return 1;
}

const char *adexp_dict_sub(const adexp_dict_info *info, size_t i)
{
    if (info->id >= dict_count || i >= info->nsub)
        return NULL;
    return dict_table[dict_table[info->id].sub[i]].keyword;
}

int adexp_decode_when_as(adexp_value_type type, adexp_slice s, adexp_datetime *out)
{
    switch (type) {
    case ADEXP_VALUE_DATETIME:
        return adexp_decode_datetime(s, out) ? ADEXP_WHEN_DATETIME : ADEXP_WHEN_NONE;
    case ADEXP_VALUE_DATE:
        return adexp_decode_date(s, out) ? ADEXP_WHEN_DATE : ADEXP_WHEN_NONE;
    case ADEXP_VALUE_TIME:
        return adexp_decode_time(s, out) ? ADEXP_WHEN_TIME : ADEXP_WHEN_NONE;
    default:
        return adexp_decode_when(s, out);
    }
}

/* The decoded companions of raw values (RFL_ft, ETO_utc, LATTD_deg): one
 * rule for the view and the CSV writers. Written straight into the output,
 * digits copied from the validated raw value, as there are tens of them a
 * message. */
#include <string.h>

#include "adexp.h"
#include "select.h"

static char *put_long(char *o, long v)
{
    char tmp[24];
    size_t n = sizeof tmp;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    do
        tmp[--n] = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (v < 0)
        *o++ = '-';
    while (n < sizeof tmp)
        *o++ = tmp[n++];
    return o;
}

/* Degrees with at most 6 decimals, trailing zeros dropped: 50.5, -6. */
static char *put_deg(char *o, double deg)
{
    long micro = (long)((deg < 0 ? -deg : deg) * 1e6 + 0.5);
    if (deg < 0 && micro)
        *o++ = '-';
    o = put_long(o, micro / 1000000);
    long frac = micro % 1000000;
    if (frac) {
        int digits = 6;
        while (frac % 10 == 0)
            frac /= 10, digits--;
        *o++ = '.';
        for (int i = digits - 1; i >= 0; i--)
            o[i] = (char)('0' + frac % 10), frac /= 10;
        o += digits;
    }
    return o;
}

/* F390 or A045 in feet from its three digits d (39000, 4500; 0 for 000):
 * the level's digits without leading zeros, then 00. NULL if not digits. */
static char *hundreds(char *o, const char *d)
{
    for (int i = 0; i < 3; i++)
        if (d[i] < '0' || d[i] > '9')
            return NULL;
    int i = d[0] != '0' ? 0 : d[1] != '0' ? 1 : d[2] != '0' ? 2 : 3;
    if (i == 3) {
        *o++ = '0';
        return o;
    }
    for (; i < 3; i++)
        *o++ = d[i];
    o[0] = o[1] = '0';
    return o + 2;
}

static char *copy2(char *o, const char *s)
{
    o[0] = s[0];
    o[1] = s[1];
    return o + 2;
}

/* YYYY-MM-DD from a validated YYMMDD at s (century from year). */
static char *put_date(char *o, const char *s, int year)
{
    o = copy2(o, year >= 2000 ? "20" : "19");
    o = copy2(o, s);
    *o++ = '-';
    o = copy2(o, s + 2);
    *o++ = '-';
    return copy2(o, s + 4);
}

/* hh:mm from a validated hhmm at s, and :ss from sec (NULL: none). */
static char *put_time(char *o, const char *s, const char *sec)
{
    o = copy2(o, s);
    *o++ = ':';
    o = copy2(o, s + 2);
    if (sec) {
        *o++ = ':';
        o = copy2(o, sec);
    }
    return o;
}

/* YYYY-MM-DDThh:mm:ssZ from YYMMDDhhmmss (ETO, tens of them a message):
 * decoded (which checks it), then its digits placed in one pass. */
static char *iso_datetime12(char *o, adexp_slice v)
{
    adexp_datetime d;
    if (!adexp_decode_datetime(v, &d))
        return NULL;
    const char *s = v.ptr;
    char t[20] = {d.year >= 2000 ? '2' : '1', d.year >= 2000 ? '0' : '9', s[0], s[1], '-',
                  s[2], s[3], '-', s[4], s[5], 'T', s[6], s[7], ':', s[8], s[9], ':',
                  s[10], s[11], 'Z'};
    memcpy(o, t, sizeof t);
    return o + sizeof t;
}

static char *when(char *o, int type, adexp_slice v, adexp_slice eobd)
{
    adexp_datetime d, day;
    switch (adexp_decode_when_as((adexp_value_type)type, v, &d)) {
    case ADEXP_WHEN_DATETIME:
        o = put_date(o, v.ptr, d.year);
        *o++ = 'T';
        o = put_time(o, v.ptr + 6, v.len == 12 ? v.ptr + 10 : "00");
        *o++ = 'Z';
        return o;
    case ADEXP_WHEN_DATE:
        return put_date(o, v.ptr, d.year);
    case ADEXP_WHEN_TIME:
        if (eobd.ptr && adexp_decode_date(eobd, &day)) {
            o = put_date(o, eobd.ptr, day.year);
            *o++ = 'T';
            o = put_time(o, v.ptr, "00");
            *o++ = 'Z';
            return o;
        }
        return put_time(o, v.ptr, NULL);
    default:
        return NULL;
    }
}

/* The companions but the usual two (F/A feet, a 12-digit date-time), out
 * of line so that those two take a call without a heavy frame. */
#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

static NOINLINE char *other_companion(char *o, int suffix, int type, adexp_slice v,
                                      adexp_slice eobd)
{
    adexp_level l;
    double deg;
    switch (suffix) {
    case SUF_FT:
        return adexp_decode_level_any(v, &l) ? put_long(o, adexp_level_feet(l)) : NULL;
    case SUF_M:
        return adexp_decode_level_any(v, &l) ? put_long(o, adexp_level_metres(l)) : NULL;
    case SUF_DEG:
        return adexp_decode_coord(v, &deg) ? put_deg(o, deg) : NULL;
    case SUF_UTC:
        return when(o, type, v, eobd);
    default:
        return NULL;
    }
}

char *sel_companion_at(char *o, int suffix, int type, adexp_slice v, adexp_slice eobd)
{
    if (suffix == SUF_FT && v.len == 4 && (v.ptr[0] == 'F' || v.ptr[0] == 'A'))
        return hundreds(o, v.ptr + 1);
    if (suffix == SUF_UTC && v.len == 12 && type != ADEXP_VALUE_DATE && type != ADEXP_VALUE_TIME)
        return iso_datetime12(o, v);
    return other_companion(o, suffix, type, v, eobd);
}

/* The decoded companions of raw values (RFL_ft, ETO_utc, LATTD_deg): one
 * rule for the view and the CSV writers. Written straight into the output,
 * digits copied from the validated raw value, as there are tens of them a
 * message. */
#include <string.h>

#include "adexp.h"
#include "decode_words.h"
#include "internal.h"
#include "json_out.h"
#include "select.h"

static char *put_long(char *o, long v)
{
    if (v < 0)
        *o++ = '-';
    return adexp_json_u64_at(o, v < 0 ? 0UL - (unsigned long)v : (unsigned long)v);
}

/* Whole degrees, at most 180: digit by digit, not by the general number
 * writer. */
static char *put_whole_deg(char *o, unsigned d)
{
    if (d >= 100)
        *o++ = (char)('0' + d / 100);
    if (d >= 10)
        *o++ = (char)('0' + d / 10 % 10);
    *o++ = (char)('0' + d % 10);
    return o;
}

/* Degrees of micro millionths with at most 6 decimals, trailing zeros
 * dropped: 50.5, -6. */
static char *put_deg(char *o, long micro)
{
    if (micro < 0)
        *o++ = '-';
    unsigned long u = micro < 0 ? 0UL - (unsigned long)micro : (unsigned long)micro;
    o = put_whole_deg(o, (unsigned)(u / 1000000));
    unsigned long frac = u % 1000000;
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

/* A coordinate of whole degrees (most: 490000N) is written from its
 * degrees, with no millionths to make. */
char *sel_deg_at(char *o, adexp_slice v)
{
    int d, m, sec, neg;
    if (!dw_coord_parts(v.ptr, v.len, &d, &m, &sec, &neg))
        return NULL;
    if (m | sec)
        return put_deg(o, dw_coord_micro(d, m, sec, neg));
    if (neg && d)
        *o++ = '-';
    return put_whole_deg(o, (unsigned)d);
}

/* The level of v as its value type writes it: SFL's with its A or B, RFL's
 * with its point, any other alone. */
static int level_of(int type, adexp_slice v, adexp_level *l)
{
    char cond;
    adexp_slice point;
    if (type == ADEXP_VALUE_LEVEL_AB)
        return adexp_decode_sfl(v, l, &cond);
    if (type == ADEXP_VALUE_LEVEL_POINT)
        return adexp_decode_rfl(v, l, &point);
    return adexp_decode_level_any(v, l);
}

static NOINLINE char *other_companion(char *o, int suffix, int type, adexp_slice v,
                                      adexp_slice eobd)
{
    adexp_level l;
    switch (suffix) {
    case SUF_FT:
        return level_of(type, v, &l) ? put_long(o, adexp_level_feet(l)) : NULL;
    case SUF_M:
        return level_of(type, v, &l) ? put_long(o, adexp_level_metres(l)) : NULL;
    case SUF_DEG:
        return sel_deg_at(o, v);
    case SUF_UTC:
        return when(o, type, v, eobd);
    default:
        return NULL;
    }
}

char *sel_companion_at(char *o, int suffix, int type, adexp_slice v, adexp_slice eobd)
{
    if (suffix == SUF_FT && v.len == 4 && (v.ptr[0] == 'F' || v.ptr[0] == 'A') &&
        type != ADEXP_VALUE_LEVEL_AB)
        return dw_feet(o, v.ptr);
    if (suffix == SUF_UTC && v.len == 12 && type != ADEXP_VALUE_DATE && type != ADEXP_VALUE_TIME)
        return dw_datetime_ok(v.ptr, 12) ? dw_iso12(o, v.ptr) : NULL;
    if (suffix == SUF_UTC && v.len == 6 && type == ADEXP_VALUE_DATE)   /* EOBD */
        return dw_date_ok(v.ptr) ? dw_iso_date(o, v.ptr) : NULL;
    if (suffix == SUF_UTC && v.len == 4 && type == ADEXP_VALUE_TIME && eobd.len == 6 &&
        dw_time_ok(v.ptr) && dw_date_ok(eobd.ptr))   /* EOBT on its EOBD's day */
        return dw_iso_day_time(o, eobd.ptr, v.ptr);
    if (suffix == SUF_UTC && v.len == 4 && type == ADEXP_VALUE_TIME && !eobd.ptr)   /* TO */
        return dw_time_ok(v.ptr) ? dw_iso_clock(o, v.ptr) : NULL;
    return other_companion(o, suffix, type, v, eobd);
}

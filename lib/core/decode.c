/* Decoders for levels, coordinates, dates and times. */
#include <string.h>

#include "adexp.h"
#include "decode_words.h"

/* The number in s[from, from + n) if all digits, else -1. */
static int digits(adexp_slice s, size_t from, size_t n)
{
    int v = 0;
    if (from + n > s.len)
        return -1;
    for (size_t i = from; i < from + n; i++) {
        unsigned char c = (unsigned char)s.ptr[i];
        if (c < '0' || c > '9')
            return -1;
        v = v * 10 + (c - '0');
    }
    return v;
}

int adexp_decode_level(adexp_slice s, adexp_level *out)
{
    if (s.len < 1)
        return 0;
    char unit = s.ptr[0];
    size_t n = (unit == 'F' || unit == 'A') ? 3 : (unit == 'S' || unit == 'M') ? 4 : 0;
    if (n == 0 || s.len != n + 1)
        return 0;
    int v = digits(s, 1, n);
    if (v < 0)
        return 0;
    out->unit = unit;
    out->value = v;
    return 1;
}

/* The month's own length: 29 February only in leap years. */
static inline int valid_date(const adexp_datetime *d)
{
    static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (d->month < 1 || d->month > 12 || d->day < 1 || d->day > mdays[d->month - 1])
        return 0;
    if (d->month != 2 || d->day < 29)
        return 1;
    return (d->year % 4 == 0 && d->year % 100 != 0) || d->year % 400 == 0;
}

static int valid_time(const adexp_datetime *d)
{
    return d->hour <= 23 && d->minute <= 59 && d->second <= 59;
}

static int read_date(adexp_slice s, adexp_datetime *d)
{
    int yy = digits(s, 0, 2);
    d->month = digits(s, 2, 2);
    d->day = digits(s, 4, 2);
    if (yy < 0 || d->month < 0 || d->day < 0)
        return 0;
    d->year = yy < 70 ? 2000 + yy : 1900 + yy;
    return valid_date(d);
}

int adexp_decode_date(adexp_slice s, adexp_datetime *out)
{
    adexp_datetime d = {0, 0, 0, 0, 0, 0};
    if (s.len != 6 || !read_date(s, &d))
        return 0;
    *out = d;
    return 1;
}

int adexp_decode_time(adexp_slice s, adexp_datetime *out)
{
    adexp_datetime d = {0, 0, 0, 0, 0, 0};
    if (s.len != 4)
        return 0;
    d.hour = digits(s, 0, 2);
    d.minute = digits(s, 2, 2);
    if (d.hour < 0 || d.minute < 0 || !valid_time(&d))
        return 0;
    *out = d;
    return 1;
}

/* The two digits at p as a number. */
static int two(const char *p)
{
    return (p[0] - '0') * 10 + (p[1] - '0');
}

/* YYMMDDhhmm[ss]: checked by decode_words.h's rule (its digits a word at a
 * time, its ranges as digit pairs), as there are tens of them a message
 * (ETO). */
int adexp_decode_datetime(adexp_slice s, adexp_datetime *out)
{
    if ((s.len != 10 && s.len != 12) || !dw_datetime_ok(s.ptr, s.len))
        return 0;
    *out = (adexp_datetime){dw_year(s.ptr), two(s.ptr + 2), two(s.ptr + 4), two(s.ptr + 6),
                            two(s.ptr + 8), s.len == 12 ? two(s.ptr + 10) : 0};
    return 1;
}

/* ------------------------------------------------------------ extensions */

int adexp_decode_level_any(adexp_slice s, adexp_level *out)
{
    if (adexp_decode_level(s, out))
        return ADEXP_LEVEL_STANDARD;
    /* FL390: the form of ICAO text and of many feeds, not of ADEXP. */
    if (s.len == 5 && s.ptr[0] == 'F' && s.ptr[1] == 'L') {
        int v = digits(s, 2, 3);
        if (v < 0)
            return 0;
        out->unit = 'F';
        out->value = v;
        return ADEXP_LEVEL_NONSTANDARD;
    }
    return 0;
}

/* SFL's flightlevel ! ('A' | 'B'): the level, and whether the point is
 * crossed at or above it (A) or at or below it (B). */
int adexp_decode_sfl(adexp_slice s, adexp_level *out, char *cond)
{
    if (s.len < 2 || (s.ptr[s.len - 1] != 'A' && s.ptr[s.len - 1] != 'B'))
        return 0;
    int kind = adexp_decode_level_any((adexp_slice){s.ptr, s.len - 1}, out);
    if (kind)
        *cond = s.ptr[s.len - 1];
    return kind;
}

static int is_sep(char c)
{
    return c == ' ' || c == '\r' || c == '\n' || c == '\t';
}

/* RFL's flightlevel [point]: the level, then separators and the point (2
 * to 5 letters or digits) if there is one; point->ptr NULL if not. */
int adexp_decode_rfl(adexp_slice s, adexp_level *out, adexp_slice *point)
{
    size_t n = 0;
    while (n < s.len && !is_sep(s.ptr[n]))
        n++;
    size_t at = n;
    while (at < s.len && is_sep(s.ptr[at]))
        at++;
    size_t end = s.len;
    while (end > at && is_sep(s.ptr[end - 1]))
        end--;
    if (at < end && (end - at < 2 || end - at > 5))
        return 0;
    for (size_t i = at; i < end; i++) {
        char c = s.ptr[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
            return 0;
    }
    int kind = adexp_decode_level_any((adexp_slice){s.ptr, n}, out);
    if (kind)
        *point = at < end ? (adexp_slice){s.ptr + at, end - at} : (adexp_slice){NULL, 0};
    return kind;
}

/* S and M levels count tens of metres; a foot is 0.3048 m exactly. */
long adexp_level_feet(adexp_level l)
{
    if (l.unit == 'F' || l.unit == 'A')
        return 100L * l.value;
    return (long)((double)l.value * 10.0 / 0.3048 + 0.5);
}

long adexp_level_metres(adexp_level l)
{
    if (l.unit == 'S' || l.unit == 'M')
        return 10L * l.value;
    return (long)((double)l.value * 100.0 * 0.3048 + 0.5);
}

int adexp_decode_coord(adexp_slice s, double *deg)
{
    int d, m, sec, neg;
    if (!dw_coord_parts(s.ptr, s.len, &d, &m, &sec, &neg))
        return 0;
    double v = d + m / 60.0 + sec / 3600.0;
    *deg = neg ? -v : v;
    return 1;
}

int adexp_decode_coord_micro(adexp_slice s, long *micro)
{
    int d, m, sec, neg;
    if (!dw_coord_parts(s.ptr, s.len, &d, &m, &sec, &neg))
        return 0;
    *micro = dw_coord_micro(d, m, sec, neg);
    return 1;
}

int adexp_decode_when(adexp_slice s, adexp_datetime *out)
{
    if (s.len == 12 || s.len == 10)
        return adexp_decode_datetime(s, out) ? ADEXP_WHEN_DATETIME : ADEXP_WHEN_NONE;
    if (s.len == 6)
        return adexp_decode_date(s, out) ? ADEXP_WHEN_DATE : ADEXP_WHEN_NONE;
    if (s.len == 4)
        return adexp_decode_time(s, out) ? ADEXP_WHEN_TIME : ADEXP_WHEN_NONE;
    return ADEXP_WHEN_NONE;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar
 * (H. Hinnant's days_from_civil). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

int64_t adexp_datetime_to_time(const adexp_datetime *d)
{
    int64_t days = d->year ? days_from_civil(d->year, d->month, d->day) : 0;
    return days * 86400 + d->hour * 3600 + d->minute * 60 + d->second;
}

static char *put2(char *o, int v)
{
    *o++ = (char)('0' + v / 10 % 10);
    *o++ = (char)('0' + v % 10);
    return o;
}

size_t adexp_when_format(int kind, const adexp_datetime *d, char buf[ADEXP_WHEN_BUF])
{
    char *o = buf;
    if (kind == ADEXP_WHEN_DATETIME || kind == ADEXP_WHEN_DATE) {
        o = put2(put2(o, d->year / 100), d->year % 100);
        *o++ = '-';
        o = put2(o, d->month);
        *o++ = '-';
        o = put2(o, d->day);
    }
    if (kind == ADEXP_WHEN_DATETIME)
        *o++ = 'T';
    if (kind == ADEXP_WHEN_DATETIME || kind == ADEXP_WHEN_TIME) {
        o = put2(o, d->hour);
        *o++ = ':';
        o = put2(o, d->minute);
    }
    if (kind == ADEXP_WHEN_DATETIME) {
        *o++ = ':';
        o = put2(o, d->second);
        *o++ = 'Z';
    }
    *o = '\0';
    return (size_t)(o - buf);
}

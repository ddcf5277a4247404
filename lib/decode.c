/* Decoders for levels, dates and times. */
#include "adexp.h"

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

static int valid_date(const adexp_datetime *d)
{
    return d->month >= 1 && d->month <= 12 && d->day >= 1 && d->day <= 31;
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

int adexp_decode_datetime(adexp_slice s, adexp_datetime *out)
{
    adexp_datetime d = {0, 0, 0, 0, 0, 0};
    if ((s.len != 10 && s.len != 12) || !read_date(s, &d))
        return 0;
    d.hour = digits(s, 6, 2);
    d.minute = digits(s, 8, 2);
    d.second = s.len == 12 ? digits(s, 10, 2) : 0;
    if (d.hour < 0 || d.minute < 0 || d.second < 0 || !valid_time(&d))
        return 0;
    *out = d;
    return 1;
}

/* A strict JSON validator for the fuzz targets: the RFC 8259 grammar
 *   JSON-text = ws value ws
 *   value = false / null / true / object / array / number / string
 * with strings of unescaped bytes >= 0x20 (no '"' or '\'), the escapes
 * \" \\ \/ \b \f \n \r \t \uXXXX, and raw bytes that must be valid UTF-8. */
#include "json_check.h"

typedef struct jp {
    const unsigned char *s;
    size_t n, i;
    unsigned depth;
} jp;

#define JSON_MAX_DEPTH 100000u

/* Length of the valid UTF-8 sequence at s[0..n), or 0 (RFC 3629 table). */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    unsigned lo = 0x80, hi = 0xBF;
    size_t len;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0;                 /* no overlong */
        else if (c == 0xED)
            hi = 0x9F;                 /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;                 /* <= U+10FFFF */
    } else
        return 0;
    if (len > n || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return len;
}

int utf8_check(const char *str, size_t n, size_t *err)
{
    const unsigned char *s = (const unsigned char *)str;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_seq(s + i, n - i);
        if (!k) {
            if (err)
                *err = i;
            return 0;
        }
        i += k;
    }
    return 1;
}

static void ws(jp *p)
{
    while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' ||
                           p->s[p->i] == '\n' || p->s[p->i] == '\r'))
        p->i++;
}

static int lit(jp *p, const char *w)
{
    for (; *w; w++, p->i++)
        if (p->i >= p->n || p->s[p->i] != (unsigned char)*w)
            return 0;
    return 1;
}

static int is_hex(unsigned c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int digits(jp *p)
{
    size_t start = p->i;
    while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
        p->i++;
    return p->i > start;
}

static int number(jp *p)
{
    if (p->i < p->n && p->s[p->i] == '-')
        p->i++;
    if (p->i >= p->n)
        return 0;
    if (p->s[p->i] == '0')
        p->i++;
    else if (p->s[p->i] >= '1' && p->s[p->i] <= '9')
        digits(p);
    else
        return 0;
    if (p->i < p->n && p->s[p->i] == '.') {
        p->i++;
        if (!digits(p))
            return 0;
    }
    if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
        p->i++;
        if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
            p->i++;
        if (!digits(p))
            return 0;
    }
    return 1;
}

static int string(jp *p)
{
    if (p->i >= p->n || p->s[p->i] != '"')
        return 0;
    p->i++;
    while (p->i < p->n) {
        unsigned c = p->s[p->i];
        if (c == '"') {
            p->i++;
            return 1;
        }
        if (c < 0x20)
            return 0;
        if (c == '\\') {
            if (++p->i >= p->n)
                return 0;
            c = p->s[p->i++];
            if (c == 'u') {
                for (int k = 0; k < 4; k++, p->i++)
                    if (p->i >= p->n || !is_hex(p->s[p->i]))
                        return 0;
            } else if (!(c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' ||
                         c == 'n' || c == 'r' || c == 't')) {
                p->i--;
                return 0;
            }
            continue;
        }
        size_t k = utf8_seq(p->s + p->i, p->n - p->i);
        if (!k)
            return 0;
        p->i += k;
    }
    return 0;
}

static int value(jp *p);

static int container(jp *p, unsigned char close, int object)
{
    if (++p->depth > JSON_MAX_DEPTH)
        return 0;
    p->i++;                            /* '[' or '{' */
    ws(p);
    if (p->i < p->n && p->s[p->i] == close) {
        p->i++;
        p->depth--;
        return 1;
    }
    for (;;) {
        if (object) {
            if (!string(p))
                return 0;
            ws(p);
            if (p->i >= p->n || p->s[p->i] != ':')
                return 0;
            p->i++;
            ws(p);
        }
        if (!value(p))
            return 0;
        ws(p);
        if (p->i >= p->n)
            return 0;
        if (p->s[p->i] == close) {
            p->i++;
            p->depth--;
            return 1;
        }
        if (p->s[p->i] != ',')
            return 0;
        p->i++;
        ws(p);
    }
}

static int value(jp *p)
{
    if (p->i >= p->n)
        return 0;
    switch (p->s[p->i]) {
    case '{':
        return container(p, '}', 1);
    case '[':
        return container(p, ']', 0);
    case '"':
        return string(p);
    case 't':
        return lit(p, "true");
    case 'f':
        return lit(p, "false");
    case 'n':
        return lit(p, "null");
    default:
        return number(p);
    }
}

int json_check(const char *s, size_t n, size_t *err)
{
    jp p = {(const unsigned char *)s, n, 0, 0};
    ws(&p);
    int ok = value(&p);
    if (ok) {
        ws(&p);
        ok = p.i == n;
    }
    if (!ok && err)
        *err = p.i;
    return ok;
}

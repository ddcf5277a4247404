/* Batch driver: names (paths, archive members) as shown in diagnostics.
 *
 * A name goes to standard error escaped, so that it can neither forge a
 * diagnostic line (a newline in it) nor drive the terminal (ESC, C1
 * controls): printable UTF-8 is shown as it is; backslash as \\; \n, \r
 * and \t as such; every other control byte, DEL, the C1 controls and the
 * bytes that are not valid UTF-8 as \xHH. The escaping is reversible, so
 * two names never show the same.
 */
#include <string.h>

#include "batch_internal.h"
#include "utf8.h"

/* Bytes shown as they are, with no look at what follows. */
static int plain(unsigned char c)
{
    return c >= 0x20 && c < 0x7F && c != '\\';
}

/* Length of the escape-free run at the start of s: ASCII and the valid
 * UTF-8 sequences that are not C1 controls. */
static size_t shown_as_is(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned cp = 0;
        size_t k;
        if (plain(s[i]))
            i++;
        else if (s[i] >= 0x80 && (k = adexp_utf8_seq(s + i, n - i, &cp)) && cp >= 0xA0)
            i += k;
        else
            break;
    }
    return i;
}

static int put_escape(batch_str *s, unsigned char c)
{
    switch (c) {
    case '\\': return batch_str_printf(s, "\\\\");
    case '\n': return batch_str_printf(s, "\\n");
    case '\r': return batch_str_printf(s, "\\r");
    case '\t': return batch_str_printf(s, "\\t");
    default: return batch_str_printf(s, "\\x%02X", c);
    }
}

int batch_str_put_name(batch_str *s, const char *name)
{
    const unsigned char *p = (const unsigned char *)name;
    size_t n = strlen(name);
    while (n) {
        size_t k = shown_as_is(p, n);
        if (k && batch_str_printf(s, "%.*s", (int)k, (const char *)p) != 0)
            return -1;
        p += k;
        n -= k;
        if (n && put_escape(s, *p) != 0)
            return -1;
        if (n)
            p++, n--;
    }
    return 0;
}

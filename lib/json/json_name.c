/* The JSON writer's `source`: a name (a path, an archive member) written
 * losslessly even when it is not UTF-8.
 *
 * A name that is valid UTF-8 is written as every JSON string is. In a name
 * that is not, each byte of an invalid sequence (always >= 0x80) is written
 * as \udcXX: a lone low surrogate, the "surrogateescape" scheme of Python's
 * file names (PEP 383). No UTF-8 name holds a surrogate, so such a source
 * never equals a real UTF-8 name, and os.fsencode(json.loads(line)["source"])
 * gives back the name's bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "json_out.h"
#include "utf8.h"

int adexp_json_name_is_utf8(adexp_slice s)
{
    const unsigned char *p = (const unsigned char *)s.ptr;
    for (size_t i = 0; i < s.len;) {
        unsigned cp;
        size_t k = p[i] < 0x80 ? 1 : adexp_utf8_seq(p + i, s.len - i, &cp);
        if (!k)
            return 0;
        i += k;
    }
    return 1;
}

/* The name as a JSON string at o (room: 6 * s.len + 2). */
char *adexp_json_name_at(char *o, adexp_slice s)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s.ptr;
    *o++ = '"';
    for (size_t i = 0; i < s.len;) {
        unsigned cp;
        unsigned char c = p[i];
        size_t k = c < 0x80 ? 1 : adexp_utf8_seq(p + i, s.len - i, &cp);
        if (c == '"' || c == '\\') {
            *o++ = '\\', *o++ = (char)c;
        } else if (c < 0x20 || c == 0x7F) {
            memcpy(o, "\\u00", 4), o += 4;
            *o++ = hex[c >> 4], *o++ = hex[c & 15];
        } else if (k) {
            memcpy(o, p + i, k), o += k;
            i += k;
            continue;
        } else {
            memcpy(o, "\\udc", 4), o += 4;
            *o++ = hex[c >> 4], *o++ = hex[c & 15];
        }
        i++;
    }
    *o++ = '"';
    return o;
}

int adexp_json_put_name(adexp_buf *out, adexp_slice s)
{
    if (adexp_json_name_is_utf8(s))
        return adexp_json_put_string(out, s, 0);
    char *tmp = s.len < (SIZE_MAX - 2) / 6 ? malloc(6 * s.len + 2) : NULL;
    if (!tmp)
        return 0;
    int ok = adexp_buf_put(out, tmp, (size_t)(adexp_json_name_at(tmp, s) - tmp));
    free(tmp);
    return ok;
}

/* Where a message starts: the one rule for the parser, the splitter of big
 * inputs, the stream reader and the binary probe (see lexer.h). */
#define _GNU_SOURCE            /* memmem */
#include <string.h>

#include "lexer.h"

size_t lexer_title_end(const char *buf, size_t len, size_t dash)
{
    size_t i = dash + 1;
    while (i < len && is_sep((unsigned char)buf[i]))
        i++;
    if (len - i < 5 || memcmp(buf + i, "TITLE", 5) != 0)
        return 0;
    i += 5;
    /* the keyword ends here: TITLEX or TITLE1 is another keyword */
    return i == len || buf[i] == '-' || is_sep((unsigned char)buf[i]) ? i : 0;
}

/* The '-' before the "TITLE" at t, over separators, or len if there is none. */
static size_t dash_before(const char *buf, size_t len, size_t t)
{
    while (t > 0 && is_sep((unsigned char)buf[t - 1]))
        t--;
    return t > 0 && buf[t - 1] == '-' ? t - 1 : len;
}

int lexer_title_quoted(const char *buf, size_t dash)
{
    while (dash > 0 && is_sep((unsigned char)buf[dash - 1]))
        dash--;
    return dash > 0 && buf[dash - 1] == '(';
}

size_t lexer_next_title(const char *buf, size_t len, size_t from)
{
    /* "TITLE" is rarer than '-' (a field in every line): look for it, then
     * back for its '-' */
    for (size_t i = from; i < len;) {
        const char *t = memmem(buf + i, len - i, "TITLE", 5);
        if (!t)
            break;
        size_t at = (size_t)(t - buf), dash = dash_before(buf, len, at);
        if (dash < len && dash >= from && lexer_title_end(buf, len, dash))
            return dash;
        i = at + 1;
    }
    return len;
}

/* The head of a diagnostic line, in the GNU style that editors and
 * compilers' users know: "PATH:LINE:COL: error: " (or "PATH: error: " for
 * an input as a whole), with "warning:" for validation findings and
 * "note:" for what is only said (a skipped entry). With o.color the
 * severity word is coloured as GCC colours it. */
#include "batch_internal.h"

static const char *const words[] = {"error", "warning", "note"};
static const char *const colors[] = {"\033[1;31m", "\033[1;35m", "\033[1;36m"};

void batch_put_head(batch_worker *w, const char *path, unsigned line, unsigned col,
                    enum batch_severity sev)
{
    batch_str_put_name(&w->res.err, path);
    if (line)
        batch_str_printf(&w->res.err, ":%u:%u", line, col);
    if (w->b->o.color)
        batch_str_printf(&w->res.err, ": %s%s:\033[0m ", colors[sev], words[sev]);
    else
        batch_str_printf(&w->res.err, ": %s: ", words[sev]);
}

/* The names a selection gives, against the dictionary: a keyword of
 * --fields or --rows that the dictionary (with its extensions) does not
 * know is most likely a typo, refused with the closest known keywords;
 * and the --title titles that no message had, for a warning at the end
 * (titles are not in the dictionary: TITLE's syntax is any 1 to 10
 * letters, so an unknown one cannot be refused up front). */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "adexp.h"
#include "dict_ext.h"
#include "select.h"

#define MAX_SUGGEST 3

/* Edit distance of a and b (insertions, deletions, substitutions and
 * swaps of neighbours: ARCDI is one from ARCID), up to keywords' length. */
static unsigned distance(const char *a, size_t n, const char *b, size_t m)
{
    enum { L = 64 };
    unsigned d[L + 1][L + 1];
    if (n > L || m > L)
        return L;
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (unsigned)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (unsigned)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            unsigned best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

/* " (did you mean A, B or C?)" for the keywords of d closest to
 * kw[0..n), when some are close (a third of its letters, at least one). */
static void suggest(const adexp_dictionary *d, const char *kw, size_t n, char *out,
                    size_t cap)
{
    const char *best[MAX_SUGGEST];
    size_t nbest = 0;
    unsigned most = n / 3 > 1 ? (unsigned)(n / 3) : 1, low = most + 1;
    size_t count = d ? d->count : dict_count;
    for (size_t id = 0; id < count; id++) {
        const dict_entry *e = dict_ext_entry(d, (unsigned)id);
        if (!e || e->level == DICT_SYNTAX)
            continue;
        unsigned k = distance(kw, n, e->keyword, e->len);
        if (k > most || k > low)
            continue;
        if (k < low)
            low = k, nbest = 0;
        if (nbest < MAX_SUGGEST)
            best[nbest++] = e->keyword;
    }
    out[0] = '\0';
    if (cap == 0 || nbest == 0)
        return;
    size_t len = (size_t)snprintf(out, cap, " (did you mean ");
    for (size_t i = 0; i < nbest && len < cap; i++)
        len += (size_t)snprintf(out + len, cap - len, "%s%s",
                                i == 0 ? "" : i + 1 == nbest ? " or " : ", ", best[i]);
    if (len < cap)
        snprintf(out + len, cap - len, "?)");
}

static int unknown(const adexp_dictionary *d, const char *option, const char *name,
                   const char *kw, size_t n, char *err, size_t cap)
{
    char hint[100];
    suggest(d, kw, n, hint, sizeof hint);
    if (cap) {
        if (strlen(name) == n)
            snprintf(err, cap, "%s: unknown field %s%s", option, name, hint);
        else
            snprintf(err, cap, "%s: unknown field %.*s in %s%s", option, (int)n, kw, name, hint);
    }
    return -1;
}

/* Each '.'-separated keyword of path (suffix already cut) known to d. */
static int check_path(const adexp_dictionary *d, const char *name, const char *path,
                      char *err, size_t cap)
{
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ".");
        if (!dict_ext_lookup(d, p, n))
            return unknown(d, "--fields", name, p, n, err, cap);
        p += n + (p[n] == '.');
    }
    return 0;
}

int adexp_select_check_names(const adexp_select *sel, const adexp_dictionary *d, char *err,
                             size_t cap)
{
    if (!sel)
        return 0;
    if (sel->rows) {
        const dict_entry *e = dict_ext_lookup(d, sel->rows, strlen(sel->rows));
        if (!e)
            return unknown(d, "--rows", sel->rows, sel->rows, strlen(sel->rows), err, cap);
        if (e->kind != ADEXP_LIST) {
            if (cap)
                snprintf(err, cap, "--rows: %s is not a list", sel->rows);
            return -1;
        }
    }
    for (size_t i = 0; sel->has_fields && i < sel->ncols; i++)
        if (!sel->cols[i].envelope && check_path(d, sel->cols[i].name, sel->cols[i].path, err, cap) != 0)
            return -1;
    return 0;
}

/* The envelope's parts by enum sel_envelope, less one. */
static const char *const envelope_parts[] = {
    "form", "transmission_id", "priority", "addressees", "filing_time", "originator", "text",
};
#define NPARTS (sizeof envelope_parts / sizeof *envelope_parts)

int sel_envelope_part(const char *name, size_t n, char *err, size_t cap)
{
    char low[64];
    size_t m = n < sizeof low ? n : sizeof low - 1;
    for (size_t i = 0; i < m; i++)
        low[i] = (char)tolower((unsigned char)name[i]);
    unsigned best = UINT_MAX;
    size_t near = 0;
    for (size_t k = 0; k < NPARTS; k++) {
        size_t len = strlen(envelope_parts[k]);
        if (len == n && memcmp(low, envelope_parts[k], n) == 0)
            return (int)k + 1;
        unsigned d = distance(low, m, envelope_parts[k], len);
        if (d < best)
            best = d, near = k;
    }
    if (!cap)
        return -1;
    unsigned most = m / 3 > 1 ? (unsigned)(m / 3) : 1;
    if (best <= most) {
        snprintf(err, cap, "--fields: unknown envelope part %.*s (did you mean %s%s?)",
                 (int)m, name, SEL_ENVELOPE_PREFIX, envelope_parts[near]);
        return -1;
    }
    size_t len = (size_t)snprintf(err, cap, "--fields: unknown envelope part %.*s (one of",
                                  (int)m, name);
    for (size_t k = 0; k < NPARTS && len < cap; k++)
        len += (size_t)snprintf(err + len, cap - len, "%s %s%s", k ? "," : "",
                                SEL_ENVELOPE_PREFIX, envelope_parts[k]);
    if (len < cap)
        snprintf(err + len, cap - len, ")");
    return -1;
}

size_t adexp_select_unseen_titles(const adexp_select *sel, char *out, size_t cap)
{
    size_t count = 0, len = 0;
    if (cap)
        out[0] = '\0';
    for (size_t i = 0; sel && i < sel->ntitles; i++) {
        if (__atomic_load_n(&sel->seen[i], __ATOMIC_RELAXED))
            continue;
        if (len < cap)
            len += (size_t)snprintf(out + len, cap - len, "%s%s", count ? "," : "",
                                    sel->titles[i]);
        count++;
    }
    return count;
}

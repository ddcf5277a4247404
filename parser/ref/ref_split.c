/* Reference parser 2: the same line-oriented logic as ref_regex.c without
 * regular expressions. Logical lines (ref__logical_lines), then each line is
 * split on '-' into pieces and each piece on its first space into keyword and
 * value, with plain loops; keywords and values are copied with malloc. Used by
 * the differential tests and the benchmark; not part of libadexp. */
#include <stdlib.h>
#include <string.h>

#include "ref.h"

typedef struct piece {
    const char *p;
    size_t n;
} piece;

static int is_space(char c)
{
    return c == ' ' || c == '\t';
}

/* Split s on '-' into a malloc'd array of pieces (what strings.Split does):
 * "-PT -PTID X" gives "", "PT ", "PTID X". */
static piece *split_dash(const char *s, size_t *count)
{
    size_t n = 1;
    for (const char *c = s; *c; c++)
        n += *c == '-';
    piece *v = malloc(n * sizeof *v);
    if (!v)
        return NULL;
    size_t k = 0;
    const char *start = s;
    for (const char *c = s;; c++) {
        if (*c == '-' || *c == '\0') {
            v[k].p = start;
            v[k].n = (size_t)(c - start);
            k++;
            start = c + 1;
            if (*c == '\0')
                break;
        }
    }
    *count = k;
    return v;
}

/* Keyword (up to the first space) and right-trimmed value of a piece, both
 * malloc'd. */
static int key_value(piece pc, char **kw, char **val)
{
    size_t i = 0;
    while (i < pc.n && !is_space(pc.p[i]))
        i++;
    size_t vs = i;
    while (vs < pc.n && is_space(pc.p[vs]))
        vs++;
    size_t ve = pc.n;
    while (ve > vs && is_space(pc.p[ve - 1]))
        ve--;
    *kw = ref__strndup(pc.p, i);
    *val = ref__strndup(pc.p + vs, ve - vs);
    if (*kw && *val)
        return 0;
    free(*kw);
    free(*val);
    return -1;
}

static int parse_compound(ref_view *v, const piece *pcs, size_t n, int geo)
{
    char **slots[3];
    static const char *const est_names[3] = {"PTID", "ETO", "FL"};
    static const char *const geo_names[3] = {"GEOID", "LATTD", "LONGTD"};
    const char *const *names = geo ? geo_names : est_names;
    if (geo) {
        ref_geo *g = ref__new_geo(v);
        if (!g)
            return -1;
        slots[0] = &g->geoid, slots[1] = &g->lattd, slots[2] = &g->longtd;
    } else {
        ref_estdata *e = ref__new_estdata(v);
        if (!e)
            return -1;
        slots[0] = &e->ptid, slots[1] = &e->eto, slots[2] = &e->fl;
    }
    for (size_t i = 2; i < n; i++) {     /* pieces[0] = "", [1] = the keyword */
        char *kw, *val;
        if (key_value(pcs[i], &kw, &val))
            return -1;
        ref__keep_named(slots, names, kw, val);
        free(kw);
    }
    return 0;
}

static int parse_list(ref_view *v, const piece *pcs, size_t n)
{
    char *kw, *name;
    if (key_value(pcs[1], &kw, &name))   /* "BEGIN RTEPTS" */
        return -1;
    int rtepts = strcmp(name, "RTEPTS") == 0;
    free(kw);
    free(name);
    if (!rtepts)
        return 0;
    ref_point *pt = NULL;
    for (size_t i = 2; i < n; i++) {
        char *sub, *val;
        if (key_value(pcs[i], &sub, &val))
            return -1;
        if (ref__rtepts_sub(v, &pt, sub, val) != 0) {
            free(sub);
            return -1;
        }
        int end = strcmp(sub, "END") == 0;
        free(sub);
        if (end)
            break;
    }
    return 0;
}

static int parse_line(ref_view *v, const char *line)
{
    if (line[0] != '-')
        return 0;              /* not a field line: skipped */
    size_t klen = 1;
    while (line[klen] && line[klen] != ' ')
        klen++;
    char *kw = ref__strndup(line + 1, klen - 1);
    if (!kw)
        return -1;
    int compound = strcmp(kw, "ESTDATA") == 0 || strcmp(kw, "GEO") == 0;
    if (compound || strcmp(kw, "BEGIN") == 0) {
        size_t n;
        piece *pcs = split_dash(line, &n);
        int geo = strcmp(kw, "GEO") == 0;
        free(kw);
        if (!pcs)
            return -1;
        int rc = compound ? parse_compound(v, pcs, n, geo) : parse_list(v, pcs, n);
        free(pcs);
        return rc;
    }
    /* a basic field: the value is the rest of the line, '-' included */
    const char *val = line + klen;
    while (*val == ' ')
        val++;
    char *copy = ref__strndup(val, strlen(val));
    if (!copy) {
        free(kw);
        return -1;
    }
    return ref__set_basic(v, kw, copy);
}

int ref_split_parse(const char *buf, size_t len, ref_view *out)
{
    memset(out, 0, sizeof *out);
    ref_lines lines;
    if (ref__logical_lines(buf, len, &lines))
        return -1;
    int rc = lines.n ? 0 : -1;
    for (size_t i = 0; i < lines.n && rc == 0; i++)
        rc = parse_line(out, lines.v[i]);
    ref__lines_free(&lines);
    return rc;
}

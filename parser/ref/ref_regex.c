/* Reference parser 1: POSIX regular expressions, line-oriented, like the
 * classic Go ADEXP parsers. Logical lines (ref__logical_lines), then one
 * pattern for "-KEYWORD value", one for each "-SUB value" of a compound or
 * list line, one for a list's name. The patterns are compiled once; every
 * keyword and value is copied with malloc. Used by the differential tests and
 * the benchmark; not part of libadexp. */
#include <pthread.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"

static regex_t re_field;       /* -KEYWORD [value] */
static regex_t re_sub;         /* -SUB value, repeated */
static regex_t re_list;        /* NAME rest, after -BEGIN */
static int re_ok;
static pthread_once_t re_once = PTHREAD_ONCE_INIT;

static void compile_once(void)
{
    re_ok = regcomp(&re_field, "^-([A-Z0-9]+)( +(.*))?$", REG_EXTENDED) == 0 &&
            regcomp(&re_sub, "-([A-Z0-9]+) *([^-]*)", REG_EXTENDED) == 0 &&
            regcomp(&re_list, "^([A-Z0-9]+) *(.*)$", REG_EXTENDED) == 0;
}

/* A malloc'd copy of the match m in s, right-trimmed. */
static char *dup_match(const char *s, regmatch_t m)
{
    if (m.rm_so < 0)
        return ref__strndup("", 0);
    regoff_t e = m.rm_eo;
    while (e > m.rm_so && (s[e - 1] == ' ' || s[e - 1] == '\t'))
        e--;
    return ref__strndup(s + m.rm_so, (size_t)(e - m.rm_so));
}

/* -ESTDATA -PTID X -ETO Y -FL Z and -GEO -GEOID G -LATTD A -LONGTD O. */
static int parse_compound(ref_view *v, const char *kw, const char *rest)
{
    char **slots[3];
    const char *names[3];
    if (strcmp(kw, "ESTDATA") == 0) {
        ref_estdata *e = ref__new_estdata(v);
        if (!e)
            return -1;
        slots[0] = &e->ptid, slots[1] = &e->eto, slots[2] = &e->fl;
        names[0] = "PTID", names[1] = "ETO", names[2] = "FL";
    } else {
        ref_geo *g = ref__new_geo(v);
        if (!g)
            return -1;
        slots[0] = &g->geoid, slots[1] = &g->lattd, slots[2] = &g->longtd;
        names[0] = "GEOID", names[1] = "LATTD", names[2] = "LONGTD";
    }
    regmatch_t m[3];
    for (const char *p = rest; regexec(&re_sub, p, 3, m, p == rest ? 0 : REG_NOTBOL) == 0;
         p += m[0].rm_eo) {
        char *sub = dup_match(p, m[1]), *val = dup_match(p, m[2]);
        if (!sub || !val) {
            free(sub);
            free(val);
            return -1;
        }
        ref__keep_named(slots, names, sub, val);
        free(sub);
        if (m[0].rm_eo == 0)
            break;
    }
    return 0;
}

/* -BEGIN RTEPTS -PT -PTID X -FL F -ETO T -PT ... -END RTEPTS */
static int parse_list(ref_view *v, const char *rest)
{
    regmatch_t m[3];
    if (regexec(&re_list, rest, 3, m, 0) != 0)
        return 0;
    char *name = dup_match(rest, m[1]);
    if (!name)
        return -1;
    int rtepts = strcmp(name, "RTEPTS") == 0;
    free(name);
    if (!rtepts)
        return 0;
    const char *items = rest + m[2].rm_so;
    ref_point *pt = NULL;
    for (const char *p = items; regexec(&re_sub, p, 3, m, p == items ? 0 : REG_NOTBOL) == 0;
         p += m[0].rm_eo) {
        char *sub = dup_match(p, m[1]), *val = dup_match(p, m[2]);
        if (!sub || !val) {
            free(sub);
            free(val);
            return -1;
        }
        if (ref__rtepts_sub(v, &pt, sub, val) != 0) {
            free(sub);
            return -1;
        }
        int end = strcmp(sub, "END") == 0;
        free(sub);
        if (end || m[0].rm_eo == 0)
            break;
    }
    return 0;
}

static int parse_line(ref_view *v, const char *line)
{
    regmatch_t m[4];
    if (regexec(&re_field, line, 4, m, 0) != 0)
        return 0;              /* not a field line: skipped */
    char *kw = dup_match(line, m[1]);
    if (!kw)
        return -1;
    const char *rest = m[3].rm_so >= 0 ? line + m[3].rm_so : "";
    int rc;
    if (strcmp(kw, "ESTDATA") == 0 || strcmp(kw, "GEO") == 0) {
        rc = parse_compound(v, kw, rest);
        free(kw);
    } else if (strcmp(kw, "BEGIN") == 0) {
        rc = parse_list(v, rest);
        free(kw);
    } else {
        char *val = dup_match(line, m[3]);
        if (!val) {
            free(kw);
            return -1;
        }
        rc = ref__set_basic(v, kw, val);
    }
    return rc;
}

int ref_regex_parse(const char *buf, size_t len, ref_view *out)
{
    memset(out, 0, sizeof *out);
    pthread_once(&re_once, compile_once);
    if (!re_ok)
        return -1;
    ref_lines lines;
    if (ref__logical_lines(buf, len, &lines))
        return -1;
    int rc = lines.n ? 0 : -1;
    for (size_t i = 0; i < lines.n && rc == 0; i++)
        rc = parse_line(out, lines.v[i]);
    ref__lines_free(&lines);
    return rc;
}

/* What the two reference parsers share: the ref_view and its field
 * assignment, the logical-line splitter, the adapter from the main parser's
 * typed view, and the folded comparison used by the differential tests. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"

char *ref__strndup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

void ref__keep(char **slot, char *val)
{
    if (*slot)
        free(val);
    else
        *slot = val;
}

static int grow(void **v, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 8;
    void *nv = realloc(*v, c * size);
    if (!nv)
        return -1;
    memset((char *)nv + *cap * size, 0, (c - *cap) * size);
    *v = nv;
    *cap = c;
    return 0;
}

int ref__push_string(ref_strings *s, char *str)
{
    if (grow((void **)&s->v, &s->cap, s->n, sizeof *s->v)) {
        free(str);
        return -1;
    }
    s->v[s->n++] = str;
    return 0;
}

ref_estdata *ref__new_estdata(ref_view *v)
{
    if (grow((void **)&v->estdata, &v->cap_estdata, v->n_estdata, sizeof *v->estdata))
        return NULL;
    return &v->estdata[v->n_estdata++];
}

ref_geo *ref__new_geo(ref_view *v)
{
    if (grow((void **)&v->geo, &v->cap_geo, v->n_geo, sizeof *v->geo))
        return NULL;
    return &v->geo[v->n_geo++];
}

ref_point *ref__new_point(ref_view *v)
{
    if (grow((void **)&v->rtepts, &v->cap_rtepts, v->n_rtepts, sizeof *v->rtepts))
        return NULL;
    return &v->rtepts[v->n_rtepts++];
}

void ref__keep_named(char **const slots[3], const char *const names[3],
                     const char *sub, char *val)
{
    for (int i = 0; i < 3; i++) {
        if (strcmp(sub, names[i]) == 0) {
            ref__keep(slots[i], val);
            return;
        }
    }
    free(val);
}

int ref__rtepts_sub(ref_view *v, ref_point **pt, const char *sub, char *val)
{
    if (strcmp(sub, "PT") == 0) {
        free(val);
        return (*pt = ref__new_point(v)) ? 0 : -1;
    }
    if (*pt && strcmp(sub, "PTID") == 0)
        ref__keep(&(*pt)->ptid, val);
    else if (*pt && strcmp(sub, "FL") == 0)
        ref__keep(&(*pt)->fl, val);
    else if (*pt && strcmp(sub, "ETO") == 0)
        ref__keep(&(*pt)->eto, val);
    else
        free(val);
    return 0;
}

int ref__set_basic(ref_view *v, char *kw, char *val)
{
    char **slot = NULL;
    int rc = 0;
    if (strcmp(kw, "TITLE") == 0)
        slot = &v->title;
    else if (strcmp(kw, "ADEP") == 0)
        slot = &v->adep;
    else if (strcmp(kw, "ALTNZ") == 0)
        slot = &v->altnz;
    else if (strcmp(kw, "ADES") == 0)
        slot = &v->ades;
    else if (strcmp(kw, "ARCID") == 0)
        slot = &v->arcid;
    else if (strcmp(kw, "ARCTYP") == 0)
        slot = &v->arctyp;
    else if (strcmp(kw, "CEQPT") == 0)
        slot = &v->ceqpt;
    else if (strcmp(kw, "MSGTXT") == 0)
        slot = &v->msgtxt;
    else if (strcmp(kw, "COMMENT") == 0)
        slot = &v->comment;
    else if (strcmp(kw, "EETFIR") == 0) {
        rc = ref__push_string(&v->eetfir, val);
        val = NULL;
    } else if (strcmp(kw, "SPEED") == 0) {
        rc = ref__push_string(&v->speed, val);
        val = NULL;
    }
    if (slot) {
        ref__keep(slot, val);
        val = NULL;
    }
    free(val);
    free(kw);
    return rc;
}

/* ---------------------------------------------------------------- lines */

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int push_line(ref_lines *l, char *s)
{
    if (!s)
        return -1;
    if (grow((void **)&l->v, &l->cap, l->n, sizeof *l->v)) {
        free(s);
        return -1;
    }
    l->v[l->n++] = s;
    return 0;
}

/* Append " " + s[0..n) to *line, of length *len and capacity *cap (doubling,
 * so a long -BEGIN block is folded in linear time). */
static int append(char **line, size_t *len, size_t *cap, const char *s, size_t n)
{
    size_t need = *len + 1 + n + 1;
    if (need > *cap) {
        size_t c = *cap * 2 > need ? *cap * 2 : need;
        char *nl = realloc(*line, c);
        if (!nl)
            return -1;
        *line = nl;
        *cap = c;
    }
    (*line)[*len] = ' ';
    memcpy(*line + *len + 1, s, n);
    *len += 1 + n;
    (*line)[*len] = '\0';
    return 0;
}

/* The bytes of s[0..n) up to the ')' that closes the bracket *depth deep
 * (past it), or n when it stays open; *depth follows the brackets. */
static size_t close_at(const char *s, size_t n, size_t *depth)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '(')
            ++*depth;
        else if (s[i] == ')' && *depth && --*depth == 0)
            return i + 1;
    }
    return n;
}

/* The brackets left open at the end of field line s[0..n) when it is an
 * ICAO text field (MSGTXT, OLDMSG) whose value starts with '(': its value
 * runs to the matching ')', over lines and '-' alike (FORMAT.md); else 0.
 * *stop: past that ')' when it closes on the line, else n. */
static size_t text_left_open(const char *s, size_t n, size_t *stop)
{
    *stop = n;
    size_t k = 1;
    while (k < n && !is_blank(s[k]))
        k++;
    char kw[64];
    adexp_dict_info info;
    if (k - 1 >= sizeof kw)
        return 0;
    memcpy(kw, s + 1, k - 1);
    kw[k - 1] = '\0';
    if (!adexp_dict_find(kw, &info) || !info.text)
        return 0;
    while (k < n && is_blank(s[k]))
        k++;
    if (k == n || s[k] != '(')
        return 0;
    size_t depth = 0;
    *stop = k + close_at(s + k, n - k, &depth);
    return depth;
}

int ref__logical_lines(const char *buf, size_t len, ref_lines *out)
{
    memset(out, 0, sizeof *out);
    char *end_name = NULL;     /* "END X" while inside a -BEGIN X block */
    size_t end_len = 0;
    size_t depth = 0;          /* brackets open in a text field's value */
    size_t i = 0, last_len = 0, last_cap = 0;   /* of out->v[out->n - 1] */
    while (i < len) {
        size_t s = i;
        while (i < len && buf[i] != '\n')
            i++;
        size_t e = i;
        if (i < len)
            i++;
        while (s < e && is_blank(buf[s]))
            s++;
        while (e > s && is_blank(buf[e - 1]))
            e--;
    piece:                     /* s..e: the line, or what follows a text's ')' */
        if (s == e)
            continue;
        if (depth) {           /* the text's value, up to its ')' */
            size_t stop = s + close_at(buf + s, e - s, &depth);
            if (append(&out->v[out->n - 1], &last_len, &last_cap, buf + s, stop - s))
                goto fail;
            s = stop;
            while (s < e && is_blank(buf[s]))
                s++;
            if (s == e)
                continue;      /* the rest of the line, if any, as any line */
        }
        if (buf[s] != '-' || end_name) {
            if (out->n == 0) {             /* text before the first field */
                if (push_line(out, ref__strndup(buf + s, e - s)))
                    goto fail;
                last_len = e - s;
                last_cap = last_len + 1;
            } else if (append(&out->v[out->n - 1], &last_len, &last_cap, buf + s, e - s)) {
                goto fail;
            }
            if (end_name && buf[s] == '-' && e - s == end_len + 1 &&
                memcmp(buf + s + 1, end_name, end_len) == 0) {
                free(end_name);
                end_name = NULL;
            }
            continue;
        }
        size_t stop, n;
        depth = text_left_open(buf + s, e - s, &stop);
        for (n = stop; n < e - s && is_blank(buf[s + n]); n++)
            ;
        if (n == e - s || buf[s + n] != '-')
            stop = n = e - s;  /* the line is the field's, unless a field follows its ')' */
        if (push_line(out, ref__strndup(buf + s, stop)))
            goto fail;
        last_len = stop;
        last_cap = last_len + 1;
        if (stop < e - s) {
            s += n;
            goto piece;
        }
        if (e - s > 7 && strncmp(buf + s, "-BEGIN ", 7) == 0) {
            end_name = malloc(e - s);
            if (!end_name)
                goto fail;
            memcpy(end_name, "END ", 4);
            memcpy(end_name + 4, buf + s + 7, e - s - 7);
            end_len = e - s - 3;
            end_name[end_len] = '\0';
        }
    }
    free(end_name);
    return 0;
fail:
    free(end_name);
    ref__lines_free(out);
    return -1;
}

void ref__lines_free(ref_lines *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

/* ---------------------------------------------------------------- view */

void ref_view_free(ref_view *v)
{
    free(v->title);
    free(v->adep);
    free(v->altnz);
    free(v->ades);
    free(v->arcid);
    free(v->arctyp);
    free(v->ceqpt);
    free(v->msgtxt);
    free(v->comment);
    for (size_t i = 0; i < v->eetfir.n; i++)
        free(v->eetfir.v[i]);
    free(v->eetfir.v);
    for (size_t i = 0; i < v->speed.n; i++)
        free(v->speed.v[i]);
    free(v->speed.v);
    for (size_t i = 0; i < v->n_estdata; i++) {
        free(v->estdata[i].ptid);
        free(v->estdata[i].eto);
        free(v->estdata[i].fl);
    }
    free(v->estdata);
    for (size_t i = 0; i < v->n_geo; i++) {
        free(v->geo[i].geoid);
        free(v->geo[i].lattd);
        free(v->geo[i].longtd);
    }
    free(v->geo);
    for (size_t i = 0; i < v->n_rtepts; i++) {
        free(v->rtepts[i].ptid);
        free(v->rtepts[i].fl);
        free(v->rtepts[i].eto);
    }
    free(v->rtepts);
    memset(v, 0, sizeof *v);
}

/* A folded malloc'd copy of s, NULL for an absent slice; sets *ok on OOM. */
static char *fold_dup(adexp_slice s, int *ok)
{
    if (!s.ptr)
        return NULL;
    char *d = malloc(s.len + 1);
    if (!d) {
        *ok = 0;
        return NULL;
    }
    adexp_fold_copy(s, d, s.len + 1);
    return d;
}

int ref_view_from_msg(const adexp_msg *msg, ref_view *out)
{
    const adexp_view *v = &msg->view;
    int ok = 1;
    memset(out, 0, sizeof *out);
    out->title = fold_dup(v->title, &ok);
    out->adep = fold_dup(v->adep, &ok);
    out->altnz = fold_dup(v->altnz, &ok);
    out->ades = fold_dup(v->ades, &ok);
    out->arcid = fold_dup(v->arcid, &ok);
    out->arctyp = fold_dup(v->arctyp, &ok);
    out->ceqpt = fold_dup(v->ceqpt, &ok);
    out->msgtxt = fold_dup(v->msgtxt, &ok);
    out->comment = fold_dup(v->comment, &ok);
    for (size_t i = 0; ok && i < v->eetfir.n; i++)
        ok = ref__push_string(&out->eetfir, fold_dup(v->eetfir.v[i], &ok)) == 0 && ok;
    for (size_t i = 0; ok && i < v->speed.n; i++)
        ok = ref__push_string(&out->speed, fold_dup(v->speed.v[i], &ok)) == 0 && ok;
    for (size_t i = 0; ok && i < v->n_estdata; i++) {
        ref_estdata *e = ref__new_estdata(out);
        if (!e)
            return -1;
        e->ptid = fold_dup(v->estdata[i].ptid, &ok);
        e->eto = fold_dup(v->estdata[i].eto, &ok);
        e->fl = fold_dup(v->estdata[i].fl, &ok);
    }
    for (size_t i = 0; ok && i < v->n_geo; i++) {
        ref_geo *g = ref__new_geo(out);
        if (!g)
            return -1;
        g->geoid = fold_dup(v->geo[i].geoid, &ok);
        g->lattd = fold_dup(v->geo[i].lattd, &ok);
        g->longtd = fold_dup(v->geo[i].longtd, &ok);
    }
    for (size_t i = 0; ok && i < v->n_rtepts; i++) {
        ref_point *p = ref__new_point(out);
        if (!p)
            return -1;
        p->ptid = fold_dup(v->rtepts[i].ptid, &ok);
        p->fl = fold_dup(v->rtepts[i].fl, &ok);
        p->eto = fold_dup(v->rtepts[i].eto, &ok);
    }
    return ok ? 0 : -1;
}

int ref_main_parse(const char *buf, size_t len, ref_view *out)
{
    adexp_arena arena;
    adexp_msg msg;
    adexp_arena_init(&arena, NULL);
    adexp_status st = adexp_parse(buf, len, &arena, &msg);
    int rc = st == ADEXP_E_NOMEM ? -1 : ref_view_from_msg(&msg, out);
    if (st == ADEXP_E_NOMEM)
        memset(out, 0, sizeof *out);
    adexp_arena_free(&arena);
    return rc;
}

/* ---------------------------------------------------------------- compare */

/* The next byte of s folded, from *i; 0 at the end. *sp tracks a pending
 * space. */
static int fold_next(const char *s, size_t *i, int *started)
{
    int sep = 0;
    while (s[*i] && is_blank(s[*i])) {
        sep = 1;
        (*i)++;
    }
    if (!s[*i])
        return 0;
    if (sep && *started)
        return ' ';
    *started = 1;
    return (unsigned char)s[(*i)++];
}

int ref_fold_equal(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    size_t i = 0, j = 0;
    int sa = 0, sb = 0;
    for (;;) {
        int ca = fold_next(a, &i, &sa), cb = fold_next(b, &j, &sb);
        if (ca != cb)
            return 0;
        if (ca == 0)
            return 1;
    }
}

static int diff(char *why, size_t cap, const char *what, size_t idx, const char *a,
                const char *b)
{
    snprintf(why, cap, "%s[%zu]: \"%s\" != \"%s\"", what, idx, a ? a : "(absent)",
             b ? b : "(absent)");
    return 0;
}

#define CMP(field, name, idx)                                                   \
    do {                                                                        \
        if (!ref_fold_equal(a->field, b->field))                                \
            return diff(why, cap, name, idx, a->field, b->field);               \
    } while (0)

#define CMP_COUNT(na, nb, name)                                                 \
    do {                                                                        \
        if ((na) != (nb)) {                                                     \
            snprintf(why, cap, "%s: %zu items != %zu", name, (size_t)(na),      \
                     (size_t)(nb));                                             \
            return 0;                                                           \
        }                                                                       \
    } while (0)

int ref_view_equal(const ref_view *a, const ref_view *b, char *why, size_t cap)
{
    CMP(title, "TITLE", 0);
    CMP(adep, "ADEP", 0);
    CMP(altnz, "ALTNZ", 0);
    CMP(ades, "ADES", 0);
    CMP(arcid, "ARCID", 0);
    CMP(arctyp, "ARCTYP", 0);
    CMP(ceqpt, "CEQPT", 0);
    CMP(msgtxt, "MSGTXT", 0);
    CMP(comment, "COMMENT", 0);
    CMP_COUNT(a->eetfir.n, b->eetfir.n, "EETFIR");
    for (size_t i = 0; i < a->eetfir.n; i++)
        CMP(eetfir.v[i], "EETFIR", i);
    CMP_COUNT(a->speed.n, b->speed.n, "SPEED");
    for (size_t i = 0; i < a->speed.n; i++)
        CMP(speed.v[i], "SPEED", i);
    CMP_COUNT(a->n_estdata, b->n_estdata, "ESTDATA");
    for (size_t i = 0; i < a->n_estdata; i++) {
        CMP(estdata[i].ptid, "ESTDATA.PTID", i);
        CMP(estdata[i].eto, "ESTDATA.ETO", i);
        CMP(estdata[i].fl, "ESTDATA.FL", i);
    }
    CMP_COUNT(a->n_geo, b->n_geo, "GEO");
    for (size_t i = 0; i < a->n_geo; i++) {
        CMP(geo[i].geoid, "GEO.GEOID", i);
        CMP(geo[i].lattd, "GEO.LATTD", i);
        CMP(geo[i].longtd, "GEO.LONGTD", i);
    }
    CMP_COUNT(a->n_rtepts, b->n_rtepts, "RTEPTS");
    for (size_t i = 0; i < a->n_rtepts; i++) {
        CMP(rtepts[i].ptid, "RTEPTS.PTID", i);
        CMP(rtepts[i].fl, "RTEPTS.FL", i);
        CMP(rtepts[i].eto, "RTEPTS.ETO", i);
    }
    return 1;
}

char *ref_read_file(const char *path, size_t *len)
{
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *nb = realloc(buf, cap *= 2);
        if (!nb)
            free(buf);
        buf = nb;
    }
    fclose(f);
    *len = n;
    return buf;
}

long ref_each_adexp(const char *dir, void (*fn)(const char *buf, size_t len))
{
    DIR *d = opendir(dir);
    long files = 0;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name), len;
        if (l < 7 || strcmp(e->d_name + l - 6, ".adexp") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *buf = ref_read_file(path, &len);
        if (!buf) {
            files = -1;
            break;
        }
        fn(buf, len);
        free(buf);
        files++;
    }
    closedir(d);
    return files;
}

/* Reference parsers for differential tests and benchmarks: not part of
 * libadexp. Two deliberately plain "first versions", line-oriented like the
 * classic Go ADEXP parsers (ref_regex.c with POSIX regex.h, ref_split.c with
 * plain loops), plus an adapter that gives the main parser the same shape.
 *
 * All three fill a ref_view: malloc'd NUL-terminated strings and arrays for
 * the fields the references understand. A NULL string is an absent field.
 * Single fields keep their first occurrence; repeated ones are arrays in
 * input order. Values may keep line breaks or inner separator runs: compare
 * them folded (ref_fold_equal). */
#ifndef ADEXP_REF_H
#define ADEXP_REF_H

#include <stddef.h>
#include <stdint.h>

#include "adexp.h"

typedef struct ref_point {     /* RTEPTS -PT */
    char *ptid, *fl, *eto;
} ref_point;

typedef struct ref_estdata {   /* ESTDATA */
    char *ptid, *eto, *fl;
} ref_estdata;

typedef struct ref_geo {       /* GEO */
    char *geoid, *lattd, *longtd;
} ref_geo;

typedef struct ref_strings {
    char **v;
    size_t n, cap;
} ref_strings;

typedef struct ref_view {
    char *title, *adep, *altnz, *ades, *arcid, *arctyp, *ceqpt, *msgtxt, *comment;
    ref_strings eetfir, speed;
    ref_estdata *estdata;
    size_t n_estdata, cap_estdata;
    ref_geo *geo;
    size_t n_geo, cap_geo;
    ref_point *rtepts;
    size_t n_rtepts, cap_rtepts;
} ref_view;

/* The common signature. buf holds one message (no NUL needed); out is
 * overwritten (it need not be initialised). Returns 0 on success, -1 if malloc
 * failed or the input holds no field. Call ref_view_free(out) in both cases. */
typedef int (*ref_parse_fn)(const char *buf, size_t len, ref_view *out);

int ref_regex_parse(const char *buf, size_t len, ref_view *out);
int ref_split_parse(const char *buf, size_t len, ref_view *out);
/* The main parser behind the same signature: parses the first message of buf
 * with a fresh parser and arena, then copies its view with ref_view_from_msg.
 * Allocates on every call: for tests, not for timing the main parser. */
int ref_main_parse(const char *buf, size_t len, ref_view *out);

/* Fill out from the main parser's typed view (strings folded, malloc'd). */
int ref_view_from_msg(const adexp_msg *msg, ref_view *out);
void ref_view_free(ref_view *v);

/* Whether a and b are equal once runs of space/CR/LF/TAB are folded to one
 * space and both ends trimmed; two NULLs are equal, NULL and "" are not. */
int ref_fold_equal(const char *a, const char *b);
/* Compare two views field by field. Returns 1 if they agree; otherwise 0 and
 * a description of the first difference in why. */
int ref_view_equal(const ref_view *a, const ref_view *b, char *why, size_t cap);

/* Shared by the references: the field assignment a first version would write
 * (a strcmp chain over the keywords understood). kw and val are malloc'd and
 * are owned by v afterwards (freed if not kept). */
int ref__set_basic(ref_view *v, char *kw, char *val);
int ref__push_string(ref_strings *s, char *str);
ref_estdata *ref__new_estdata(ref_view *v);
ref_geo *ref__new_geo(ref_view *v);
ref_point *ref__new_point(ref_view *v);
/* One subfield inside RTEPTS: -PT opens a point (*pt), PTID, FL and ETO
 * fill it. Takes val (kept or freed). Returns -1 when out of memory. */
int ref__rtepts_sub(ref_view *v, ref_point **pt, const char *sub, char *val);
/* Keep val in *slot if empty (first occurrence wins), else free it. */
void ref__keep(char **slot, char *val);
/* The subfield sub of an ESTDATA or GEO: val goes to the slot of the same
 * name among the three, or is freed. */
void ref__keep_named(char **const slots[3], const char *const names[3],
                     const char *sub, char *val);
char *ref__strndup(const char *s, size_t n);

/* The whole file at path, malloc'd (NULL if it cannot be read); *len its size.
 * For the tests and the benchmark. */
char *ref_read_file(const char *path, size_t *len);
/* Call fn with the contents of each *.adexp file in dir (not below it).
 * Returns the number of files, 0 if dir cannot be opened; -1 if one of them
 * cannot be read. */
long ref_each_adexp(const char *dir, void (*fn)(const char *buf, size_t len));

/* Logical lines, shared by both references: split buf on newlines, trim each
 * line, append lines that do not start with '-' to the previous one, fold
 * a -BEGIN X block up to its -END line into one line, and an ICAO text
 * field's bracketed value (MSGTXT, OLDMSG: '(' to its matching ')', quoted
 * ADEXP and its -TITLE included) too; joins use a space.
 * Every logical line is a malloc'd string. */
typedef struct ref_lines {
    char **v;
    size_t n, cap;
} ref_lines;
int ref__logical_lines(const char *buf, size_t len, ref_lines *out);
void ref__lines_free(ref_lines *l);

/* A deterministic corpus of canonical (one field per line) messages with a
 * realistic mix of titles and sizes, all within what the references handle.
 * Writes n messages one after another into a malloc'd *buf (length *len) and
 * their start offsets into a malloc'd *offs of n + 1 entries (offs[n] = len).
 * Returns 0, or -1 on no memory. */
int ref_gen_corpus(uint64_t seed, size_t n, char **buf, size_t *len, size_t **offs);

/* The teivah IFPL message (1214 bytes, no final newline), built in. */
extern const char ref_teivah_ifpl[];
extern const size_t ref_teivah_ifpl_len;

#endif

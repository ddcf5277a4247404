/* The grammar's rules (parser/grammar.h), each on the shape it decides,
 * read by both of the parser's paths (the runs and the general descent,
 * parser_general_lib): every message is drawn as a line of its fields,
 *   KEYWORD          a basic field
 *   KEYWORD(...)     a compound and its subfields
 *   KEYWORD[...]     a list and its items
 *   ?  !             after a keyword: unknown, misplaced
 * then " ; CODE:column" for each error. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adexp.h"

adexp_parser *general_adexp_parser_new(const adexp_options *opts,
                                       const adexp_allocator *hooks);
void general_adexp_parser_free(adexp_parser *p);
void general_adexp_parser_reset(adexp_parser *p, const char *buf, size_t len);
adexp_status general_adexp_parser_next(adexp_parser *p, adexp_arena *arena, adexp_msg *msg);

typedef struct out {
    char s[4096];
    size_t n;
} out;

static void put(out *o, const char *s, size_t len)
{
    assert_true(o->n + len < sizeof o->s);
    memcpy(o->s + o->n, s, len);
    o->n += len;
    o->s[o->n] = '\0';
}

static void draw(out *o, const adexp_field *f)
{
    for (; f; f = f->next) {
        put(o, f->keyword.ptr, f->keyword.len);
        if (f->flags & ADEXP_FIELD_UNKNOWN)
            put(o, "?", 1);
        if (f->flags & ADEXP_FIELD_MISPLACED)
            put(o, "!", 1);
        if (f->child) {
            put(o, f->kind == ADEXP_LIST ? "[" : "(", 1);
            draw(o, f->child);
            put(o, f->kind == ADEXP_LIST ? "]" : ")", 1);
        } else if (f->kind == ADEXP_LIST) {
            put(o, "[]", 2);
        }
        if (f->next)
            put(o, " ", 1);
    }
}

/* The drawing of src's messages, one a line, by one path. */
static void draw_all(const char *src, int general, out *o)
{
    size_t len = strlen(src);
    char *buf = malloc(len ? len : 1);
    memcpy(buf, src, len);
    adexp_parser *p = general ? general_adexp_parser_new(NULL, NULL)
                              : adexp_parser_new(NULL, NULL);
    assert_non_null(p);
    adexp_arena a;
    adexp_arena_init(&a, NULL);
    (general ? general_adexp_parser_reset : adexp_parser_reset)(p, buf, len);
    adexp_msg m;
    o->n = 0;
    o->s[0] = '\0';
    while ((general ? general_adexp_parser_next : adexp_parser_next)(p, &a, &m) != ADEXP_END) {
        if (o->n)
            put(o, "\n", 1);
        draw(o, m.fields);
        for (size_t i = 0; i < m.nerrors; i++) {
            char e[64];
            int k = snprintf(e, sizeof e, " ; %s:%u", adexp_status_name(m.errors[i].code),
                             (unsigned)m.errors[i].column);
            put(o, e, (size_t)k);
        }
        adexp_arena_reset(&a);
    }
    adexp_arena_free(&a);
    (general ? general_adexp_parser_free : adexp_parser_free)(p);
    free(buf);
}

/* src must be drawn as want by both paths. */
static void expect(const char *src, const char *want)
{
    out o;
    for (int general = 0; general < 2; general++) {
        draw_all(src, general, &o);
        if (strcmp(o.s, want) != 0)
            fail_msg("%s path:\n  input %s\n  got   %s\n  want  %s",
                     general ? "general" : "runs'", src, o.s, want);
    }
}

/* Plain shapes, as before the rules of issue 14. */
static void test_plain_shapes(void **state)
{
    (void)state;
    expect("-TITLE IFPL -ARCID A -BEGIN RTEPTS -PT -PTID A -FL F1 -ETO 1 "
           "-PT -PTID B -END RTEPTS -ADEP EDDF",
           "TITLE ARCID RTEPTS[PT(PTID FL ETO) PT(PTID)] ADEP");
    expect("-TITLE IFPL -ESTDATA -PTID A -ETO 1 -ARCID B",
           "TITLE ESTDATA(PTID ETO) ARCID");
    expect("-TITLE SAM -TTO -PTID X -TO 1945 -FL F350 -ARCID A",
           "TITLE TTO?(PTID TO FL) ARCID");
}

/* Inside a list, the list's element keyword starts the next item, whatever
 * is open in the element; an unknown field at the end of an element stays
 * in it, and takes only what neither the element nor the list has a place
 * for. */
static void test_unknown_field_ends_element(void **state)
{
    (void)state;
    expect("-TITLE IFPL -BEGIN RTEPTS -PT -PTID ZSNB -FL S0841 -ETO 231012010000 "
           "-ISPASS Y -PT -PTID P448 -FL S0841 -ETO 231012011000 -ISPASS N "
           "-PT -PTID XYZ -ETO 231012012000 -END RTEPTS",
           "TITLE RTEPTS[PT(PTID FL ETO ISPASS?) PT(PTID FL ETO ISPASS?) PT(PTID ETO)]");
    expect("-TITLE IFPL -BEGIN RTEPTS -PT -PTID A -XA 1 -XB 2 -PT -PTID B -END RTEPTS",
           "TITLE RTEPTS[PT(PTID XA? XB?) PT(PTID)]");
    expect("-TITLE IFPL -BEGIN RTEPTS -PT -PTID A -XLOC -LATTD 1 -LONGTD 2 -FL F1 "
           "-PT -PTID B -END RTEPTS",
           "TITLE RTEPTS[PT(PTID XLOC?(LATTD LONGTD) FL) PT(PTID)]");
    expect("-TITLE IFPL -BEGIN RTEPTS -PT -PTID A -XLOC -LATTD 1 -END RTEPTS -ADEP X",
           "TITLE RTEPTS[PT(PTID XLOC?(LATTD))] ADEP");
    expect("-TITLE IFPL -BEGIN RTEPTS -XA -PTID 1 -PT -PTID B -END RTEPTS",
           "TITLE RTEPTS[XA?(PTID) PT(PTID)]");
    expect("-TITLE IFPL -BEGIN ADDR -FAC A -XF B -FAC C -END ADDR",
           "TITLE ADDR[FAC XF? FAC]");
    /* an unknown list: an element's own keyword starts the next item */
    expect("-TITLE IFPL -BEGIN XL -PT -PTID A -XQ 1 -PT -PTID C -END XL",
           "TITLE XL?[PT(PTID XQ?) PT(PTID)]");
}

/* Inside a list element, a primary keyword belongs to the element (S31
 * 4.3.7, example 3), and so does a list. */
static void test_primary_in_element(void **state)
{
    (void)state;
    expect("-TITLE IFPL -BEGIN RTEPTS -PT -PTID CMB -ETO 9305091430 -RFL F370 "
           "-PT -PTID BBB -ETO 9305091500 -END RTEPTS",
           "TITLE RTEPTS[PT(PTID ETO RFL) PT(PTID ETO)]");
    expect("-TITLE IFPL -BEGIN RTEPTS -PT -PTID A -RFL F370 -SPEED N0450 -XL 1 -FL F370 "
           "-PT -PTID B -END RTEPTS",
           "TITLE RTEPTS[PT(PTID RFL SPEED XL? FL) PT(PTID)]");
    expect("-TITLE IFPL -BEGIN RTEPTS -PT -PTID A -ESTDATA -PTID B -ETO 1 -PT -PTID C "
           "-END RTEPTS",
           "TITLE RTEPTS[PT(PTID ESTDATA(PTID ETO)) PT(PTID)]");
    expect("-TITLE IFPL -BEGIN RTEPTS -PT -PTID A -BEGIN XL -FAC 1 -END XL -PT -PTID B "
           "-END RTEPTS",
           "TITLE RTEPTS[PT(PTID XL?[FAC]) PT(PTID)]");
    /* a message list holds a message: its compounds end as at the top */
    expect("-TITLE IFPDQR -BEGIN IFPDLIST -BEGIN IFPDLONG -TITLE IFPL -ORIGIN -FAC A "
           "-ADEP EDDF -END IFPDLONG -END IFPDLIST",
           "TITLE IFPDLIST[IFPDLONG[TITLE ORIGIN(FAC) ADEP]]");
    /* -TITLE still starts the next message */
    expect("-TITLE IFPL -BEGIN RTEPTS -PT -PTID A -TITLE ACK -ARCID B",
           "TITLE RTEPTS[PT(PTID)] ; LIST_UNCLOSED:13\nTITLE ARCID");
}

/* Where the input breaks a rule, the parser keeps what it read and says so:
 * nothing is dropped without an error. */
static void test_nothing_vanishes(void **state)
{
    (void)state;
    expect("-TITLE IFPL -BEGIN RTEPTS -PT -PTID A -END RTEPTS NNNN -ADEP X",
           "TITLE RTEPTS[PT(PTID)] ADEP ; BEGIN_NO_NAME:44");
    expect("-TITLE IFPL -END ADDR JUNK -ADEP X",
           "TITLE ADEP ; END_WITHOUT_BEGIN:13 ; BEGIN_NO_NAME:18");
    expect("-TITLE IFPL -BEGIN ADDR JUNK -FAC A -END ADDR",
           "TITLE ADDR[FAC] ; BEGIN_NO_NAME:20");
}

/* A UTF-8 byte order mark at the start of the input is skipped; form feed
 * and vertical tab separate as TAB does (a -TITLE after them starts the
 * next message). */
static void test_bom_and_separators(void **state)
{
    (void)state;
    expect("\xEF\xBB\xBF-TITLE IFPL -ARCID A", "TITLE ARCID");
    expect("\xEF\xBB\xBF-ARCID A", "ARCID ; NO_TITLE:1");   /* its fields kept */
    expect("-TITLE IFPL -ARCID A\f-TITLE ACK -ARCID B\v-TITLE LAM\f\v-ARCID C",
           "TITLE ARCID\nTITLE ARCID\nTITLE ARCID");
    expect("-TITLE IFPL -BEGIN\fRTEPTS\v-PT\f-PTID\vA\f\v-END\vRTEPTS",
           "TITLE RTEPTS[PT(PTID)]");
}

/* A known subfield where no compound or list has a place for it is kept,
 * flagged misplaced (an unknown field before it takes it, as S31 4.3.2
 * skips an unknown field; a list element keeps it as its own). */
static void test_misplaced_subfields(void **state)
{
    (void)state;
    expect("-TITLE IFPL -GEOID 01 -LATTD 520000N -ARCID A", "TITLE GEOID! LATTD! ARCID");
    expect("-TITLE IFPL -ESTDATA -PTID A -ETO 1 -GEOID G -ARCID X",
           "TITLE ESTDATA(PTID ETO) GEOID! ARCID");
    expect("-TITLE IFPL -BEGIN RTEPTS -PTID A -PT -PTID B -END RTEPTS",
           "TITLE RTEPTS[PTID! PT(PTID)]");
    expect("-TITLE CAM -FAC LFFFZXZX -SENDER -FAC A -ARCID B", "TITLE FAC! SENDER!(FAC) ARCID");
    expect("-TITLE IFPL -BEGIN RTEPTS -PT -PTID A -LATTD 1 -END RTEPTS",
           "TITLE RTEPTS[PT(PTID LATTD)]");
    expect("-TITLE SAM -TTO -PTID X -TO 1945 -FL F350", "TITLE TTO?(PTID TO FL)");
    expect("-TITLE IFPL -ARCID A -LATTD 520000N 520000N 520000N 520000N 520000N",
           "TITLE ARCID LATTD!");
    expect("-TITLE IFPL -PT -PTID A -FL F1 -ETO 1 -PT -PTID B -FL F1 -ETO 2 -ARCID A",
           "TITLE PT!(PTID FL ETO) PT!(PTID FL ETO) ARCID");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_shapes),
        cmocka_unit_test(test_unknown_field_ends_element),
        cmocka_unit_test(test_primary_in_element),
        cmocka_unit_test(test_nothing_vanishes),
        cmocka_unit_test(test_bom_and_separators),
        cmocka_unit_test(test_misplaced_subfields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

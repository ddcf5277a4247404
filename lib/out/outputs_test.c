/* The decoders, the dictionary and path lookups, the selection and the
 * view and CSV writers, on small messages whose output is spelled out. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adexp.h"
#include "csv.h"
#include "select.h"

/* The view writer again, with its quick paths off: the general path that
 * test_view_quick_paths compares the library's writer with. */
#define VIEW_QUICK 0
#define adexp_view_json_write general_view_json_write
#define adexp_view_json_write_quoted general_view_json_write_quoted
#include "view_json.c"
#undef adexp_view_json_write
#undef adexp_view_json_write_quoted

#define SL(s) ((adexp_slice){(s), sizeof(s) - 1})

static void test_levels(void **state)
{
    (void)state;
    adexp_level l;
    assert_int_equal(adexp_decode_level_any(SL("F390"), &l), ADEXP_LEVEL_STANDARD);
    assert_int_equal(adexp_level_feet(l), 39000);
    assert_int_equal(adexp_level_metres(l), 11887);
    assert_int_equal(adexp_decode_level_any(SL("A045"), &l), ADEXP_LEVEL_STANDARD);
    assert_int_equal(adexp_level_feet(l), 4500);
    assert_int_equal(adexp_decode_level_any(SL("S1130"), &l), ADEXP_LEVEL_STANDARD);
    assert_int_equal(adexp_level_metres(l), 11300);
    assert_int_equal(adexp_level_feet(l), 37073);
    assert_int_equal(adexp_decode_level_any(SL("M0840"), &l), ADEXP_LEVEL_STANDARD);
    assert_int_equal(adexp_level_metres(l), 8400);
    /* FL390 is read, and flagged: the strict decoder refuses it */
    assert_int_equal(adexp_decode_level_any(SL("FL390"), &l), ADEXP_LEVEL_NONSTANDARD);
    assert_int_equal(adexp_level_feet(l), 39000);
    assert_false(adexp_decode_level(SL("FL390"), &l));
    assert_int_equal(adexp_decode_level_any(SL("FL39"), &l), 0);
    assert_int_equal(adexp_decode_level_any(SL("F39"), &l), 0);
    assert_int_equal(adexp_decode_level_any(SL("FLA90"), &l), 0);
    assert_int_equal(adexp_decode_level_any(SL(""), &l), 0);
}

/* SFL: a level and A (at or above) or B (at or below); RFL: a level and
 * optionally the point where it is requested. */
static void test_sfl_rfl(void **state)
{
    (void)state;
    adexp_level l;
    char cond = 0;
    adexp_slice pt;
    assert_int_equal(adexp_decode_sfl(SL("F110A"), &l, &cond), ADEXP_LEVEL_STANDARD);
    assert_int_equal(adexp_level_feet(l), 11000);
    assert_int_equal(cond, 'A');
    assert_int_equal(adexp_decode_sfl(SL("S1130B"), &l, &cond), ADEXP_LEVEL_STANDARD);
    assert_int_equal(adexp_level_metres(l), 11300);
    assert_int_equal(cond, 'B');
    assert_false(adexp_decode_sfl(SL("F110"), &l, &cond));     /* no condition */
    assert_false(adexp_decode_sfl(SL("F110C"), &l, &cond));
    assert_false(adexp_decode_sfl(SL("F110 A"), &l, &cond));
    assert_false(adexp_decode_sfl(SL("A"), &l, &cond));
    assert_int_equal(adexp_decode_rfl(SL("F230 REDFA"), &l, &pt), ADEXP_LEVEL_STANDARD);
    assert_int_equal(adexp_level_feet(l), 23000);
    assert_true(adexp_slice_eq(pt, "REDFA"));
    assert_int_equal(adexp_decode_rfl(SL("S1130\r\n  GEO04 "), &l, &pt), ADEXP_LEVEL_STANDARD);
    assert_true(adexp_slice_eq(pt, "GEO04"));
    assert_int_equal(adexp_decode_rfl(SL("F390"), &l, &pt), ADEXP_LEVEL_STANDARD);
    assert_null(pt.ptr);
    assert_false(adexp_decode_rfl(SL("F230REDFA"), &l, &pt));
    assert_false(adexp_decode_rfl(SL("F230 RED FA"), &l, &pt));
    assert_false(adexp_decode_rfl(SL("F2 REDFA"), &l, &pt));
    assert_false(adexp_decode_rfl(SL(""), &l, &pt));
    /* the companions decode by the field's value type */
    char buf[32], *e;
    e = sel_companion_at(buf, SUF_FT, ADEXP_VALUE_LEVEL_AB, SL("F110A"), (adexp_slice){0});
    assert_non_null(e);
    assert_int_equal(e - buf, 5);
    assert_memory_equal(buf, "11000", 5);
    assert_null(sel_companion_at(buf, SUF_FT, ADEXP_VALUE_LEVEL_AB, SL("F110"), (adexp_slice){0}));
    e = sel_companion_at(buf, SUF_M, ADEXP_VALUE_LEVEL_AB, SL("S1130B"), (adexp_slice){0});
    assert_non_null(e);
    assert_memory_equal(buf, "11300", 5);
    e = sel_companion_at(buf, SUF_FT, ADEXP_VALUE_LEVEL_POINT, SL("F230 REDFA"), (adexp_slice){0});
    assert_non_null(e);
    assert_int_equal(e - buf, 5);
    assert_memory_equal(buf, "23000", 5);
    e = sel_companion_at(buf, SUF_FT, ADEXP_VALUE_LEVEL_POINT, SL("F390"), (adexp_slice){0});
    assert_non_null(e);
    assert_memory_equal(buf, "39000", 5);
}

static void test_coords(void **state)
{
    (void)state;
    double d;
    assert_true(adexp_decode_coord(SL("490000N"), &d));
    assert_true(d == 49.0);
    assert_true(adexp_decode_coord(SL("0500000W"), &d));
    assert_true(d == -50.0);
    assert_true(adexp_decode_coord(SL("453030S"), &d));
    assert_true(d > -45.5084 && d < -45.5083);
    assert_true(adexp_decode_coord(SL("4530N"), &d));
    assert_true(d == 45.5);
    assert_true(adexp_decode_coord(SL("00730E"), &d));
    assert_true(d == 7.5);
    assert_false(adexp_decode_coord(SL("916000N"), &d));   /* minutes 60 */
    assert_false(adexp_decode_coord(SL("910000N"), &d));   /* past the pole */
    assert_false(adexp_decode_coord(SL("1810000E"), &d));
    assert_false(adexp_decode_coord(SL("490000E"), &d));   /* 2-digit degrees east */
    assert_false(adexp_decode_coord(SL("49000N"), &d));
    assert_false(adexp_decode_coord(SL("N"), &d));
}

/* A coordinate's degrees as the _deg companion has always printed them:
 * from adexp_decode_coord's double, rounded to millionths, trailing zeros
 * dropped. The reference that test_coord_degrees holds the writer to. */
static size_t deg_by_double(char *o, adexp_slice v)
{
    double deg;
    if (!adexp_decode_coord(v, &deg))
        return 0;
    long micro = (long)((deg < 0 ? -deg : deg) * 1e6 + 0.5);
    int n = snprintf(o, 32, "%s%ld", deg < 0 && micro ? "-" : "", micro / 1000000);
    long frac = micro % 1000000;
    if (frac) {
        int digits = 6;
        while (frac % 10 == 0)
            frac /= 10, digits--;
        n += snprintf(o + n, 32, ".%0*ld", digits, frac);
    }
    return (size_t)n;
}

/* Every latitude and longitude of degrees, minutes and seconds (and of
 * degrees and minutes), each hemisphere: the companion's text is the
 * double rule's; a value out of range or of another shape has none. */
static void test_coord_degrees(void **state)
{
    (void)state;
    static const char hemi[] = "NSEW";
    char v[16], want[32], got[64];
    for (int h = 0; h < 4; h++) {
        int dd = h < 2 ? 2 : 3, top = h < 2 ? 91 : 181;
        for (int d = 0; d <= top; d++)
            for (int m = 0; m <= 60; m++)
                for (int sec = -1; sec <= 60; sec++) {
                    int n = sec < 0 ? snprintf(v, sizeof v, "%0*d%02d%c", dd, d, m, hemi[h])
                                    : snprintf(v, sizeof v, "%0*d%02d%02d%c", dd, d, m, sec,
                                               hemi[h]);
                    adexp_slice s = {v, (size_t)n};
                    size_t nw = deg_by_double(want, s);
                    char *e = sel_companion_at(got, SUF_DEG, 0, s, (adexp_slice){0});
                    if (!nw) {
                        assert_null(e);
                        continue;
                    }
                    assert_non_null(e);
                    if ((size_t)(e - got) != nw || memcmp(got, want, nw) != 0)
                        fail_msg("%s: %.*s, want %.*s", v, (int)(e - got), got, (int)nw, want);
                }
    }
    static const char *const bad[] = {"49000N",  "490000E", "4900000N", "49A000N",
                                      "49:000N", "4/0000N", "N",        "0500000N",
                                      "0500W",   "4900 0N", "490060N",  "496000N"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_null(sel_companion_at(got, SUF_DEG, 0, (adexp_slice){bad[i], strlen(bad[i])},
                                     (adexp_slice){0}));
}

static void test_when(void **state)
{
    (void)state;
    adexp_datetime d;
    char buf[ADEXP_WHEN_BUF];
    assert_int_equal(adexp_decode_when(SL("181023074600"), &d), ADEXP_WHEN_DATETIME);
    assert_int_equal(adexp_when_format(ADEXP_WHEN_DATETIME, &d, buf), 20);
    assert_string_equal(buf, "2018-10-23T07:46:00Z");
    assert_true(adexp_datetime_to_time(&d) == 1540280760);
    assert_int_equal(adexp_decode_when(SL("7001010000"), &d), ADEXP_WHEN_DATETIME);
    assert_int_equal(d.year, 1970);
    assert_true(adexp_datetime_to_time(&d) == 0);
    assert_int_equal(adexp_decode_when(SL("691231"), &d), ADEXP_WHEN_DATE);
    assert_int_equal(d.year, 2069);
    adexp_when_format(ADEXP_WHEN_DATE, &d, buf);
    assert_string_equal(buf, "2069-12-31");
    assert_int_equal(adexp_decode_when(SL("0746"), &d), ADEXP_WHEN_TIME);
    adexp_when_format(ADEXP_WHEN_TIME, &d, buf);
    assert_string_equal(buf, "07:46");
    assert_int_equal(adexp_decode_when(SL("2460"), &d), ADEXP_WHEN_NONE);
    /* a month's own length, and 29 February only in leap years */
    assert_int_equal(adexp_decode_when(SL("240229"), &d), ADEXP_WHEN_DATE);
    assert_int_equal(adexp_decode_when(SL("230229"), &d), ADEXP_WHEN_NONE);
    assert_int_equal(adexp_decode_when(SL("000229"), &d), ADEXP_WHEN_DATE);
    assert_int_equal(adexp_decode_when(SL("250431"), &d), ADEXP_WHEN_NONE);
    /* by the dictionary's type: hhmmss is not a date */
    assert_int_equal(adexp_decode_when_as(ADEXP_VALUE_TIME, SL("074600"), &d), ADEXP_WHEN_NONE);
    assert_int_equal(adexp_decode_when_as(ADEXP_VALUE_DATE, SL("0746"), &d), ADEXP_WHEN_NONE);
}

/* adexp_decode_datetime (its digits checked a word at a time) against the
 * date and time decoders (a byte at a time) on its parts: every byte at
 * every position of a few values, and random digits. */
static int datetime_by_parts(const char *s, size_t n, adexp_datetime *out)
{
    adexp_datetime date, time;
    if ((n != 10 && n != 12) || !adexp_decode_date((adexp_slice){s, 6}, &date) ||
        !adexp_decode_time((adexp_slice){s + 6, 4}, &time))
        return 0;
    int sec = 0;
    if (n == 12) {
        if (s[10] < '0' || s[10] > '9' || s[11] < '0' || s[11] > '9')
            return 0;
        sec = (s[10] - '0') * 10 + (s[11] - '0');
        if (sec > 59)
            return 0;
    }
    *out = (adexp_datetime){date.year, date.month, date.day, time.hour, time.minute, sec};
    return 1;
}

static void expect_datetime(const char *s, size_t n)
{
    adexp_datetime a = {0, 0, 0, 0, 0, 0}, b = {0, 0, 0, 0, 0, 0};
    int ra = adexp_decode_datetime((adexp_slice){s, n}, &a), rb = datetime_by_parts(s, n, &b);
    if (ra != rb || memcmp(&a, &b, sizeof a) != 0)
        fail_msg("%.*s: decoded %d, by parts %d", (int)n, s, ra, rb);
}

static void test_datetime_words(void **state)
{
    (void)state;
    static const char *const base[] = {"181023074600", "240229235959", "230228000000",
                                       "691231120059", "700101000000", "1810230746"};
    for (size_t k = 0; k < sizeof base / sizeof *base; k++) {
        size_t n = strlen(base[k]);
        char s[12];
        for (size_t i = 0; i < n; i++)
            for (int c = 0; c < 256; c++) {
                memcpy(s, base[k], n);
                s[i] = (char)c;
                expect_datetime(s, n);
            }
    }
    srand(17);
    for (int r = 0; r < 20000; r++) {
        char s[12];
        for (size_t i = 0; i < 12; i++)
            s[i] = (char)('0' + rand() % 10);
        expect_datetime(s, 12);
        expect_datetime(s, 10);
    }
}

#if SIMD_AVX2
/* dw_time12_ok_avx2 and dw_iso12_tail_avx2 of s: the answer, and the
 * tail at o when it is 1. */
__attribute__((target(AVX2_TARGET))) static int time12_avx2(const char *s, char *o)
{
    __m128i x = dw_datetime_vec(s);
    if (!dw_time12_ok_avx2(x, s))
        return 0;
    dw_iso12_tail_avx2(o, x);
    return 1;
}
#endif

/* The view's usual point checks its date-time's time in a vector where the
 * CPU has AVX2 and shuffles its ISO text from it: the same answers and
 * text as the word rule (dw_time12_ok, dw_iso12_tail), for every byte at
 * every place of a date-time and for random digits. */
static void test_time12_vector(void **state)
{
    (void)state;
#if SIMD_AVX2
    if (!cpu_has_avx2())
        skip();
    char a[16], b[16];
    for (size_t i = 0; i < 12; i++)
        for (int c = 0; c < 256; c++) {
            char s[12];
            memcpy(s, "181023235959", 12);
            s[i] = (char)c;
            int want = dw_time12_ok(s);
            assert_int_equal(time12_avx2(s, a), want);
            if (want) {
                dw_iso12_tail(b, s);
                assert_memory_equal(a, b, 12);
            }
        }
    srand(29);
    for (int r = 0; r < 20000; r++) {
        char s[12];
        for (size_t i = 0; i < 12; i++)
            s[i] = (char)('0' + rand() % 10);
        int want = dw_time12_ok(s);
        assert_int_equal(time12_avx2(s, a), want);
        if (want) {
            dw_iso12_tail(b, s);
            assert_memory_equal(a, b, 12);
        }
    }
#else
    skip();
#endif
}

/* The companions written a word at a time (decode_words.h) against the
 * decoders and adexp_when_format: every F and A level, and date-times. */
static void test_companion_words(void **state)
{
    (void)state;
    char v[5], buf[SEL_TEXT_BUF + 8], want[32];
    for (int unit = 0; unit < 2; unit++)
        for (int n = 0; n < 1000; n++) {
            snprintf(v, sizeof v, "%c%03d", unit ? 'A' : 'F', n);
            char *e = sel_companion_at(buf, SUF_FT, ADEXP_VALUE_LEVEL, (adexp_slice){v, 4},
                                       (adexp_slice){0});
            assert_non_null(e);
            snprintf(want, sizeof want, "%d", n * 100);
            assert_int_equal(e - buf, strlen(want));
            assert_memory_equal(buf, want, strlen(want));
        }
    assert_null(sel_companion_at(buf, SUF_FT, ADEXP_VALUE_LEVEL, SL("F3:0"), (adexp_slice){0}));
    assert_null(sel_companion_at(buf, SUF_FT, ADEXP_VALUE_LEVEL, SL("F39/"), (adexp_slice){0}));
    srand(23);
    for (int r = 0; r < 20000; r++) {
        char s[12];
        for (size_t i = 0; i < 12; i++)
            s[i] = (char)('0' + rand() % 10);
        if (r % 3 == 0)   /* months and days that exist more often */
            s[2] = (char)('0' + r % 2), s[4] = (char)('0' + r % 3);
        adexp_datetime d;
        char *e = sel_companion_at(buf, SUF_UTC, ADEXP_VALUE_DATETIME, (adexp_slice){s, 12},
                                   (adexp_slice){0});
        if (!adexp_decode_datetime((adexp_slice){s, 12}, &d)) {
            assert_null(e);
            continue;
        }
        assert_non_null(e);
        size_t n = adexp_when_format(ADEXP_WHEN_DATETIME, &d, want);
        assert_int_equal(e - buf, n);
        assert_memory_equal(buf, want, n);
    }
    /* EOBD's date, EOBT's time on it (or alone when the date is not one):
     * every byte at every position of a date and a time */
    for (size_t i = 0; i < 10; i++)
        for (int c = 0; c < 256; c++) {
            char s[10];
            memcpy(s, "2402291945", 10);
            s[i] = (char)c;
            adexp_datetime day, t;
            int okd = adexp_decode_date((adexp_slice){s, 6}, &day);
            int okt = adexp_decode_time((adexp_slice){s + 6, 4}, &t);
            char *e = sel_companion_at(buf, SUF_UTC, ADEXP_VALUE_DATE, (adexp_slice){s, 6},
                                       (adexp_slice){0});
            assert_true(okd ? e != NULL : e == NULL);
            if (okd) {
                size_t n = adexp_when_format(ADEXP_WHEN_DATE, &day, want);
                assert_int_equal(e - buf, n);
                assert_memory_equal(buf, want, n);
            }
            e = sel_companion_at(buf, SUF_UTC, ADEXP_VALUE_TIME, (adexp_slice){s + 6, 4},
                                 (adexp_slice){s, 6});
            assert_true(okt ? e != NULL : e == NULL);
            if (okt) {
                size_t n = okd ? adexp_when_format(ADEXP_WHEN_DATETIME,
                                                   &(adexp_datetime){day.year, day.month, day.day,
                                                                     t.hour, t.minute, 0}, want)
                               : adexp_when_format(ADEXP_WHEN_TIME, &t, want);
                assert_int_equal(e - buf, n);
                assert_memory_equal(buf, want, n);
            }
            /* a time of no day (TO, STO, CTOT) */
            e = sel_companion_at(buf, SUF_UTC, ADEXP_VALUE_TIME, (adexp_slice){s + 6, 4},
                                 (adexp_slice){0});
            assert_true(okt ? e != NULL : e == NULL);
            if (okt) {
                size_t n = adexp_when_format(ADEXP_WHEN_TIME, &t, want);
                assert_int_equal(e - buf, n);
                assert_memory_equal(buf, want, n);
            }
        }
}

static void test_dict(void **state)
{
    (void)state;
    adexp_dict_info e;
    assert_true(adexp_dict_find("ESTDATA", &e));
    assert_string_equal(e.keyword, "ESTDATA");
    assert_int_equal(e.kind, ADEXP_COMPOUND);
    assert_int_equal(e.level, ADEXP_DICT_PRIMARY);
    assert_int_equal(e.nsub, 4);
    assert_string_equal(adexp_dict_sub(&e, 0), "ETO");
    assert_string_equal(adexp_dict_sub(&e, 2), "PTID");
    assert_null(adexp_dict_sub(&e, 4));
    assert_true(adexp_dict_find("ETO", &e));
    assert_int_equal(e.level, ADEXP_DICT_SUBFIELD);
    assert_int_equal(e.value_type, ADEXP_VALUE_DATETIME);
    assert_true(adexp_dict_find("RFL", &e));
    assert_int_equal(e.value_type, ADEXP_VALUE_LEVEL_POINT);
    assert_true(adexp_dict_find("SFL", &e));
    assert_int_equal(e.value_type, ADEXP_VALUE_LEVEL_AB);
    assert_true(adexp_dict_find("TFL", &e));
    assert_int_equal(e.value_type, ADEXP_VALUE_LEVEL);
    assert_true(adexp_dict_find("LONGTD", &e));
    assert_int_equal(e.value_type, ADEXP_VALUE_COORD);
    assert_true(adexp_dict_find("MSGTXT", &e));
    assert_int_equal(e.text, 1);
    assert_true(adexp_dict_find("RTEPTS", &e));
    assert_int_equal(e.kind, ADEXP_LIST);
    adexp_dict_info again;
    assert_true(adexp_dict_get(e.id, &again));
    assert_string_equal(again.keyword, "RTEPTS");
    assert_false(adexp_dict_get(ADEXP_DICT_NONE, &again));
    assert_false(adexp_dict_find("CLEARED", &e));
    assert_false(adexp_dict_find("", &e));
    assert_string_equal(adexp_version(), ADEXP_VERSION);
}

static const char route[] =
    "-TITLE IFPL -ARCID DLH66T -ADEP EDDM -EOBD 181023 -EOBT 0746 -RFL F390\n"
    "-BEGIN RTEPTS -PT -PTID EDDM -FL F000 -ETO 181023074600\n"
    "  -PT -PTID INPUD -FL F280 -ETO 181023075900 -END RTEPTS\n"
    "-ESTDATA -PTID XETBO -ETO 181023080000 -FL F390\n"
    "-ESTDATA -PTID ARKIL -ETO 181023081000 -FL S1130\n"
    "-EETFIR EDMM 0010 -EETFIR EDWW 0030 -CLEARED Y -CLEARED N\n";

typedef struct parsed {
    adexp_arena arena;
    adexp_msg msg;
} parsed;

static void parse(parsed *p, const char *text)
{
    adexp_arena_init(&p->arena, NULL);
    adexp_parse(text, strlen(text), &p->arena, &p->msg);
}

static void test_paths(void **state)
{
    (void)state;
    parsed p;
    parse(&p, route);
    const char *want[] = {"EDDM", "INPUD"};
    adexp_path_iter it;
    assert_true(adexp_path_begin(&it, &p.msg, "RTEPTS/PT/PTID"));
    size_t n = 0;
    for (const adexp_field *f; (f = adexp_path_next(&it)) != NULL; n++) {
        assert_true(n < 2);
        assert_true(adexp_slice_eq(f->value, want[n]));
    }
    assert_int_equal(n, 2);
    assert_null(adexp_path_next(&it));   /* stays at its end */
    const adexp_field *f = adexp_msg_find(&p.msg, "ESTDATA.FL");
    assert_non_null(f);
    assert_true(adexp_slice_eq(f->value, "F390"));
    assert_true(adexp_path_begin(&it, &p.msg, "ESTDATA/PTID"));
    assert_true(adexp_slice_eq(adexp_path_next(&it)->value, "XETBO"));
    assert_true(adexp_slice_eq(adexp_path_next(&it)->value, "ARKIL"));
    assert_null(adexp_path_next(&it));
    assert_null(adexp_msg_find(&p.msg, "RTEPTS/PTID"));
    assert_null(adexp_msg_find(&p.msg, "NOSUCH"));
    assert_false(adexp_path_begin(&it, &p.msg, ""));
    assert_false(adexp_path_begin(&it, &p.msg, "RTEPTS//PTID"));
    assert_null(adexp_path_next(&it));
    assert_false(adexp_path_begin(&it, &p.msg, "A/B/C/D/E/F/G/H/I/J/K/L/M/N/O/P/Q"));
    /* adexp_field_find scans the siblings from its argument on */
    assert_non_null(adexp_field_find(p.msg.fields, "ADEP"));
    assert_null(adexp_field_find(p.msg.fields->next->next, "ARCID"));
    adexp_arena_free(&p.arena);
}

static void expect_output(const char *got, size_t len, const char *want)
{
    if (len != strlen(want) || memcmp(got, want, len) != 0)
        fail_msg("got:\n%.*s\nwant:\n%s", (int)len, got, want);
}

static void test_view_json(void **state)
{
    (void)state;
    parsed p;
    parse(&p, route);
    adexp_buf out;
    adexp_buf_init(&out, NULL);
    assert_int_equal(adexp_view_json_write(&out, &p.msg, "r.adexp", NULL), ADEXP_OK);
    expect_output(out.data, out.len,
        "{\"source\":\"r.adexp\",\"index\":0,\"offset\":0,\"title\":\"IFPL\","
        "\"arcid\":\"DLH66T\",\"adep\":\"EDDM\",\"eobt\":\"0746\","
        "\"eobt_utc\":\"2018-10-23T07:46:00Z\",\"eobd\":\"181023\",\"eobd_utc\":\"2018-10-23\","
        "\"rfl\":\"F390\",\"rfl_ft\":39000,\"eetfir\":[\"EDMM 0010\",\"EDWW 0030\"],"
        "\"rtepts\":[{\"ptid\":\"EDDM\",\"fl\":\"F000\",\"fl_ft\":0,\"eto\":\"181023074600\","
        "\"eto_utc\":\"2018-10-23T07:46:00Z\"},{\"ptid\":\"INPUD\",\"fl\":\"F280\",\"fl_ft\":28000,"
        "\"eto\":\"181023075900\",\"eto_utc\":\"2018-10-23T07:59:00Z\"}],"
        "\"estdata\":[{\"ptid\":\"XETBO\",\"eto\":\"181023080000\",\"eto_utc\":\"2018-10-23T08:00:00Z\","
        "\"fl\":\"F390\",\"fl_ft\":39000},{\"ptid\":\"ARKIL\",\"eto\":\"181023081000\","
        "\"eto_utc\":\"2018-10-23T08:10:00Z\",\"fl\":\"S1130\",\"fl_ft\":37073,\"fl_m\":11300}],"
        "\"other\":{\"CLEARED\":[\"Y\",\"N\"]},\"errors\":[]}\n");
    out.len = 0;
    adexp_select *sel = adexp_select_new("arcid,ESTDATA.PTID,CLEARED", NULL, NULL, NULL, 0);
    assert_non_null(sel);
    assert_int_equal(adexp_view_json_write(&out, &p.msg, "r.adexp", sel), ADEXP_OK);
    expect_output(out.data, out.len,
        "{\"source\":\"r.adexp\",\"index\":0,\"offset\":0,\"title\":\"IFPL\",\"arcid\":\"DLH66T\","
        "\"estdata\":[{\"ptid\":\"XETBO\",\"eto\":\"181023080000\",\"eto_utc\":\"2018-10-23T08:00:00Z\","
        "\"fl\":\"F390\",\"fl_ft\":39000},{\"ptid\":\"ARKIL\",\"eto\":\"181023081000\","
        "\"eto_utc\":\"2018-10-23T08:10:00Z\",\"fl\":\"S1130\",\"fl_ft\":37073,\"fl_m\":11300}],"
        "\"other\":{\"CLEARED\":[\"Y\",\"N\"]},\"errors\":[]}\n");
    /* json trimmed to the same fields: TITLE, ARCID, both ESTDATA, CLEARED */
    adexp_msg t;
    assert_int_equal(adexp_select_trim(sel, &p.msg, &p.arena, &t), ADEXP_OK);
    size_t n = 0;
    for (const adexp_field *f = t.fields; f; f = f->next)
        n++;
    assert_int_equal(n, 6);
    adexp_select_free(sel);
    adexp_buf_free(&out);
    adexp_arena_free(&p.arena);
}

/* The view decodes SFL with its condition, RFL with its point (at the top
 * and in a route point), and carries CFL, whether as its subfields or, as
 * the specification's examples write it, as a plain level. */
static void test_view_levels(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"-TITLE ACT -ARCID A1 -RFL F230 REDFA -CFL -FL F190 -PTID ABC -SFL F200A\n"
         "-BEGIN RTEPTS -PT -PTID CMB -SFL F110A -PT -PTID TIR -SFL F110 -END RTEPTS\n"
         "-ESTDATA -PTID TIR -ETO 000409050500 -FL F330 -SFL S1130B\n"
         "-COORDATA -PTID ABCDE -TO 1200 -TFL F200 -SFL F210B\n",
         "{\"source\":\"s\",\"index\":0,\"offset\":0,\"title\":\"ACT\",\"arcid\":\"A1\","
         "\"rfl\":\"F230 REDFA\",\"rfl_ft\":23000,\"rfl_point\":\"REDFA\","
         "\"rtepts\":[{\"ptid\":\"CMB\",\"sfl\":\"F110A\",\"sfl_ft\":11000},"
         "{\"ptid\":\"TIR\",\"sfl\":\"F110\"}],"
         "\"estdata\":[{\"ptid\":\"TIR\",\"eto\":\"000409050500\",\"eto_utc\":\"2000-04-09T05:05:00Z\","
         "\"fl\":\"F330\",\"fl_ft\":33000,\"sfl\":\"S1130B\",\"sfl_ft\":37073,\"sfl_m\":11300}],"
         "\"coordata\":{\"ptid\":\"ABCDE\",\"to\":\"1200\",\"to_utc\":\"12:00\",\"tfl\":\"F200\","
         "\"tfl_ft\":20000,\"sfl\":\"F210B\",\"sfl_ft\":21000},"
         "\"cfl\":{\"fl\":\"F190\",\"fl_ft\":19000,\"ptid\":\"ABC\",\"sfl\":\"F200A\",\"sfl_ft\":20000},"
         "\"errors\":[]}\n"},
        {"-TITLE HOP -ARCID A1 -RFL F390 -CFL F190\n",
         "{\"source\":\"s\",\"index\":0,\"offset\":0,\"title\":\"HOP\",\"arcid\":\"A1\","
         "\"rfl\":\"F390\",\"rfl_ft\":39000,\"cfl\":{\"fl\":\"F190\",\"fl_ft\":19000},\"errors\":[]}\n"},
    };
    adexp_buf out;
    adexp_buf_init(&out, NULL);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        parsed p;
        parse(&p, cases[i][0]);
        out.len = 0;
        assert_int_equal(adexp_view_json_write(&out, &p.msg, "s", NULL), ADEXP_OK);
        expect_output(out.data, out.len, cases[i][1]);
        out.len = 0;
        assert_int_equal(general_view_json_write(&out, &p.msg, "s", NULL), ADEXP_OK);
        expect_output(out.data, out.len, cases[i][1]);
        adexp_arena_free(&p.arena);
    }
    adexp_buf_free(&out);
}

static void test_other_nested(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "-TITLE SAM -ARCID A1 -ARCID A2 -TTO -PTID MOLBA -TO 1945 -FL F350\n"
              "-ETOT 1200 -BEGIN ZLIST -X 1 -X 2 -END ZLIST\n");
    adexp_buf out;
    adexp_buf_init(&out, NULL);
    assert_int_equal(adexp_view_json_write(&out, &p.msg, "s", NULL), ADEXP_OK);
    expect_output(out.data, out.len,
        "{\"source\":\"s\",\"index\":0,\"offset\":0,\"title\":\"SAM\",\"arcid\":\"A1\","
        "\"other\":{\"ARCID\":\"A2\",\"ETOT\":\"1200\",\"TTO\":{\"FL\":\"F350\",\"PTID\":\"MOLBA\","
        "\"TO\":\"1945\"},\"ZLIST\":[{\"X\":\"1\"},{\"X\":\"2\"}]},\"errors\":[]}\n");
    adexp_buf_free(&out);
    adexp_arena_free(&p.arena);
}

static void test_csv(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "-TITLE IFPL -ARCID \"Q,1\" -EETFIR EDMM 0010 -EETFIR EDWW   0030 -RFL F390\n"
              "-BEGIN RTEPTS -PT -PTID EDDM -FL F000 -PT -PTID INPUD -FL FL280 -END RTEPTS\n");
    adexp_buf out;
    adexp_buf_init(&out, NULL);
    char err[128];
    adexp_select *sel = adexp_select_new("ARCID,EETFIR,RFL_ft,RFL_m", NULL, "IFPL", err, sizeof err);
    assert_non_null(sel);
    assert_true(adexp_select_keeps(sel, &p.msg));
    assert_int_equal(adexp_csv_header(&out, sel, ','), ADEXP_OK);
    assert_int_equal(adexp_csv_write(&out, &p.msg, "a,b", sel, ','), ADEXP_OK);
    expect_output(out.data, out.len,
        "source,index,title,ARCID,EETFIR,RFL_ft,RFL_m,errors\r\n"
        "\"a,b\",0,IFPL,\"\"\"Q,1\"\"\",EDMM 0010 EDWW 0030,39000,11887,\r\n");
    adexp_select_free(sel);
    out.len = 0;
    sel = adexp_select_new("ARCID,RTEPTS.PTID,RTEPTS.FL_ft", "rtepts", NULL, err, sizeof err);
    assert_non_null(sel);
    assert_int_equal(adexp_csv_header(&out, sel, '\t'), ADEXP_OK);
    assert_int_equal(adexp_csv_write(&out, &p.msg, "s", sel, '\t'), ADEXP_OK);
    expect_output(out.data, out.len,
        "source\tindex\ttitle\tARCID\titem_index\titem\titem_value\tRTEPTS.PTID\tRTEPTS.FL_ft\terrors\n"
        "s\t0\tIFPL\t\"Q,1\"\t0\tPT\t\tEDDM\t0\t\n"
        "s\t0\tIFPL\t\"Q,1\"\t1\tPT\t\tINPUD\t28000\t\n");
    adexp_select_free(sel);
    adexp_buf_free(&out);
    adexp_arena_free(&p.arena);
}

/* Item columns found in one scan of a point's subfields, and the cases
 * that scan for themselves: a keyword met twice in one point, a keyword
 * the dictionary does not know; a value that needs quotes. */
static void test_csv_rows_scan(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "-TITLE IFPL -ARCID X1 -BEGIN RTEPTS -PT -PTID EDDM -PTID A\"B -FL F000\n"
              "-PT -PTID  INPUD   -FL F280 -FL FL300 -ETO 181023075900\n"
              "-PT -PTID e -SFL S1130B -LATTD 502030N -END RTEPTS\n");
    adexp_buf out;
    adexp_buf_init(&out, NULL);
    adexp_select *sel = adexp_select_new("ARCID,RTEPTS.PTID,RTEPTS.XYZ,RTEPTS.FL_ft,RTEPTS.FL,"
                                         "RTEPTS.ETO_utc,RTEPTS.SFL_m,RTEPTS.LATTD_deg",
                                         "RTEPTS", NULL, NULL, 0);
    assert_non_null(sel);
    assert_int_equal(adexp_csv_write(&out, &p.msg, "s", sel, ','), ADEXP_OK);
    expect_output(out.data, out.len,
        "s,0,IFPL,X1,0,PT,,\"EDDM A\"\"B\",,0,F000,,,,\r\n"
        "s,0,IFPL,X1,1,PT,,INPUD,,28000 30000,F280 FL300,2018-10-23T07:59:00Z,,,\r\n"
        "s,0,IFPL,X1,2,PT,,e,,,,,11300,50.341667,\r\n");
    adexp_select_free(sel);
    adexp_buf_free(&out);
    adexp_arena_free(&p.arena);
}

/* The usual point's row (a template, sel->usual_points) against the
 * columns' general path, which the same columns named in --fields take:
 * points of every shape, the usual ones among them, past ten items, in CSV
 * and TSV, and a message with errors. */
static void test_csv_usual_rows(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "-TITLE IFPL -ARCID X1 -RFL F390 -BEGIN RTEPTS -PT -PTID EDDM -FL F000 -ETO 181023074600\n"
        "-PT -ETO 181023074700 -PTID INPUD -FL A045 -XYZ 1 -PT -PTID A,B -FL F010 -ETO 181023074800\n"
        "-PT -PTID Q -FL F01X -ETO 181023074900 -PT -PTID Q -FL F010 -ETO 181023076000\n"
        "-PT -PTID Q -FL S1130 -ETO 181023074900 -PT -PTID Q -FL F010 -ETO 1810230749\n"
        "-PT -PTID Q -FL F010 -ETO 181023074900 -TO 0750 -PT -PTID Q -PTID R -FL F010 -ETO 181023074900\n"
        "-PT -PTID \"Q\" -FL F010 -ETO 181023074900 -PT -PTID Q -FL F010 -FL F020 -ETO 181023074900\n"
        "-PT -PTID W -FL F100 -ETO 240229235959 -PT -PTID W -FL F100 -ETO 230229235959\n"
        "-PT -PTID LONGNAMEOFAPOINT -FL F999 -ETO 691231235959 -END RTEPTS\n",
        "-TITLE IFPL -ARCID X2 -BEGIN RTEPTS -PT -PTID A -FL F100 -ETO 181023074600 -PT -PTID B\n",
        /* the day and the level of the point before (the memo's), with a
         * time or seconds that are not one, then a good point again */
        "-TITLE IFPL -ARCID X3 -BEGIN RTEPTS -PT -PTID A -FL F100 -ETO 181023074600\n"
        "-PT -PTID B -FL F100 -ETO 181023244600 -PT -PTID C -FL F100 -ETO 1810230746A0\n"
        "-PT -PTID D -FL F100 -ETO 181023076000 -PT -PTID E -FL F100 -ETO 18102307466 \n"
        "-PT -PTID F -FL F100 -ETO 181023235959 -PT -PTID G -FL A100 -ETO 181024000000\n"
        "-PT -PTID H -FL F10 -ETO 181024000000 -PT -PTID I -FL A100 -ETO 181024000000 -END RTEPTS\n",
    };
    char fields[512] = "IFPLID,ARCID,ARCTYP,ADEP,ADES,EOBD,EOBT,EOBT_utc,RFL,RFL_ft";
    static const char *const items[] = {"PTID", "FL", "FL_ft", "ETO", "ETO_utc", "TO", "TO_utc",
                                        "SFL", "SFL_ft", "LATTD", "LATTD_deg", "LONGTD",
                                        "LONGTD_deg"};
    for (size_t i = 0; i < sizeof items / sizeof *items; i++)
        snprintf(fields + strlen(fields), sizeof fields - strlen(fields), ",RTEPTS.%s", items[i]);
    adexp_select *usual = adexp_select_new(NULL, "RTEPTS", NULL, NULL, 0);
    adexp_select *named = adexp_select_new(fields, "RTEPTS", NULL, NULL, 0);
    assert_non_null(usual);
    assert_non_null(named);
    assert_true(usual->usual_points);
    assert_false(named->usual_points);
    /* and an index of three digits: 120 points */
    static char many[120 * 48 + 64];
    size_t at = (size_t)snprintf(many, sizeof many, "-TITLE IFPL -ARCID X4 -BEGIN RTEPTS\n");
    for (int i = 0; i < 120; i++)
        at += (size_t)snprintf(many + at, sizeof many - at,
                               "-PT -PTID P%d -FL F%03d -ETO 1810230%03d00\n", i, i, 100 + i);
    snprintf(many + at, sizeof many - at, "-END RTEPTS\n");
    size_t ntexts = sizeof texts / sizeof *texts;
    for (size_t t = 0; t <= ntexts; t++)
        for (int tsv = 0; tsv < 2; tsv++) {
            parsed p;
            parse(&p, t < ntexts ? texts[t] : many);
            adexp_buf a, b;
            adexp_buf_init(&a, NULL);
            adexp_buf_init(&b, NULL);
            char sep = tsv ? '\t' : ',';
            assert_int_equal(adexp_csv_header(&a, usual, sep), ADEXP_OK);
            assert_int_equal(adexp_csv_header(&b, named, sep), ADEXP_OK);
            for (int twice = 0; twice < 2; twice++) {
                assert_int_equal(adexp_csv_write(&a, &p.msg, "s", usual, sep), ADEXP_OK);
                assert_int_equal(adexp_csv_write(&b, &p.msg, "s", named, sep), ADEXP_OK);
            }
            if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
                fail_msg("template:\n%.*s\ncolumns:\n%.*s", (int)a.len, a.data, (int)b.len, b.data);
            adexp_buf_free(&a);
            adexp_buf_free(&b);
            adexp_arena_free(&p.arena);
        }
    adexp_select_free(usual);
    adexp_select_free(named);
}

static void test_csv_failed_message(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "-TITLE IFPL -ARCID X1 -BEGIN RTEPTS -PT -PTID A\n");
    adexp_buf out;
    adexp_buf_init(&out, NULL);
    adexp_select *sel = adexp_select_new("ARCID", "RTEPTS", NULL, NULL, 0);
    assert_non_null(sel);
    assert_int_equal(adexp_csv_write(&out, &p.msg, "s", NULL, ','), ADEXP_OK);
    expect_output(out.data, out.len, "s,0,IFPL,,X1,,,,,,,,,LIST_UNCLOSED at 1:23\r\n");
    adexp_select_free(sel);
    adexp_buf_free(&out);
    adexp_arena_free(&p.arena);
    /* with --rows, a failed message without the list still gets its row */
    parse(&p, "-TITLE IFPL -ARCID X1 -BEGIN ADDR -FAC A\n");
    adexp_buf_init(&out, NULL);
    sel = adexp_select_new("ARCID", "RTEPTS", NULL, NULL, 0);
    assert_int_equal(adexp_csv_write(&out, &p.msg, "s", sel, ','), ADEXP_OK);
    assert_non_null(strstr(out.data, "X1,,,,"));
    assert_non_null(strstr(out.data, ",LIST_UNCLOSED at 1:23\r\n"));
    adexp_select_free(sel);
    adexp_buf_free(&out);
    adexp_arena_free(&p.arena);
}

/* EOBT_utc joins the message's first EOBD from its fields: a parser that
 * builds the view's title alone (as adexp-parse does for csv) writes the
 * same cell. */
static void test_csv_eobt_without_view(void **state)
{
    (void)state;
    parsed p;
    parse(&p, "-TITLE IFPL -EOBT 0930 -EOBD 250803 -EOBD 250804\n");
    p.msg.view = (adexp_view){.title = p.msg.view.title};
    adexp_buf out;
    adexp_buf_init(&out, NULL);
    adexp_select *sel = adexp_select_new("EOBT_utc", NULL, NULL, NULL, 0);
    assert_non_null(sel);
    assert_int_equal(adexp_csv_write(&out, &p.msg, "s", sel, ','), ADEXP_OK);
    expect_output(out.data, out.len, "s,0,IFPL,2025-08-03T09:30:00Z,\r\n");
    adexp_select_free(sel);
    adexp_buf_free(&out);
    adexp_arena_free(&p.arena);
}

/* The view's line is read from the fields, msg->view unread: a message
 * with more fields of the arrays' kinds than the walk keeps (EETFIR,
 * SPEED, two RTEPTS lists and ADDR lists, interleaved), and more for
 * "other" (SRC, and ARCID after its first), writes each array whole and
 * in order, and the same line with its view cleared (as adexp-parse
 * parses for --format view: the title alone). */
static void test_view_from_fields(void **state)
{
    (void)state;
    static char text[1 << 14];
    char eetfir[1024] = "\"eetfir\":[", speed[1024] = "\"speed\":[", addr[512] = "\"addr\":[";
    char pts[4096] = "\"rtepts\":[";
    char arcid[1024] = "\"ARCID\":[", src[1024] = "\"SRC\":[";
    size_t at = (size_t)snprintf(text, sizeof text, "-TITLE IFPL -ARCID A1\n");
    for (int i = 0; i < 40; i++) {
        const char *c = i ? "," : "";
        at += (size_t)snprintf(text + at, sizeof text - at,
                               "-EETFIR E%02d -SPEED N%02d -SRC S%02d -ARCID B%02d\n", i, i, i, i);
        snprintf(arcid + strlen(arcid), sizeof arcid - strlen(arcid), "%s\"B%02d\"", c, i);
        snprintf(src + strlen(src), sizeof src - strlen(src), "%s\"S%02d\"", c, i);
        snprintf(eetfir + strlen(eetfir), sizeof eetfir - strlen(eetfir), "%s\"E%02d\"", c, i);
        snprintf(speed + strlen(speed), sizeof speed - strlen(speed), "%s\"N%02d\"", c, i);
        if (i % 20 == 0) {
            at += (size_t)snprintf(text + at, sizeof text - at,
                                   "-BEGIN ADDR -FAC F%02d -FAC G%02d -END ADDR\n"
                                   "-BEGIN RTEPTS -PT -PTID P%02d -FL F350 -ETO 181023074600"
                                   " -PT -PTID Q%02d -TO 0746 -END RTEPTS\n", i, i, i, i);
            snprintf(addr + strlen(addr), sizeof addr - strlen(addr), "%s\"F%02d\",\"G%02d\"", c,
                     i, i);
            snprintf(pts + strlen(pts), sizeof pts - strlen(pts),
                     "%s{\"ptid\":\"P%02d\",\"fl\":\"F350\",\"fl_ft\":35000,"
                     "\"eto\":\"181023074600\",\"eto_utc\":\"2018-10-23T07:46:00Z\"},"
                     "{\"ptid\":\"Q%02d\",\"to\":\"0746\",\"to_utc\":\"07:46\"}", c, i, i);
        }
    }
    strcat(eetfir, "]");
    strcat(speed, "]");
    strcat(addr, "]");
    strcat(pts, "]");
    strcat(arcid, "]");
    strcat(src, "]");
    parsed p;
    parse(&p, text);
    assert_int_equal(p.msg.nerrors, 0);
    adexp_buf a, b;
    adexp_buf_init(&a, NULL);
    adexp_buf_init(&b, NULL);
    static char line[1 << 15];
    assert_int_equal(adexp_view_json_write(&a, &p.msg, "s", NULL), ADEXP_OK);
    assert_true(a.len < sizeof line);
    memcpy(line, a.data, a.len);
    line[a.len] = 0;
    const char *want[] = {eetfir, speed, addr, pts, "\"arcid\":\"A1\"", arcid, src};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        if (!strstr(line, want[i]))
            fail_msg("no %s in\n%s", want[i], line);
    p.msg.view = (adexp_view){.title = p.msg.view.title};
    assert_int_equal(adexp_view_json_write(&b, &p.msg, "s", NULL), ADEXP_OK);
    expect_output(b.data, b.len, line);
    adexp_buf_free(&a);
    adexp_buf_free(&b);
    adexp_arena_free(&p.arena);
}

/* csv_write_rows counts the rows it writes: the output's newlines, for a
 * message's row, one row a point, a failed message without its list and a
 * message without the list (none). */
static void test_csv_row_count(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "-TITLE IFPL -ARCID A1 -BEGIN RTEPTS -PT -PTID EDDM -FL F000 -ETO 250803093000\n"
        "-PT -PTID INPUD -FL F280 -ETO 250803094000 -PT -PTID X -FL FL280 -END RTEPTS\n",
        "-TITLE IFPL -ARCID X1 -BEGIN ADDR -FAC A\n",
        "-TITLE IFPL -ARCID X1\n",
    };
    adexp_select *rows = adexp_select_new("ARCID", "RTEPTS", NULL, NULL, 0);
    assert_non_null(rows);
    for (size_t t = 0; t < sizeof texts / sizeof *texts; t++) {
        for (int r = 0; r < 2; r++) {
            parsed p;
            parse(&p, texts[t]);
            adexp_buf out;
            adexp_buf_init(&out, NULL);
            uint64_t n = 7;
            assert_int_equal(csv_write_rows(&out, &p.msg, "s", r ? rows : NULL, r ? '\t' : ',',
                                            &n), ADEXP_OK);
            uint64_t nl = 0;
            for (size_t i = 0; i < out.len; i++)
                nl += out.data[i] == '\n';
            assert_int_equal(n - 7, nl);
            adexp_buf_free(&out);
            adexp_arena_free(&p.arena);
        }
    }
    adexp_select_free(rows);
}

static void test_select_errors(void **state)
{
    (void)state;
    char err[160];
    assert_null(adexp_select_new("RFL_km", NULL, NULL, err, sizeof err));
    assert_non_null(strstr(err, "_km"));
    assert_null(adexp_select_new("ARCID,,ADEP", NULL, NULL, err, sizeof err));
    assert_null(adexp_select_new("ESTDATA..PTID", NULL, NULL, err, sizeof err));
    assert_null(adexp_select_new("A-B", NULL, NULL, err, sizeof err));
    assert_null(adexp_select_new("RTEPTS", "RTEPTS", NULL, err, sizeof err));
    assert_null(adexp_select_new(NULL, "RTEPTS,ADDR", NULL, err, sizeof err));
    assert_null(adexp_select_new(NULL, NULL, "IFPL,", err, sizeof err));
    adexp_select *s = adexp_select_new(NULL, NULL, "ifpl,CHG", err, sizeof err);
    assert_non_null(s);
    parsed p;
    parse(&p, "-TITLE CHG -ARCID A\n");
    assert_true(adexp_select_keeps(s, &p.msg));
    adexp_arena_free(&p.arena);
    parse(&p, "-TITLE CNL -ARCID A\n");
    assert_false(adexp_select_keeps(s, &p.msg));
    assert_true(adexp_select_keeps(NULL, &p.msg));
    adexp_arena_free(&p.arena);
    char unseen[32];
    assert_int_equal(adexp_select_unseen_titles(s, unseen, sizeof unseen), 1);
    assert_string_equal(unseen, "IFPL");
    adexp_select_free(s);
}

/* Names the dictionary does not know: refused, with the closest ones. */
static void test_select_names(void **state)
{
    (void)state;
    char err[200];
    static const struct { const char *fields, *rows, *want, *also; } bad[] = {
        {"ARCDI", NULL, "--fields: unknown field ARCDI (did you mean ", "ARCID"},
        {"ARCID,RFL_ft,ESTDATA.PTIX", NULL, "unknown field PTIX in ESTDATA.PTIX (did", "PTID"},
        {NULL, "RTEPT", "--rows: unknown field RTEPT (did you mean ", "RTEPTS"},
        {NULL, "ARCID", "--rows: ARCID is not a list", ""},
        {"RTEPTS.XYZZY", "RTEPTS", "unknown field XYZZY in RTEPTS.XYZZY", ""},
        {"QWERTYUIOP", NULL, "unknown field QWERTYUIOP", ""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        adexp_select *s = adexp_select_new(bad[i].fields, bad[i].rows, NULL, err, sizeof err);
        assert_non_null(s);
        assert_int_equal(adexp_select_check_names(s, NULL, err, sizeof err), -1);
        if (!strstr(err, bad[i].want) || !strstr(err, bad[i].also))
            fail_msg("%s %s: got '%s'", bad[i].want, bad[i].also, err);
        adexp_select_free(s);
    }
    adexp_select *s = adexp_select_new("arcid,ESTDATA.PTID,RFL_ft,RTEPTS.FL", "rtepts", NULL,
                                       err, sizeof err);
    assert_int_equal(adexp_select_check_names(s, NULL, err, sizeof err), 0);
    adexp_select_free(s);
    adexp_dict_error de;
    static const char ext[] = "XYZZY\tprimary\tb\t-\t-\taircraftid\n";
    adexp_dictionary *d = adexp_dict_load(NULL, ext, sizeof ext - 1, &de);
    assert_non_null(d);
    {
        s = adexp_select_new("XYZZY", NULL, NULL, err, sizeof err);
        assert_int_equal(adexp_select_check_names(s, d, err, sizeof err), 0);
        assert_int_equal(adexp_select_check_names(s, NULL, err, sizeof err), -1);
        adexp_select_free(s);
        adexp_dict_free(d);
    }
}

/* Envelope columns: each part of a framed message's envelope, folded
 * (the addressees of two lines, the three pieces of text joined by one
 * space, a '"' quoted), its form (ITA-2, IA-5), empty for an unframed message; names in any case,
 * headed by the JSON object's keys; typos refused with the closest part. */
static void test_csv_envelope(void **state)
{
    (void)state;
    static const char feed[] =
        "ZCZC AAA001 170001\nFF LKPREPWC\nEUCHZMFP  EDDFZQZX\n170001 EUCHZMFP \"X\"\n"
        "free text\n-TITLE CNL -ARCID AFR1\nNNNN\n"
        "-TITLE CNL -ARCID AFR2\n"
        "\001AAA003\nGG EDDFZQZX\n170002 EUCHZMFP\n\002-TITLE CNL -ARCID AFR3\n\v\003";
    adexp_parser *ps = adexp_parser_new(NULL, NULL);
    assert_non_null(ps);
    adexp_parser_reset(ps, feed, sizeof feed - 1);
    adexp_arena arena;
    adexp_arena_init(&arena, NULL);
    adexp_buf out;
    adexp_buf_init(&out, NULL);
    char err[200];
    adexp_select *sel = adexp_select_new(
        "ARCID,envelope.transmission_id,ENVELOPE.Priority,envelope.addressees,"
        "envelope.filing_time,envelope.originator,envelope.text,Envelope.Form",
        NULL, NULL, err, sizeof err);
    assert_non_null(sel);
    assert_int_equal(adexp_select_check_names(sel, NULL, err, sizeof err), 0);
    assert_int_equal(adexp_csv_header(&out, sel, ','), ADEXP_OK);
    adexp_msg m;
    while (adexp_parser_next(ps, &arena, &m) != ADEXP_END)
        assert_int_equal(adexp_csv_write(&out, &m, "f", sel, ','), ADEXP_OK);
    expect_output(out.data, out.len,
        "source,index,title,ARCID,envelope.transmission_id,envelope.priority,"
        "envelope.addressees,envelope.filing_time,envelope.originator,envelope.text,"
        "envelope.form,errors\r\n"
        "f,0,CNL,AFR1,AAA001,FF,LKPREPWC EUCHZMFP EDDFZQZX,170001,EUCHZMFP,"
        "\"170001 \"\"X\"\" free text\",ita2,\r\n"
        "f,1,CNL,AFR2,,,,,,,,\r\n"
        "f,2,CNL,AFR3,AAA003,GG,EDDFZQZX,170002,EUCHZMFP,,ia5,\r\n");
    adexp_select_free(sel);
    adexp_parser_free(ps);
    adexp_arena_free(&arena);
    /* a json or view trimmed by --fields keeps no field for them */
    sel = adexp_select_new("envelope.originator", NULL, NULL, err, sizeof err);
    assert_non_null(sel);
    assert_false(sel_keeps_keyword(sel, (adexp_slice){"ENVELOPE", 8}));
    adexp_select_free(sel);
    static const struct { const char *fields, *want; } bad[] = {
        {"envelope.orignator", "unknown envelope part orignator (did you mean envelope.originator?)"},
        {"Envelope.tid", "unknown envelope part tid (one of envelope.form, "
                         "envelope.transmission_id, "
                         "envelope.priority, envelope.addressees, envelope.filing_time, "
                         "envelope.originator, envelope.text)"},
        {"ARCID,envelope", "unknown envelope part  (one of envelope.form, envelope.transmission_id"},
        {"envelope.text_ft", "unknown envelope part text_ft (one of "},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_null(adexp_select_new(bad[i].fields, NULL, NULL, err, sizeof err));
        if (!strstr(err, bad[i].want))
            fail_msg("%s: got '%s'", bad[i].fields, err);
    }
    adexp_buf_free(&out);
}

/* ------------------------------------------------ the view's quick paths */

static unsigned next_rand(unsigned *r)
{
    *r = *r * 1103515245u + 12345u;
    return (*r >> 16) & 0x7FFF;
}

#define PICK(r, a) ((a)[next_rand(r) % (sizeof(a) / sizeof *(a))])

/* Values of every shape the quick paths tell apart: plain ones of 1 to 3,
 * 4 to 16 and more bytes, with spaces, quotes, controls and high bytes;
 * levels and date-times that decode or do not. */
static const char *const any_values[] = {
    "F390", "A045", "F000", "A000", "F010", "S1130", "M0840", "FL390", "F39", "F3A0",
    "181023074600", "181023074660", "181302074600", "180229074600", "200229235959",
    "181023246000", "1810230746", "0746", "2460", "181023", "181332", "EDDM", "LLS",
    "A", "AB", "A\"B", "A\\B", "x y", "a  b", "\x01", "\xc3\xa9t\xe9", "\x7f\x7f",
    "ABCDEFGHIJKLMNOP", "ABCDEFGHIJKLMNOPQ", "UL508 SOVUK SIROL", "502030N", "0102030W", "",
    /* segments of 17 to 33 bytes, plain or not anywhere */
    "UM605 XIDIL BIBAX", "UN852  MOKIP SISMO", "M605 SFD XIDIL BIBAX ZZ\"Q", " LEADING SPACE SEG",
    "TRAILING SPACE SEG ", "TAB\tINSIDE A SEGMENT", "HIGH \xc3\xa9 BYTES IN SEGMENT",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456",
    "AB CD EF GH IJ KL MN OP\\",
};
static const char *const single_keywords[] = {
    "ARCID", "ADEP", "ADES", "ARCTYP", "EOBT", "EOBD", "IFPLID", "SSRCODE", "FLTRUL",
    "FLTTYP", "WKTRC", "CEQPT", "SEQPT", "RFL", "ROUTE", "ALTRNT1", "ALTRNT2", "REG",
    "OPR", "PBN", "MSGTXT", "COMMENT", "FILTIM", "ORGNID", "CTOT", "ALTNZ",
};
static const char *const other_keywords[] = {
    "ATSRT", "DCT", "SRC", "TTLEET", "AOARCID", "AOOPR", "SEL", "NEWCTOT", "TAXITIME",
    "REGCAUSE", "IOBT", "XYZZY", "ZZTOP", "ARCID", "RFL",
};
static const char *const origins[] = {
    "-ORIGIN -NETWORKTYPE %s -FAC %s\n", "-ORIGIN -FAC %s -NETWORKTYPE %s\n",
    "-ORIGIN -FAC %s -FAC %s\n", "-ORIGIN -XYZZY %s -FAC %s\n", "-ORIGIN -FAC %s -ADDR -FAC %s\n",
};
static const char *const days[] = {"181023", "181024", "180229", "181302", "18102x"};
static const char *const times[] = {"0746", "2359", "2400", "0760", "07a6"};
static const char *const secs[] = {"00", "59", "60", "5x"};
/* Coordinates of both kinds that decode or do not, and their near misses. */
static const char *const coords[] = {
    "490000N", "0500000W", "5030N", "00030E", "900000S", "1800000E", "1800001W", "906000N",
    "4900N0", "490000X", "49000N", "ABCDEFN", "0000000000000000N", "\"12345N",
};

static size_t put_text(char *buf, size_t at, size_t cap, const char *fmt, const char *a,
                       const char *b)
{
    int n = snprintf(buf + at, cap - at, fmt, a, b);
    return n < 0 || (size_t)n >= cap - at ? at : at + (size_t)n;
}

/* A random message: single fields (some twice), members of "other" of
 * known and unknown keywords (some repeated, some compounds and lists, a
 * list's items of one string and not),
 * ESTDATA and route points of every shape, their days and levels often
 * repeated. */
static void random_message(char *buf, size_t cap, unsigned *r)
{
    size_t at = put_text(buf, 0, cap, "-TITLE %s%s\n", next_rand(r) % 4 ? "IFPL" : "CHG", "");
    if (next_rand(r) % 2)   /* EOBT on its EOBD's day, or not */
        at = put_text(buf, at, cap, "-EOBD %s -EOBT %s\n", PICK(r, days), PICK(r, times));
    for (unsigned i = next_rand(r) % 30; i > 0; i--)
        at = put_text(buf, at, cap, "-%s %s\n", PICK(r, single_keywords), PICK(r, any_values));
    for (unsigned i = next_rand(r) % 70; i > 0; i--) {
        unsigned k = next_rand(r) % 10;
        if (k == 0)   /* ORIGIN's usual two, or one twice, or one unknown */
            at = put_text(buf, at, cap, PICK(r, origins), PICK(r, any_values), PICK(r, any_values));
        else if (k == 1)
            at = put_text(buf, at, cap, "-BEGIN ADDR -FAC %s -FAC %s -END ADDR\n",
                          PICK(r, any_values), PICK(r, any_values));
        else if (k == 3)   /* ORIGIN of no subfield: one string beside those of some */
            at = put_text(buf, at, cap, "-ORIGIN %s%s\n", PICK(r, any_values), "");
        else if (k == 2)   /* a list of "other", its items one string or not */
            at = put_text(buf, at, cap, "-BEGIN EQCST -EQPT %s -ORIGIN -FAC %s -END EQCST\n",
                          PICK(r, any_values), PICK(r, any_values));
        else
            at = put_text(buf, at, cap, "-%s %s\n", PICK(r, other_keywords), PICK(r, any_values));
    }
    for (unsigned i = next_rand(r) % 4; i > 0; i--) {   /* ESTDATA of every shape */
        unsigned shape = next_rand(r) % 6;
        at = put_text(buf, at, cap, "-ESTDATA -PTID %s%s", shape == 0 ? "" : PICK(r, any_values), "");
        if (shape != 1)
            at = put_text(buf, at, cap, " -ETO %s%s", PICK(r, days), PICK(r, times));
        if (shape != 2)
            at = put_text(buf, at, cap, "%s -FL %s", shape == 3 ? "" : PICK(r, secs),
                          next_rand(r) % 2 ? "F350" : PICK(r, any_values));
        if (shape == 4)
            at = put_text(buf, at, cap, " -SFL %s%s", PICK(r, any_values), "");
        at = put_text(buf, at, cap, "%s%s\n", "", "");
    }
    for (unsigned i = next_rand(r) % 3; i > 0; i--) {   /* REFDATA and MSGREF of every shape */
        unsigned shape = next_rand(r) % 6;
        at = put_text(buf, at, cap, "-%s%s", next_rand(r) % 2 ? "REFDATA" : "MSGREF", "");
        if (shape != 0)
            at = put_text(buf, at, cap, " -SENDER -FAC %s%s", PICK(r, any_values), "");
        if (shape != 1)
            at = put_text(buf, at, cap, " -RECVR -FAC %s%s", PICK(r, any_values), "");
        if (shape != 2)
            at = put_text(buf, at, cap, " -SEQNUM %s%s", PICK(r, any_values), "");
        if (shape == 3)
            at = put_text(buf, at, cap, " -SEQNUM %s%s", PICK(r, any_values), "");
        at = put_text(buf, at, cap, "%s%s\n", "", "");
    }
    for (unsigned i = next_rand(r) % 4; i > 0; i--) {   /* GEO of every shape */
        unsigned shape = next_rand(r) % 5;
        at = put_text(buf, at, cap, "-GEO -GEOID %s%s", shape == 0 ? "" : PICK(r, any_values), "");
        if (shape != 1)
            at = put_text(buf, at, cap, " -LATTD %s%s", PICK(r, coords), "");
        if (shape != 2)
            at = put_text(buf, at, cap, " -LONGTD %s%s", PICK(r, coords), "");
        if (shape == 3)
            at = put_text(buf, at, cap, " -LATTD %s%s", PICK(r, any_values), "");
        at = put_text(buf, at, cap, "%s%s\n", "", "");
    }
    if (next_rand(r) % 4 == 0)
        return;
    at = put_text(buf, at, cap, "-BEGIN RTEPTS%s%s\n", "", "");
    const char *day = PICK(r, days), *fl = PICK(r, any_values);
    for (unsigned i = next_rand(r) % 40; i > 0; i--) {
        if (next_rand(r) % 5 == 0)
            day = PICK(r, days);
        if (next_rand(r) % 3 == 0)
            fl = next_rand(r) % 2 ? PICK(r, any_values) : "F350";
        unsigned shape = next_rand(r) % 14;
        at = put_text(buf, at, cap, "-PT -PTID %s%s", shape == 0 ? "" : PICK(r, any_values), "");
        if (shape != 1 && shape != 12)
            at = put_text(buf, at, cap, " -FL %s%s", fl, "");
        if (shape != 2) {
            at = put_text(buf, at, cap, " -ETO %s%s", day, PICK(r, times));
            at = put_text(buf, at, cap, "%s%s", shape == 3 ? "" : PICK(r, secs), "");
        }
        if (shape == 12)   /* its FL after its ETO */
            at = put_text(buf, at, cap, " -FL %s%s", fl, "");
        if (shape == 13)   /* a subfield the view does not hold */
            at = put_text(buf, at, cap, " -XCLR %s%s", PICK(r, any_values), "");
        if (shape == 4)
            at = put_text(buf, at, cap, " -TO %s%s", PICK(r, times), "");
        if (shape == 5)
            at = put_text(buf, at, cap, " -SFL %s%s", PICK(r, any_values), "");
        if (shape == 6)
            at = put_text(buf, at, cap, " -LATTD %s -LONGTD %s", "502030N", "0102030W");
        at = put_text(buf, at, cap, "%s%s\n", "", "");
    }
    put_text(buf, at, cap, "-END RTEPTS%s%s\n", "", "");
}

/* The library's view writer (its quick paths on) writes what the general
 * path writes (the same file with VIEW_QUICK 0, above), on random messages,
 * whole, trimmed by a selection, and with their offsets reversed. */
static void test_view_quick_paths(void **state)
{
    (void)state;
    adexp_select *sel = adexp_select_new("ARCID,EOBT,RFL,RTEPTS,ATSRT,SRC,ORIGIN,XYZZY,ADDR",
                                         NULL, NULL, NULL, 0);
    assert_non_null(sel);
    static char text[1 << 16];
    adexp_buf a, b;
    adexp_buf_init(&a, NULL);
    adexp_buf_init(&b, NULL);
    unsigned r = 17;
    for (int m = 0; m < 3000; m++) {
        random_message(text, sizeof text, &r);
        parsed p;
        parse(&p, text);
        for (int pass = 0; pass < 3; pass++) {
            a.len = b.len = 0;
            const adexp_select *s = pass == 1 ? sel : NULL;
            if (pass == 2)   /* a tree built by hand: offsets against list order */
                for (adexp_field *f = p.msg.fields; f; f = f->next)
                    f->offset = 1000000 - f->offset;
            assert_int_equal(adexp_view_json_write(&a, &p.msg, "q", s), ADEXP_OK);
            assert_int_equal(general_view_json_write(&b, &p.msg, "q", s), ADEXP_OK);
            if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
                fail_msg("message %d:\n%s\nquick:\n%.*s\ngeneral:\n%.*s", m, text, (int)a.len,
                         a.data, (int)b.len, b.data);
        }
        adexp_arena_free(&p.arena);
    }
    adexp_buf_free(&a);
    adexp_buf_free(&b);
    adexp_select_free(sel);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels),      cmocka_unit_test(test_coords),
        cmocka_unit_test(test_coord_degrees),
        cmocka_unit_test(test_sfl_rfl),     cmocka_unit_test(test_view_levels),
        cmocka_unit_test(test_when),        cmocka_unit_test(test_dict),
        cmocka_unit_test(test_paths),       cmocka_unit_test(test_view_json),
        cmocka_unit_test(test_other_nested), cmocka_unit_test(test_csv),
        cmocka_unit_test(test_csv_failed_message), cmocka_unit_test(test_csv_eobt_without_view),
        cmocka_unit_test(test_view_from_fields),
        cmocka_unit_test(test_time12_vector),
        cmocka_unit_test(test_csv_row_count), cmocka_unit_test(test_select_errors),
        cmocka_unit_test(test_select_names), cmocka_unit_test(test_csv_envelope),
        cmocka_unit_test(test_csv_rows_scan), cmocka_unit_test(test_datetime_words),
        cmocka_unit_test(test_companion_words),
        cmocka_unit_test(test_csv_usual_rows),
        cmocka_unit_test(test_view_quick_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* fuzz_diff: the main parser against the split reference parser
 * (parser/ref/ref_split.c) on canonical messages built from the fuzz input.
 *
 * The reference is a line-oriented "first version": it only claims to
 * agree with the main parser on canonical input (one field per line, no
 * '-' inside values, lists as -BEGIN/-END lines). So the input is not
 * parsed as text; its bytes drive a generator of such messages: each field
 * is picked from the fields the reference understands, with values of
 * A-Z0-9 and inner spaces taken from the input, separated by LF, CRLF or
 * extra blanks; MSGTXT holds plain text or ADEXP quoted over lines (its
 * -TITLE right after the '(', as a REJ or ACK quotes). Any difference in
 * the compared view (ref_view_equal) fails.
 * The raw input is also given to both parsers, for crashes and leaks only. */
#include "fuzz_common.h"
#include "ref.h"

typedef struct src {
    const uint8_t *p;
    size_t n;
} src;

static unsigned byte(src *s)
{
    if (!s->n)
        return 0;
    s->n--;
    return *s->p++;
}

typedef struct out {
    char *b;
    size_t len, cap;
} out;

static void put(out *o, const char *s, size_t n)
{
    if (o->len + n > o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 1024;
        while (cap < o->len + n)
            cap *= 2;
        char *b = realloc(o->b, cap);
        FUZZ_CHECK(b != NULL);
        o->b = b;
        o->cap = cap;
    }
    memcpy(o->b + o->len, s, n);
    o->len += n;
}

static void puts_(out *o, const char *s)
{
    put(o, s, strlen(s));
}

/* A value: 1..16 bytes of A-Z0-9, with single inner spaces. */
static void value(out *o, src *s, int spaces)
{
    static const char alpha[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    unsigned n = 1 + byte(s) % 16;
    int last_space = 1;
    for (unsigned i = 0; i < n; i++) {
        unsigned c = byte(s);
        if (spaces && !last_space && i + 1 < n && c % 7 == 0) {
            put(o, " ", 1);
            last_space = 1;
            continue;
        }
        put(o, &alpha[c % 36], 1);
        last_space = 0;
    }
}

static void eol(out *o, src *s)
{
    static const char *const ends[] = {"\n", "\n", "\r\n", "  \n", "\n\n", " \t\n"};
    puts_(o, ends[byte(s) % 6]);
}

static void field(out *o, src *s, const char *kw, int spaces)
{
    puts_(o, "-");
    puts_(o, kw);
    puts_(o, " ");
    value(o, s, spaces);
}

static void generate(out *o, src *s)
{
    static const char *const basic[] = {"ADEP", "ADES", "ARCID", "ARCTYP", "CEQPT",
                                        "ALTNZ", "COMMENT", "EETFIR", "SPEED", "EOBT",
                                        "EOBD", "RFL", "ROUTE", "IFPLID"};
    static const char *const titles[] = {"IFPL", "ACK", "CHG", "SAM", "ACT"};
    puts_(o, "-TITLE ");
    puts_(o, titles[byte(s) % 5]);
    eol(o, s);
    unsigned nfields = byte(s) % 24;
    for (unsigned i = 0; i < nfields && s->n; i++) {
        unsigned k = byte(s) % 20;
        if (k < 14) {
            int spaces = k == 6 || k == 7 || k == 8 || k == 12;   /* free text */
            field(o, s, basic[k], spaces);
        } else if (k == 14) {
            puts_(o, "-ESTDATA ");
            field(o, s, "PTID", 0);
            puts_(o, " ");
            field(o, s, "ETO", 0);
            puts_(o, " ");
            field(o, s, "FL", 0);
        } else if (k == 15) {
            puts_(o, "-GEO ");
            field(o, s, "GEOID", 0);
            puts_(o, " ");
            field(o, s, "LATTD", 0);
            puts_(o, " ");
            field(o, s, "LONGTD", 0);
        } else if (k == 16) {
            puts_(o, "-BEGIN RTEPTS");
            eol(o, s);
            unsigned npt = byte(s) % 5;
            for (unsigned j = 0; j < npt; j++) {
                puts_(o, "-PT ");
                field(o, s, "PTID", 0);
                puts_(o, " ");
                field(o, s, "FL", 0);
                puts_(o, " ");
                field(o, s, "ETO", 0);
                eol(o, s);
            }
            puts_(o, "-END RTEPTS");
        } else if (k == 17 && byte(s) % 2) {
            puts_(o, "-MSGTXT (");
            value(o, s, 1);
            puts_(o, ")");
        } else if (k == 17) {      /* quoted ADEXP over lines: one text */
            puts_(o, "-MSGTXT (-TITLE ");
            value(o, s, 0);
            unsigned nq = byte(s) % 4;
            for (unsigned j = 0; j < nq; j++) {
                eol(o, s);
                field(o, s, basic[byte(s) % 14], 1);
            }
            puts_(o, ")");
        } else if (k == 18) {
            puts_(o, "-BEGIN ADDR");
            eol(o, s);
            unsigned nfac = byte(s) % 4;
            for (unsigned j = 0; j < nfac; j++) {
                field(o, s, "FAC", 0);
                eol(o, s);
            }
            puts_(o, "-END ADDR");
        } else {
            puts_(o, "-ORIGIN ");
            field(o, s, "NETWORKTYPE", 0);
            puts_(o, " ");
            field(o, s, "FAC", 0);
        }
        eol(o, s);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the raw input: no crash, no leak, in either parser */
    char *raw = fuzz_copy(data, size);
    ref_view a, b;
    ref_main_parse(raw, size, &a);
    ref_view_free(&a);
    ref_split_parse(raw, size, &b);
    ref_view_free(&b);
    free(raw);

    src s = {data, size};
    out o = {0};
    generate(&o, &s);
    char *msg = fuzz_copy((const uint8_t *)o.b, o.len);
    free(o.b);
    int ra = ref_main_parse(msg, o.len, &a);
    int rb = ref_split_parse(msg, o.len, &b);
    char why[512] = "";
    if (ra != 0 || rb != 0 || !ref_view_equal(&a, &b, why, sizeof why)) {
        fprintf(stderr, "main (%d) and split (%d) differ: %s\non:\n%.*s\n", ra, rb, why,
                (int)o.len, msg);
        abort();
    }
    ref_view_free(&a);
    ref_view_free(&b);
    free(msg);
    return 0;
}

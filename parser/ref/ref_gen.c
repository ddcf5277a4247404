/* A deterministic generator of canonical ADEXP messages (one field per line,
 * lists one item per line, long ROUTE and COMMENT values wrapped over lines)
 * for the benchmark and the differential tests. The mix of titles and sizes
 * follows what an IFPS/ETFMS/OLDI feed carries: many small ATFCM and OLDI
 * messages, fewer but much larger flight plans. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"

typedef struct gen {
    uint64_t s;
    char *buf;
    size_t len, cap;
    int oom;
} gen;

static uint64_t rnd(gen *g)    /* splitmix64 */
{
    uint64_t z = (g->s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static unsigned below(gen *g, unsigned n)
{
    return (unsigned)(rnd(g) % n);
}

static void put(gen *g, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = g->cap - g->len;
        int n = vsnprintf(g->buf ? g->buf + g->len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0) {
            g->oom = 1;
            return;
        }
        if ((size_t)n < room) {
            g->len += (size_t)n;
            return;
        }
        size_t c = g->cap ? g->cap * 2 : 1u << 20;
        while (c < g->len + (size_t)n + 1)
            c *= 2;
        char *nb = realloc(g->buf, c);
        if (!nb) {
            g->oom = 1;
            return;
        }
        g->buf = nb;
        g->cap = c;
    }
}

static const char *const airports[] = {
    "EGLL", "LFPG", "EDDF", "EHAM", "LEMD", "LIRF", "EDDM", "LSZH", "EBBR", "LOWW",
    "EKCH", "ENGM", "ESSA", "EIDW", "LPPT", "LGAV", "LTFM", "EPWA", "LKPR", "LHBP",
    "CYYZ", "KJFK", "EGKK", "LFMN", "LEBL", "LIMC", "EDDH", "EDDL", "EFHK", "UUEE"};
static const char *const types[] = {"A320", "A20N", "B738", "B38M", "A321", "A333",
                                    "B77W", "E190", "CRJ9", "AT76", "DH8D", "A359"};
static const char *const airlines[] = {"DLH", "BAW", "AFR", "KLM", "EZY", "RYR", "SAS",
                                       "IBE", "AUA", "SWR", "ACA", "THY", "BEL", "EIN"};
static const char *const firs[] = {"EGTT", "EGPX", "EHAA", "EBBU", "EDGG", "EDUU", "LFFF",
                                   "LFRR", "LSAS", "LIMM", "LOVV", "LKAA", "EPWW", "CZQX"};
static const char *const airways[] = {"UL975", "UN853", "UM601", "L9", "Y102", "UZ29",
                                      "N869", "UL607", "UT10", "Z109", "M852", "UY37"};
static const char *const regs[] = {"CE 81", "WA 84", "AT 83", "WE 84", "ATC 81"};

#define PICK(g, arr) ((arr)[below((g), sizeof(arr) / sizeof((arr)[0]))])

static void point_name(gen *g, char out[6])
{
    unsigned n = 3 + below(g, 3);
    for (unsigned i = 0; i < n; i++)
        out[i] = (char)('A' + below(g, 26));
    out[n] = '\0';
}

static void callsign(gen *g, char out[8])
{
    snprintf(out, 8, "%s%u", PICK(g, airlines), 1 + below(g, 9899));
}

static void route(gen *g, unsigned words)
{
    put(g, "-ROUTE N0%uF%u", 400 + below(g, 90), 280 + 10 * below(g, 13));
    for (unsigned i = 0; i < words; i++) {
        char pt[6];
        point_name(g, pt);
        put(g, i % 9 == 8 ? "\n %s %s" : " %s %s", PICK(g, airways), pt);
    }
    put(g, "\n");
}

static void addr(gen *g, unsigned n)
{
    put(g, "-BEGIN ADDR\n");
    for (unsigned i = 0; i < n; i++)
        put(g, "  -FAC %sZQZX\n", PICK(g, firs));
    put(g, "-END ADDR\n");
}

static void rtepts(gen *g, unsigned n)
{
    put(g, "-BEGIN RTEPTS\n");
    for (unsigned i = 0; i < n; i++) {
        char pt[6];
        point_name(g, pt);
        put(g, "  -PT -PTID %s -FL F%03u -ETO 2603%02u%02u%02u%02u\n", pt,
            i == 0 || i + 1 == n ? 0 : 100 + 10 * below(g, 30), 1 + below(g, 28),
            below(g, 24), below(g, 60), below(g, 60));
    }
    put(g, "-END RTEPTS\n");
}

static void ident(gen *g, const char *title)
{
    char cs[8];
    callsign(g, cs);
    put(g, "-TITLE %s\n-ARCID %s\n-IFPLID AA%08u\n-ADEP %s\n-ADES %s\n-EOBD 2603%02u\n"
        "-EOBT %02u%02u\n", title, cs, below(g, 100000000), PICK(g, airports),
        PICK(g, airports), 1 + below(g, 28), below(g, 24), below(g, 60));
}

static void comment(gen *g)
{
    put(g, "-COMMENT ???FPD.F15: N0410F300 ARLES UL153 PUNSA/N0410F300 UL153\n"
        "VADEM/N0400F320 UN853 PENDU/N0400F330 UN853 IXILU/N0400F340\n");
}

static void msgtxt(gen *g, const char *cs)
{
    put(g, "-MSGTXT (FPL-%s-IS-%s/M-SDE3FGHIJ3J5LM1ORVWXY/LB1-%s%02u%02u-N0450F350 DCT "
        "%s-%s0200 %s-PBN/A1B1C1D1 DOF/2603%02u REG/DABCD EET/%s0012 RMK/TCAS)\n",
        cs, PICK(g, types), PICK(g, airports), below(g, 24), below(g, 60),
        PICK(g, airways), PICK(g, airports), PICK(g, airports), 1 + below(g, 28),
        PICK(g, firs));
}

static void flight_plan(gen *g, const char *title, int big)
{
    char cs[8];
    callsign(g, cs);
    put(g, "-TITLE %s\n", title);
    addr(g, 2 + below(g, 12));
    put(g, "-ADEP %s\n-ADES %s\n-ARCID %s\n-ARCTYP %s\n-CEQPT SDE3FGHIJ3J5LM1ORVWXY\n"
        "-SEQPT LB1\n-EOBD 2603%02u\n-EOBT %02u%02u\n-FILTIM %02u%02u%02u\n"
        "-IFPLID AA%08u\n-ORIGIN -NETWORKTYPE SITA -FAC %sXH\n-FLTRUL I\n-FLTTYP S\n"
        "-WKTRC M\n-RFL F%u\n-PBN A1B1C1D1O1S2\n-REG D%c%c%c%c\n",
        PICK(g, airports), PICK(g, airports), cs, PICK(g, types), 1 + below(g, 28),
        below(g, 24), below(g, 60), 1 + below(g, 28), below(g, 24), below(g, 60),
        below(g, 100000000), PICK(g, airports), 280 + 10 * below(g, 13),
        'A' + below(g, 26), 'A' + below(g, 26), 'A' + below(g, 26), 'A' + below(g, 26));
    if (below(g, 4) == 0)
        put(g, "-ALTNZ EASTERN :CREEK'()+,./\n");
    unsigned nspeed = 1 + below(g, 2);
    for (unsigned i = 0; i < nspeed; i++)
        put(g, "-SPEED N0%u\n", 420 + below(g, 60));
    route(g, big ? 8 + below(g, 30) : 3 + below(g, 6));
    unsigned neet = big ? 2 + below(g, 12) : below(g, 3);
    for (unsigned i = 0; i < neet; i++)
        put(g, "-EETFIR %s %02u%02u\n", PICK(g, firs), i / 2, below(g, 60));
    unsigned nest = below(g, 3);
    for (unsigned i = 0; i < nest; i++) {
        char pt[6];
        point_name(g, pt);
        put(g, "-ESTDATA -PTID %s -ETO 2603%02u%02u%02u00 -FL F%u\n", pt, 1 + below(g, 28),
            below(g, 24), below(g, 60), 280 + 10 * below(g, 13));
    }
    unsigned ngeo = big ? below(g, 4) : 0;
    for (unsigned i = 0; i < ngeo; i++)
        put(g, "-GEO -GEOID GEO%02u -LATTD %02u0000N -LONGTD 0%02u0000W\n", i + 1,
            40 + below(g, 30), below(g, 60));
    rtepts(g, big ? 10 + below(g, 70) : 3 + below(g, 10));
    if (below(g, 3) == 0)
        msgtxt(g, cs);
    if (below(g, 4) == 0)
        comment(g);
}

static void one_message(gen *g)
{
    unsigned r = below(g, 100);
    char cs[8];
    if (r < 25) {                       /* IFPL: the big ones */
        flight_plan(g, "IFPL", 1);
    } else if (r < 35) {                /* CHG/ICHG: a changed flight plan */
        flight_plan(g, below(g, 2) ? "CHG" : "ICHG", 0);
    } else if (r < 50) {                /* ACK with the original text */
        callsign(g, cs);
        put(g, "-TITLE ACK\n-MSGTYP IFPL\n-FILTIM %02u%02u%02u\n-ORIGINDT 2603%02u%02u%02u\n",
            1 + below(g, 28), below(g, 24), below(g, 60), 1 + below(g, 28), below(g, 24),
            below(g, 60));
        addr(g, 1 + below(g, 3));
        put(g, "-IFPLID AA%08u\n-ARCID %s\n-ADEP %s\n-ADES %s\n", below(g, 100000000), cs,
            PICK(g, airports), PICK(g, airports));
        msgtxt(g, cs);
    } else if (r < 75) {                /* ATFCM slot messages */
        static const char *const t[] = {"SAM", "SRM", "SLC", "FLS", "DES"};
        ident(g, PICK(g, t));
        put(g, "-CTOT %02u%02u\n-REGUL %s%02uM\n-TAXITIME 00%02u\n-REGCAUSE %s\n",
            below(g, 24), below(g, 60), PICK(g, firs), below(g, 31), 5 + below(g, 20),
            PICK(g, regs));
        if (below(g, 3) == 0)
            put(g, "-TTO -PTID %s -TO %02u%02u -FL F%u\n", PICK(g, firs), below(g, 24),
                below(g, 60), 200 + 10 * below(g, 20));
        if (below(g, 5) == 0)
            comment(g);
    } else if (r < 95) {                /* OLDI coordination */
        static const char *const t[] = {"ACT", "ABI", "PAC", "LAM", "REV", "MAC"};
        const char *title = PICK(g, t);
        callsign(g, cs);
        put(g, "-TITLE %s\n-REFDATA -SENDER -FAC %s -RECVR -FAC %s -SEQNUM %03u\n", title,
            PICK(g, firs), PICK(g, firs), below(g, 1000));
        if (strcmp(title, "LAM") == 0) {
            put(g, "-MSGREF -SENDER -FAC %s -RECVR -FAC %s -SEQNUM %03u\n", PICK(g, firs),
                PICK(g, firs), below(g, 1000));
        } else {
            put(g, "-ARCID %s\n-SSRCODE A%o%o%o%o\n-ADEP %s\n-ADES %s\n-ARCTYP %s\n"
                "-COORDATA -PTID %s -TO %02u%02u -TFL F%u\n", cs, below(g, 8), below(g, 8),
                below(g, 8), below(g, 8), PICK(g, airports), PICK(g, airports),
                PICK(g, types), PICK(g, firs), below(g, 24), below(g, 60),
                200 + 10 * below(g, 20));
            if (below(g, 2) == 0)
                route(g, 3 + below(g, 8));
        }
    } else {                            /* CNL, DLA */
        ident(g, below(g, 2) ? "CNL" : "DLA");
    }
}

int ref_gen_corpus(uint64_t seed, size_t n, char **buf, size_t *len, size_t **offs)
{
    gen g = {.s = seed};
    size_t *o = malloc((n + 1) * sizeof *o);
    if (!o)
        return -1;
    for (size_t i = 0; i < n && !g.oom; i++) {
        o[i] = g.len;
        one_message(&g);
    }
    o[n] = g.len;
    if (g.oom) {
        free(g.buf);
        free(o);
        return -1;
    }
    *buf = g.buf;
    *len = g.len;
    *offs = o;
    return 0;
}

/* testdata/messages/teivah-IFPL-1.adexp (from teivah/golang-good-code-bad-code,
 * Apache-2.0, resources/tests/adexp.txt), kept here so the tests and the
 * benchmark still have it when testdata is not there. */
const char ref_teivah_ifpl[] =
    "-TITLE IFPL\n"
    "-ADEP CYYZ\n"
    "-ALTNZ EASTERN :CREEK'()+,./\n"
    "-ADES AFIL\n"
    "-ARCID ACA878\n"
    "-ARCTYP A333\n"
    "-CEQPT SDE3FGHIJ3J5LM1ORVWXY\n"
    "-EETFIR KZLC 0035\n"
    "-EETFIR KZDV 0131\n"
    "-EETFIR KZMP 0200\n"
    "-EETFIR CZWG 0247\n"
    "-EETFIR CZUL 0349\n"
    "-EETFIR CZQX 0459\n"
    "-EETFIR EGGX 0655\n"
    "-EETFIR EGPX 0800\n"
    "-EETFIR EGTT 0831\n"
    "-EETFIR EHAA 0853\n"
    "-EETFIR EBBU 0908\n"
    "-EETFIR EDGG 0921\n"
    "-EETFIR EDUU 0921\n"
    "-ESTDATA -PTID XETBO -ETO 170302032300 -FL F390\n"
    "-ESTDATA -PTID ARKIL -ETO 170302032300 -FL F390\n"
    "-GEO -GEOID GEO01 -LATTD 490000N -LONGTD 0500000W\n"
    "-GEO -GEOID GEO02 -LATTD 500000N -LONGTD 0400000W\n"
    "-GEO -GEOID GEO04 -LATTD 520000N -LONGTD 0200000W\n"
    "-BEGIN RTEPTS\n"
    "       -PT -PTID CYYZ -FL F000 -ETO 170301220429\n"
    "       -PT -PTID JOOPY -FL F390 -ETO 170302002327\n"
    "       -PT -PTID GEO01 -FL F390 -ETO 170302003347\n"
    "       -PT -PTID BLM -FL F171 -ETO 170302051642\n"
    "       -PT -PTID LSZH -FL F014 -ETO 170302052710\n"
    "-END RTEPTS\n"
    "-SPEED N0456 ARKIL\n"
    "-SPEED N0457 LIZAD\n"
    "-MSGTXT (ACH-BEL20B-LIML1050-EBBR-DOF/150521-14/HOC/1120F320 -18/PBN/B1 DOF/150521 REG/OODWK RVR/150 OPR/BEL ORGN/LSAZZQZG SRC/AFP RMK/AGCS EQUIPPED)\n"
    "-COMMENT ?\??FPD.F15: N0410F300 ARLES UL153 PUNSA/N0410F300 UL153\n"
    "VADEM/N0400F320 UN853 PENDU/N0400F330 UN853 IXILU/N0400F340 UN853\n"
    "DIK/N0400F320 UY37 BATTY";
const size_t ref_teivah_ifpl_len = sizeof ref_teivah_ifpl - 1;

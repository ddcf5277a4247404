/* The ADEXP lexer's states (lex_between, lex_dash, basic_value, text_value,
 * lex_eof), the hot keywords its field loop reads without a dictionary
 * lookup, and ICAO text's brackets (match_paren). The design is in lexer.h;
 * the parser pulls fields with lexer_next_field, which lexer_fill feeds. */
#include <string.h>

#include "dict_ext.h"
#include "dict_ids.h"
#include "lexer.h"
#include "lines.h"
#include "scan.h"

#define S CC_SEP
#define A CC_ALNUM
/* Separators: space, CR, LF, TAB, VT and FF. Keywords: A-Z 0-9. */
const uint8_t lexer_class[256] = {
    ['\t'] = S, ['\n'] = S, ['\v'] = S, ['\f'] = S, ['\r'] = S, [' '] = S,
    ['0'] = A, ['1'] = A, ['2'] = A, ['3'] = A, ['4'] = A,
    ['5'] = A, ['6'] = A, ['7'] = A, ['8'] = A, ['9'] = A,
    ['A'] = A, ['B'] = A, ['C'] = A, ['D'] = A, ['E'] = A, ['F'] = A,
    ['G'] = A, ['H'] = A, ['I'] = A, ['J'] = A, ['K'] = A, ['L'] = A,
    ['M'] = A, ['N'] = A, ['O'] = A, ['P'] = A, ['Q'] = A, ['R'] = A,
    ['S'] = A, ['T'] = A, ['U'] = A, ['V'] = A, ['W'] = A, ['X'] = A,
    ['Y'] = A, ['Z'] = A,
};
#undef S
#undef A

/* The most frequent keywords: first those of flight plans and of the OLDI
 * and ATFCM messages (PTID, FL, ETO, PT and FAC are two thirds of all
 * keywords), after RMK those that the real messages of testdata hold
 * most (-NUM, -FLBLOCK, -AIRROUTE, -ORGN...), ATFCM's departure times and
 * the names of lists (-BEGIN LACDR), which would each cost a dictionary
 * lookup out of the fused loop (a list's name, its whole list). Each is
 * spelled out for the table below: X(name, its bytes, padded with 0 to 8);
 * a longer keyword (-NETWORKTYPE) cannot be one. No text field
 * (MSGTXT...) may be one: the fast scans read every hot keyword's value as
 * basic (lexer_test checks the table against the dictionary). */
#define HOT_KEYWORDS(X) \
    X(PTID, 'P', 'T', 'I', 'D', 0, 0, 0, 0) \
    X(FL, 'F', 'L', 0, 0, 0, 0, 0, 0) \
    X(ETO, 'E', 'T', 'O', 0, 0, 0, 0, 0) \
    X(PT, 'P', 'T', 0, 0, 0, 0, 0, 0) \
    X(FAC, 'F', 'A', 'C', 0, 0, 0, 0, 0) \
    X(ATSRT, 'A', 'T', 'S', 'R', 'T', 0, 0, 0) \
    X(EETFIR, 'E', 'E', 'T', 'F', 'I', 'R', 0, 0) \
    X(DCT, 'D', 'C', 'T', 0, 0, 0, 0, 0) \
    X(BEGIN, 'B', 'E', 'G', 'I', 'N', 0, 0, 0) \
    X(END, 'E', 'N', 'D', 0, 0, 0, 0, 0) \
    X(ESTDATA, 'E', 'S', 'T', 'D', 'A', 'T', 'A', 0) \
    X(TITLE, 'T', 'I', 'T', 'L', 'E', 0, 0, 0) \
    X(ARCID, 'A', 'R', 'C', 'I', 'D', 0, 0, 0) \
    X(ADEP, 'A', 'D', 'E', 'P', 0, 0, 0, 0) \
    X(ADES, 'A', 'D', 'E', 'S', 0, 0, 0, 0) \
    X(EOBT, 'E', 'O', 'B', 'T', 0, 0, 0, 0) \
    X(EOBD, 'E', 'O', 'B', 'D', 0, 0, 0, 0) \
    X(IFPLID, 'I', 'F', 'P', 'L', 'I', 'D', 0, 0) \
    X(FILTIM, 'F', 'I', 'L', 'T', 'I', 'M', 0, 0) \
    X(PBN, 'P', 'B', 'N', 0, 0, 0, 0, 0) \
    X(ARCTYP, 'A', 'R', 'C', 'T', 'Y', 'P', 0, 0) \
    X(FLTTYP, 'F', 'L', 'T', 'T', 'Y', 'P', 0, 0) \
    X(ROUTE, 'R', 'O', 'U', 'T', 'E', 0, 0, 0) \
    X(FLTRUL, 'F', 'L', 'T', 'R', 'U', 'L', 0, 0) \
    X(WKTRC, 'W', 'K', 'T', 'R', 'C', 0, 0, 0) \
    X(ORIGIN, 'O', 'R', 'I', 'G', 'I', 'N', 0, 0) \
    X(RFL, 'R', 'F', 'L', 0, 0, 0, 0, 0) \
    X(SPEED, 'S', 'P', 'E', 'E', 'D', 0, 0, 0) \
    X(CEQPT, 'C', 'E', 'Q', 'P', 'T', 0, 0, 0) \
    X(TTLEET, 'T', 'T', 'L', 'E', 'E', 'T', 0, 0) \
    X(SEQPT, 'S', 'E', 'Q', 'P', 'T', 0, 0, 0) \
    X(REG, 'R', 'E', 'G', 0, 0, 0, 0, 0) \
    X(SRC, 'S', 'R', 'C', 0, 0, 0, 0, 0) \
    X(OPR, 'O', 'P', 'R', 0, 0, 0, 0, 0) \
    X(ORGNID, 'O', 'R', 'G', 'N', 'I', 'D', 0, 0) \
    X(AOARCID, 'A', 'O', 'A', 'R', 'C', 'I', 'D', 0) \
    X(AOOPR, 'A', 'O', 'O', 'P', 'R', 0, 0, 0) \
    X(ALTRNT1, 'A', 'L', 'T', 'R', 'N', 'T', '1', 0) \
    X(ALTRNT2, 'A', 'L', 'T', 'R', 'N', 'T', '2', 0) \
    X(LATTD, 'L', 'A', 'T', 'T', 'D', 0, 0, 0) \
    X(LONGTD, 'L', 'O', 'N', 'G', 'T', 'D', 0, 0) \
    X(GEOID, 'G', 'E', 'O', 'I', 'D', 0, 0, 0) \
    X(GEO, 'G', 'E', 'O', 0, 0, 0, 0, 0) \
    X(SEL, 'S', 'E', 'L', 0, 0, 0, 0, 0) \
    X(EQPT, 'E', 'Q', 'P', 'T', 0, 0, 0, 0) \
    X(SENDER, 'S', 'E', 'N', 'D', 'E', 'R', 0, 0) \
    X(RECVR, 'R', 'E', 'C', 'V', 'R', 0, 0, 0) \
    X(SEQNUM, 'S', 'E', 'Q', 'N', 'U', 'M', 0, 0) \
    X(REFDATA, 'R', 'E', 'F', 'D', 'A', 'T', 'A', 0) \
    X(ORIGINDT, 'O', 'R', 'I', 'G', 'I', 'N', 'D', 'T') \
    X(MSGTYP, 'M', 'S', 'G', 'T', 'Y', 'P', 0, 0) \
    X(REGUL, 'R', 'E', 'G', 'U', 'L', 0, 0, 0) \
    X(SSRCODE, 'S', 'S', 'R', 'C', 'O', 'D', 'E', 0) \
    X(SUREQPT, 'S', 'U', 'R', 'E', 'Q', 'P', 'T', 0) \
    X(ERROR, 'E', 'R', 'R', 'O', 'R', 0, 0, 0) \
    X(REGCAUSE, 'R', 'E', 'G', 'C', 'A', 'U', 'S', 'E') \
    X(COMMENT, 'C', 'O', 'M', 'M', 'E', 'N', 'T', 0) \
    X(TO, 'T', 'O', 0, 0, 0, 0, 0, 0) \
    X(SFL, 'S', 'F', 'L', 0, 0, 0, 0, 0) \
    X(ADDR, 'A', 'D', 'D', 'R', 0, 0, 0, 0) \
    X(RTEPTS, 'R', 'T', 'E', 'P', 'T', 'S', 0, 0) \
    X(CTOT, 'C', 'T', 'O', 'T', 0, 0, 0, 0) \
    X(TFL, 'T', 'F', 'L', 0, 0, 0, 0, 0) \
    X(COORDATA, 'C', 'O', 'O', 'R', 'D', 'A', 'T', 'A') \
    X(EQCST, 'E', 'Q', 'C', 'S', 'T', 0, 0, 0) \
    X(STO, 'S', 'T', 'O', 0, 0, 0, 0, 0) \
    X(MSGREF, 'M', 'S', 'G', 'R', 'E', 'F', 0, 0) \
    X(RVR, 'R', 'V', 'R', 0, 0, 0, 0, 0) \
    X(STS, 'S', 'T', 'S', 0, 0, 0, 0, 0) \
    X(ALTNZ, 'A', 'L', 'T', 'N', 'Z', 0, 0, 0) \
    X(TAXITIME, 'T', 'A', 'X', 'I', 'T', 'I', 'M', 'E') \
    X(SID, 'S', 'I', 'D', 0, 0, 0, 0, 0) \
    X(STAR, 'S', 'T', 'A', 'R', 0, 0, 0, 0) \
    X(CFL, 'C', 'F', 'L', 0, 0, 0, 0, 0) \
    X(IOBT, 'I', 'O', 'B', 'T', 0, 0, 0, 0) \
    X(IOBD, 'I', 'O', 'B', 'D', 0, 0, 0, 0) \
    X(AOBT, 'A', 'O', 'B', 'T', 0, 0, 0, 0) \
    X(RMK, 'R', 'M', 'K', 0, 0, 0, 0, 0) \
    X(NUM, 'N', 'U', 'M', 0, 0, 0, 0, 0) \
    X(FLBLOCK, 'F', 'L', 'B', 'L', 'O', 'C', 'K', 0) \
    X(AIRROUTE, 'A', 'I', 'R', 'R', 'O', 'U', 'T', 'E') \
    X(ORGN, 'O', 'R', 'G', 'N', 0, 0, 0, 0) \
    X(NBARC, 'N', 'B', 'A', 'R', 'C', 0, 0, 0) \
    X(SECTOR, 'S', 'E', 'C', 'T', 'O', 'R', 0, 0) \
    X(AD, 'A', 'D', 0, 0, 0, 0, 0, 0) \
    X(ADID, 'A', 'D', 'I', 'D', 0, 0, 0, 0) \
    X(NEWCTOT, 'N', 'E', 'W', 'C', 'T', 'O', 'T', 0) \
    X(REASON, 'R', 'E', 'A', 'S', 'O', 'N', 0, 0) \
    X(ADARR, 'A', 'D', 'A', 'R', 'R', 0, 0, 0) \
    X(ATA, 'A', 'T', 'A', 0, 0, 0, 0, 0) \
    X(ADA, 'A', 'D', 'A', 0, 0, 0, 0, 0) \
    X(PART, 'P', 'A', 'R', 'T', 0, 0, 0, 0) \
    X(LASTNUM, 'L', 'A', 'S', 'T', 'N', 'U', 'M', 0) \
    X(ATD, 'A', 'T', 'D', 0, 0, 0, 0, 0) \
    X(ADD, 'A', 'D', 'D', 0, 0, 0, 0, 0) \
    X(POSITION, 'P', 'O', 'S', 'I', 'T', 'I', 'O', 'N') \
    X(STAY, 'S', 'T', 'A', 'Y', 0, 0, 0, 0) \
    X(TIME, 'T', 'I', 'M', 'E', 0, 0, 0, 0) \
    X(ASPEED, 'A', 'S', 'P', 'E', 'E', 'D', 0, 0) \
    X(RATE, 'R', 'A', 'T', 'E', 0, 0, 0, 0) \
    X(IFPDSUM, 'I', 'F', 'P', 'D', 'S', 'U', 'M', 0) \
    X(ATOT, 'A', 'T', 'O', 'T', 0, 0, 0, 0) \
    X(AIRSPACE, 'A', 'I', 'R', 'S', 'P', 'A', 'C', 'E') \
    X(AIRSPDES, 'A', 'I', 'R', 'S', 'P', 'D', 'E', 'S') \
    X(RESPUNIT, 'R', 'E', 'S', 'P', 'U', 'N', 'I', 'T') \
    X(REMARK, 'R', 'E', 'M', 'A', 'R', 'K', 0, 0) \
    X(FURTHRTE, 'F', 'U', 'R', 'T', 'H', 'R', 'T', 'E') \
    X(QRORGN, 'Q', 'R', 'O', 'R', 'G', 'N', 0, 0) \
    X(NBRFPD, 'N', 'B', 'R', 'F', 'P', 'D', 0, 0) \
    X(PTSPEED, 'P', 'T', 'S', 'P', 'E', 'E', 'D', 0) \
    X(PTRFL, 'P', 'T', 'R', 'F', 'L', 0, 0, 0) \
    X(DEPZ, 'D', 'E', 'P', 'Z', 0, 0, 0, 0) \
    X(ADNAME, 'A', 'D', 'N', 'A', 'M', 'E', 0, 0) \
    X(COP, 'C', 'O', 'P', 0, 0, 0, 0, 0) \
    X(TTOT, 'T', 'T', 'O', 'T', 0, 0, 0, 0) \
    X(SOBT, 'S', 'O', 'B', 'T', 0, 0, 0, 0) \
    X(NEWEOBT, 'N', 'E', 'W', 'E', 'O', 'B', 'T', 0) \
    X(TOBT, 'T', 'O', 'B', 'T', 0, 0, 0, 0) \
    X(TSAT, 'T', 'S', 'A', 'T', 0, 0, 0, 0) \
    X(RWYDEP, 'R', 'W', 'Y', 'D', 'E', 'P', 0, 0) \
    X(PROPFL, 'P', 'R', 'O', 'P', 'F', 'L', 0, 0) \
    X(NEWRTE, 'N', 'E', 'W', 'R', 'T', 'E', 0, 0) \
    X(ARCIDOLD, 'A', 'R', 'C', 'I', 'D', 'O', 'L', 'D') \
    X(LACDR, 'L', 'A', 'C', 'D', 'R', 0, 0, 0) \
    X(LATSA, 'L', 'A', 'T', 'S', 'A', 0, 0, 0) \
    X(MSGSUM, 'M', 'S', 'G', 'S', 'U', 'M', 0, 0) \
    X(IFPDLIST, 'I', 'F', 'P', 'D', 'L', 'I', 'S', 'T') \
    X(LCATSRTE, 'L', 'C', 'A', 'T', 'S', 'R', 'T', 'E') \
    X(LRCA, 'L', 'R', 'C', 'A', 0, 0, 0, 0) \
    X(LFIR, 'L', 'F', 'I', 'R', 0, 0, 0, 0) \
    X(LRAR, 'L', 'R', 'A', 'R', 0, 0, 0, 0) \
    X(ASPLIST, 'A', 'S', 'P', 'L', 'I', 'S', 'T', 0) \
    X(RWYLIST, 'R', 'W', 'Y', 'L', 'I', 'S', 'T', 0)

#define HOT_INIT(name, ...)                                                    \
    [HOT_SLOT(PACK8(__VA_ARGS__))] = {PACK8(__VA_ARGS__), &dict_table[DICT_ID_##name], \
                                      sizeof #name - 1, DICT_ID_##name},

#if defined(__clang__)
#pragma clang diagnostic error "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic error "-Woverride-init"
#endif
const hot_slot lexer_hot_table[HOT_SLOTS] = {HOT_KEYWORDS(HOT_INIT)};

#if FAST_SCAN
#define BYTES(c) (0x0101010101010101u * (uint64_t)(c))
/* 0x80 in each byte of x that is A-Z or 0-9 (is_alnum), 0 elsewhere. On the
 * low 7 bits a byte's sum never carries into the next byte; bytes with the
 * high bit set are never alnum. */
static uint64_t alnum_bytes(uint64_t x)
{
    uint64_t lo7 = x & BYTES(0x7F), high = x & BYTES(0x80);
    uint64_t digit = (lo7 + BYTES(0x80 - '0')) & ~(lo7 + BYTES(0x7F - '9'));
    uint64_t upper = (lo7 + BYTES(0x80 - 'A')) & ~(lo7 + BYTES(0x7F - 'Z'));
    return (digit | upper) & ~high & BYTES(0x80);
}

/* 0x80 in the lowest byte of x that is '(', ')' or '-' (has-zero-byte test on
 * each; bytes above the first match may be flagged too), 0 if there is none. */
static uint64_t paren_dash_bytes(uint64_t x)
{
    uint64_t a = x ^ BYTES('('), b = x ^ BYTES(')'), c = x ^ BYTES('-');
    return (((a - BYTES(1)) & ~a) | ((b - BYTES(1)) & ~b) | ((c - BYTES(1)) & ~c)) &
           BYTES(0x80);
}
#endif

/* The dictionary entry of a frequent keyword packed by lex_dash_full, or
 * NULL (then dict_lookup decides). Empty slots have a NULL entry. */
static const dict_entry *hot_keyword(uint64_t key)
{
    const hot_slot *s = &lexer_hot_table[HOT_SLOT(key)];
    return s->key == key ? s->entry : NULL;
}

const dict_entry *lexer_lookup(const char *s, size_t n)
{
    const dict_entry *e = NULL;
    if (n - 1 < 8) {
        uint64_t key = 0;
        for (size_t i = 0; i < n; i++)
            key |= (uint64_t)(unsigned char)s[i] << (8 * i);
        e = hot_hit(key, (unsigned)n);
    }
    return e ? e : dict_lookup(s, n);
}

static state_fn lex_between(lexer *lx);
static state_fn lex_dash(lexer *lx);
static state_fn lex_dash_full(lexer *lx);
static state_fn lex_eof(lexer *lx);
static state_fn basic_value(lexer *lx, field_token *t);
static state_fn text_value(lexer *lx, field_token *t);

static state_fn state(state_fn (*fn)(lexer *))
{
    state_fn s = {fn};
    return s;
}

static void emit(lexer *lx, ftok_kind kind, adexp_status code, size_t start,
                 size_t end)
{
    field_token *t = &lx->tok[lx->ntok++];
    t->kind = kind;
    t->code = code;
    t->keyword.ptr = NULL;
    t->keyword.len = 0;
    t->value.ptr = lx->buf + start;
    t->value.len = end - start;
    t->offset = t->value_offset = start;
    t->entry = NULL;
}

static size_t skip_seps(const lexer *lx, size_t i)
{
    while (i < lx->len && is_sep((unsigned char)lx->buf[i]))
        i++;
    return i;
}

static size_t trim_right(const lexer *lx, size_t start, size_t end)
{
    while (end > start && is_sep((unsigned char)lx->buf[end - 1]))
        end--;
    return end;
}

/* Offset of the next '-' at or after i, or len. */
static size_t next_dash(const lexer *lx, size_t i)
{
    const char *d = i < lx->len ? memchr(lx->buf + i, '-', lx->len - i) : NULL;
    return d ? (size_t)(d - lx->buf) : lx->len;
}

/* next_dash for text before a field, which the parser lexes again from
 * each envelope's end: many envelopes with no '-' between them would
 * otherwise each scan to the same far '-'. */
static size_t next_dash_known(lexer *lx, size_t i)
{
    int inside = i >= lx->nodash_from && i <= lx->nodash_to;
    size_t from = inside ? lx->nodash_to : i;
    if (from >= lx->len)
        return lx->len;
    size_t d = next_dash(lx, from);
    if (!inside)
        lx->nodash_from = i;
    lx->nodash_to = d;
    return d;
}

/* A field starts at dash (a '-'): SEP*, then A-Z0-9 run ended by a SEP, the
 * end of input or another '-'. Sets *kw and *kwlen; returns 1 if it does. */
static int field_start(const lexer *lx, size_t dash, size_t *kw, size_t *kwlen)
{
    size_t i = skip_seps(lx, dash + 1), k = i;
    while (i < lx->len && is_alnum((unsigned char)lx->buf[i]))
        i++;
    *kw = k;
    *kwlen = i - k;
    if (i == k)
        return 0;
    return i == lx->len || lx->buf[i] == '-' || is_sep((unsigned char)lx->buf[i]);
}

void lexer_init(lexer *lx, const char *buf, size_t len, uint32_t max_keyword_len)
{
    lx->buf = buf ? buf : "";     /* no arithmetic on a null pointer */
    lx->len = buf ? len : 0;
    /* a UTF-8 byte order mark, which editors write at the start of a file,
     * is no part of the input (offsets still count from its first byte) */
    lx->pos = lines_bom(lx->buf, lx->len);
    lx->state = state(lex_between);
    lx->max_keyword_len = max_keyword_len;
    lx->dict = NULL;
    lx->batch = LEX_BATCH;
    lx->at_dash = 0;
    lx->ntok = lx->itok = 0;
    lx->nodash_from = lx->nodash_to = 0;
    lx->paren_horizon = 0;
    lx->split_value = 0;
}

void lexer_restart(lexer *lx, size_t pos, size_t limit, int one)
{
    lx->len = limit;
    lx->pos = pos;
    lx->state = state(lex_between);
    lx->at_dash = 0;
    lx->ntok = lx->itok = 0;
    lx->paren_horizon = 0;     /* found under another limit */
    lx->split_value = 0;
    if (one)
        lx->batch = 1;
}

void lexer_use_dictionary(lexer *lx, const adexp_dictionary *d)
{
    lx->dict = d;
}

const dict_entry *lexer_entry(const lexer *lx, const char *s, size_t n)
{
    return lx->dict ? dict_ext_lookup(lx->dict, s, n) : lexer_lookup(s, n);
}

void lexer_fill(lexer *lx)
{
    state_fn s = lx->state;
    lx->ntok = lx->itok = 0;
    /* every state emits at most one token, but lex_dash, which checks the
     * room itself; lex_eof ends a batch (and makes one of its own) */
    do
        s = s.fn(lx);
    while (lx->ntok == 0 || (lx->ntok < lx->batch && s.fn != lex_eof));
    lx->state = s;
    lx->at_dash = s.fn == lex_dash || s.fn == lex_dash_full;
}

void lexer_next(lexer *lx, token *out)
{
    const field_token *f = &lx->split;
    if (lx->split_value) {
        lx->split_value = 0;
        *out = (token){TOK_VALUE, f->code, f->value.ptr, f->value.len,
                       f->value_offset, NULL};
        return;
    }
    lx->split = *lexer_next_field(lx);
    if (f->kind == FT_FIELD) {
        lx->split_value = 1;
        *out = (token){TOK_KEYWORD, ADEXP_OK, f->keyword.ptr, f->keyword.len,
                       f->offset, f->entry};
        return;
    }
    tok_kind k = f->kind == FT_EOF ? TOK_EOF : f->kind == FT_TEXT ? TOK_TEXT : TOK_ERROR;
    *out = (token){k, f->code, f->value.ptr, f->value.len, f->offset, NULL};
}

/* Between fields: at the start of input, or at a '-' that ended a value. */
static state_fn lex_between(lexer *lx)
{
    size_t i = skip_seps(lx, lx->pos);
    if (i == lx->len) {
        lx->pos = i;
        return state(lex_eof);
    }
    if (lx->buf[i] == '-') {
        lx->pos = i;
        return state(lex_dash);
    }
    /* Text before the first field. */
    size_t end = next_dash_known(lx, i);
    emit(lx, FT_TEXT, ADEXP_OK, i, trim_right(lx, i, end));
    lx->pos = end;
    return state(lex_between);
}

#if SSE2_SCAN
/* The 16 bytes at p as bit masks: *nsep of the bytes that are no separator
 * (bits 16 and up set), *dash of the '-'. */
static inline void sse2_value_masks(const char *p, uint32_t *nsep, uint32_t *dash)
{
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    /* TAB, LF, VT, FF and CR are the bytes 9 to 13: x - 9 <= 4 unsigned */
    __m128i low = _mm_sub_epi8(x, _mm_set1_epi8('\t'));
    __m128i sp = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')),
                              _mm_cmpeq_epi8(_mm_min_epu8(low, _mm_set1_epi8(4)), low));
    *nsep = ~(uint32_t)_mm_movemask_epi8(sp);
    *dash = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('-')));
}
#endif

static void emit_value(lexer *lx, field_token *t, adexp_status code, size_t start,
                       size_t end);

#if SSE2_SCAN
/* hot_hit for the k bytes that start x. */
static inline const dict_entry *hot_prefix(uint64_t x, unsigned k)
{
    return hot_hit(k < 8 ? x & (~(uint64_t)0 >> (64 - 8 * k)) : x, k);
}

/* Token t for the field at dash: keyword of k bytes after the '-', value
 * from dash + 1 + st to dash + 1 + end. */
static inline void put_field(field_token *t, const char *b, size_t dash, unsigned k,
                             unsigned st, unsigned end, const dict_entry *e)
{
    size_t kw = dash + 1;
    t->kind = FT_FIELD;
    t->code = ADEXP_OK;
    t->keyword.ptr = b + kw;
    t->keyword.len = k;
    t->value.ptr = b + kw + st;
    t->value.len = end - st;
    t->offset = dash;
    t->value_offset = kw + st;
    t->entry = e;
}
#endif

#if AVX2_SCAN
/* lex_dash's loop on 32 bytes a field (scan_field_avx2). */
__attribute__((target(AVX2_TARGET))) static state_fn lex_dash_avx2(lexer *lx)
{
    const char *b = lx->buf;
    size_t n = lx->len, dash = lx->pos;
    unsigned nt = lx->ntok, batch = lx->batch;
    unsigned kmax = lx->max_keyword_len < 8 ? lx->max_keyword_len : 8;
    field_scan fs;
    while (nt < batch && n - dash > 32 &&
           scan_field_avx2(b + dash + 1, b + n, kmax, &fs)) {
        put_field(&lx->tok[nt++], b, dash, fs.k, fs.st, fs.end, fs.e);
        dash += 1 + fs.de;                     /* a '-': < n */
    }
    lx->ntok = nt;
    lx->pos = dash;
    return state(nt == batch ? lex_dash : lex_dash_full);
}

void lexer_resume(lexer *lx, size_t dash, const field_scan *x)
{
    lx->ntok = lx->itok = 0;
    if (!x) {
        lx->pos = dash;
        lx->at_dash = dash < lx->len;
        if (lx->at_dash) {
            lx->state = state(lex_dash_full);
        } else {
            /* the batch lex_between and lex_eof would make: the end's token */
            emit(lx, FT_EOF, ADEXP_OK, dash, dash);
            lx->state = state(lex_eof);
        }
        return;
    }
    /* the token and the state that basic_value would make of it; the field
     * may end at the input's end (scanned from a padded copy of the tail) */
    put_field(&lx->tok[lx->ntok++], lx->buf, dash, x->k, x->st, x->end, x->e);
    lx->pos = dash + 1 + x->de;
    lx->at_dash = lx->pos < lx->len;
    lx->state = state(lx->pos < lx->len ? lex_dash : lex_between);
}

__attribute__((target(AVX2_TARGET))) void lexer_start(lexer *lx)
{
    size_t dash = skip_seps(lx, lx->pos);
    unsigned kmax = lx->max_keyword_len < 8 ? lx->max_keyword_len : 8;
    field_scan x;
    if (lx->len - dash > 32 && lx->buf[dash] == '-' &&
        scan_field_avx2(lx->buf + dash + 1, lx->buf + lx->len, kmax, &x))
        lexer_resume(lx, dash, &x);
}
#endif

/* At a '-': the state that reads fields, in a loop while the batch has room.
 * The loop takes the common field: a hot keyword of 1 to 8 bytes right after
 * the '-', ended by a separator or '-', with a basic value, all of it within
 * the 32 bytes after the '-' (AVX2), or the 16 (or, if 32 are left, 32)
 * bytes (SSE2). Everything else, with the same result, is lex_dash_full, one
 * field a call. */
static state_fn lex_dash(lexer *lx)
{
    if (lx->dict)
        return lex_dash_full(lx);
#if AVX2_SCAN
    if (cpu_has_avx2())
        return lex_dash_avx2(lx);
#endif
#if SSE2_SCAN
    const char *b = lx->buf;
    size_t n = lx->len, dash = lx->pos;
    unsigned nt = lx->ntok;
    while (nt < lx->batch && n - dash > 16) {
        /* One load gives the keyword's end (the first separator or '-')
         * and the value's start and end. */
        const char *p = b + dash + 1;  /* the keyword's first byte */
        uint32_t nsep, dm;
        sse2_value_masks(p, &nsep, &dm);
        unsigned k = (unsigned)__builtin_ctz(~nsep | dm | 0x10000u);  /* <= 16 */
        if (k - 1 >= 8 || k > lx->max_keyword_len)
            break;
        const dict_entry *e = hot_prefix((uint64_t)_mm_cvtsi128_si64(
            _mm_loadu_si128((const __m128i *)(const void *)p)), k);
        if (!e)
            break;
        unsigned st = (unsigned)__builtin_ctz(nsep >> k << k);  /* <= 16 */
        dm = dm >> st << st;
        if (!dm && st < 16 && n - dash > 32) {      /* 16 bytes more */
            uint32_t nsep2, dm2;
            sse2_value_masks(p + 16, &nsep2, &dm2);
            nsep = (nsep & 0xFFFFu) | nsep2 << 16;
            dm = dm2 << 16;
        }
        if (!dm)
            break;
        unsigned de = (unsigned)__builtin_ctz(dm);
        uint32_t keep = (nsep & ((1u << de) - 1)) >> st << st;
        put_field(&lx->tok[nt++], b, dash, k, st,
                  keep ? 32 - (unsigned)__builtin_clz(keep) : st, e);
        dash += 1 + de;                             /* a '-': < n */
    }
    lx->ntok = nt;
    lx->pos = dash;
    if (nt == lx->batch)
        return state(lex_dash);
#endif
    return lex_dash_full(lx);
}

/* At a '-': a whole field (the keyword, then its value scanned right here:
 * one state and one token per field), or an error token covering the stray
 * text. The field_start test is inlined with the buffer in locals: this runs
 * once per field. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static state_fn lex_dash_full(lexer *lx)
{
    const char *b = lx->buf;
    size_t n = lx->len, dash = lx->pos, i = dash + 1;
    while (i < n && is_sep((unsigned char)b[i]))
        i++;
    size_t kw = i;
    uint64_t key = 0;
#if FAST_SCAN
    if (n - i >= 8) {          /* the keyword and its packed bytes at once */
        uint64_t x, m;
        memcpy(&x, b + i, 8);
        m = ~alnum_bytes(x) & 0x8080808080808080u;
        if (m) {
            unsigned k = (unsigned)__builtin_ctzll(m) >> 3;
            key = k ? x & (~(uint64_t)0 >> (64 - 8 * k)) : 0;
            i += k;
        } else {
            key = x;           /* used only if exactly 8 long */
            i += 8;
            while (i < n && is_alnum((unsigned char)b[i]))
                i++;
        }
    } else
#endif
    {
        unsigned shift = 0;
        while (i < n && is_alnum((unsigned char)b[i])) {
            key |= (uint64_t)(unsigned char)b[i] << (shift & 63);
            shift += 8;
            i++;
        }
    }
    size_t kwlen = i - kw;
    if (kwlen && (i == n || b[i] == '-' || is_sep((unsigned char)b[i]))) {
        if (kwlen <= lx->max_keyword_len) {
            field_token *t = &lx->tok[lx->ntok];
            const dict_entry *e = kwlen <= 8 && !lx->dict ? hot_keyword(key) : NULL;
            if (!e)
                e = dict_ext_lookup(lx->dict, b + kw, kwlen);
            t->keyword.ptr = b + kw;
            t->keyword.len = kwlen;
            t->offset = dash;
            t->entry = e;
            lx->pos = i;
            if (e && (e->flags & DICT_TEXT))
                return text_value(lx, t);
            return basic_value(lx, t);
        }
        size_t end = next_dash(lx, i);
        emit(lx, FT_ERROR, ADEXP_E_KEYWORD_LIMIT, dash, trim_right(lx, dash, end));
        lx->pos = end;
        return state(lex_between);
    }
    size_t end = next_dash(lx, dash + 1);
    emit(lx, FT_ERROR, ADEXP_E_NO_KEYWORD, dash, trim_right(lx, dash, end));
    lx->pos = end;
    return state(lex_between);
}

/* Offset of the first '-' at or after i, or len: next_dash tuned for the
 * short values most fields have, where a call to memchr costs more than the
 * scan. The fast path reads 8 bytes at a time while 8 remain (never past
 * len) and spots a '-' with the has-zero-byte test on x ^ 0x2d..2d: the
 * lowest flagged byte is always a real '-' (a borrow only flags bytes above a
 * true match). After 32 bytes (ROUTE, COMMENT) memchr takes over. */
static size_t find_dash(const lexer *lx, size_t i)
{
    const char *b = lx->buf;
    size_t n = lx->len;
#if FAST_SCAN
    for (int k = 0; k < 4 && n - i >= 8; k++, i += 8) {
        uint64_t x;
        memcpy(&x, b + i, 8);
        x ^= 0x2D2D2D2D2D2D2D2Du;
        uint64_t m = (x - 0x0101010101010101u) & ~x & 0x8080808080808080u;
        if (m)
            return i + (size_t)(__builtin_ctzll(m) >> 3);
    }
    if (n - i >= 8)
        return next_dash(lx, i);
    while (i < n && b[i] != '-')
        i++;
    return i;
#else
    size_t lim = n - i > 16 ? i + 16 : n;
    while (i < lim && b[i] != '-')
        i++;
    return i == lim && i < n ? next_dash(lx, i) : i;
#endif
}

/* Complete field token t (lex_dash filled its keyword) with its value. */
static void emit_value(lexer *lx, field_token *t, adexp_status code, size_t start,
                       size_t end)
{
    t->kind = FT_FIELD;
    t->code = code;
    t->value.ptr = lx->buf + start;
    t->value.len = end - start;
    t->value_offset = start;
    lx->ntok++;
}

/* A basic value: up to the next '-', which always starts the next field.
 * At a '-' the next state is lex_dash directly (lex_between would only hand
 * over to it). */
static state_fn basic_value(lexer *lx, field_token *t)
{
    const char *b = lx->buf;
    size_t n = lx->len, start = lx->pos;
#if SSE2_SCAN
    if (n - start >= 16) {
        /* The 16 bytes after the keyword as bit masks of separators and
         * '-': the value's start (first non-separator), its end (the next
         * '-') and the right trim (last non-separator before it) without a
         * byte loop, for the values that end within them. */
        uint32_t nsep, dash;
        sse2_value_masks(b + start, &nsep, &dash);
        unsigned st = (unsigned)__builtin_ctz(nsep);            /* <= 16 */
        uint32_t dm = dash >> st << st;
        if (dm) {
            unsigned de = (unsigned)__builtin_ctz(dm);
            uint32_t keep = nsep & ((1u << de) - 1);            /* bits >= st */
            size_t stop = keep ? start + 32 - (size_t)__builtin_clz(keep) : start + st;
            emit_value(lx, t, ADEXP_OK, start + st, stop);
            lx->pos = start + de;
            return state(lex_dash);                             /* a '-': < n */
        }
        if (st < 16) {     /* no '-' in the 16 bytes: on from their end */
            size_t end = find_dash(lx, start + 16), stop = end;
            start += st;
            while (stop > start && is_sep((unsigned char)b[stop - 1]))
                stop--;
            emit_value(lx, t, ADEXP_OK, start, stop);
            lx->pos = end;
            return state(end < n ? lex_dash : lex_between);
        }
    }
#endif
    while (start < n && is_sep((unsigned char)b[start]))
        start++;
    size_t end = find_dash(lx, start);
    size_t stop = end;
    while (stop > start && is_sep((unsigned char)b[stop - 1]))
        stop--;
    emit_value(lx, t, ADEXP_OK, start, stop);
    lx->pos = end;
    return state(end < n ? lex_dash : lex_between);
}

#if AVX2_SCAN
/* The bytes match_paren stops at among the 32 at p (33 readable), as a byte
 * mask: '(', ')' and a '-' followed by 'T' or a separator (lexer_title_at's
 * first test). */
__attribute__((target(AVX2_TARGET), always_inline)) static inline __m256i
paren_stops_avx2(const char *p)
{
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(p + 1));
    __m256i parens = _mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('(')),
                                     _mm256_cmpeq_epi8(x, _mm256_set1_epi8(')')));
    __m256i next = _mm256_or_si256(_mm256_cmpeq_epi8(y, _mm256_set1_epi8('T')), avx2_sep_bytes(y));
    return _mm256_or_si256(parens,
                           _mm256_and_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('-')), next));
}

/* paren_stops_avx2 for the 64 bytes at p (65 readable), as bits. */
__attribute__((target(AVX2_TARGET), always_inline)) static inline uint64_t
paren_stops64_avx2(const char *p)
{
    return (uint32_t)_mm256_movemask_epi8(paren_stops_avx2(p)) |
           (uint64_t)(uint32_t)_mm256_movemask_epi8(paren_stops_avx2(p + 32)) << 32;
}

/* match_paren's step at the stops m (bit k: byte i + k), with *depth open:
 * 1 when it has the answer (*res, and *at where it ended). */
static inline __attribute__((always_inline)) int
paren_step(const lexer *lx, size_t i, uint64_t m, size_t quoted, size_t *at, size_t *depth,
           size_t *res)
{
    for (; m; m = m & (m - 1)) {
        size_t j = i + (size_t)__builtin_ctzll(m);
        char c = lx->buf[j];
        if (c == '(') {
            ++*depth;
        } else if (c == ')') {
            if (--*depth == 0) {
                *at = j;
                *res = j + 1;
                return 1;
            }
        } else if (j != quoted && lexer_title_at(lx->buf, lx->len, j)) {
            *at = j;
            *res = 0;
            return 1;
        }
    }
    return 0;
}

/* match_paren's search 64 bytes a step while they are there, then 32: it
 * stops only at paren_stops_avx2's bytes, and passes the quoted title at
 * `quoted`. Returns 1 if it has the answer (*res, and *at where it ended),
 * 0 to leave the rest (under 33 bytes) from *at to the byte loop. An ICAO
 * text's bytes are mostly none of these: a step is mostly one test. */
__attribute__((target(AVX2_TARGET))) static int
match_paren_avx2(const lexer *lx, size_t end, size_t quoted, size_t *at, size_t *depth,
                 size_t *res)
{
    const char *b = lx->buf;
    size_t i = *at;
    for (; end - i >= 64 && lx->len - i > 64; i += 64)
        if (paren_step(lx, i, paren_stops64_avx2(b + i), quoted, at, depth, res))
            return 1;
    for (; end - i >= 32 && lx->len - i > 32; i += 32) {
        uint32_t m = (uint32_t)_mm256_movemask_epi8(paren_stops_avx2(b + i));
        if (paren_step(lx, i, m, quoted, at, depth, res))
            return 1;
    }
    *at = i;
    return 0;
}
/* The common group: from its '(' at open to the ')' that closes it, no
 * byte of paren_stops_avx2's a -TITLE's '-' could be (any other stop than a
 * bracket leaves the group to match_paren, which tells), and the next '-'
 * among the 32 bytes after it: *end and *next as match_paren and next_dash
 * make them (1); 0 for any other group, which they read. Its own loop, not
 * paren_step's: that one's out-parameters cost the teivah IFPL 0.6%. */
__attribute__((target(AVX2_TARGET))) static int group_quick_avx2(const lexer *lx, size_t open,
                                                                size_t *end, size_t *next)
{
    const char *b = lx->buf;
    size_t depth = 0;
    for (size_t i = open; lx->len - i > 64; i += 64) {
        for (uint64_t m = paren_stops64_avx2(b + i); m; m &= m - 1) {
            size_t j = i + (size_t)__builtin_ctzll(m);
            if (b[j] == '(') {
                depth++;
                continue;
            }
            if (b[j] != ')' || lx->len - j <= 33)
                return 0;
            if (--depth)
                continue;
            uint32_t d = avx2_byte_mask(
                _mm256_loadu_si256((const __m256i *)(const void *)(b + j + 1)), '-');
            if (!d)
                return 0;
            *next = j + 1 + (size_t)__builtin_ctz(d);
            *end = trim_right(lx, open, *next);
            return 1;
        }
    }
    return 0;
}
#endif

/* The offset of the quoted message's -TITLE when the text whose '(' is at
 * open quotes an ADEXP message, "(-TITLE IFPL -ARCID A1 ...)" (an OLDMSG of
 * a REJ or ACK), or (size_t)-1. */
static size_t quoted_title(const lexer *lx, size_t open)
{
    size_t q = skip_seps(lx, open + 1);   /* lexer_title_quoted at q */
    return q < lx->len && lexer_title_at(lx->buf, lx->len, q) ? q : (size_t)-1;
}

/* Offset just past the ')' matching the '(' at open, searching [open, end)
 * and never past a -TITLE (no ICAO text holds one: it starts a message),
 * but for a quoted message's own, right after the '(' (quoted_title): it
 * starts no message. Returns 0 if there is none; *stop is where the search
 * ended. */
static size_t match_paren(const lexer *lx, size_t open, size_t end, size_t *stop)
{
    size_t depth = 0, i = open, quoted = quoted_title(lx, open);
#if AVX2_SCAN
    size_t res;
    if (cpu_has_avx2() && match_paren_avx2(lx, end, quoted, &i, &depth, &res)) {
        if (!res)
            *stop = i;
        return res;
    }
#endif
    while (i < end) {
#if SSE2_SCAN
        if (end - i >= 16) {   /* on to the next '(', ')' or '-', 16 bytes a step */
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(lx->buf + i));
            unsigned m = (unsigned)_mm_movemask_epi8(
                _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('(')),
                                          _mm_cmpeq_epi8(x, _mm_set1_epi8(')'))),
                             _mm_cmpeq_epi8(x, _mm_set1_epi8('-'))));
            if (!m) {
                i += 16;
                continue;
            }
            i += (size_t)__builtin_ctz(m);
        } else
#endif
#if FAST_SCAN
        if (end - i >= 8) {    /* on to the next '(', ')' or '-', 8 bytes a step */
            uint64_t x, m;
            memcpy(&x, lx->buf + i, 8);
            m = paren_dash_bytes(x);
            if (!m) {
                i += 8;
                continue;
            }
            i += (size_t)__builtin_ctzll(m) >> 3;
        }
#endif
        char c = lx->buf[i];
        if (c == '(')
            depth++;
        else if (c == ')' && --depth == 0)
            return i + 1;
        else if (c == '-' && i != quoted && lexer_title_at(lx->buf, lx->len, i))
            break;
        i++;
    }
    *stop = i;
    return 0;
}

/* Offset of the next '-' that starts a field with a known primary keyword
 * (or BEGIN/END), or len: where bracket-less ICAO text ends. */
static size_t next_primary_field(const lexer *lx, size_t i)
{
    for (i = next_dash(lx, i); i < lx->len; i = next_dash(lx, i + 1)) {
        size_t kw, kwlen;
        if (!field_start(lx, i, &kw, &kwlen))
            continue;
        const dict_entry *e = dict_ext_lookup(lx->dict, lx->buf + kw, kwlen);
        if (e && (e->level == DICT_PRIMARY || e->level == DICT_RESERVED_PRIMARY ||
                  e->level == DICT_SYNTAX))
            return i;
    }
    return lx->len;
}

/* The text state's reading of a group in parentheses (see lexer.h). */
int lexer_text_group(const lexer *lx, size_t kw_end, size_t *start, size_t *end,
                     size_t *next)
{
    size_t i = skip_seps(lx, kw_end), stop;
    if (i == lx->len || lx->buf[i] != '(' || i < lx->paren_horizon)
        return 0;
#if AVX2_SCAN
    if (cpu_has_avx2() && group_quick_avx2(lx, i, end, next)) {
        *start = i;
        return 1;
    }
#endif
    size_t close = match_paren(lx, i, lx->len, &stop);
    if (!close)
        return 0;
    *start = i;
    *next = next_dash(lx, close);
    *end = trim_right(lx, i, *next);
    return 1;
}

/* Any-character text (MSGTXT, OLDMSG...): '(' to the matching ')', then on
 * to the next '-'. Without '(' or without its ')', up to the next field with
 * a known primary keyword. Once a '(' has no match, a text field starting
 * within the bytes that search covered (up to the next -TITLE) has its
 * brackets matched within the bracket-less rule's bytes only (a ')' found
 * there ends the text at the next '-' after it, as above): no byte is
 * searched twice, so hostile input stays linear. */
static state_fn text_value(lexer *lx, field_token *t)
{
    size_t start = skip_seps(lx, lx->pos), end, close = 0, stop;
    adexp_status code = ADEXP_OK;
    int paren = start < lx->len && lx->buf[start] == '(';
    if (paren && start >= lx->paren_horizon) {
        close = match_paren(lx, start, lx->len, &stop);
        if (!close)
            lx->paren_horizon = stop;
    }
    if (!close) {
        end = next_primary_field(lx, start);
        close = paren ? match_paren(lx, start, end, &stop) : 0;
        if (paren && !close)
            code = ADEXP_E_TEXT_UNCLOSED;
    }
    if (close)
        end = next_dash(lx, close);
    emit_value(lx, t, code, start, trim_right(lx, start, end));
    lx->pos = end;
    return state(end < lx->len ? lex_dash : lex_between);
}

static state_fn lex_eof(lexer *lx)
{
    emit(lx, FT_EOF, ADEXP_OK, lx->len, lx->len);
    return state(lex_eof);
}

/* Where the -TITLE at dash is a quoted message's, right after the '(' of
 * a text field's value whose ')' the lexer finds ("-OLDMSG (-TITLE IFPL
 * ...)"), as text_value reads it: the ')'; else 0, a message start. */
static size_t quoted_close(const lexer *lx, size_t dash)
{
    size_t open = dash;
    while (open > 0 && is_sep((unsigned char)lx->buf[open - 1]))
        open--;
    if (open == 0 || lx->buf[open - 1] != '(')
        return 0;
    size_t kw_end = --open;
    while (kw_end > 0 && is_sep((unsigned char)lx->buf[kw_end - 1]))
        kw_end--;
    size_t kw = kw_end;
    while (kw > 0 && is_alnum((unsigned char)lx->buf[kw - 1]))
        kw--;
    size_t d = kw;
    while (d > 0 && is_sep((unsigned char)lx->buf[d - 1]))
        d--;
    if (kw == kw_end || kw_end == open || d == 0 || lx->buf[d - 1] != '-')
        return 0;              /* (a keyword ends at a separator) */
    const dict_entry *e = lexer_entry(lx, lx->buf + kw, kw_end - kw);
    size_t stop;
    return e && (e->flags & DICT_TEXT) ? match_paren(lx, open, lx->len, &stop) : 0;
}

size_t lexer_title_after(const lexer *lx, size_t from)
{
    size_t i = lexer_next_title(lx->buf, lx->len, from);
    for (size_t close; i < lx->len && (close = quoted_close(lx, i)) != 0;)
        i = lexer_next_title(lx->buf, lx->len, close);
    return i;
}

void lexer_skip_to_title(lexer *lx)
{
    /* The batch's tokens cover the input up to pos; a -TITLE there starts
     * one of them (no value holds one). */
    for (; lx->itok < lx->ntok; lx->itok++) {
        const field_token *t = &lx->tok[lx->itok];
        if (t->kind == FT_EOF ||
            ((t->kind == FT_FIELD || t->kind == FT_ERROR) && lexer_title_at(lx->buf, lx->len, t->offset))) {
            lx->split_value = 0;
            return;
        }
    }
    size_t i = lexer_title_after(lx, lx->pos);
    lx->pos = i;
    lx->split_value = 0;
    lx->state = state(i < lx->len ? lex_dash : lex_eof);
    lx->at_dash = i < lx->len;
}

/* fuzz_stream: nothing lost after a broken message. The buffer is N
 * well-formed messages (from a built-in set) joined by newlines, one of
 * which is corrupted with the fuzz input; every message before the broken
 * one and every message after it must still be found, at its offset, with
 * its title, its field count and no error (but for the one just before the
 * broken one: a message ends only at the next -TITLE, so it may take in the
 * broken message's text; its offset and title must still be right).
 *
 * Input: byte 0 picks the messages (bits 0-1: which one is corrupted,
 * bits 2-3: first message of the set); byte 1 picks how: < 0x80 replace
 * the message by the rest of the input, else insert the rest into it at
 * position (byte 1 & 0x7f) * len / 128.
 *
 * The one thing a broken message may legitimately swallow is the next
 * message, if it opens a message list (-BEGIN IFPDLONG, RFPDLONG: a list
 * that holds one whole message): the harness renames those, and a broken
 * message may contain extra -TITLE fields, which are extra messages. The
 * other is an AFTN envelope it opens (SOH, a ZCZC line): the next message
 * is then read as that envelope's text; the harness defuses those too.
 * Bare lines (an envelope's address and origin lines alone) that the
 * broken message ends with are the next message's envelope: it is then
 * expected where they start. */
#include "fuzz_common.h"
#include "lexer.h"

static const char *const good[] = {
    "-TITLE IFPL -BEGIN ADDR -FAC CFMUTACT -FAC EGZYTTTE -END ADDR\n"
    "-ADEP EDDF -ADES LFPG -ARCID DLH123 -ARCTYP A320 -EOBT 0945 -EOBD 230115\n"
    "-ORIGIN -NETWORKTYPE SITA -FAC FRAOXLH -FLTRUL I -FLTTYP S -RFL F350\n"
    "-BEGIN RTEPTS -PT -PTID EDDF -FL F004 -ETO 230115094500\n"
    "-PT -PTID RID -FL F350 -ETO 230115100000 -END RTEPTS\n"
    "-ROUTE N0450F350 RID UN857 PGS -COMMENT FIRST LINE\r\nSECOND LINE\n",
    "-TITLE ACK -MSGTYP IFPL -FILTIM 150521 -IFPLID AA12345678\n"
    "-MSGTXT (FPL-BEL20B-IS\r\n-A320/M-SDE3/LB1\r\n-LIML1050\r\n"
    "-N0450F320 DCT -18/PBN/B1 DOF/150521 (RMK/X))\n",
    "-TITLE SAM -ARCID AMM101 -IFPLID XX12345678 -ADEP EGLL -ADES LMML\r"
    "-EOBD 230115 -EOBT 1000 -CTOT 1030 -REGUL LMMLA01 -TAXITIME 0010\r",
    "-TITLE ACT -REFDATA -SENDER -FAC TDM -RECVR -FAC DM -SEQNUM 020\n"
    "-ARCID DLH66T -SSRCODE A0103 -BEGIN EQCST -EQPT U/UN -EQPT W/EQ -END EQCST\n"
    "-ESTDATA -PTID XETBO -ETO 170302032300 -FL F390 -CFL F280\n",
    "- TITLE REJ -OLDMSG (FPL-ABC12-IN\n-UDYZ0010\n-UUOO0227 UUDD UUOB)\n"
    "-ERROR ROUTE 99 -COMMENT X\n",
};
#define NGOOD (sizeof good / sizeof good[0])
#define NMSG 4

typedef struct expect {
    size_t offset;
    adexp_slice title;
    size_t nfields;
} expect;

/* Title and field count of a good message parsed on its own (once). */
static void expect_of(const char *text, size_t offset, expect *e)
{
    static expect cache[NGOOD];
    size_t gi = 0;
    while (good[gi] != text)
        gi++;
    if (cache[gi].title.ptr) {
        *e = cache[gi];
        e->offset = offset;
        return;
    }
    adexp_arena arena;
    adexp_arena_init(&arena, NULL);
    adexp_msg m;
    FUZZ_CHECK(adexp_parse(text, strlen(text), &arena, &m) == ADEXP_OK);
    e->offset = offset;
    e->title = m.view.title;
    e->nfields = m.nfields;
    FUZZ_CHECK(e->title.ptr != NULL);
    cache[gi] = *e;
    adexp_arena_free(&arena);
}

static void defuse_message_lists(char *p, size_t n)
{
    for (size_t i = 0; i + 6 <= n; i++)
        if (memcmp(p + i, "PDLONG", 6) == 0)
            p[i + 5] = 'X';
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\001')
            p[i] = ' ';
        if (i + 4 <= n && memcmp(p + i, "ZCZC", 4) == 0)
            p[i + 3] = 'X';
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    unsigned broken = data[0] & 3, first = (data[0] >> 2) & 3, how = data[1];
    const char *fz = (const char *)data + 2;
    size_t nfz = size - 2;

    const char *msgs[NMSG];
    size_t total = 0;
    for (unsigned i = 0; i < NMSG; i++) {
        msgs[i] = good[(first + i) % NGOOD];
        total += strlen(msgs[i]) + nfz + 1;
    }
    char *buf = malloc(total);
    FUZZ_CHECK(buf != NULL);
    expect ex[NMSG];
    size_t len = 0, bstart = 0, bend = 0;
    for (unsigned i = 0; i < NMSG; i++) {
        size_t ml = strlen(msgs[i]);
        if (i == broken) {
            bstart = len;
            if (how < 0x80) {
                memcpy(buf + len, fz, nfz);
                len += nfz;
            } else {
                size_t at = (size_t)(how & 0x7f) * ml / 128;
                memcpy(buf + len, msgs[i], at);
                memcpy(buf + len + at, fz, nfz);
                memcpy(buf + len + at + nfz, msgs[i] + at, ml - at);
                len += ml + nfz;
            }
            defuse_message_lists(buf + bstart, len - bstart);
            bend = len;
        } else {
            memcpy(buf + len, msgs[i], ml);
            expect_of(msgs[i], len, &ex[i]);
            ex[i].title.ptr = buf + len + (ex[i].title.ptr - msgs[i]);
            len += ml;
        }
        buf[len++] = '\n';
    }
    (void)bend;
    /* exactly sized, so that ASan sees over-reads */
    char *in = fuzz_copy((const uint8_t *)buf, len);
    for (unsigned i = 0; i < NMSG; i++)
        if (i != broken)
            ex[i].title.ptr = in + (ex[i].title.ptr - buf);
    free(buf);
    if (broken + 1 < NMSG) {
        size_t t = ex[broken + 1].offset, i = bstart;
        size_t s = lexer_bare_before(in, len, bstart ? bstart - 1 : 0, t, NULL);
        while (bstart == 0 && i < t && is_sep((unsigned char)in[i]))
            i++;
        if (s == (size_t)-1 && bstart == 0 && lexer_bare_heading(in, len, i, NULL) == t)
            s = i;
        if (s != (size_t)-1)
            ex[broken + 1].offset = s;
    }

    adexp_parser *p = adexp_parser_new(NULL, NULL);
    FUZZ_CHECK(p != NULL);
    adexp_arena arena;
    adexp_arena_init(&arena, NULL);
    adexp_parser_reset(p, in, len);
    adexp_msg m;
    unsigned want = 0;         /* next good message to see */
    size_t count = 0;
    while (adexp_parser_next(p, &arena, &m) != ADEXP_END) {
        FUZZ_CHECK(++count <= len);
        if (want == broken)
            want++;
        if (want < NMSG && m.offset == ex[want].offset) {
            const expect *e = &ex[want];
            /* a message ends only at the next -TITLE: the one just before
             * the broken message may take in its text */
            int exact = want + 1 != broken;
            if ((exact && (m.nerrors || m.nfields != e->nfields)) ||
                m.view.title.ptr != e->title.ptr || m.view.title.len != e->title.len) {
                fprintf(stderr, "message %u at %zu: %zu errors (first %s at %zu), "
                        "%zu fields (want %zu)\n", want, m.offset, m.nerrors,
                        m.nerrors ? adexp_status_name(m.errors[0].code) : "-",
                        m.nerrors ? m.errors[0].offset : 0, m.nfields, e->nfields);
                abort();
            }
            want++;
        } else {
            /* only the broken message may split into several */
            if (!(m.offset >= bstart && m.offset < bend))
                fprintf(stderr, "unexpected message at %zu (broken one: %zu..%zu), "
                        "next good one at %zu\n", m.offset, bstart, bend,
                        want < NMSG ? ex[want].offset : len);
            FUZZ_CHECK(m.offset >= bstart && m.offset < bend);
        }
        adexp_arena_reset(&arena);
    }
    if (want == broken)
        want++;
    if (want != NMSG)
        fprintf(stderr, "message %u at %zu not found\n", want, ex[want].offset);
    FUZZ_CHECK(want == NMSG);
    adexp_parser_free(p);
    adexp_arena_free(&arena);
    free(in);
    return 0;
}

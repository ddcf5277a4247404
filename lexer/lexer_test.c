#define _GNU_SOURCE            /* memrchr */
/* Lexer tests: every trap of the format, with exact kinds, slices, offsets. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"
#include "scan.h"

typedef struct expect {
    ftok_kind kind;
    const char *keyword;       /* expected keyword slice (FT_FIELD) */
    size_t offset;
    const char *text;          /* expected value slice */
    size_t value_offset;
    adexp_status code;
} expect;

#define FIELD(k, o, v, vo) {FT_FIELD, k, o, v, vo, ADEXP_OK}
#define ERROR_AT(t, o, c) {FT_ERROR, "", o, t, o, c}
#define END_OF(o) {FT_EOF, "", o, "", o, ADEXP_OK}

static int slice_is(adexp_slice s, const char *want)
{
    return s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0;
}

/* Lex src from an exactly-sized heap copy (no NUL after it, so a sanitizer
 * catches any over-read) and compare with the n expected field tokens. */
static void check_tokens(const char *src, const expect *want, size_t n)
{
    size_t len = strlen(src);
    char *buf = malloc(len ? len : 1);
    assert_non_null(buf);
    memcpy(buf, src, len);
    lexer lx;
    lexer_init(&lx, buf, len, ADEXP_DEFAULT_MAX_KEYWORD_LEN);
    for (size_t i = 0; i < n; i++) {
        field_token t;
        const expect *w = &want[i];
        t = *lexer_next_field(&lx);
        if (t.kind != w->kind || t.offset != w->offset || t.code != w->code ||
            (t.kind == FT_FIELD && !slice_is(t.keyword, w->keyword)) ||
            !slice_is(t.value, w->text) || t.value_offset != w->value_offset)
            fail_msg("token %zu: got kind %d '%.*s' at %zu '%.*s' at %zu code %d; "
                     "want kind %d '%s' at %zu '%s' at %zu code %d", i, t.kind,
                     (int)t.keyword.len, t.keyword.ptr, t.offset, (int)t.value.len,
                     t.value.ptr, t.value_offset, t.code, w->kind, w->keyword,
                     w->offset, w->text, w->value_offset, w->code);
    }
    free(buf);
}

#define CHECK(src, ...)                                                     \
    do {                                                                    \
        const expect w_[] = {__VA_ARGS__};                                  \
        check_tokens(src, w_, sizeof w_ / sizeof w_[0]);                    \
    } while (0)

static void test_basic_fields(void **state)
{
    (void)state;
    CHECK("-TITLE IFPL\n-ARCID DLH66T\n",
          FIELD("TITLE", 0, "IFPL", 7), FIELD("ARCID", 12, "DLH66T", 19),
          END_OF(26), END_OF(26));
}

static void test_separators_after_dash(void **state)
{
    (void)state;
    /* "- TITLE", "-\tTITLE", "-\nTITLE" and "-\r\n  TITLE" all open a field */
    CHECK("- TITLE FSA -\tADEP LTAC -\nADES LSZH -\r\n  EOBT 0600",
          FIELD("TITLE", 0, "FSA", 8), FIELD("ADEP", 12, "LTAC", 19),
          FIELD("ADES", 24, "LSZH", 31), FIELD("EOBT", 36, "0600", 46),
          END_OF(50));
}

static void test_no_separator_before_dash(void **state)
{
    (void)state;
    CHECK("-TITLE IFPL-BEGIN ADDR-FAC CFMUTACT-END ADDR",
          FIELD("TITLE", 0, "IFPL", 7), FIELD("BEGIN", 11, "ADDR", 18),
          FIELD("FAC", 22, "CFMUTACT", 27), FIELD("END", 35, "ADDR", 40),
          END_OF(44));
}

static void test_keyword_glued_to_next_field(void **state)
{
    (void)state;
    CHECK("-PT-PTID EDDF-ORIGIN-NETWORKTYPE SITA",
          FIELD("PT", 0, "", 3), FIELD("PTID", 3, "EDDF", 9),
          FIELD("ORIGIN", 13, "", 20), FIELD("NETWORKTYPE", 20, "SITA", 33),
          END_OF(37));
}

static void test_keyword_at_end_of_input(void **state)
{
    (void)state;
    CHECK("-TITLE IFPL -END", FIELD("TITLE", 0, "IFPL", 7), FIELD("END", 12, "", 16), END_OF(16));
}

/* FF and VT separate as TAB does (in real files: page breaks); a UTF-8 byte
 * order mark at the start is skipped, offsets still counted from it. */
static void test_ff_vt_and_bom(void **state)
{
    (void)state;
    CHECK("-TITLE\fIFPL\v-\vARCID A\f\v-RFL F330",
          FIELD("TITLE", 0, "IFPL", 7), FIELD("ARCID", 12, "A", 20),
          FIELD("RFL", 23, "F330", 28), END_OF(32));
    CHECK("\xEF\xBB\xBF-TITLE IFPL", FIELD("TITLE", 3, "IFPL", 10), END_OF(14));
}

static void test_value_spans_lines_and_is_trimmed(void **state)
{
    (void)state;
    CHECK("-ROUTE N0417F330 NDG\r\n  UR26\tSAVIN  \r\n-RFL F330",
          FIELD("ROUTE", 0, "N0417F330 NDG\r\n  UR26\tSAVIN", 7),
          FIELD("RFL", 38, "F330", 43), END_OF(47));
}

static void test_keyword_glued_to_value_is_another_keyword(void **state)
{
    (void)state;
    /* "-FL250" is the keyword FL250 with an empty value, per the spec */
    CHECK("-FL250 -TO 1631", FIELD("FL250", 0, "", 7), FIELD("TO", 7, "1631", 11), END_OF(15));
}

static void test_dash_without_keyword(void **state)
{
    (void)state;
    CHECK("-TITLE X -/ABC -ADEP EDDF",
          FIELD("TITLE", 0, "X", 7), ERROR_AT("-/ABC", 9, ADEXP_E_NO_KEYWORD),
          FIELD("ADEP", 15, "EDDF", 21), END_OF(25));
    CHECK("-TITLE X -18/PBN", FIELD("TITLE", 0, "X", 7),
          ERROR_AT("-18/PBN", 9, ADEXP_E_NO_KEYWORD), END_OF(16));
    CHECK("- ", ERROR_AT("-", 0, ADEXP_E_NO_KEYWORD), END_OF(2));
}

static void test_text_before_first_field(void **state)
{
    (void)state;
    CHECK("  hello world\n-TITLE X", {FT_TEXT, "", 2, "hello world", 2, ADEXP_OK},
          FIELD("TITLE", 14, "X", 21), END_OF(22));
}

static void test_msgtxt_brackets_keep_hyphens(void **state)
{
    (void)state;
    CHECK("-MSGTXT (ACH-BEL20B-LIML1050 -18/PBN/B1 (X) DOF/1)\n-COMMENT A",
          FIELD("MSGTXT", 0, "(ACH-BEL20B-LIML1050 -18/PBN/B1 (X) DOF/1)", 8),
          FIELD("COMMENT", 51, "A", 60), END_OF(61));
}

static void test_oldmsg_lines_starting_with_dash(void **state)
{
    (void)state;
    CHECK("-OLDMSG\n(FPL-POT742-IS\n-UDYZ0010\n-UUOO0227 UUDD)\n-TITLE X",
          FIELD("OLDMSG", 0, "(FPL-POT742-IS\n-UDYZ0010\n-UUOO0227 UUDD)", 8),
          FIELD("TITLE", 49, "X", 56), END_OF(57));
}

/* The group's end by the rule's own words: the ')' that closes the '('
 * at open, never past a -TITLE (but a quoted message's, right after the
 * '('); 0 when there is none. */
static size_t group_end_by_bytes(const char *b, size_t len, size_t open)
{
    size_t q = open + 1, depth = 0;
    while (q < len && (b[q] == ' ' || b[q] == '\n'))
        q++;
    for (size_t i = open; i < len; i++) {
        if (b[i] == '(') {
            depth++;
        } else if (b[i] == ')') {
            if (--depth == 0)
                return i + 1;
        } else if (b[i] == '-' && i != q && lexer_title_at(b, len, i)) {
            return 0;
        }
    }
    return 0;
}

/* A group's brackets and a -TITLE in it at every place of texts up to 200
 * bytes, so that each falls at every place of the search's 64- and 32-byte
 * steps and of the bytes after them: the lexer's group against the rule. */
static void test_text_group_at_every_place(void **state)
{
    (void)state;
    static const char *const marks[] = {"(", ")", "-TITLE", "- TITLE", "-TITLEX", "-T",
                                        "-", "()", "-ADEP"};
    for (size_t n = 0; n <= 200; n++) {
        for (size_t m = 0; m < sizeof marks / sizeof marks[0]; m++) {
            for (size_t at = 0; at <= n; at += (n > 40 ? 3 : 1)) {
                char text[320];
                memset(text, 'A', sizeof text);
                for (size_t i = 7; i < n; i += 11)
                    text[i] = '-';             /* dashes that start no title */
                size_t ml = strlen(marks[m]);
                memcpy(text + at, marks[m], ml);
                size_t tl = n + ml;
                int head = snprintf(NULL, 0, "-MSGTXT (");
                size_t len = (size_t)head + tl + strlen(") -ADEP X");
                char *buf = malloc(len);
                assert_non_null(buf);
                memcpy(buf, "-MSGTXT (", (size_t)head);
                memcpy(buf + head, text, tl);
                memcpy(buf + head + tl, ") -ADEP X", len - head - tl);
                lexer lx;
                lexer_init(&lx, buf, len, ADEXP_DEFAULT_MAX_KEYWORD_LEN);
                size_t start = 1, end = 2, next = 3;   /* a refused group changes none */
                int got = lexer_text_group(&lx, 7, &start, &end, &next);
                size_t want = group_end_by_bytes(buf, len, 8);
                if (want) {    /* the value goes on to the next '-', trimmed */
                    const char *d = memchr(buf + want, '-', len - want);
                    size_t e = d ? (size_t)(d - buf) : len;
                    while (e > want && buf[e - 1] == ' ')
                        e--;
                    want = e;
                }
                const char *d = memchr(buf + (want ? want : len), '-', want ? len - want : 0);
                size_t want_next = d ? (size_t)(d - buf) : len;
                if (got != (want != 0) || (got && (end != want || start != 8 || next != want_next)) ||
                    (!got && (start != 1 || end != 2 || next != 3)))
                    fail_msg("text of %zu bytes, '%s' at %zu: group %d at %zu to %zu, next %zu; "
                             "want end %zu, next %zu",
                             n, marks[m], at, got, start, end, next, want, want_next);
                free(buf);
            }
        }
    }
}

static void test_unclosed_bracket_stops_at_primary_keyword(void **state)
{
    (void)state;
    CHECK("-MSGTXT (FPL-ABC -UDYZ0010 -18/PBN\n-TITLE ACK",
          {FT_FIELD, "MSGTXT", 0, "(FPL-ABC -UDYZ0010 -18/PBN", 8, ADEXP_E_TEXT_UNCLOSED},
          FIELD("TITLE", 35, "ACK", 42), END_OF(45));
}

static void test_unclosed_bracket_then_closed_one(void **state)
{
    (void)state;
    /* the first '(' has no match; the second text is read up to the next
     * primary field and found balanced there */
    CHECK("-MSGTXT (A -MSGTXT (B-C) -ADEP X",
          {FT_FIELD, "MSGTXT", 0, "(A", 8, ADEXP_E_TEXT_UNCLOSED},
          FIELD("MSGTXT", 11, "(B-C)", 19), FIELD("ADEP", 25, "X", 31),
          END_OF(32));
}

static void test_text_without_bracket(void **state)
{
    (void)state;
    CHECK("-MSGTXT FPL-ABC-IS -ADEP EDDF",
          FIELD("MSGTXT", 0, "FPL-ABC-IS", 8), FIELD("ADEP", 19, "EDDF", 25),
          END_OF(29));
}

static void test_any_byte_in_value(void **state)
{
    (void)state;
    static const char src[] = "-COMMENT a\0b\xff\xe2\x80\x93 \"q\" -ADEP X";
    lexer lx;
    field_token t;
    lexer_init(&lx, src, sizeof src - 1, 32);
    t = *lexer_next_field(&lx);
    assert_int_equal(t.kind, FT_FIELD);
    assert_int_equal(t.value.len, 11);
    assert_memory_equal(t.value.ptr, "a\0b\xff\xe2\x80\x93 \"q\"", 11);
}

static void test_keyword_limit(void **state)
{
    (void)state;
    lexer lx;
    token t;
    const char src[] = "-ABCDEFGHIJ X -TITLE Y";
    lexer_init(&lx, src, sizeof src - 1, 8);
    lexer_next(&lx, &t);
    assert_int_equal(t.kind, TOK_ERROR);
    assert_int_equal(t.code, ADEXP_E_KEYWORD_LIMIT);
    assert_int_equal(t.offset, 0);
    lexer_next(&lx, &t);
    assert_int_equal(t.kind, TOK_KEYWORD);
    assert_int_equal(t.offset, 14);
}

static void test_empty_and_blank_input(void **state)
{
    (void)state;
    CHECK("", END_OF(0), END_OF(0));
    CHECK(" \r\n\t\n", END_OF(5));
}

static void test_entry_and_skip_to_title(void **state)
{
    (void)state;
    const char src[] = "-TITLE A -BEGIN X -ZZZ 1 -TITLEX 2 -TITLE B";
    lexer lx;
    token t;
    lexer_init(&lx, src, sizeof src - 1, 32);
    lexer_next(&lx, &t);
    assert_non_null(t.entry);
    assert_string_equal(t.entry->keyword, "TITLE");
    lexer_next(&lx, &t);
    lexer_skip_to_title(&lx);
    lexer_next(&lx, &t);
    assert_int_equal(t.kind, TOK_KEYWORD);
    assert_int_equal(t.offset, 35);
    lexer_skip_to_title(&lx);
    lexer_next(&lx, &t);
    assert_int_equal(t.kind, TOK_EOF);
}

/* lexer_next hands each field out as a keyword token, then a value token. */
static void test_lexer_next_splits_fields(void **state)
{
    (void)state;
    static const char src[] = "-TITLE IFPL -/ -ADEP  EDDF ";
    static const struct { tok_kind kind; const char *text; size_t offset; } want[] = {
        {TOK_KEYWORD, "TITLE", 0}, {TOK_VALUE, "IFPL", 7}, {TOK_ERROR, "-/", 12},
        {TOK_KEYWORD, "ADEP", 15}, {TOK_VALUE, "EDDF", 22}, {TOK_EOF, "", 27},
        {TOK_EOF, "", 27},
    };
    lexer lx;
    token t;
    lexer_init(&lx, src, sizeof src - 1, 32);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        lexer_next(&lx, &t);
        assert_int_equal(t.kind, want[i].kind);
        assert_int_equal(t.len, strlen(want[i].text));
        assert_memory_equal(t.ptr, want[i].text, t.len);
        assert_int_equal(t.offset, want[i].offset);
    }
}

/* The hot table: every slot's key, length and id are those of its entry,
 * and no hot keyword is a text field (the fast scans read a hot keyword's
 * value as basic). */
static void test_hot_table_matches_dictionary(void **state)
{
    (void)state;
    size_t n = 0;
    for (size_t i = 0; i < HOT_SLOTS; i++) {
        const hot_slot *s = &lexer_hot_table[i];
        if (!s->entry) {
            assert_int_equal(s->key, 0);
            continue;
        }
        n++;
        assert_int_equal(HOT_SLOT(s->key), i);
        assert_int_equal(s->len, s->entry->len);
        assert_true(s->len >= 1 && s->len <= 8);
        assert_int_equal(s->id, dict_id(s->entry));
        assert_memory_equal(&s->key, s->entry->keyword, s->len);
        assert_false(s->entry->flags & DICT_TEXT);
        assert_ptr_equal(dict_lookup(s->entry->keyword, s->len), s->entry);
    }
    assert_int_equal(n, 133);   /* every keyword of HOT_KEYWORDS has its slot */
}

/* The one message-start rule (lexer/start.c): -TITLE as a field start, with
 * separators after the '-', and no other keyword that begins with TITLE. */
static void test_message_start_rule(void **state)
{
    (void)state;
    static const char in[] = "-TITLEX A -TITLE1 B - TITLE IFPL -\nTITLE\0 -TITLE-ARCID";
    size_t len = sizeof in - 1;
    assert_int_equal(lexer_title_end(in, len, 0), 0);        /* -TITLEX */
    assert_int_equal(lexer_title_end(in, len, 10), 0);       /* -TITLE1 */
    assert_int_equal(lexer_title_end(in, len, 20), 27);      /* - TITLE */
    assert_true(lexer_title_at(in, len, 20));
    assert_int_equal(lexer_title_end(in, len, 33), 0);       /* a NUL after it */
    assert_int_equal(lexer_title_end(in, len, 42), 48);      /* a '-' after it */
    assert_int_equal(lexer_next_title(in, len, 0), 20);
    assert_int_equal(lexer_next_title(in, len, 21), 42);
    assert_int_equal(lexer_next_title(in, len, 43), len);
    /* the keyword cut by the end of the bytes held: a title all the same */
    assert_int_equal(lexer_title_end("-TITLE", 6, 0), 6);
    assert_int_equal(lexer_title_end("-TITL", 5, 0), 0);
    assert_int_equal(lexer_next_title("x -", 3, 0), 3);
}

/* The envelope's end rule, one for every path (the 32-byte AVX2 steps, the
 * byte loop after them and the quick filter): a signal (NNNN, ZCZC, SOH,
 * ETX) starts where the byte before it is LF, CR, VT or FF, NNNN and ZCZC as
 * words (a separator, a control byte, a '-' or the end after). Checked against
 * that rule written plainly, with the signal at every distance from the
 * end, so that it falls inside a step, across one and in the tail. */
static int reference_end(const char *b, size_t len, size_t from, size_t *at)
{
    for (size_t i = from + 1; i < len; i++) {
        char c = b[i - 1];
        if (c != '\n' && c != '\r' && c != '\v' && c != '\f')
            continue;
        int word = len - i >= 4 && (!memcmp(b + i, "NNNN", 4) || !memcmp(b + i, "ZCZC", 4)) &&
                   (i + 4 == len || (unsigned char)b[i + 4] <= ' ' || b[i + 4] == '-');
        if (word || b[i] == 1 || b[i] == 3) {
            *at = i;
            return 1;
        }
    }
    *at = len;
    return 0;
}

static void test_envelope_end_rule(void **state)
{
    (void)state;
    static const char *const around[] = {"\n\f\001", "x\f\001", "\r\n\v\003", "\nNNNN\n",
                                         "\fNNNN", "\n\nZCZC A", "\n \001", "x\001\n",
                                         "\nZCZC-L", "\rNNNN-TITLE", "\nZCZCX", "\nNNNN/"};
    char b[160];
    for (size_t k = 0; k < sizeof around / sizeof *around; k++) {
        for (size_t pad = 0; pad < 80; pad++) {
            for (size_t tail = 0; tail < 40; tail += 3) {
                size_t n = 0;
                memset(b, 'a', pad);
                n += pad;
                memcpy(b + n, around[k], strlen(around[k]));
                n += strlen(around[k]);
                memset(b + n, 'b', tail);
                n += tail;
                char *heap = malloc(n);
                assert_non_null(heap);
                memcpy(heap, b, n);
                size_t want;
                int has = reference_end(heap, n, 0, &want);
                lexer_signal sig;
                assert_int_equal(lexer_envelope_end(heap, n, 0, &sig), want);
                assert_int_equal(sig != LEX_SIGNAL_NONE, has);
                assert_int_equal(lexer_may_hold_envelope(heap, 0, n) || !has, 1);
                for (size_t from = 1; from < n; from += 1 + from / 3) {   /* the bytes before */
                    size_t at;
                    int here = reference_end(heap, n, from, &at);
                    assert_int_equal(lexer_may_hold_envelope(heap, from, n) || !here, 1);
                }
                free(heap);
            }
        }
    }
}

/* len bytes drawn from alphabet (a string) by the seed's next numbers,
 * on the heap, exactly sized, so that ASan sees over-reads. */
static char *random_bytes(const char *alphabet, size_t len, unsigned *seed)
{
    size_t n = strlen(alphabet);
    char *b = malloc(len);
    assert_non_null(b);
    for (size_t i = 0; i < len; i++) {
        *seed = *seed * 1103515245u + 12345u;
        b[i] = alphabet[(*seed >> 16) % n];
    }
    return b;
}

/* The filter on a message's last value against memrchr and the rule
 * written plainly, over random bytes rich in dashes, breaks and signal
 * starts, at every length and start up to 100. */
static int plain_pairs(const char *b, size_t from, size_t to)
{
    for (size_t i = from; i + 1 < to; i++) {
        char c = b[i], n = b[i + 1];
        if ((c == '\n' || c == '\r' || c == '\v' || c == '\f') &&
            (n == 'N' || n == 'Z' || n == 1 || n == 3))
            return 1;
    }
    return 0;
}

/* The last value's filter takes a digit after a break too: bare lines'
 * origin line. */
static int line_pairs(const char *b, size_t from, size_t to)
{
    for (size_t i = from; i + 1 < to; i++) {
        char c = b[i];
        if ((c == '\n' || c == '\r' || c == '\v' || c == '\f') && b[i + 1] >= '0' &&
            b[i + 1] <= '9')
            return 1;
    }
    return plain_pairs(b, from, to);
}

static void test_last_value_filter(void **state)
{
    (void)state;
    static const char alphabet[] = "aaaaaaaa-\n\r\v\fNZ\001\003 07";
    unsigned seed = 12345;
    for (int round = 0; round < 3000; round++) {
        size_t len = 1 + round % 300;  /* past two 64-byte steps */
        char *b = random_bytes(alphabet, len, &seed);
        for (size_t i = 0; i < len; i++) {
            if (round % 3 == 0 && b[i] == '-' && i != len / 3)
                b[i] = 'a';        /* long runs with one '-' or none */
        }
        for (size_t start = 0; start < len; start += 1 + start / 2) {
            const char *d = memrchr(b + start, '-', len - start);
            size_t want_from = d ? (size_t)(d - b) : start, from = (size_t)-1;
            int got = lexer_last_value_may_hold(b, start, len, &from);
            assert_int_equal(from, want_from);
            assert_int_equal(got, line_pairs(b, want_from, len));
        }
        free(b);
    }
}

/* lexer_may_hold_envelope against the plain pairs, and lexer_envelope_end
 * against the rule, on bytes that share a signal byte's or a break's low
 * or high 4 bits (their vector tests pick by them). */
static void test_envelope_filter(void **state)
{
    (void)state;
    static const char alphabet[] = "aN\n\r\v\fZ\001\003\x4a\x5e\xce\x81\x83\x11\x13\x0eJ^ "
                                   "\x1a\x8a\xfd\x2c\x9b\x09NNNN";
    unsigned seed = 4242;
    for (int round = 0; round < 3000; round++) {
        size_t len = 1 + round % 200;
        char *b = random_bytes(alphabet, len, &seed);
        for (size_t i = 0; i < len; i++) {
            if (round % 2 && (b[i] == 'N' || b[i] == 'Z' || b[i] == 1 || b[i] == 3))
                b[i] = 'a';        /* few candidates, or none */
        }
        for (size_t from = 0; from < len; from += 1 + from / 3) {
            assert_int_equal(lexer_may_hold_envelope(b, from, len), plain_pairs(b, from, len));
            size_t want;
            lexer_signal sig;
            int has = reference_end(b, len, from, &want);
            assert_int_equal(lexer_envelope_end(b, len, from, &sig), want);
            assert_int_equal(sig != LEX_SIGNAL_NONE, has);
        }
        free(b);
    }
}

/* lexer_text_title finds what lexer_next_title finds, the first '-' a
 * -TITLE or not. */
static void test_text_title(void **state)
{
    (void)state;
    static const char *const pieces[] = {"-", "TITLE", " ", "\n", "A", "-TITLE", "TITLEX", "ZCZC"};
    unsigned seed = 777;
    char b[64];
    for (int round = 0; round < 5000; round++) {
        size_t len = 0;
        while (len < 48) {
            seed = seed * 1103515245u + 12345u;
            const char *s = pieces[(seed >> 16) % 8];
            memcpy(b + len, s, strlen(s));
            len += strlen(s);
        }
        for (size_t from = 0; from <= len; from += 3)
            assert_int_equal(lexer_text_title(b, len, from), lexer_next_title(b, len, from));
    }
}

/* A heading read whole against its common shape (64 bytes loadable from
 * its first line) is the heading read word by word (nothing loadable):
 * every part, the end and the first bad byte, on
 * headings of the common shapes and of shapes near them (tabs, blanks
 * doubled, four addressees, a lower-case letter, a part one byte short or
 * long, lines cut by the heading's end, a '-' in a line, text or another
 * field before the -TITLE). */
static int same_slice(adexp_slice a, adexp_slice b)
{
    return a.ptr == b.ptr && a.len == b.len;
}

/* The same parts of an envelope, at the same bytes. */
static void assert_same_parts(const adexp_envelope *a, const adexp_envelope *b)
{
    assert_true(same_slice(a->transmission_id, b->transmission_id));
    assert_true(same_slice(a->priority, b->priority));
    assert_true(same_slice(a->addressees, b->addressees));
    assert_true(same_slice(a->filing_time, b->filing_time));
    assert_true(same_slice(a->originator, b->originator));
    for (int k = 0; k < 3; k++)
        assert_true(same_slice(a->text[k], b->text[k]));
}

/* Bare lines: the rule on its own cases, then lexer_bare_before against
 * it, on soups of lines that are and are not of the form: the start it
 * finds is the one line start after `from` from which lexer_bare_heading
 * reads up to the -TITLE, or none when there is none. */
static void test_bare_lines(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        int bare;
    } cases[] = {
        {"FF LKPREPWC EUCHZMFP\n170001 EUCHZMFP\n-TITLE IFPL", 1},
        {"GG EDDFZQZX\r\nLSZHZQZX EBBRZQZX\r\n\r\n311259 EUCHZMFP REST\r\n\n-TITLE CNL", 1},
        {"SS LKPREPWC\n010000 EUCHZMFP\n- TITLE CNL", 1},
        {"KK LKPREPWC\n170001 EUCHZMFP\n-TITLE", 1},
        {"DD LKPREPWC\n170001 EUCHZMFP\n-TITLEX A", 0},       /* no -TITLE */
        {"FF LKPREPWC\r\n EUCHZMFP\n\t170001 EUCHZMFP\n-TITLE CNL", 1},
        {" FF LKPREPWC\n170001 EUCHZMFP\n-TITLE CNL", 0},     /* a blank first */
        {"QQ LKPREPWC\n170001 EUCHZMFP\n-TITLE CNL", 0},      /* no priority */
        {"FG LKPREPWC\n170001 EUCHZMFP\n-TITLE CNL", 0},
        {"FF LKPREPW\n170001 EUCHZMFP\n-TITLE CNL", 0},       /* 7 letters */
        {"FF LKPREPWC\n320001 EUCHZMFP\n-TITLE CNL", 0},      /* day 32 */
        {"FF LKPREPWC\n002401 EUCHZMFP\n-TITLE CNL", 0},      /* day 0 */
        {"FF LKPREPWC\n172401 EUCHZMFP\n-TITLE CNL", 0},      /* hour 24 */
        {"FF LKPREPWC\n170060 EUCHZMFP\n-TITLE CNL", 0},      /* minute 60 */
        {"FF LKPREPWC\n170001 EUCHZMFP X-Y\n-TITLE CNL", 0},  /* a '-' */
        {"FF LKPREPWC\nLKPR\n170001 EUCHZMFP\n-TITLE CNL", 0},
        {"FF LKPREPWC\n-TITLE CNL", 0},                       /* no origin line */
        {"FF\nLKPREPWC\n170001 EUCHZMFP\n-TITLE CNL", 0},
        {"FF LKPREPWC\n170001 EUCHZMFP\nTEXT\n-TITLE CNL", 0},
        {"FF LKPREPWC\n170001\n-TITLE CNL", 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        const char *b = cases[k].in;
        size_t len = strlen(b), t = lexer_next_title(b, len, 0);
        adexp_envelope env = {0};
        size_t got = lexer_bare_heading(b, len, 0, &env);
        assert_int_equal(got, cases[k].bare ? t : (size_t)-1);
        assert_int_equal(lexer_envelope_at(b, len, 0), cases[k].bare);
        if (cases[k].bare) {
            assert_int_equal(env.form, ADEXP_FORM_BARE);
            assert_int_equal(env.priority.len, 2);
            assert_int_equal(env.filing_time.len, 6);
            assert_null(env.transmission_id.ptr);
        }
        /* after a message's last value, found back from its -TITLE */
        char after[200];
        int n = snprintf(after, sizeof after, "-TITLE A -EOBT 1330\n%s", b);
        size_t t2 = lexer_next_title(after, (size_t)n, 1);
        assert_int_equal(lexer_bare_before(after, (size_t)n, 14, t2, NULL),
                         cases[k].bare ? (size_t)20 : (size_t)-1);
        assert_int_equal(lexer_next_start(after, (size_t)n, 1, 1), cases[k].bare ? 20 : t2);
    }
    static const char *const lines[] = {
        "FF LKPREPWC", "GG EDDFZQZX LSZHZQZX", "QQ LKPREPWC", "EBBRZQZX", "EBBRZQZX LKPR",
        "170001 EUCHZMFP", "170001 EUCHZMFP MORE", "991299 EUCHZMFP", "170001 EUCH-ZMFP",
        "", " ", "-TITLE CNL", "-EOBT 1330", "TEXT", "FF", "170001", " EBBRZQZX",
        "\t170001 EUCHZMFP", " FF LKPREPWC"};
    unsigned seed = 777;
    for (int round = 0; round < 4000; round++) {
        char b[400];
        size_t len = 0;
        for (int l = 0; l < 12; l++) {
            seed = seed * 1103515245u + 12345u;
            const char *s = lines[(seed >> 16) % (sizeof lines / sizeof *lines)];
            memcpy(b + len, s, strlen(s));
            len += strlen(s);
            memcpy(b + len, (seed >> 8) & 1 ? "\r\n" : "\n", (seed >> 8) & 1 ? 2 : 1);
            len += (seed >> 8) & 1 ? 2 : 1;
        }
        char *heap = malloc(len);
        assert_non_null(heap);
        memcpy(heap, b, len);
        for (size_t t = lexer_next_title(heap, len, 0); t < len;
             t = lexer_next_title(heap, len, t + 1)) {
            const char *d = t ? memrchr(heap, '-', t) : NULL;
            size_t from = d ? (size_t)(d - heap) : 0;
            size_t want = (size_t)-1;
            for (size_t i = from + 1; i < t; i++)
                if ((heap[i - 1] == '\n' || heap[i - 1] == '\r') &&
                    lexer_bare_heading(heap, len, i, NULL) == t)
                    want = i;
            assert_int_equal(lexer_bare_before(heap, len, from, t, NULL), want);
        }
        free(heap);
    }
}

/* lexer_next_title's vector steps against the rule read plainly (the
 * first '-' at or after from that starts a -TITLE), on bytes rich in
 * "TIT", at every length up to 200 and many starts. */
static void test_next_title_steps(void **state)
{
    (void)state;
    static const char alphabet[] = "TITLE-TIT- \nTITLEX";
    unsigned seed = 99;
    for (int round = 0; round < 3000; round++) {
        size_t len = 1 + round % 200;
        char *b = random_bytes(alphabet, len, &seed);
        for (size_t from = 0; from < len; from += 1 + from / 4) {
            size_t want = len;
            for (size_t d = from; d < len && want == len; d++)
                if (b[d] == '-' && lexer_title_end(b, len, d))
                    want = d;
            assert_int_equal(lexer_next_title(b, len, from), want);
        }
        free(b);
    }
}

static void test_heading_shapes(void **state)
{
    (void)state;
    static const char *const starts[] = {"ZCZC", "\001", "\001ZCZC", "ZCZC "};
    static const char *const heads[] = {" A00001 170001", " A00001", "A00001", "  AB1\tX Y ",
                                        " a0001", " A0-01", " ", " A00001\t", "\tA1 \v"};
    static const char *const addrs[] = {"FF LKPREPWC EUCHZMFP", "FF LKPREPWC", "GG\tLKPREPWC",
                                        "FF LKPREPWC EUCHZMFP EDDFZQZX",
                                        "FF LKPREPWC EUCHZMFP EDDFZQZ", "FF  LKPREPWC", "FF",
                                        "FF LKPREPWc", "F LKPREPWC", "FF LKPREPWC ",
                                        "FF LKPREPWC EUCHZMFP LSZHZQZX EDDFZQZX"};
    static const char *const more[] = {"", "EDDFZQZX\n", "EDDFZQZX X\n"};
    static const char *const origins[] = {"170001 EUCHZMFP", "170001 EUCHZMFP TEXT",
                                          "170001\tEUCHZMFP", "17000X EUCHZMFP",
                                          "170001 EUCHZMF", "170001 EUCHZMFPX", "1700011 EUCHZMFP",
                                          "170001  EUCHZMFP", "170001 EUCHZMFP\t"};
    static const char *const ends[] = {"\n", "\r\n", "\002", "\r\n\002", "\n\n"};
    static const char *const texts[] = {"", "", "", " ", "\n\n", "X ", "-ARCID A ", "-TITLEX "};
    char b[256 + 64];
    unsigned seed = 2929;
    lexer_heading_shape seen = {0};   /* the last common heading's, kept across rounds */
    for (int round = 0; round < 20000; round++) {
        unsigned r[6];
        for (int k = 0; k < 6; k++) {
            seed = seed * 1103515245u + 12345u;
            r[k] = seed >> 16;
        }
        const char *e = ends[r[5] % 5];
        int n = snprintf(b, 256, "%s%s%s%s%s%s%s%s%s-TITLE X", starts[r[0] % 4],
                         heads[r[1] % 9], e, addrs[r[2] % 11], e, more[r[3] % 3],
                         origins[r[4] % 9], e, texts[(r[3] >> 4) % 8]);
        size_t len = (size_t)n - 8 + (r[5] >> 4) % 9;   /* the heading's end: -TITLE, or near */
        memset(b + n, 'x', 64);
        /* every other round, the heading's letters and digits changed for
         * others (its classes kept): a heading of the last one's classes
         * with other words */
        size_t head = strlen(starts[r[0] % 4]);
        for (size_t k = head; r[1] & 1 && k + 8 < (size_t)n; k++) {
            unsigned char ch = (unsigned char)b[k];
            if (ch == '-')
                break;
            seed = seed * 1103515245u + 12345u;
            if (ch >= 'A' && ch <= 'Z')
                b[k] = (char)('A' + (seed >> 16) % 26);
            else if (ch >= '0' && ch <= '9')
                b[k] = (char)('0' + (seed >> 16) % 10);
        }
        /* every fourth round, one byte of the heading a byte at a class's
         * edge (a quick path's class that took one would read a garbled
         * heading as whole, where the words refuse it) */
        if (r[2] % 4 == 0) {
            static const char edges[] = "@[/:`{\x08\x0e\x1f\x7f\x80\xc1\x0b\x0c\x01\x03";
            size_t k = head + (r[4] >> 3) % ((size_t)n - 8 - head);
            b[k] = edges[(r[0] >> 5) % (sizeof edges - 1)];
        }
        adexp_envelope whole = {0}, words = {0};
        size_t bad_whole, bad_words;
        size_t at_whole = lexer_envelope_heading(b, len, sizeof b, 0, &whole, &bad_whole);
        size_t at_words = lexer_envelope_heading(b, len, 0, 0, &words, &bad_words);
        assert_int_equal(at_whole, at_words);
        assert_int_equal(bad_whole, bad_words);
        assert_same_parts(&whole, &words);
        /* an envelope's text ending at len: its heading and first -TITLE
         * found together are the -TITLE found first, then the heading up to it */
        adexp_envelope both = {0}, apart = {0};
        size_t bad_both, bad_apart, first_both;
        size_t at_both =
            lexer_envelope_text(b, len, sizeof b, 0, &both, &bad_both, &first_both, NULL);
        size_t first_apart = lexer_text_title(b, len, 1);
        size_t at_apart = lexer_envelope_heading(b, first_apart, sizeof b, 0, &apart, &bad_apart);
        assert_int_equal(first_both, first_apart);
        assert_int_equal(at_both, at_apart);
        assert_int_equal(bad_both, bad_apart);
        assert_int_equal(both.form, apart.form);
        assert_same_parts(&both, &apart);
        /* and read from the last common heading's shape: the same */
        adexp_envelope known = {0};
        size_t bad_known, first_known;
        size_t at_known =
            lexer_envelope_text(b, len, sizeof b, 0, &known, &bad_known, &first_known, &seen);
        assert_int_equal(at_known, at_both);
        assert_int_equal(bad_known, bad_both);
        assert_int_equal(first_known, first_both);
        assert_same_parts(&known, &both);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic_fields),
        cmocka_unit_test(test_text_title),
        cmocka_unit_test(test_heading_shapes),
        cmocka_unit_test(test_bare_lines),
        cmocka_unit_test(test_next_title_steps),
        cmocka_unit_test(test_envelope_filter),
        cmocka_unit_test(test_ff_vt_and_bom),
        cmocka_unit_test(test_separators_after_dash),
        cmocka_unit_test(test_no_separator_before_dash),
        cmocka_unit_test(test_keyword_glued_to_next_field),
        cmocka_unit_test(test_keyword_at_end_of_input),
        cmocka_unit_test(test_value_spans_lines_and_is_trimmed),
        cmocka_unit_test(test_keyword_glued_to_value_is_another_keyword),
        cmocka_unit_test(test_dash_without_keyword),
        cmocka_unit_test(test_text_before_first_field),
        cmocka_unit_test(test_msgtxt_brackets_keep_hyphens),
        cmocka_unit_test(test_oldmsg_lines_starting_with_dash),
        cmocka_unit_test(test_text_group_at_every_place),
        cmocka_unit_test(test_unclosed_bracket_stops_at_primary_keyword),
        cmocka_unit_test(test_unclosed_bracket_then_closed_one),
        cmocka_unit_test(test_text_without_bracket),
        cmocka_unit_test(test_any_byte_in_value),
        cmocka_unit_test(test_keyword_limit),
        cmocka_unit_test(test_empty_and_blank_input),
        cmocka_unit_test(test_entry_and_skip_to_title),
        cmocka_unit_test(test_lexer_next_splits_fields),
        cmocka_unit_test(test_hot_table_matches_dictionary),
        cmocka_unit_test(test_message_start_rule),
        cmocka_unit_test(test_envelope_end_rule),
        cmocka_unit_test(test_last_value_filter),
    };
    return cmocka_run_group_tests_name("lexer", tests, NULL, NULL);
}

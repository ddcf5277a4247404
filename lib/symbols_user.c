/* symbols_user: a program with functions of its own named as the library's
 * internal ones (fatal, error_at, vwalk), linked against the static library
 * as installed. It must link (no "multiple definition"), its functions must
 * never be called by the library (no reference resolved to them), and the
 * library must work: a message parsed, a broken one reported with its line
 * and column, the first one validated. */
#include <stdio.h>
#include <string.h>

#include "adexp.h"

static int own_calls;

/* The program's own, with signatures of its own. */
void fatal(const char *what);
int error_at(int line);
void vwalk(void);
void fatal(const char *what) { (void)what; own_calls++; }
int error_at(int line) { own_calls++; return line; }
void vwalk(void) { own_calls++; }

static int check(int ok, const char *what)
{
    if (!ok)
        fprintf(stderr, "symbols_user: %s\n", what);
    return ok ? 0 : 1;
}

int main(void)
{
    static const char good[] = "-TITLE IFPL -ARCID ABC123 -ADEP EGLL -ADES LFPG\n";
    static const char bad[] = "-TITLE IFPL\n-ARCID ABC\n-BEGIN RTEPTS -PT -PTID XYZ\n";
    adexp_arena arena;
    adexp_msg msg;
    int failed = 0;

    adexp_arena_init(&arena, NULL);
    failed += check(adexp_parse(good, strlen(good), &arena, &msg) == ADEXP_OK, "good: not OK");
    failed += check(adexp_slice_eq(msg.view.arcid, "ABC123"), "good: ARCID is not ABC123");
    adexp_findings findings;
    adexp_findings_init(&findings);
    failed += check(adexp_validate(&msg, &arena, &findings) == ADEXP_OK, "validate: not OK");
    failed += check(findings.n == 0, "validate: findings on a valid message");

    adexp_arena_reset(&arena);
    adexp_status s = adexp_parse(bad, strlen(bad), &arena, &msg);
    failed += check(s != ADEXP_OK && msg.nerrors >= 1, "bad: no error");
    if (msg.nerrors >= 1)
        failed += check(msg.errors[0].line == 3, "bad: error not on line 3");
    adexp_arena_free(&arena);

    failed += check(own_calls == 0, "the library called the program's own functions");
    if (!failed)
        puts("symbols_user: ok");
    return failed != 0;
}

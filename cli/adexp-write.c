/* adexp-write: adexp-parse's JSON lines back to ADEXP messages, so that
 * messages can be edited with jq and written back. Each line is read by
 * jansson, built by the library's builder, and written by adexp_write with
 * verify on: a tree no text reads back as is refused, never written. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "adexp.h"
#include "dict_option.h"
#include "output_guard.h"
#include "json_msg.h"

static const char usage[] =
    "usage: adexp-write [options] [FILE...]\n"
    "Read JSON lines in adexp-parse's format (one message per line) and write\n"
    "each message as ADEXP. A FILE of - or no FILE reads standard input.\n"
    "A line with an \"envelope\" (a message that came in an AFTN envelope) is\n"
    "written in it, in its \"form\": ZCZC ... NNNN, SOH ... STX ... VT ETX, or\n"
    "the address and origin lines alone (bare).\n"
    "\n"
    "  -o, --output FILE       write the messages to FILE instead of stdout;\n"
    "                          FILE (or stdout's file) being one of the FILEs\n"
    "                          is refused before anything is read (exit 2)\n"
    "      --layout LAYOUT     line (default): a message a line, values\n"
    "                          folded; ifps: a primary field a line, list\n"
    "                          items indented, values as they are\n"
    "      --dictionary FILE   extend the field dictionary with FILE, as\n"
    "                          adexp-parse --dictionary does (repeatable)\n"
    "  -h, --help              show this help and exit\n"
    "      --version           show the version and exit\n"
    "\n"
    "A line that cannot be written (not JSON, not a message, a keyword or a\n"
    "value that would not read back, a tree that no ADEXP text reads back as)\n"
    "is reported on standard error as FILE:LINE: message, and the run goes\n"
    "on; blank lines are skipped.\n"
    "A message that had errors when it was parsed (its line has \"errors\") is\n"
    "never repaired: it is written as it stands when its text reads back with\n"
    "the same errors (an ICAO text left open at its end: TEXT_UNCLOSED), else\n"
    "it is not written (LIST_UNCLOSED, END_MISMATCH, NO_TITLE, ...); either way\n"
    "its first error is reported as FILE:LINE: not written: CODE at L:C, or\n"
    "FILE:LINE: written as it stands: CODE at L:C.\n"
    "Bytes that are not UTF-8 (\\udcXX in adexp-parse's JSON) are written back\n"
    "as those bytes.\n"
    "Exit status: 0 if every line was written and none had errors, 1 if any\n"
    "was not or had errors (or a FILE could not be read, or standard output\n"
    "is closed, or the output could not be written), 2 on a usage error.\n";

/* Output is flushed once this much is pending. */
#define FLUSH_AT ((size_t)1 << 20)

typedef struct run {
    adexp_write_options wo;
    FILE *out;
    adexp_buf buf;
    adexp_arena arena;
    adexp_dictionary *dict;    /* --dictionary files, each on the one before */
    int failed;
} run;

static int usage_error(const char *fmt, const char *arg)
{
    fputs("adexp-write: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'adexp-write --help'.\n", stderr);
    return 2;
}

static int flush(run *r)
{
    if (r->buf.len && fwrite(r->buf.data, 1, r->buf.len, r->out) != r->buf.len)
        return -1;
    r->buf.len = 0;
    return 0;
}

/* A parse error of the JSON line's "errors" array (code by name). */
static adexp_status error_code(const json_t *e)
{
    const char *c = json_string_value(json_object_get(e, "code"));
    for (int s = 0; c && s < ADEXP_STATUS_COUNT; s++)
        if (strcmp(adexp_status_name((adexp_status)s), c) == 0)
            return (adexp_status)s;
    return ADEXP_OK;              /* a code this build does not know */
}

/* The errors of a line whose message the writer can write as it stands
 * (each TEXT_UNCLOSED: the text runs on to the message's end) into
 * errs[0..cap); their number, or -1 for any other. */
static int keepable_errors(const json_t *arr, adexp_error *errs, size_t cap)
{
    size_t n = json_is_array(arr) ? json_array_size(arr) : 0;
    if (n > cap)
        return -1;
    for (size_t i = 0; i < n; i++) {
        errs[i] = (adexp_error){error_code(json_array_get(arr, i)), "", 0, 0, 0};
        if (errs[i].code != ADEXP_E_TEXT_UNCLOSED)
            return -1;
    }
    return (int)n;
}

/* "CODE at L:C: message" of the line's first error. */
static void say_error(const char *name, size_t lineno, const char *what, const json_t *arr)
{
    const json_t *e = json_array_get(arr, 0);
    const char *code = json_string_value(json_object_get(e, "code"));
    const char *msg = json_string_value(json_object_get(e, "message"));
    fprintf(stderr, "%s:%zu: %s: %s at %lld:%lld: %s\n", name, lineno, what,
            code ? code : "?", (long long)json_integer_value(json_object_get(e, "line")),
            (long long)json_integer_value(json_object_get(e, "column")), msg ? msg : "");
}

/* One JSON line: written, or reported. */
static void do_line(run *r, const char *name, size_t lineno, const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r' || line[i] == '\n'))
        i++;
    if (i == len)
        return;
    json_error_t je;
    size_t jlen;
    char *jline = json_msg_line(line, len, &jlen);
    json_t *root = jline ? json_loadb(jline, jlen, JSON_ALLOW_NUL, &je) : NULL;
    free(jline);
    char why[1024];
    if (!jline) {
        fprintf(stderr, "%s:%zu: out of memory\n", name, lineno);
        r->failed = 1;
        return;
    }
    if (!root) {
        fprintf(stderr, "%s:%zu: bad JSON at column %d: %s\n", name, lineno, je.column,
                je.text);
        r->failed = 1;
        return;
    }
    /* a message parsed with errors: never repaired */
    const json_t *errors = json_object_get(root, "errors");
    adexp_error kept[16];
    int nkept = keepable_errors(errors, kept, sizeof kept / sizeof *kept);
    if (nkept < 0) {
        say_error(name, lineno, "not written", errors);
        r->failed = 1;
        json_decref(root);
        return;
    }
    adexp_arena_reset(&r->arena);
    adexp_builder *b = adexp_builder_new(&r->arena);
    if (b)
        adexp_builder_use_dictionary(b, r->dict);
    adexp_msg msg;
    adexp_write_error err;
    if (!b) {
        fprintf(stderr, "%s:%zu: out of memory\n", name, lineno);
        r->failed = 1;
    } else if (json_msg_build(root, b, &r->arena, &msg, why, sizeof why) != 0) {
        fprintf(stderr, "%s:%zu: %s\n", name, lineno, why);
        r->failed = 1;
    } else if ((msg.errors = kept, msg.nerrors = msg.nerrors_total = (size_t)nkept,
                adexp_write(&r->buf, &msg, &r->wo, &err)) != ADEXP_OK) {
        if (nkept)
            say_error(name, lineno, "not written", errors);
        else
            fprintf(stderr, "%s:%zu: %s at %s: %s\n", name, lineno,
                    adexp_status_name(err.code), err.path[0] ? err.path : "message",
                    adexp_status_message(err.code));
        r->failed = 1;
    } else if (nkept) {
        say_error(name, lineno, "written as it stands", errors);
        r->failed = 1;
    }
    json_decref(root);
}

/* Every line of one input. Returns -1 if the output could not be written. */
static int do_file(run *r, const char *name)
{
    int is_stdin = strcmp(name, "-") == 0;
    FILE *in = is_stdin ? stdin : fopen(name, "rb");
    if (!in) {
        fprintf(stderr, "%s: %s\n", name, strerror(errno));
        r->failed = 1;
        return 0;
    }
    char *line = NULL;
    size_t cap = 0, lineno = 0;
    ssize_t n;
    int rc = 0;
    while (rc == 0 && (n = getline(&line, &cap, in)) >= 0) {
        do_line(r, name, ++lineno, line, (size_t)n);
        if (r->buf.len >= FLUSH_AT)
            rc = flush(r);
    }
    if (ferror(in)) {
        fprintf(stderr, "%s: %s\n", name, strerror(errno));
        r->failed = 1;
    }
    free(line);
    if (!is_stdin)
        fclose(in);
    return rc;
}

/* Options into r and *output; returns -1 to go on, or an exit status. The
 * FILE arguments are gathered at the front of argv, their count in *nfiles. */
static int parse_args(run *r, const char **output, int argc, char **argv, int *nfiles)
{
    int only_files = 0;
    *nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (only_files || a[0] != '-' || a[1] == '\0') {
            argv[(*nfiles)++] = argv[i];
        } else if (strcmp(a, "--") == 0) {
            only_files = 1;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            return fputs(usage, stdout), cli_flush_stdout("adexp-write");
        } else if (strcmp(a, "--version") == 0) {
            return printf("adexp-write %s (JSON: jansson %s)\n", ADEXP_VERSION,
                          JANSSON_VERSION), cli_flush_stdout("adexp-write");
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 ||
                   strncmp(a, "--output=", 9) == 0) {
            if (a[2] == '-' && a[8] == '=')
                *output = a + 9;
            else if (i + 1 < argc)
                *output = argv[++i];
            else
                return usage_error("%s needs a file name", a);
        } else if (strcmp(a, "--layout") == 0 || strncmp(a, "--layout=", 9) == 0) {
            const char *v = a[8] == '=' ? a + 9 : i + 1 < argc ? argv[++i] : NULL;
            if (!v)
                return usage_error("%s needs line or ifps", "--layout");
            if (strcmp(v, "line") != 0 && strcmp(v, "ifps") != 0)
                return usage_error("unknown layout '%s' (line or ifps)", v);
            r->wo.layout = v[0] == 'i' ? ADEXP_LAYOUT_IFPS : ADEXP_LAYOUT_LINE;
            r->wo.fold = v[0] != 'i';
        } else if (strcmp(a, "--dictionary") == 0 || strncmp(a, "--dictionary=", 13) == 0) {
            const char *v = a[12] == '=' ? a + 13 : i + 1 < argc ? argv[++i] : NULL;
            if (!v)
                return usage_error("%s needs a file name", "--dictionary");
            int rc = cli_load_dictionary("adexp-write", &r->dict, v);
            r->wo.dictionary = r->dict;
            if (rc >= 0)
                return rc;
        } else {
            return usage_error("unknown option %s", a);
        }
    }
    return -1;
}

/* The output, FILE or standard output, claimed once it is known not to be
 * an input (files[0..n)): r->out, or an exit status. */
static int open_output(run *r, const char *output, char *const *files, int n)
{
    int fd = STDOUT_FILENO;
    if (!output && !cli_stdout_writable("adexp-write"))
        return 1;
    if (output && (fd = cli_open_output("adexp-write", output)) < 0)
        return 1;
    int rc = cli_claim_output("adexp-write", fd, output, cli_find_input(fd, files, n));
    if (rc == 0 && output && !(r->out = fdopen(fd, "wb"))) {
        fprintf(stderr, "adexp-write: %s: %s\n", output, strerror(errno));
        rc = 1;
    }
    if (rc != 0 && output)
        close(fd);
    if (!output)
        r->out = stdout;
    return rc;
}

int main(int argc, char **argv)
{
    cli_guard_std_fds();
    run r;
    memset(&r, 0, sizeof r);
    r.wo = adexp_write_options_default();
    r.wo.fold = 1;
    r.wo.verify = 1;
    r.wo.envelope = 1;
    const char *output = NULL;
    int nfiles;
    int rc = parse_args(&r, &output, argc, argv, &nfiles);
    if (rc >= 0) {
        adexp_dict_free(r.dict);
        return rc;
    }
    static char *dash[] = {"-"};
    char **files = nfiles ? argv : dash;
    if ((rc = open_output(&r, output, files, nfiles ? nfiles : 1)) != 0) {
        adexp_dict_free(r.dict);
        return rc;
    }
    adexp_buf_init(&r.buf, NULL);
    adexp_arena_init(&r.arena, NULL);
    int werr = 0;
    for (int i = 0; i < (nfiles ? nfiles : 1) && !werr; i++)
        werr = do_file(&r, files[i]);
    werr = werr || flush(&r) || fflush(r.out) != 0 || (output && fclose(r.out) != 0);
    if (werr)
        fprintf(stderr, "adexp-write: %s: %s\n", output ? output : "output", strerror(errno));
    adexp_buf_free(&r.buf);
    adexp_arena_free(&r.arena);
    adexp_dict_free(r.dict);
    return werr || r.failed ? 1 : 0;
}

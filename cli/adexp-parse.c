/* adexp-parse: ADEXP message files to JSON lines (or the typed view, CSV,
 * TSV, ADEXP again), on a pool of threads. All the work is in the library's
 * batch driver; this is options and the final summary. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adexp.h"
#include "adexp_batch.h"
#include "dict_option.h"
#include "output_guard.h"

#ifdef HAVE_JEMALLOC
#include <jemalloc/jemalloc.h>
#endif

static const char usage[] =
    "usage: adexp-parse [options] [PATH...]\n"
    "Parse ADEXP messages and write one JSON object per message (NDJSON),\n"
    "one CSV or TSV row per message (or per item of a list), or ADEXP again.\n"
    "A PATH is a file, a directory (walked recursively, names in byte order;\n"
    "hidden entries and FIFOs, sockets and devices met there are skipped with\n"
    "a note; each directory is walked once, a second way into it is skipped),\n"
    "- for standard input (also read when no PATH is given and it is not a\n"
    "terminal), or a FIFO or character device (/dev/stdin,\n"
    "<(zcat f.gz)). gzip, zstd, xz and bzip2 inputs are decompressed; tar\n"
    "(plain or compressed) and zip archives give one input per regular member,\n"
    "named ARCHIVE:MEMBER; all are known by their first bytes. Standard input,\n"
    "FIFOs, devices, decompressed inputs and archive members are read as\n"
    "streams: each message's line is written, and the output flushed, as soon\n"
    "as the next -TITLE, its envelope's NNNN or the end of the stream is read.\n"
    "A regular file on standard input (- < FILE) is read as FILE named would be,\n"
    "as is a member of over 1 MiB stored whole in a plain tar or a zip.\n"
    "\n"
    "  -j, --jobs N            worker threads (default: online CPUs)\n"
    "  -o, --output FILE       write the output to FILE (-: stdout, the default);\n"
    "                          FILE (or stdout's file) being one of the PATHs,\n"
    "                          or a file with data that a walk would parse, is\n"
    "                          refused before anything is read (exit 2); a new\n"
    "                          FILE inside a walked directory is left out\n"
    "      --format FORMAT     json (default): one line per message;\n"
    "                          summary: parse only, print the summary;\n"
    "                          adexp: the messages written back as ADEXP;\n"
    "                          view: the typed view, one JSON line per message;\n"
    "                          csv, tsv: a header row, then one row per message;\n"
    "                          sqlite: typed tables (messages, route_points,\n"
    "                          errors, warnings) in the database -o FILE,\n"
    "                          created or appended to (doc/sqlite.md)\n"
    "      --layout LAYOUT     with --format adexp: line (default): a message\n"
    "                          a line, values folded; ifps: a primary field\n"
    "                          a line, list items indented, values as they are\n"
    "      --adexp-envelope    with --format adexp: a message that came in an\n"
    "                          AFTN envelope is written in it, in the form it\n"
    "                          came in (ZCZC ... NNNN, SOH ... STX ... VT ETX,\n"
    "                          or its address and origin lines alone),\n"
    "                          or left out (exit 1) if it would not read back\n"
    "                          as itself; without it, the message alone\n"
    "      --fields LIST       csv/tsv columns, comma-separated: keywords (RFL),\n"
    "                          paths (ESTDATA.PTID), decoded suffixes _ft, _m,\n"
    "                          _utc, _deg (RFL_ft), the envelope's parts\n"
    "                          (envelope.originator, doc/feeds.md); json and\n"
    "                          view keep only these fields; a keyword the\n"
    "                          dictionary does not\n"
    "                          know is a usage error naming the closest ones\n"
    "      --rows LIST         csv/tsv: one row per item of the list LIST\n"
    "                          (RTEPTS: one per route point)\n"
    "      --title LIST        keep only messages of these titles (IFPL,CHG);\n"
    "                          the others are counted in the summary; a title\n"
    "                          no message had gets a warning at the end\n";
/* The rest of --help, in strings no longer than C99 compilers must
 * support (4095 bytes). */
static const char usage_notes[] =
    "      --unordered         write each file's output when ready, not in\n"
    "                          input order (faster when file sizes vary)\n"
    "      --flush-idle MS     a live stream idle for MS milliseconds writes\n"
    "                          the message it holds, if the text so far ends\n"
    "                          a complete message, without waiting for the\n"
    "                          next -TITLE\n"
    "      --files-from LIST   read paths from LIST, one a line (- for stdin);\n"
    "                          a NUL byte in it is an error (use -0)\n"
    "  -0, --null              paths in LIST end with NUL bytes (find -print0)\n"
    "      --include GLOB      in directories, parse only files whose name\n"
    "                          matches GLOB (e.g. '*.adexp'); repeatable: any\n"
    "                          of them; the others are counted in the summary;\n"
    "                          named files always count\n"
    "      --exclude GLOB      in directories, leave out files whose name\n"
    "                          matches GLOB (repeatable), counted the same\n"
    "      --max-file-size N   fail files larger than N bytes (suffixes K, M,\n"
    "                          G; default: no limit, a file is mapped); in a\n"
    "                          stream, a decompressed input or an archive\n"
    "                          member: a message (default: what\n"
    "                          --max-message-size allows)\n"
    "      --max-depth N       nesting of lists and compounds (default 64,\n"
    "                          at most 1024): DEPTH_LIMIT beyond\n"
    "      --max-fields N      fields in a message (default 1000000): FIELD_LIMIT\n"
    "      --max-list-items N  items in one list (default 100000): LIST_LIMIT\n"
    "      --max-message-size N  bytes in a message (suffixes K, M, G;\n"
    "                          default 64M): SIZE_LIMIT\n"
    "      --envelope MODE     aftn (default): AFTN envelopes (ZCZC ... NNNN,\n"
    "                          SOH ... ETX, or the address and origin lines\n"
    "                          alone before -TITLE) around messages are\n"
    "                          recognised, kept as \"envelope\" and never read\n"
    "                          as fields; a broken one is an ENVELOPE error;\n"
    "                          none: off\n";
static const char usage_checks[] =
    "      --validate          check every value against its field's syntax\n"
    "                          and ranges, and compounds' subfields: each line\n"
    "                          gets \"warnings\" (csv, tsv: a last column\n"
    "                          warnings, CODE:FIELD joined by ';'), each\n"
    "                          finding a line on stderr\n"
    "      --strict            with --validate: exit 1 if any warning\n"
    "      --dictionary FILE   extend the field dictionary with FILE (TSV in\n"
    "                          the columns of lib/dict/fields.tsv); repeatable,\n"
    "                          later files extend earlier ones\n"
    "      --color WHEN        the severity words of diagnostics in colour:\n"
    "                          auto (default: when stderr is a terminal),\n"
    "                          always or never\n"
    "      --list-fields       print the keywords of the built-in dictionary,\n"
    "                          one a line, and exit\n"
    "  -q, --quiet             no progress line and no summary\n"
    "  -h, --help              show this help and exit\n"
    "      --version           show the version and exit\n"
    "\n"
    "Errors go to standard error as PATH:LINE:COLUMN: error: CODE: message,\n"
    "or PATH: error: message for a file that cannot be parsed at all\n"
    "(missing, empty, binary: a NUL byte in its first 4 KiB and no -TITLE,\n"
    "or no '-' in it; too large, a directory loop, a corrupt archive). A NUL\n"
    "byte inside a message is its NUL_BYTE error. Names are shown escaped\n"
    "(\\n, \\xHH, \\\\). Warnings go to standard error as\n"
    "PATH:LINE:COLUMN: warning: CODE: FIELD: message, and what is only said\n"
    "(a skipped entry) as PATH: note: message.\n"
    "A summary goes to standard error at the end, and, when standard error is\n"
    "a terminal, a progress line ten times a second: files done, the text\n"
    "read (and the compressed bytes behind it), messages, MB/s; it moves\n"
    "within one big or compressed input too. If the output cannot be\n"
    "written, the run stops; a regular file ends at its last complete line\n"
    "and the summary says how many messages it holds.\n"
    "Exit status: 0 if every input parsed, 1 if any failed, the output could\n"
    "not be written (or, with --strict, any warning), 2 on a usage error.\n";

typedef struct cli {
    adexp_batch_options o;
    adexp_dictionary *dict;    /* --dictionary files, each on the one before */
    const char *output, *files_from;
    const char *fields, *rows, *titles;
    int quiet, npaths, stdin_paths, strict, list_nul;
    const char **includes, **excludes;   /* --include, --exclude: NULL-terminated */
    int nincludes, nexcludes;
    int layout;                /* --layout was given */
    int adexp_envelope;        /* --adexp-envelope was given */
    int color;                 /* --color: 1 always, 0 never, -1 auto */
    char **paths;
} cli;

static int usage_error(const char *fmt, const char *arg)
{
    fputs("adexp-parse: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'adexp-parse --help'.\n", stderr);
    return 2;
}

static int parse_jobs(const char *s, unsigned *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 1 || v > 1024)
        return -1;
    *out = (unsigned)v;
    return 0;
}

static int parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || s[0] == '-')
        return -1;
    unsigned shift = 0;
    if (*end == 'K' || *end == 'k')
        shift = 10, end++;
    else if (*end == 'M' || *end == 'm')
        shift = 20, end++;
    else if (*end == 'G' || *end == 'g')
        shift = 30, end++;
    if (*end || v == 0 || v > (SIZE_MAX >> 1 >> shift))
        return -1;
    *out = (size_t)v << shift;
    return 0;
}

/* A count in [1, max]. */
static int parse_count(const char *s, uint32_t max, uint32_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-' || v == 0 || v > max)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

static int run_select(cli *c);

static void print_version(void)
{
    printf("adexp-parse %s\n", ADEXP_VERSION);
    printf("vector code: %s\n", adexp_vector_code());
#ifdef HAVE_JEMALLOC
    /* Linked is not enough (sanitizers and valgrind replace malloc): ask
     * jemalloc whether a malloc() of 64 KiB went through it. */
    const char *ver = NULL;
    uint64_t a0 = 0, a1 = 0;
    size_t sz = sizeof ver;
    if (mallctl("version", &ver, &sz, NULL, 0) != 0)
        ver = "?";
    sz = sizeof a0;
    mallctl("thread.allocated", &a0, &sz, NULL, 0);
    void *volatile p = malloc(1 << 16);
    sz = sizeof a1;
    mallctl("thread.allocated", &a1, &sz, NULL, 0);
    free(p);
    printf("allocator: jemalloc %s (malloc() served by it: %s)\n", ver,
           a1 - a0 >= (1u << 16) ? "yes" : "no");
#else
    printf("allocator: system malloc\n");
#endif
}

/* An option's value: "--opt=V", "--opt V", "-jV" or "-j V" (a is the
 * option, argv[*i] or a short option of a cluster). */
static const char *value(const char *a, int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(a, name, n) == 0 && a[n] == '=')
        return a + n + 1;
    if (name[1] != '-' && a[2] != '\0')
        return a + 2;
    if (*i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

/* Does argv[i] name option long_ (or short_)? */
static int is(const char *a, const char *short_, const char *long_)
{
    size_t n = strlen(long_);
    if (strncmp(a, long_, n) == 0 && (a[n] == '\0' || a[n] == '='))
        return 1;
    return short_ && strncmp(a, short_, 2) == 0;
}

/* --layout: line folds values (a message stays on one line), ifps keeps
 * them as they are. */
static void set_layout(adexp_write_options *o, int ifps)
{
    int envelope = o->envelope;   /* --adexp-envelope and --dictionary may come first */
    const struct adexp_dictionary *dictionary = o->dictionary;
    *o = adexp_write_options_default();
    o->layout = ifps ? ADEXP_LAYOUT_IFPS : ADEXP_LAYOUT_LINE;
    o->fold = !ifps;
    o->envelope = envelope;
    o->dictionary = dictionary;
}

/* --dictionary FILE: FILE extends the dictionary so far, for the parser
 * and for --format adexp's writer, which looks keywords up in it. */
static int load_dictionary(cli *c, const char *path)
{
    int rc = cli_load_dictionary("adexp-parse", &c->dict, path);
    c->o.parser.dictionary = c->dict;
    c->o.adexp.dictionary = c->dict;
    return rc;
}

/* --list-fields: the keywords of the built-in dictionary (not BEGIN and
 * END), one a line, for shell completion and for the curious. */
static int list_fields(void)
{
    adexp_dict_info info;
    for (uint16_t id = 0; adexp_dict_get(id, &info); id++)
        if (info.level != ADEXP_DICT_SYNTAX)
            puts(info.keyword);
    return cli_flush_stdout("adexp-parse");
}

/* Returns -1 to go on, or an exit status. */
static int parse_option(cli *c, const char *a, int argc, char **argv, int *i)
{
    const char *v;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
        return fputs(usage, stdout), fputs(usage_notes, stdout), fputs(usage_checks, stdout),
               cli_flush_stdout("adexp-parse");
    if (strcmp(a, "--list-fields") == 0)
        return list_fields();
    if (strcmp(a, "--version") == 0)
        return print_version(), cli_flush_stdout("adexp-parse");
    if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
        return c->quiet = 1, -1;
    if (strcmp(a, "--validate") == 0)
        return c->o.validate = 1, -1;
    if (strcmp(a, "--strict") == 0)
        return c->strict = 1, -1;
    if (strcmp(a, "--unordered") == 0)
        return c->o.unordered = 1, -1;
    if (strcmp(a, "--adexp-envelope") == 0)
        return c->o.adexp.envelope = 1, c->adexp_envelope = 1, -1;
    if (is(a, "-j", "--jobs")) {
        if (!(v = value(a, argc, argv, i, is(a, NULL, "--jobs") ? "--jobs" : "-j")))
            return usage_error("%s needs a number", a);
        return parse_jobs(v, &c->o.jobs) ? usage_error("bad job count '%s'", v) : -1;
    }
    if (is(a, "-o", "--output")) {
        if (!(c->output = value(a, argc, argv, i, is(a, NULL, "--output") ? "--output" : "-o")))
            return usage_error("%s needs a file name", a);
        return -1;
    }
    if (is(a, NULL, "--format")) {
        if (!(v = value(a, argc, argv, i, "--format")))
            return usage_error("%s needs json, summary, adexp, view, csv, tsv or sqlite", a);
        if (strcmp(v, "json") == 0)
            return c->o.format = ADEXP_BATCH_JSON, -1;
        if (strcmp(v, "summary") == 0)
            return c->o.format = ADEXP_BATCH_SUMMARY, -1;
        if (strcmp(v, "adexp") == 0)
            return c->o.format = ADEXP_BATCH_ADEXP, -1;
        if (strcmp(v, "view") == 0)
            return c->o.format = ADEXP_BATCH_VIEW, -1;
        if (strcmp(v, "csv") == 0)
            return c->o.format = ADEXP_BATCH_CSV, -1;
        if (strcmp(v, "tsv") == 0)
            return c->o.format = ADEXP_BATCH_TSV, -1;
        if (strcmp(v, "sqlite") == 0)
            return c->o.format = ADEXP_BATCH_SQLITE, -1;
        return usage_error("unknown format '%s' (json, summary, adexp, view, csv, tsv or sqlite)",
                           v);
    }
    if (is(a, NULL, "--layout")) {
        if (!(v = value(a, argc, argv, i, "--layout")))
            return usage_error("%s needs line or ifps", a);
        if (strcmp(v, "line") == 0 || strcmp(v, "ifps") == 0)
            return set_layout(&c->o.adexp, v[0] == 'i'), c->layout = 1, -1;
        return usage_error("unknown layout '%s' (line or ifps)", v);
    }
    if (is(a, NULL, "--fields")) {
        if (!(c->fields = value(a, argc, argv, i, "--fields")))
            return usage_error("%s needs a list of fields", a);
        return -1;
    }
    if (is(a, NULL, "--rows")) {
        if (!(c->rows = value(a, argc, argv, i, "--rows")))
            return usage_error("%s needs a list keyword", a);
        return -1;
    }
    if (is(a, NULL, "--title")) {
        if (!(c->titles = value(a, argc, argv, i, "--title")))
            return usage_error("%s needs a list of titles", a);
        return -1;
    }
    if (is(a, NULL, "--files-from")) {
        if (!(c->files_from = value(a, argc, argv, i, "--files-from")))
            return usage_error("%s needs a file name", a);
        return -1;
    }
    if (is(a, NULL, "--include")) {
        if (!(c->includes[c->nincludes++] = value(a, argc, argv, i, "--include")))
            return usage_error("%s needs a pattern", a);
        return -1;
    }
    if (is(a, NULL, "--exclude")) {
        if (!(c->excludes[c->nexcludes++] = value(a, argc, argv, i, "--exclude")))
            return usage_error("%s needs a pattern", a);
        return -1;
    }
    if (strcmp(a, "-0") == 0 || strcmp(a, "--null") == 0)
        return c->list_nul = 1, -1;
    if (is(a, NULL, "--max-depth")) {
        if (!(v = value(a, argc, argv, i, "--max-depth")))
            return usage_error("%s needs a number", a);
        return parse_count(v, ADEXP_MAX_DEPTH_LIMIT, &c->o.parser.max_depth)
                   ? usage_error("bad depth '%s' (1 to 1024)", v) : -1;
    }
    if (is(a, NULL, "--max-fields")) {
        if (!(v = value(a, argc, argv, i, "--max-fields")))
            return usage_error("%s needs a number", a);
        return parse_count(v, UINT32_MAX, &c->o.parser.max_fields)
                   ? usage_error("bad field count '%s'", v) : -1;
    }
    if (is(a, NULL, "--max-list-items")) {
        if (!(v = value(a, argc, argv, i, "--max-list-items")))
            return usage_error("%s needs a number", a);
        return parse_count(v, UINT32_MAX, &c->o.parser.max_list_items)
                   ? usage_error("bad item count '%s'", v) : -1;
    }
    if (is(a, NULL, "--max-message-size")) {
        if (!(v = value(a, argc, argv, i, "--max-message-size")))
            return usage_error("%s needs a size", a);
        return parse_size(v, &c->o.parser.max_message_size)
                   ? usage_error("bad size '%s'", v) : -1;
    }
    if (is(a, NULL, "--flush-idle")) {
        uint32_t ms;
        if (!(v = value(a, argc, argv, i, "--flush-idle")))
            return usage_error("%s needs milliseconds", a);
        if (parse_count(v, 3600000, &ms))
            return usage_error("bad --flush-idle '%s' (1 to 3600000 ms)", v);
        return c->o.flush_idle_ms = ms, -1;
    }
    if (is(a, NULL, "--max-file-size")) {
        if (!(v = value(a, argc, argv, i, "--max-file-size")))
            return usage_error("%s needs a size", a);
        return parse_size(v, &c->o.max_file_size) ? usage_error("bad size '%s'", v) : -1;
    }
    if (is(a, NULL, "--envelope")) {
        if (!(v = value(a, argc, argv, i, "--envelope")))
            return usage_error("%s needs aftn or none", a);
        if (strcmp(v, "aftn") == 0)
            c->o.parser.envelope = ADEXP_ENVELOPE_AFTN;
        else if (strcmp(v, "none") == 0)
            c->o.parser.envelope = ADEXP_ENVELOPE_NONE;
        else
            return usage_error("bad envelope '%s' (aftn or none)", v);
        return -1;
    }
    if (is(a, NULL, "--color")) {
        if (!(v = value(a, argc, argv, i, "--color")))
            return usage_error("%s needs auto, always or never", a);
        if (strcmp(v, "auto") == 0)
            return c->color = -1, -1;
        if (strcmp(v, "always") == 0 || strcmp(v, "never") == 0)
            return c->color = v[0] == 'a', -1;
        return usage_error("unknown --color '%s' (auto, always or never)", v);
    }
    if (is(a, NULL, "--dictionary")) {
        if (!(v = value(a, argc, argv, i, "--dictionary")))
            return usage_error("%s needs a file name", a);
        return load_dictionary(c, v);
    }
    return usage_error("unknown option %s", a);
}

/* Short options run together (-qj2, -q0o out): each letter an option,
 * the first one that takes a value takes the rest, or the next argument. */
static int parse_cluster(cli *c, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    for (const char *p = a + 1; *p; p++) {
        char one[3] = {'-', *p, '\0'};
        if (*p != 'j' && *p != 'o') {
            int rc = strchr("qh0", *p) ? parse_option(c, one, argc, argv, i)
                                       : usage_error("unknown option %s", one);
            if (rc >= 0)
                return rc;
            continue;
        }
        if (!p[1])
            return parse_option(c, one, argc, argv, i);
        char *rest[2] = {one, (char *)p + 1};
        int k = 0;
        return parse_option(c, one, 2, rest, &k);
    }
    return -1;
}

static int parse_args(cli *c, int argc, char **argv)
{
    int only_paths = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!only_paths && strcmp(a, "--") == 0) {
            only_paths = 1;
        } else if (!only_paths && a[0] == '-' && a[1] != '\0') {
            int cluster = a[1] != '-' && a[2] != '\0' && a[1] != 'j' && a[1] != 'o';
            int rc = cluster ? parse_cluster(c, argc, argv, &i)
                             : parse_option(c, a, argc, argv, &i);
            if (rc >= 0)
                return rc;
        } else {
            c->paths[c->npaths++] = argv[i];
            c->stdin_paths += strcmp(a, "-") == 0;
        }
    }
    if (c->layout && c->o.format != ADEXP_BATCH_ADEXP)
        return usage_error("%s", "--layout needs --format adexp");
    if (c->adexp_envelope && c->o.format != ADEXP_BATCH_ADEXP)
        return usage_error("%s", "--adexp-envelope needs --format adexp");
    if (c->output && strcmp(c->output, "-") == 0)
        c->output = NULL;                /* -o -: standard output */
    if (c->o.format == ADEXP_BATCH_SQLITE && !c->output)
        return usage_error("%s", "--format sqlite needs -o FILE, the database "
                                 "(it is not written to standard output)");
    if (c->o.format == ADEXP_BATCH_SQLITE && c->fields)
        return usage_error("%s", "--fields is not for --format sqlite (its tables have "
                                 "fixed columns, doc/sqlite.md)");
    c->o.db_path = c->output;
    /* No PATH: standard input, as grep and jq do, unless it is a terminal
     * (then the user forgot the PATH). */
    if (c->npaths == 0 && !c->files_from && isatty(STDIN_FILENO))
        return usage_error("%s", "no PATH given (and standard input is a terminal)");
    if (c->npaths == 0 && !c->files_from)
        c->paths[c->npaths++] = "-", c->stdin_paths++;
    c->o.includes = c->includes;
    c->o.excludes = c->excludes;
    if (c->strict && !c->o.validate)
        return usage_error("%s", "--strict needs --validate");
    if (c->files_from && strcmp(c->files_from, "-") == 0 && c->stdin_paths)
        return usage_error("%s", "--files-from - and the path - both want standard input");
    if (c->list_nul && !c->files_from)
        return usage_error("%s", "-0 (--null) is for --files-from");
    int table = c->o.format == ADEXP_BATCH_CSV || c->o.format == ADEXP_BATCH_TSV;
    if (c->rows && !table)
        return usage_error("%s", "--rows needs --format csv or tsv");
    return -1;
}

/* Whether the output has one line per message written (the JSON lines,
 * the view, ADEXP a message a line): then its lines count messages. */
static int line_per_message(const cli *c)
{
    return c->o.format == ADEXP_BATCH_JSON || c->o.format == ADEXP_BATCH_VIEW ||
           c->o.format == ADEXP_BATCH_SQLITE ||
           (c->o.format == ADEXP_BATCH_ADEXP && c->o.adexp.layout == ADEXP_LAYOUT_LINE);
}

/* After a failed write: where the output stopped. */
static void print_stop(const cli *c, const adexp_batch_stats *s)
{
    uint64_t kept = s->messages - s->messages_left_out;
    if (c->o.format == ADEXP_BATCH_SQLITE) {   /* what its committed transactions hold */
        fprintf(stderr, "adexp-parse: %s: the run stopped: the database holds %llu messages "
                "of it; %llu parsed but not written, %llu inputs not read\n", c->output,
                (unsigned long long)s->messages_written,
                (unsigned long long)(kept > s->messages_written ? kept - s->messages_written
                                                                 : 0),
                (unsigned long long)s->inputs_not_read);
        return;
    }
    fprintf(stderr, "adexp-parse: %s: %s: output stopped after %llu %s "
            "(%llu bytes, ending at a complete line)",
            c->output ? c->output : "standard output", strerror(s->output_error),
            (unsigned long long)s->messages_written,
            line_per_message(c) ? "messages" : "lines",
            (unsigned long long)s->bytes_written);
    if (line_per_message(c))
        fprintf(stderr, "; %llu messages parsed but not written",
                (unsigned long long)(kept > s->messages_written ? kept - s->messages_written
                                                                 : 0));
    fprintf(stderr, ", %llu inputs not read\n", (unsigned long long)s->inputs_not_read);
}

/* "not matching --include A,B" and/or "matching --exclude C". */
static void print_filtered(const cli *c, uint64_t filtered)
{
    if (!c->nincludes && !c->nexcludes)
        return;
    fprintf(stderr, "adexp-parse: %llu files in directories", (unsigned long long)filtered);
    for (int i = 0; i < c->nincludes; i++)
        fprintf(stderr, "%s%s", i ? "," : " not matching --include ", c->includes[i]);
    for (int i = 0; i < c->nexcludes; i++)
        fprintf(stderr, "%s%s", i ? "," : c->nincludes ? " or matching --exclude "
                                                         : " matching --exclude ",
                c->excludes[i]);
    fputc('\n', stderr);
}

static void print_summary(const cli *c, const adexp_batch_stats *s)
{
    int validate = c->o.validate;
    const char *titles = c->titles;
    print_filtered(c, s->filtered);
    double el = s->elapsed > 1e-9 ? s->elapsed : 1e-9;
    char unwritten[64] = "";
    if (s->output_error)
        snprintf(unwritten, sizeof unwritten, ", %llu not written",
                 (unsigned long long)(s->messages > s->messages_written
                                          ? s->messages - s->messages_written : 0));
    fprintf(stderr,
            "adexp-parse: %llu files (%llu ok, %llu failed), %llu skipped, "
            "%llu messages (%llu failed%s), %.1f MB in %.3f s: %.1f MB/s, %.0f messages/s\n",
            (unsigned long long)s->files, (unsigned long long)s->files_ok,
            (unsigned long long)s->files_failed, (unsigned long long)s->skipped,
            (unsigned long long)s->messages, (unsigned long long)s->messages_failed,
            unwritten,
            (double)s->bytes / 1e6, s->elapsed, (double)s->bytes / 1e6 / el,
            (double)s->messages / el);
    if (validate)
        fprintf(stderr, "adexp-parse: %llu messages with warnings\n",
                (unsigned long long)s->messages_warned);
    if (titles)
        fprintf(stderr, "adexp-parse: %llu messages of titles %s written, %llu left out\n",
                (unsigned long long)(s->messages - s->messages_left_out), titles,
                (unsigned long long)s->messages_left_out);
    if (s->output_error)
        fputs("adexp-parse: the run failed: the output could not be written\n", stderr);
}

static int queue_inputs(cli *c, adexp_batch *b)
{
    if (c->files_from) {
        size_t line = 0;
        int err = adexp_batch_add_list_sep(b, c->files_from, c->list_nul, &line);
        if (err == EILSEQ) {
            fprintf(stderr, "adexp-parse: %s:%zu: NUL byte in a list of lines "
                    "(for find -print0, use -0)\n", c->files_from, line);
            return 2;
        }
        if (err) {
            fprintf(stderr, "adexp-parse: %s: %s\n", c->files_from, strerror(err));
            return 1;
        }
    }
    for (int i = 0; i < c->npaths; i++)
        if (adexp_batch_add_path(b, c->paths[i]) != 0) {
            fputs("adexp-parse: out of memory\n", stderr);
            return 1;
        }
    return 0;
}

/* The output must not be one of the inputs: checked before it is
 * truncated (it is opened without O_TRUNC) and before anything is read. */
static int check_output(cli *c, adexp_batch *b)
{
    const char *in = adexp_batch_find_input(b, c->o.out_fd);
    const char *dir = in ? NULL : adexp_batch_find_walked_input(b, c->o.out_fd);
    if (dir) {
        fprintf(stderr, "adexp-parse: the output %s is a file the walk of %s would "
                "parse: refused, nothing read or written\n",
                c->output ? c->output : "(standard output)", dir);
        return 2;
    }
    if (c->o.format == ADEXP_BATCH_SQLITE && !in)
        return 0;              /* a database is appended to, never truncated */
    return cli_claim_output("adexp-parse", c->o.out_fd, c->output, in);
}

/* The selection of --fields, --rows and --title, if any is given. */
static int make_select(cli *c, adexp_select **sel)
{
    *sel = NULL;
    if (!c->fields && !c->rows && !c->titles)
        return 0;
    char err[200];
    *sel = adexp_select_new(c->fields, c->rows, c->titles, err, sizeof err);
    if (!*sel)
        return usage_error("%s", err);
    if (adexp_select_check_names(*sel, c->dict, err, sizeof err) != 0) {
        adexp_select_free(*sel);
        *sel = NULL;
        return usage_error("%s", err);
    }
    c->o.select = *sel;
    return 0;
}

/* Titles are not in the dictionary: one no message had may be a typo. */
static void warn_unseen_titles(const adexp_select *sel)
{
    char unseen[256];
    size_t n = adexp_select_unseen_titles(sel, unseen, sizeof unseen);
    if (n)
        fprintf(stderr, "adexp-parse: warning: --title %s: no message of %s\n", unseen,
                n == 1 ? "this title" : "these titles");
}

static int run(cli *c)
{
    adexp_select *sel;
    int src = make_select(c, &sel);
    if (src)
        return src;
    int rc = run_select(c);
    if (rc <= 1)
        warn_unseen_titles(sel);
    adexp_select_free(sel);
    return rc;
}

static int run_select(cli *c)
{
    if (c->output) {
        if ((c->o.out_fd = cli_open_output("adexp-parse", c->output)) < 0)
            return 1;
    } else if (c->o.format != ADEXP_BATCH_SUMMARY && !cli_stdout_writable("adexp-parse")) {
        return 1;
    }
    c->o.progress_fd = !c->quiet && isatty(STDERR_FILENO) ? STDERR_FILENO : -1;
    c->o.color = c->color < 0 ? isatty(STDERR_FILENO) : c->color;
    adexp_batch *b = adexp_batch_new(&c->o);
    if (!b) {
        fputs("adexp-parse: out of memory\n", stderr);
        return 1;
    }
    adexp_batch_stats st;
    memset(&st, 0, sizeof st);
    int rc = queue_inputs(c, b);
    if (rc == 0)
        rc = check_output(c, b);
    if (rc == 0)
        rc = adexp_batch_run(b, &st);
    adexp_batch_free(b);
    if (rc < 0) {
        fputs("adexp-parse: out of memory, or the worker threads cannot be started\n", stderr);
        return 1;
    }
    if (c->output && close(c->o.out_fd) != 0 && !st.output_error)
        st.output_error = errno, rc = 1;
    if (rc <= 1 && st.output_error)
        print_stop(c, &st);
    if (!c->quiet && rc <= 1)
        print_summary(c, &st);
    if (rc == 0 && c->strict && st.messages_warned)
        rc = 1;
    return rc;
}

int main(int argc, char **argv)
{
    cli_guard_std_fds();
    cli c;
    memset(&c, 0, sizeof c);
    c.color = -1;
    c.o = adexp_batch_options_default();
    set_layout(&c.o.adexp, 0);
    c.paths = calloc((size_t)argc + 1, sizeof *c.paths);
    c.includes = calloc((size_t)argc + 1, sizeof *c.includes);
    c.excludes = calloc((size_t)argc + 1, sizeof *c.excludes);
    if (!c.paths || !c.includes || !c.excludes)
        return 1;
    int rc = parse_args(&c, argc, argv);
    if (rc < 0)
        rc = run(&c);
    free(c.paths);
    free(c.includes);
    free(c.excludes);
    adexp_dict_free(c.dict);
    return rc;
}

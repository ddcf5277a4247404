/* fuzz_write: adexp-write's input through adexp-write's steps (the JSON
 * line made readable, jansson, the builder by cli/json_msg.c, adexp_write
 * with verify on): no crash, leak, over-read, UB or hang on any line, and
 * a message written reads back as one message with the tree built.
 *
 * An input that starts with '{' is taken as JSON lines as they are; any
 * other is parsed as ADEXP (the option byte's limits) and each message
 * without error goes through adexp_json_write and back: the tree built
 * from its line is the parsed one (values folded, as JSON holds them),
 * and the writer refuses none of them; its envelope is the parsed one,
 * and written back in it (as adexp-write does) reads back the same. */
#include <jansson.h>

#include "fuzz_common.h"
#include "fuzz_envelope.h"
#include "json_msg.h"

typedef struct ctx {
    adexp_arena arena, back_arena;
    adexp_parser *back;
    adexp_buf out;
} ctx;

/* msg written (line layout, folded, verify: as adexp-write does; in its
 * envelope with envelope) reads back as one message with the same tree.
 * Returns the writer's status. */
static adexp_status write_back(ctx *c, const adexp_msg *msg, int envelope)
{
    adexp_write_options o = adexp_write_options_default();
    o.fold = 1;
    o.verify = 1;
    o.envelope = envelope;
    c->out.len = 0;
    adexp_write_error err;
    adexp_status st = adexp_write(&c->out, msg, &o, &err);
    if (st != ADEXP_OK) {
        FUZZ_CHECK(c->out.len == 0);
        return st;
    }
    adexp_parser_reset(c->back, c->out.data, c->out.len);
    adexp_msg b;
    adexp_arena_reset(&c->back_arena);
    FUZZ_CHECK(adexp_parser_next(c->back, &c->back_arena, &b) == ADEXP_OK);
    FUZZ_CHECK(adexp_tree_same(msg->fields, b.fields, ADEXP_SAME_FOLD, NULL));
    FUZZ_CHECK(envelope || !b.envelope.present);
    FUZZ_CHECK(adexp_parser_next(c->back, &c->back_arena, &b) == ADEXP_END);
    return ADEXP_OK;
}

/* One JSON line: built, or refused with a reason, into *msg. Returns 0
 * when built. */
static int build(ctx *c, const char *line, size_t len, adexp_msg *msg)
{
    size_t jlen;
    char *jline = json_msg_line(line, len, &jlen);
    FUZZ_CHECK(jline);
    json_error_t je;
    json_t *root = json_loadb(jline, jlen, JSON_ALLOW_NUL, &je);
    free(jline);
    if (!root)
        return -1;
    adexp_arena_reset(&c->arena);
    adexp_builder *b = adexp_builder_new(&c->arena);
    FUZZ_CHECK(b);
    char why[1024];
    why[0] = 0;
    int rc = json_msg_build(root, b, &c->arena, msg, why, sizeof why);
    FUZZ_CHECK(rc == 0 || (why[0] && memchr(why, 0, sizeof why)));
    json_decref(root);
    return rc;
}

static void json_lines(ctx *c, const char *buf, size_t size)
{
    for (size_t i = 0; i < size;) {
        const char *nl = memchr(buf + i, '\n', size - i);
        size_t end = nl ? (size_t)(nl - buf) : size;
        adexp_msg msg;
        if (build(c, buf + i, end - i, &msg) == 0) {
            write_back(c, &msg, 0);
            write_back(c, &msg, 1);
        }
        i = end + 1;
    }
}

static void adexp_messages(ctx *c, const char *buf, size_t size, const adexp_options *opt)
{
    adexp_parser *p = adexp_parser_new(opt, NULL);
    FUZZ_CHECK(p);
    adexp_arena parsed;
    adexp_arena_init(&parsed, NULL);
    adexp_buf line;
    adexp_buf_init(&line, NULL);
    adexp_parser_reset(p, buf, size);
    adexp_msg m, built;
    for (size_t n = 0; n <= size + 1 && adexp_parser_next(p, &parsed, &m) != ADEXP_END; n++) {
        if (m.nerrors_total == 0) {
            line.len = 0;
            FUZZ_CHECK(adexp_json_write(&line, &m, "fuzz") == ADEXP_OK);
            FUZZ_CHECK(build(c, line.data, line.len, &built) == 0);
            FUZZ_CHECK(adexp_tree_same(m.fields, built.fields, ADEXP_SAME_FOLD, NULL));
            fuzz_same_envelope(&m, &built);
            FUZZ_CHECK(write_back(c, &built, 0) == ADEXP_OK);
            /* in its envelope: a part the writer refuses (WRITE_VALUE) is
             * said so; one written reads back as the same envelope */
            adexp_msg b;
            if (write_back(c, &built, 1) == ADEXP_OK) {
                adexp_parser_reset(c->back, c->out.data, c->out.len);
                adexp_arena_reset(&c->back_arena);
                FUZZ_CHECK(adexp_parser_next(c->back, &c->back_arena, &b) == ADEXP_OK);
                fuzz_same_envelope(&m, &b);
            }
        }
        adexp_arena_reset(&parsed);
    }
    adexp_buf_free(&line);
    adexp_arena_free(&parsed);
    adexp_parser_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    adexp_options opt = fuzz_options(&data, &size);
    char *buf = fuzz_copy(data, size);
    ctx c;
    adexp_arena_init(&c.arena, NULL);
    adexp_arena_init(&c.back_arena, NULL);
    adexp_buf_init(&c.out, NULL);
    c.back = adexp_parser_new(NULL, NULL);
    FUZZ_CHECK(c.back);
    if (size && buf[0] == '{')
        json_lines(&c, buf, size);
    else
        adexp_messages(&c, buf, size, &opt);
    adexp_parser_free(c.back);
    adexp_buf_free(&c.out);
    adexp_arena_free(&c.arena);
    adexp_arena_free(&c.back_arena);
    free(buf);
    return 0;
}

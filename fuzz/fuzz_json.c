/* fuzz_json: for any input, each line the JSON writer produces is one valid
 * JSON text (RFC 8259, checked by json_check.c) and valid UTF-8, ends with
 * its only '\n', and is an object with the message's index. The source name
 * is taken from the input too, so that it gets escaped as well. A copy of
 * each message (adexp_msg_copy, as the batch driver hands messages out)
 * writes the same JSON and view, its input's bytes overwritten. */
#include "fuzz_common.h"
#include "json_check.h"

/* The copy of m writes what m writes, with the bytes m was parsed from
 * garbled meanwhile (they are put back after). */
static void check_copy(const adexp_msg *m, char *buf, size_t size, const adexp_buf *json,
                       const char *source)
{
    adexp_arena keep;
    adexp_arena_init(&keep, NULL);
    adexp_msg c;
    adexp_buf view, again;
    adexp_buf_init(&view, NULL);
    adexp_buf_init(&again, NULL);
    FUZZ_CHECK(adexp_view_json_write(&view, m, source, NULL) == ADEXP_OK);
    if (adexp_msg_copy(m, &keep, &c) == ADEXP_OK) {
        char *saved = fuzz_copy((const uint8_t *)buf, size);
        memset(buf, '#', size);
        FUZZ_CHECK(adexp_json_write(&again, &c, source) == ADEXP_OK);
        FUZZ_CHECK(again.len == json->len && memcmp(again.data, json->data, json->len) == 0);
        again.len = 0;
        FUZZ_CHECK(adexp_view_json_write(&again, &c, source, NULL) == ADEXP_OK);
        FUZZ_CHECK(again.len == view.len && memcmp(again.data, view.data, view.len) == 0);
        memcpy(buf, saved, size);
        free(saved);
    }
    adexp_buf_free(&view);
    adexp_buf_free(&again);
    adexp_arena_free(&keep);
}

static int contains(const char *h, size_t hn, const char *n, size_t nn)
{
    for (size_t i = 0; i + nn <= hn; i++)
        if (memcmp(h + i, n, nn) == 0)
            return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    adexp_options o = fuzz_options(&data, &size);
    char *buf = fuzz_copy(data, size);
    char source[17];
    size_t ns = size < 16 ? size : 16;
    for (size_t i = 0; i < ns; i++)
        source[i] = buf[i] ? buf[i] : '?';
    source[ns] = 0;

    adexp_parser *p = adexp_parser_new(&o, NULL);
    FUZZ_CHECK(p != NULL);
    adexp_arena arena;
    adexp_arena_init(&arena, NULL);
    adexp_buf out;
    adexp_buf_init(&out, NULL);
    adexp_parser_reset(p, buf, size);
    adexp_msg m;
    size_t count = 0;
    while (adexp_parser_next(p, &arena, &m) != ADEXP_END) {
        FUZZ_CHECK(++count <= size + 1);    /* each message consumes input */
        out.len = 0;
        FUZZ_CHECK(adexp_json_write(&out, &m, source) == ADEXP_OK);
        size_t err = 0;
        FUZZ_CHECK(out.len >= 2 && out.data[out.len - 1] == '\n');
        FUZZ_CHECK(memchr(out.data, '\n', out.len - 1) == NULL);
        if (!json_check(out.data, out.len - 1, &err) || !utf8_check(out.data, out.len, &err)) {
            fprintf(stderr, "bad JSON at byte %zu of: %.*s\n", err, (int)out.len, out.data);
            abort();
        }
        FUZZ_CHECK(out.data[0] == '{');
        char want[48];
        int k = snprintf(want, sizeof want, ",\"index\":%zu,", m.index);
        FUZZ_CHECK(k > 0 && contains(out.data, out.len, want, (size_t)k));
        check_copy(&m, buf, size, &out, source);
        adexp_arena_reset(&arena);
    }
    adexp_buf_free(&out);
    adexp_parser_free(p);
    adexp_arena_free(&arena);
    free(buf);
    return 0;
}

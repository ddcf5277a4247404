/* The parser's public calls: a parser over one input, read one message at a
 * time into the caller's arena, with its errors kept beside it. How a
 * message is read is said in parse_state.h (the rooms) and grammar.h (the
 * rules). */
#include "build.h"
#include "grammar.h"

adexp_options adexp_options_default(void)
{
    adexp_options o = {
        .max_depth = ADEXP_DEFAULT_MAX_DEPTH,
        .max_fields = ADEXP_DEFAULT_MAX_FIELDS,
        .max_list_items = ADEXP_DEFAULT_MAX_LIST_ITEMS,
        .max_keyword_len = ADEXP_DEFAULT_MAX_KEYWORD_LEN,
        .max_errors = ADEXP_DEFAULT_MAX_ERRORS,
        .max_message_size = ADEXP_DEFAULT_MAX_MESSAGE_SIZE,
    };
    return o;
}

adexp_parser *adexp_parser_new(const adexp_options *opts, const adexp_allocator *hooks)
{
    adexp_allocator a = hooks ? *hooks : adexp_default_allocator();
    adexp_options o = opts ? *opts : adexp_options_default();
    if (o.max_depth > ADEXP_MAX_DEPTH_LIMIT)
        o.max_depth = ADEXP_MAX_DEPTH_LIMIT;
    if (o.max_errors == 0)
        o.max_errors = 1;
    adexp_parser *p = a.alloc(a.ctx, sizeof *p);
    if (!p)
        return NULL;
    memset(p, 0, sizeof *p);
    p->errors = a.alloc(a.ctx, (o.max_errors + STOP_SLOTS) * sizeof *p->errors);
    if (!p->errors) {
        a.free(a.ctx, p, sizeof *p);
        return NULL;
    }
    p->opt = o;
    p->a = a;
#if RUN_FUSED
    p->fused = cpu_has_avx2() && o.max_keyword_len >= 8 && !o.dictionary;
#endif
    adexp_parser_reset(p, NULL, 0);
    return p;
}

void adexp_parser_free(adexp_parser *p)
{
    if (!p)
        return;
    p->a.free(p->a.ctx, p->errors, (p->opt.max_errors + STOP_SLOTS) * sizeof *p->errors);
    p->a.free(p->a.ctx, p, sizeof *p);
}

/* -BEGIN X / -END X: the name is the value's one word of A-Z0-9. */
void list_bracket(ftok *f, ftok_kind kind)
{
    size_t n = 0;
    while (n < f->value.len && is_alnum((unsigned char)f->value.ptr[n]))
        n++;
    if (n == 0) {
        f->kind = FT_ERROR;
        f->code = ADEXP_E_BEGIN_NO_NAME;
        return;
    }
    f->kind = kind;
    if (n < f->value.len)
        f->code = ADEXP_E_BEGIN_NO_NAME;
    f->keyword.ptr = f->value.ptr;
    f->keyword.len = n;
    f->entry = lexer_lookup(f->value.ptr, n);
}

void adexp_parser_reset(adexp_parser *p, const char *buf, size_t len)
{
    p->buf = buf;
    p->len = buf ? len : 0;
    p->index = 0;
    lexer_init(&p->lx, buf, p->len, p->opt.max_keyword_len);
    p->lc = lines_cursor_at(p->lx.pos);                /* after a byte order mark */
    lexer_use_dictionary(&p->lx, p->opt.dictionary);
#if RUN_FUSED
    if (p->fused) {
        p->lx.batch = FUSED_BATCH;
        lexer_start(&p->lx);
    }
#endif
    advance(p);
}

/* Resume at the next -TITLE: the current token, or one further on. */
static void skip_to_title(adexp_parser *p)
{
    if (p->tok->kind == FT_FIELD && is_entry(p->tok->entry, DICT_ID_TITLE))
        return;
    lexer_skip_to_title(&p->lx);
    advance(p);
}

/* Keep the errors with the message: copy them into the arena, never leaving
 * msg->errors in the parser's scratch array (which the next call, or
 * adexp_parser_free, would take from under it). With no memory for them,
 * the message holds one NOMEM error at its start, in msg->lost
 * (nerrors_total still counts them all). */
static void keep_errors(adexp_parser *p, adexp_msg *msg)
{
    if (msg->nerrors == 0)
        return;
    adexp_error *e = adexp_arena_alloc(p->arena, msg->nerrors * sizeof *e);
    if (!e) {
        error_at(p, &msg->lost, ADEXP_E_NOMEM, msg->offset);
        msg->errors = &msg->lost;
        msg->nerrors = 1;
        msg->nerrors_total++;
        return;
    }
    memcpy(e, p->errors, msg->nerrors * sizeof *e);
    msg->errors = e;
}


/* Zero the message (over 800 bytes) with the C library's memset: for a memset of
 * a known size this large gcc emits a rep stos, which starts slowly on AMD
 * CPUs and took 5% of a message's parse. The empty asm hides the size. */
static void clear_msg(adexp_msg *msg)
{
    size_t n = sizeof *msg;
#if defined(__GNUC__)
    __asm__("" : "+r"(n));
#endif
    memset(msg, 0, n);
}

adexp_status adexp_parser_next(adexp_parser *p, adexp_arena *arena, adexp_msg *msg)
{
    clear_msg(msg);
    if (p->tok->kind == FT_EOF)
        return ADEXP_END;
    p->arena = arena;
    p->msg = msg;
    p->fatal = 0;
    msg->index = p->index++;
    msg->offset = p->tok->offset;
    if (p->tok->kind == FT_FIELD && is_entry(p->tok->entry, DICT_ID_TITLE)) {
        frame root = {.kind = FR_ROOT, .tail = &msg->fields, .max_items = UINT32_MAX,
                      .holds = frame_row(FR_ROOT, NULL)};
        parse_body(p, &root);
        if (p->fatal) {
            /* stopped on its own -TITLE (a title past max_message_size,
             * max_fields 0): step over it, or the next call would parse
             * the same message again, forever */
            if (p->tok->offset == msg->offset)
                advance(p);
            skip_to_title(p);
        }
    } else {
        record_error(p, ADEXP_E_NO_TITLE, p->tok->offset);
        skip_to_title(p);
    }
    size_t end = p->tok->offset;
    while (end > msg->offset && is_sep((unsigned char)p->buf[end - 1]))
        end--;
    msg->length = end - msg->offset;
    if (p->opt.view_title_only)
        adexp_view_title(msg);
    else if (!adexp_view_build(msg, arena))
        record_stop(p, ADEXP_E_NOMEM, msg->offset);   /* the view is not whole */
    keep_errors(p, msg);
    p->msg = NULL;
    return msg->nerrors ? msg->errors[0].code : ADEXP_OK;
}

adexp_status adexp_parse(const char *buf, size_t len, adexp_arena *arena, adexp_msg *msg)
{
    adexp_parser *p = adexp_parser_new(NULL, &arena->a);
    if (!p) {
        memset(msg, 0, sizeof *msg);
        return ADEXP_E_NOMEM;
    }
    adexp_parser_reset(p, buf, len);
    adexp_status st = adexp_parser_next(p, arena, msg);
    adexp_parser_free(p);              /* msg->errors is not the parser's */
    return st;
}

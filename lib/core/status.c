/* Names and messages of the status codes. */
#include "adexp.h"

static const struct {
    const char *name;
    const char *message;
} status_text[ADEXP_STATUS_COUNT] = {
    [ADEXP_OK] = {"OK", "no error"},
    [ADEXP_END] = {"END", "no more messages"},
    [ADEXP_E_NOMEM] = {"NOMEM", "out of memory"},
    [ADEXP_E_NO_TITLE] = {"NO_TITLE", "message does not start with -TITLE"},
    [ADEXP_E_NO_KEYWORD] = {"NO_KEYWORD", "'-' is not followed by a keyword"},
    [ADEXP_E_BEGIN_NO_NAME] = {"BEGIN_NO_NAME", "-BEGIN or -END needs one list name"},
    [ADEXP_E_END_MISMATCH] = {"END_MISMATCH", "-END names a list other than the innermost open one"},
    [ADEXP_E_END_WITHOUT_BEGIN] = {"END_WITHOUT_BEGIN", "-END without a matching -BEGIN"},
    [ADEXP_E_LIST_UNCLOSED] = {"LIST_UNCLOSED", "-BEGIN without a matching -END"},
    [ADEXP_E_TEXT_UNCLOSED] = {"TEXT_UNCLOSED", "'(' of an ICAO text field is never closed"},
    [ADEXP_E_DEPTH_LIMIT] = {"DEPTH_LIMIT", "fields nested deeper than max_depth"},
    [ADEXP_E_FIELD_LIMIT] = {"FIELD_LIMIT", "message has more than max_fields fields"},
    [ADEXP_E_LIST_LIMIT] = {"LIST_LIMIT", "list has more than max_list_items items"},
    [ADEXP_E_SIZE_LIMIT] = {"SIZE_LIMIT", "message is longer than max_message_size bytes"},
    [ADEXP_E_KEYWORD_LIMIT] = {"KEYWORD_LIMIT", "keyword is longer than max_keyword_len bytes"},
    [ADEXP_E_WRITE_KEYWORD] = {"WRITE_KEYWORD", "keyword is empty, not A-Z0-9, or BEGIN or END as a field"},
    [ADEXP_E_WRITE_VALUE] = {"WRITE_VALUE", "value would not read back as itself"},
    [ADEXP_E_WRITE_SHAPE] = {"WRITE_SHAPE", "the written text reads back as another tree"},
    [ADEXP_E_BUILD_ORDER] = {"BUILD_ORDER", "builder call out of order"},
    [ADEXP_E_NUL_BYTE] = {"NUL_BYTE", "NUL byte inside the message"},
    [ADEXP_E_ENVELOPE] = {"ENVELOPE", "AFTN envelope garbled or not ended (ZCZC ... NNNN)"},
};

const char *adexp_status_name(adexp_status s)
{
    return (unsigned)s < ADEXP_STATUS_COUNT ? status_text[s].name : "UNKNOWN";
}

const char *adexp_status_message(adexp_status s)
{
    return (unsigned)s < ADEXP_STATUS_COUNT ? status_text[s].message : "unknown status";
}

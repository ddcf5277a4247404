/* Reserving room in an output buffer. Not installed. */
#ifndef ADEXP_OUT_ROOM_H
#define ADEXP_OUT_ROOM_H

#include "adexp.h"

/* A pointer to n free bytes at b->data + b->len (len unchanged), or NULL
 * when out of memory (b unchanged). May move b->data. */
char *adexp__buf_room(adexp_buf *b, size_t n);

#endif

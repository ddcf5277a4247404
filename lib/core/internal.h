/* Declarations shared inside the library, not exported. */
#ifndef ADEXP_INTERNAL_H
#define ADEXP_INTERNAL_H

#include "adexp.h"

/* malloc and free behind the adexp_allocator interface. */
adexp_allocator adexp_default_allocator(void);

/* Fill msg->view from msg->fields. Returns 0 if the arena ran out. */
int adexp_view_build(adexp_msg *msg, adexp_arena *arena);
/* msg->view.title alone, as adexp_view_build sets it. */
void adexp_view_title(adexp_msg *msg);

#endif

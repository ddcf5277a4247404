/* Declarations shared inside the library, not exported. */
#ifndef ADEXP_INTERNAL_H
#define ADEXP_INTERNAL_H

#include "adexp.h"

/* malloc and free behind the adexp_allocator interface. */
adexp_allocator adexp_default_allocator(void);

/* adexp_decode_coord's degrees in millionths, rounded to the nearest, in
 * integers: the companions' _deg. */
int adexp_decode_coord_micro(adexp_slice s, long *micro);

/* Fill msg->view from msg->fields. Returns 0 if the arena ran out. */
int adexp_view_build(adexp_msg *msg, adexp_arena *arena);
/* msg->view.title alone, as adexp_view_build sets it. */
void adexp_view_title(adexp_msg *msg);

/* The view's arrays, by the kind of top-level field that fills them. */
enum { VIEW_EETFIR = 1, VIEW_SPEED, VIEW_REGUL, VIEW_ESTDATA, VIEW_GEO, VIEW_ADDR, VIEW_RTEPTS,
       VIEW_KINDS };

/* The top-level fields of the view's repeated kinds, as adexp_view_walk
 * finds them: the first VIEW_REPEATS are kept, each kind's chained in
 * list order from head[kind] by next (VIEW_END ends a chain); past that
 * many, the others are found again from first on. And the rest, the
 * fields the view does not hold (of no member's keyword, or a single
 * member's after its first): the first VIEW_REST of them, in list order;
 * past that many, adexp_view_rest finds them all. */
#define VIEW_REPEATS 64
#define VIEW_END 0xFF
#define VIEW_REST 64
typedef struct adexp_view_fields {
    const adexp_field *first;  /* the first of them, or NULL */
    size_t n;                  /* their count */
    unsigned kinds;            /* bit k: a field of kind k is there */
    const adexp_field *rep[VIEW_REPEATS];
    unsigned char head[VIEW_KINDS], next[VIEW_REPEATS];   /* read where kinds has k */
    size_t nrest;              /* the count of the rest */
    const adexp_field *rest[VIEW_REST];
    uint64_t singles;          /* the single fields met: VIEW_SINGLE_BIT */
} adexp_view_fields;

/* The bit of r->singles for the view's single field at byte offset off
 * in adexp_view (title to altnz): set where that field was met, so that
 * its slice was written. */
#define VIEW_SINGLE_SHIFT 4
#define VIEW_SINGLE_BIT(off) ((uint64_t)1 << (VIEW_SINGLE_SHIFT + (off) / 8))

/* The view's single fields of the top-level list fields into v, and its
 * repeated fields and the rest into r. Of v, the walk reads its has_
 * counts, zero on entry, and a single field's slice only once it has
 * written it: the slices to altnz need be zero on entry only where they
 * are read without r->singles. REFDATA's, MSGREF's, COORDATA's and CFL's
 * parts are set whole where their counts are not zero. What
 * adexp_view_build fills msg->view from, and what the view's writer reads
 * without the arrays. */
void adexp_view_walk(adexp_view *v, const adexp_field *fields, adexp_view_fields *r);
/* The rest of fields (as adexp_view_walk counts them: r->nrest) into v. */
void adexp_view_rest(const adexp_field *fields, const adexp_field **v);
/* The kind of top-level field f (0: none of the arrays'). */
unsigned adexp_view_kind(const adexp_field *f);
/* A route point from its -PT item, an ESTDATA or a GEO from its field, as
 * the view's arrays hold them. */
void adexp_view_point(adexp_point *pt, const adexp_field *item);
void adexp_view_estdata(adexp_estdata *e, const adexp_field *f);
void adexp_view_geo(adexp_geo *g, const adexp_field *f);

#endif

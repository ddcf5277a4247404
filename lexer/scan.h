/* The lexer's fast field scan: the keyword tables and the 32-byte AVX2 step
 * that reads the common field (a hot keyword with a short basic value). It
 * is shared by the lexer's field loop and the parser's runs, which read such
 * fields straight from the input when the lexer's batch is used up (see
 * run_fused in parser/fast/fused.c), so both take exactly the same fields. */
#ifndef ADEXP_LEXER_SCAN_H
#define ADEXP_LEXER_SCAN_H

#include <stdint.h>
#include <string.h>

#include "dict.h"
#include "lexer.h"
#include "simd.h"

/* The word-at-a-time scans (find_dash, the keyword in lex_dash) need GNU C
 * on a little-endian target; ADEXP_LEXER_SCALAR turns them off, and
 * parser/ref/ref_lexer_test.c checks that both builds give the same tokens. */
#if !defined(ADEXP_LEXER_SCALAR) && defined(__GNUC__) && defined(__BYTE_ORDER__) &&     \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FAST_SCAN 1
#else
#define FAST_SCAN 0
#endif

/* 16 bytes at a time with SSE2 (always there on x86-64): a basic value's
 * start, end and trim from one load. Off with ADEXP_LEXER_SCALAR too. */
#if FAST_SCAN && SIMD_SSE2
#define SSE2_SCAN 1
#else
#define SSE2_SCAN 0
#endif

/* 32 bytes at a time with AVX2 where the CPU has it (checked at run time):
 * the same fields as the SSE2 loop, for fewer instructions. Off with
 * ADEXP_LEXER_SCALAR or ADEXP_LEXER_NO_AVX2 (parser/ref/ref_lexer_test.c checks
 * all three builds give the same tokens). */
#if SSE2_SCAN && SIMD_AVX2 && !defined(ADEXP_LEXER_NO_AVX2)
#define AVX2_SCAN 1
#else
#define AVX2_SCAN 0
#endif

/* A keyword of at most 8 bytes packed first byte lowest. */
#define PACK8(a, b, c, d, e, f, g, h)                                          \
    ((uint64_t)(a) | (uint64_t)(b) << 8 | (uint64_t)(c) << 16 |                \
     (uint64_t)(d) << 24 | (uint64_t)(e) << 32 | (uint64_t)(f) << 40 |         \
     (uint64_t)(g) << 48 | (uint64_t)(h) << 56)

/* The hot keywords in a 512-slot table indexed by a multiplicative hash of
 * the packed keyword: one multiply, one load and one compare, where a switch
 * on the keys took about 24 instructions (a tree of compares). HOT_MUL was
 * found by trying random odd multipliers until the 133 keys fell in distinct
 * slots (about 180 million tries; in 256 slots, far more than could be
 * tried); a collision would be a duplicate designated initializer, which
 * lexer.c makes a compile error.
 * Empty slots hold key 0, which no keyword (at least one byte) packs to. */
#define HOT_SLOTS 512
#define HOT_MUL 0xc4978bac69ac4bfdu
#define HOT_SLOT(key) ((unsigned)(((uint64_t)(key) * HOT_MUL) >> 55))

typedef struct hot_slot {
    uint64_t key;
    const dict_entry *entry;
    uint32_t len;              /* the keyword's, so no load of the entry */
    uint32_t id;               /* the entry's dict_id */
} hot_slot;

extern const hot_slot lexer_hot_table[HOT_SLOTS];

/* The hot keyword of length k (1 to 8) packed in key, or NULL. Its bytes
 * need no class test: a hot-table hit of the right length means they are a
 * keyword's letters (the length rules out NUL bytes, which the packed keys
 * are padded with). */
static inline const dict_entry *hot_hit(uint64_t key, unsigned k)
{
    const hot_slot *hs = &lexer_hot_table[HOT_SLOT(key)];
    return hs->key == key && hs->len == k ? hs->entry : NULL;
}

#if AVX2_SCAN
/* The separators (space, TAB, LF, VT, FF, CR) among the 32 bytes of x, as a byte
 * mask: one byte shuffle, as a byte is a separator if it equals the entry
 * of its low nibble in this table. */
__attribute__((target(AVX2_TARGET), always_inline)) static inline __m256i
avx2_sep_bytes(__m256i x)
{
    const __m256i seps = _mm256_setr_epi8(' ', 0, 0, 0, 0, 0, 0, 0, 0, '\t', '\n', '\v',
                                          '\f', '\r', 0, 0, ' ', 0, 0, 0, 0, 0, 0, 0, 0,
                                          '\t', '\n', '\v', '\f', '\r', 0, 0);
    return _mm256_cmpeq_epi8(_mm256_shuffle_epi8(seps, x), x);
}

/* The same as a bit mask. */
__attribute__((target(AVX2_TARGET), always_inline)) static inline uint32_t
avx2_sep_mask(__m256i x)
{
    return (uint32_t)_mm256_movemask_epi8(avx2_sep_bytes(x));
}

/* The bytes equal to c among the 32 bytes of x, as a bit mask. */
__attribute__((target(AVX2_TARGET), always_inline)) static inline uint32_t
avx2_byte_mask(__m256i x, char c)
{
    return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, _mm256_set1_epi8(c)));
}

/* One past the highest set bit of v (not 0): a bsr and an add, where
 * 64 - clz makes gcc add an xor and a subtraction. */
static inline unsigned past_top_bit(uint64_t v)
{
    return (unsigned)(63 ^ __builtin_clzll(v)) + 1;
}

/* The common field scanned by scan_field_avx2: keyword of k bytes after the
 * '-', value from st to end (offsets from the keyword's first byte), next
 * '-' at de from there; e the keyword's entry, id its dict_id. */
typedef struct field_scan {
    unsigned k, st, end, de, id;
    const dict_entry *e;
} field_scan;

/* The longest value the scan follows past its first 32 bytes; longer ones
 * are left to the lexer's general field state. */
#define SCAN_LONG_MAX 4096

/* scan_field_avx2 for a value that goes on past the first 32 bytes (no '-'
 * there; sep is their separator mask, k the keyword's length, hs its slot):
 * on 32 bytes at a time to the next '-', while avail (bytes readable from p)
 * and SCAN_LONG_MAX allow, keeping the last byte that is no separator. With
 * to_end, the avail bytes are all the input has left: the last of them (at
 * most 32) are read from a copy with a '-' after them, so that a value that
 * runs to the input's end ends there, as the lexer ends it. */
__attribute__((target(AVX2_TARGET), noinline)) static int
scan_long_value(const char *p, size_t avail, int to_end, uint32_t sep, unsigned k,
                const hot_slot *hs, field_scan *fs)
{
    uint32_t nsep = ~sep & ~0u << k;          /* the value's bytes in the window */
    if (!nsep)
        return 0;                             /* starts further on: rare */
    unsigned st = _tzcnt_u32(nsep), end = 32 - (unsigned)__builtin_clz(nsep);
    for (size_t off = 32; off < SCAN_LONG_MAX; off += 32) {
        __m256i x;
        if (avail - off >= 32) {
            x = _mm256_loadu_si256((const __m256i *)(const void *)(p + off));
        } else if (to_end) {
            char last[32] = {0};
            memcpy(last, p + off, avail - off);
            last[avail - off] = '-';
            x = _mm256_loadu_si256((const __m256i *)(const void *)last);
        } else {
            return 0;
        }
        uint32_t ns = ~avx2_sep_mask(x), dm = avx2_byte_mask(x, '-');
        if (dm) {
            unsigned d = _tzcnt_u32(dm);
            ns = _bzhi_u32(ns, d);            /* before the '-' */
            if (ns)
                end = (unsigned)off + 32 - (unsigned)__builtin_clz(ns);
            fs->k = k;
            fs->st = st;
            fs->end = end;
            fs->de = (unsigned)off + d;
            fs->id = hs->id;
            fs->e = hs->entry;
            return 1;
        }
        if (ns)
            end = (unsigned)off + 32 - (unsigned)__builtin_clz(ns);
    }
    return 0;
}

/* The value of a field whose keyword of k bytes is followed by a separator
 * or '-' and whose next '-' is among the 32 bytes from the keyword's start
 * (dm, not 0; sep their separators), its value's first byte at st (the
 * first that is no separator from k on): fs's k, st, end and de. */
__attribute__((target(AVX2_TARGET), always_inline)) static inline void
scan_short_value(uint32_t sep, uint32_t dm, unsigned k, unsigned st, field_scan *fs)
{
    /* the value's end, the next '-', is the first '-' of all: none is in
     * the keyword, nor between it and st (separators); so the next field's
     * position waits on one compare, not on k and st */
    unsigned de = (unsigned)_tzcnt_u64(dm);
    /* one past the last byte before the '-' that is no separator: the
     * keyword's bytes are none, so there is one; if it is the keyword's,
     * the value is empty and ends where it starts */
    unsigned last = past_top_bit(_bzhi_u64(~(uint64_t)sep, de));
    fs->k = k;
    fs->st = st;
    fs->end = last > st ? last : st;
    fs->de = de;
}

/* The field whose keyword starts at p, if it is the common kind: a hot
 * keyword of 1 to kmax (at most 8) bytes right after the '-', ended by a
 * separator or '-', with a basic value and the next '-' before end (at
 * least 32 bytes after p, all readable), and within SCAN_LONG_MAX.
 * One 32-byte load for a field that fits in it, bit fields cut with BMI1
 * and BMI2 (which every CPU with AVX2 has, but callers check at run time).
 * The end, not the bytes left, is the argument: it is the same for every
 * field, so the loops calling this keep no count of bytes left per field.
 * With to_end, end is the input's end, and a value may run to it (see
 * scan_long_value). Returns 0 (fs unset) for any other field. */
__attribute__((target(AVX2_TARGET), always_inline)) static inline int
scan_field_at(const char *p, const char *end, unsigned kmax, int to_end, field_scan *fs)
{
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
    uint32_t sep = avx2_sep_mask(x), dm = avx2_byte_mask(x, '-');
    unsigned k = _tzcnt_u32(sep | dm);                                /* 32 if none */
    if (k - 1 >= kmax)
        return 0;
    uint64_t key = _bzhi_u64((uint64_t)_mm256_extract_epi64(x, 0), 8 * k);
    const hot_slot *hs = &lexer_hot_table[HOT_SLOT(key)];
    unsigned st = k + (unsigned)_tzcnt_u64(~(uint64_t)sep >> k);    /* <= 32 */
    if (hs->key != key || hs->len != k)
        return 0;
    if (!dm) {
        /* through a copy, so that fs, when the caller's local, does not
         * escape to this call and can live in registers */
        field_scan t;
        if (!scan_long_value(p, (size_t)(end - p), to_end, sep, k, hs, &t))
            return 0;
        *fs = t;
        return 1;
    }
    scan_short_value(sep, dm, k, st, fs);
    fs->id = hs->id;
    fs->e = hs->entry;
    return 1;
}

/* scan_field_at for a value that must end at a '-' before end. */
__attribute__((target(AVX2_TARGET), always_inline)) static inline int
scan_field_avx2(const char *p, const char *end, unsigned kmax, field_scan *fs)
{
    return scan_field_at(p, end, kmax, 0, fs);
}

/* Drop the batch and go on at the field whose '-' is at dash: for a reader
 * that has taken the fields up to there itself (scan_field_avx2), after a
 * batch that ended at_dash. x: that field as the scan took it, which the
 * reader leaves to the lexer: it becomes the batch's one token. NULL: the
 * scan did not take it or was not tried. dash (NULL) or the field's end (x)
 * may be the input's end. */
void lexer_resume(lexer *lx, size_t dash, const field_scan *x);

/* At the input's start, with a batch of one: if the input begins (after
 * separators) with a field the scan takes, and more than 32 bytes from its
 * '-', that field is the batch's token, as lex_between and lex_dash would
 * make it; else nothing changes. It saves a message its first trip through
 * the states. For CPUs with AVX2, BMI1 and BMI2. */
void lexer_start(lexer *lx);
#endif

#endif

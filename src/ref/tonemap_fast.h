/* The fast CPU tone mapping: the reference's analysis and apply (tonemap_cpu.c) on several
 * threads, with loops the compiler vectorises and the display encoding from tables instead of
 * pow, giving the reference's results exactly: the same tonemap_result (every field) and the
 * same bytes. tests/unit/test_tonemap_fast.c holds it to the reference. */
#ifndef HT_TONEMAP_FAST_H
#define HT_TONEMAP_FAST_H

#include <stdbool.h>
#include <stdint.h>

#include "tonemap.h"

/* The number of threads a THREADS argument below means: THREADS when > 0, else one per
 * online CPU; at most PARALLEL_MAX_WORKERS. */
int tonemap_fast_threads(int threads);

/* The next of COUNT items from the shared counter NEXT (start at 0) into *ITEM; false when
 * none is left. The workers of a parallel_run (parallel.h) share their work so. */
bool tonemap_fast_take(_Atomic size_t *next, size_t count, size_t *item);

/* tonemap_cpu_analyze on THREADS threads (tonemap_fast_threads). With P's human-vision
 * options (human_requested) it is the reference itself. */
void tonemap_fast_analyze(const hdr_image *img, const tonemap_params *p, tonemap_result *r,
                          int threads);

/* tonemap_cpu_apply (RGB8) and tonemap_cpu_apply16 (RGB16) on THREADS threads; RGB8 with P's
 * human-vision options is the reference itself. */
void tonemap_fast_apply(const hdr_image *img, const tonemap_params *p, const tonemap_result *r,
                        uint8_t *rgb, int threads);
void tonemap_fast_apply16(const hdr_image *img, const tonemap_params *p,
                          const tonemap_result *r, uint16_t *rgb, int threads);

/* The display encoding of P rounded to LEVELS + 1 codes, (unsigned)(tonemap_encode_unit(V) *
 * LEVELS + 0.5), as a table: thresh[k] is the smallest double V whose code is >= k
 * (k = 1..LEVELS; thresh[LEVELS + 1] = +infinity), and lut, over the doubles V in
 * [thresh[1], 1), the code of the first double of V's cell (cells: the doubles that share
 * their top 64 - SHIFT bits, numbered from BASE; small enough that most hold one threshold at
 * most). It relies on the encoding being
 * non-decreasing in V, which the tests check at every threshold. */
typedef struct tonemap_encode_table {
    unsigned levels;       /* 255 or 65535 */
    double *thresh;        /* levels + 2 */
    uint16_t *lut;
    uint64_t base;         /* the cell of thresh[1] */
    int shift;
    size_t cells;
} tonemap_encode_table;

/* Builds the table of P's encoding with LEVELS (255 or 65535) on THREADS threads; false when
 * out of memory. tonemap_encode_table_free frees it (a zeroed table too). */
bool tonemap_encode_table_init(tonemap_encode_table *t, const tonemap_params *p,
                               unsigned levels, int threads);
void tonemap_encode_table_free(tonemap_encode_table *t);

/* The code of V (any double, NaN included) in table T. */
static inline unsigned tonemap_encode_table_code(const tonemap_encode_table *t, double v)
{
    if (!(v >= t->thresh[1]))
        return 0;
    if (v >= 1.0)
        return t->levels;
    union { double d; uint64_t u; } bits = {v};
    unsigned code = t->lut[(bits.u >> t->shift) - t->base];
    code += v >= t->thresh[code + 1];   /* without a branch: most cells hold one threshold */
    while (v >= t->thresh[code + 1])
        code++;
    return code;
}

#endif

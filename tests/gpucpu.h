/* Comparison of the GPU pipeline with the CPU reference, shared by the tests that do it. */
#ifndef HT_GPUCPU_H
#define HT_GPUCPU_H

#include "tonemap.h"

/* Tone-maps IMG with both backends (a headless context must be current) and CHECKs that
 * they agree within the stated tolerances:
 *  - pixel counts, lw_min/lw_max, mapping kind: exact;
 *  - range bw_min/bw_max: 1e-5 absolute (float vs double logarithms);
 *  - histogram: at most max(4, 0.1 %) of the samples in a different bin (bin edges);
 *  - curve at the bin centres: 2e-3 in log10 Ld;
 *  - output pixels: <= 1 LSB on >= 99.9 % of the channel values, never more than 2.
 * LABEL names the case in messages. Fills *gpu and *cpu if not NULL. */
void compare_backends(const char *label, const hdr_image *img, const tonemap_params *p,
                      tonemap_result *gpu, tonemap_result *cpu);

#endif

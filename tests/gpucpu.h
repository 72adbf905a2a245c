/* Comparison of the GPU pipeline with the CPU reference, shared by the tests that do it. */
#ifndef HT_GPUCPU_H
#define HT_GPUCPU_H

#include "compare.h"
#include "tonemap.h"

/* CHECKs that analysis A with output ARGB (may be NULL) agrees with reference B (BRGB, may be
 * NULL), W x H pixels, within T (compare_tonemap); LABEL names the case in the message. */
void check_tonemap(const char *label, const tonemap_params *p, const tonemap_result *a,
                   const uint8_t *argb, const tonemap_result *b, const uint8_t *brgb, int w, int h,
                   const compare_tol *t);

/* Tone-maps IMG with both backends (a headless context must be current) and check_tonemap's
 * them within compare_tol_for(P). LABEL names the case in messages. Fills *gpu and *cpu if
 * not NULL. */
void compare_backends(const char *label, const hdr_image *img, const tonemap_params *p,
                      tonemap_result *gpu, tonemap_result *cpu);

#endif

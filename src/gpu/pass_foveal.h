/* Foveal sampling on the GPU: the foveal pass (foveal.comp, the 1-degree box-filtered image
 * the histogram passes then read as their source) and pcond's random point samples
 * (points.comp: gathered from the picture at positions the CPU walks once per picture size,
 * binned after the range pass, weighed in the curve pass). Three passes of the pipeline
 * (foveal, points_gather, points_bin), one object: they share the point buffers. Internal to
 * the pipeline. */
#ifndef HT_PASS_FOVEAL_H
#define HT_PASS_FOVEAL_H

#include "pass.h"

typedef struct pass_foveal pass_foveal;

/* NULL with the reason in err. */
pass_foveal *pass_foveal_create(char *err, size_t errlen);
void pass_foveal_destroy(pass_foveal **p);

/* The frame fields the pipeline uploads before an analysis (n_points .. pt_weight of
 * ht_frame): the foveal grid and point count for the picture IMG and PARAMS (all zero with
 * pixel sampling), pcond_rules, and the pt_* accumulators reset. Sizes the buffers; computes
 * the point positions of WALK when the picture size changed: 0 the first histogram's, 1 the
 * veil's second (pcond's drand48 sequence continued). The foveal grid pass_foveal_run makes
 * is PARAMS' in either sampling (the human-vision stage's foveal image). */
void pass_foveal_prepare(pass_foveal *p, const ht_pieces *img, const ht_buffers *b,
                         const tonemap_params *params, int walk);

/* The foveal image of IMG (every piece; before the histogram pass with foveal sampling,
 * and for the human-vision stage), then pass_foveal_source. False (reason in err) when the
 * program cannot be built. */
bool pass_foveal_run(pass_foveal *p, const ht_pieces *img, const ht_buffers *b,
                     const tonemap_params *params, char *err, size_t errlen);

/* Gathers the point samples from IMG (before the range pass; nothing without point
 * samples). False (reason in err) when the program cannot be built. */
bool pass_foveal_gather(pass_foveal *p, const ht_pieces *img, const ht_buffers *b,
                        const tonemap_params *params, char *err, size_t errlen);

/* Bins the point samples with the frame's binning (after range and re-binning; nothing
 * without point samples). False (reason in err) when the program cannot be built. */
bool pass_foveal_bin_points(pass_foveal *p, const ht_buffers *b, char *err, size_t errlen);

/* pcond's darkest-bin rule (tonemap_darkest_bin) for the point binning of this analysis:
 * the point samples whose Lw (the gather's) is that of the first sample whose exact sum
 * (pass_foveal_exact) lies in [LO, HI] go into bin BIN where the range pass of this
 * analysis widened the range (the binning pass reads it); -1: none (what
 * pass_foveal_prepare sets). */
void pass_foveal_set_dark(pass_foveal *p, int bin, float lo, float hi);

/* The number of point samples of this analysis (0: none). */
uint32_t pass_foveal_points(const pass_foveal *p);

/* pcond's exact sums (tonemap_pcond_lw / HT_WHTEFFICACY: 179 times such a float is exact in
 * double) of this analysis' point samples in IMG (in one piece) and of the valid pixels of
 * the last foveal image (the veiled one), and their extremes, on the GPU (nothing without
 * point samples; they need no gather), with a fenced read of the extremes queued behind
 * them. False (reason in err) when the program cannot be built or out of memory. */
bool pass_foveal_exact(pass_foveal *p, const ht_pieces *img, const ht_buffers *b,
                       const tonemap_params *params, char *err, size_t errlen);

/* Whether pass_foveal_exact's read waits to be collected. */
bool pass_foveal_exact_pending(const pass_foveal *p);

/* Collects pass_foveal_exact's read (waits only for what was queued before it): into EXT
 * the smallest exact sum of the foveal image's valid pixels, of the point samples', the
 * largest of each; NaN where none. False (reason in err) when none is pending. */
bool pass_foveal_exact_read(pass_foveal *p, float ext[4], char *err, size_t errlen);

/* The foveal image of the last run as a source (texture 0 before any). */
ht_source pass_foveal_source(const pass_foveal *p);

#endif

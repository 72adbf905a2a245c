/* The human-vision analysis on the GPU (human.h, steps 3 and 4): the veil pass (veil.comp:
 * the veil of the foveal image over every pair of foveal pixels, then the veiled foveal
 * image) and the sample-radius pass (sample_radii.comp), with the view-ray directions both
 * read (human_ray_dirs, uploaded when the view changes). The grids they write are the
 * pipeline's (ht_buffers veil and sample_radii), which the histogram and apply passes read.
 * Internal to the pipeline. */
#ifndef HT_PASS_VEIL_H
#define HT_PASS_VEIL_H

#include "human.h"
#include "pass.h"

typedef struct pass_veil pass_veil;

/* NULL with the reason in err. */
pass_veil *pass_veil_create(char *err, size_t errlen);
void pass_veil_destroy(pass_veil **p);

/* The view of a W x H picture with PARAMS' field of view into *VIEW; the ray directions of
 * its foveal grid (tonemap_foveal_grid) uploaded when they changed, B's grids sized for it
 * and b->fov_w, b->fov_h set. False when out of memory. */
bool pass_veil_prepare(pass_veil *p, int w, int h, const tonemap_params *params,
                        ht_buffers *b, human_view *view);

/* The veil of the foveal image FOV (pass_foveal_source, of b's grid) into b->veil, then FOV
 * veiled in place (human_veil_foveal). False (reason in err) when a program cannot be built. */
bool pass_veil_run(pass_veil *p, ht_source fov, const ht_buffers *b, char *err,
                     size_t errlen);

/* The sample radii of a W x H picture from the foveal image FOV into b->sample_radii, and
 * the read-back of their largest started (fenced: pass_veil_radii_max collects it). False
 * (reason in err) when the program cannot be built or out of memory. */
bool pass_veil_radii(pass_veil *p, ht_source fov, int w, int h, const ht_buffers *b,
                      const tonemap_params *params, char *err, size_t errlen);

/* The largest radius of the last pass_veil_radii (at least 1) into *MAX_SR: waits for the GPU
 * to pass that read-back only, not for what was queued after it; collected before, the same
 * again. False (reason in err) before any pass_veil_radii or when the wait failed. */
bool pass_veil_radii_max(pass_veil *p, float *max_sr, char *err, size_t errlen);

/* The frame's binning fields (bins .. hi_thresh, 6 words) into slot SLOT of buffer BINNINGS,
 * by a dispatch (binning_save.comp) in order with the passes. False (reason in err) when the
 * program cannot be built. */
bool pass_veil_binning_save(pass_veil *p, const ht_buffers *b, unsigned binnings, int slot,
                            char *err, size_t errlen);

#endif

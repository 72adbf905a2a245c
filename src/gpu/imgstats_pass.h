/* Internal to the image statistics: the passes (each owns its programs) and the buffers the
 * context (imgstats_gpu.c) owns and hands them, as pass.h does for the pipeline. */
#ifndef HT_IMGSTATS_PASS_H
#define HT_IMGSTATS_PASS_H

#include "imgstats_gpu.h"
#include "pass.h"

/* Owned by imgstats_gpu_ctx; the passes only bind them. */
typedef struct imgstats_buffers {
    unsigned tiles;      /* ht_extrema per 64x64 tile of the image */
    unsigned extrema;    /* ht_extrema of the image, then the candidate tiles (bright, dark) */
    unsigned peaks;      /* ht_peaks_head, then ht_peak[capacity] */
    unsigned hist;       /* ht_hist */
    int tiles_x, tiles_y;
    uint32_t peaks_capacity;
} imgstats_buffers;

/* Builds the compute program NAME into PP (as its sampler2D variant, so pass_program_use
 * finds it) with the statistics' defines (gpu_shared.h's HT_STATS_* lists) and VARIANT (may
 * be NULL). False with the compiler's message in err. */
bool imgstats_program_build(pass_program *pp, const char *name, const char *variant, char *err,
                            size_t errlen);

/* Binds TEX (a GL_TEXTURE_2D) as u_src, texture unit 0. */
void imgstats_bind_source(unsigned tex);

/* Each create returns NULL with the reason in err; each destroy accepts NULL and sets the
 * pointer to NULL. The runs only dispatch (and set barriers). */
typedef struct pass_brightest pass_brightest;
pass_brightest *pass_brightest_create(char *err, size_t errlen);
/* Both levels of the brightest/darkest search over SRC. */
void pass_brightest_run(pass_brightest *p, ht_source src, const imgstats_buffers *b);
/* The local maxima of SRC into b->peaks (resets its count first). */
void pass_brightest_run_peaks(pass_brightest *p, ht_source src, const imgstats_buffers *b);
void pass_brightest_destroy(pass_brightest **p);

typedef struct pass_colorhist pass_colorhist;
pass_colorhist *pass_colorhist_create(char *err, size_t errlen);
/* Zeroes both histograms of b->hist. */
void pass_colorhist_clear(pass_colorhist *p, const imgstats_buffers *b);
/* Adds the RGBA counts of OUT (RGBA8) to b->hist. */
void pass_colorhist_run(pass_colorhist *p, ht_source out, const imgstats_buffers *b);
void pass_colorhist_destroy(pass_colorhist **p);

typedef struct pass_greyhist pass_greyhist;
pass_greyhist *pass_greyhist_create(char *err, size_t errlen);
/* Adds the grey counts of OUT to b->hist with strategy KERNEL (HT_GREY_*). */
void pass_greyhist_run(pass_greyhist *p, int kernel, ht_source out, const imgstats_buffers *b);
void pass_greyhist_destroy(pass_greyhist **p);

#endif

/* Internal to the image statistics: the passes (each owns its programs) and the buffers the
 * context (imgstats_gpu.c) owns and hands them, as pass.h does for the pipeline. */
#ifndef HT_IMGSTATS_PASS_H
#define HT_IMGSTATS_PASS_H

#include "gpu_resource.h"
#include "imgstats_gpu.h"
#include "pass.h"

/* Owned by imgstats_gpu_ctx; the passes only bind them. */
typedef struct imgstats_buffers {
    gpu_buf tiles;       /* ht_extrema per 64x64 tile of the image */
    gpu_buf peaks;       /* ht_peaks_head, then ht_peak[capacity] */
    gpu_buf hist;        /* ht_hist */
    int tiles_x, tiles_y; /* of the image: the work groups of both pass_brightest runs */
    uint32_t peaks_capacity;
} imgstats_buffers;

/* Binds TEX (a GL_TEXTURE_2D) as u_src, texture unit 0. */
void imgstats_bind_source(unsigned tex);

/* Each create returns NULL with the reason in err; each destroy accepts NULL and sets the
 * pointer to NULL. The runs only dispatch (and set barriers); each returns false (reason in
 * err) only when its program cannot be built. */
typedef struct pass_brightest pass_brightest;
pass_brightest *pass_brightest_create(char *err, size_t errlen);
/* The brightest/darkest search over SRC, of luminance weights W (imgstats_weights, in float):
 * an ht_extrema per tile into b->tiles. */
bool pass_brightest_run(pass_brightest *p, ht_source src, const float w[3],
                        const imgstats_buffers *b, char *err, size_t errlen);
/* The local maxima of SRC (weights W) into b->peaks (resets its count first). */
bool pass_brightest_run_peaks(pass_brightest *p, ht_source src, const float w[3],
                              const imgstats_buffers *b, char *err, size_t errlen);
void pass_brightest_destroy(pass_brightest **p);

typedef struct pass_colorhist pass_colorhist;
pass_colorhist *pass_colorhist_create(char *err, size_t errlen);
/* Zeroes both histograms of b->hist. */
bool pass_colorhist_clear(pass_colorhist *p, const imgstats_buffers *b, char *err, size_t errlen);
/* Adds the RGBA counts of OUT (RGBA8) to b->hist. */
bool pass_colorhist_run(pass_colorhist *p, ht_source out, const imgstats_buffers *b, char *err,
                        size_t errlen);
void pass_colorhist_destroy(pass_colorhist **p);

typedef struct pass_greyhist pass_greyhist;
pass_greyhist *pass_greyhist_create(char *err, size_t errlen);
/* Adds the grey counts of OUT to b->hist with strategy KERNEL (HT_GREY_*). */
bool pass_greyhist_run(pass_greyhist *p, int kernel, ht_source out, const imgstats_buffers *b,
                       char *err, size_t errlen);
void pass_greyhist_destroy(pass_greyhist **p);

#endif

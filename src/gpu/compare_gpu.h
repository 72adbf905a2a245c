/* Comparing two images on the GPU, for the viewer's reference modes and hdrtone compare: each
 * call draws the chosen error map (FLIP in magma, the signed difference in diverging colours,
 * absolute, squared and relative squared error in viridis) into an RGBA8 display texture and
 * gathers the numbers (FLIP's pooled values and histogram, MSE, RMSE, PSNR, relative MSE,
 * MAE) of the whole image and of a rectangle, without waiting for the GPU: the numbers are
 * read back behind a fence and handed out by compare_gpu_poll once the GPU has finished
 * them, a frame or so later. The CPU reference of every value is flip.h and metrics.h; the
 * tests hold the GPU to it. Needs a current GL 4.3 context on the calling thread, the same
 * for every call. */
#ifndef HT_COMPARE_GPU_H
#define HT_COMPARE_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "flip.h"
#include "flip_gpu.h"
#include "metrics.h"

/* An image on the GPU: a GL_TEXTURE_2D whose RGB the passes read with texelFetch (any
 * format: RGBA8, RGBA16F, RGBA32F, ...), and its size. */
typedef struct compare_gpu_image {
    unsigned texture;
    int width, height;
} compare_gpu_image;

/* One comparison; zero is the defaults (FLIP's map of two linear LDR pictures, FLIP's
 * viewing conditions, no rectangle). */
typedef struct compare_gpu_desc {
    compare_gpu_image ref, test;   /* of one size, else compare_gpu_run refuses them */
    flip_source_kind source;       /* what both hold, as texelFetch returns it: linear [0, 1]
                                      (LDR-FLIP), sRGB-encoded display values (LDR-FLIP on
                                      the pictures as shown: the tone-mapped RGBA8 outputs;
                                      a GL_SRGB8_ALPHA8 texture decodes on fetch, so it is
                                      FLIP_SRC_LINEAR), or scene-linear (HDR-FLIP) */
    metrics_map mode;              /* the map drawn into the display texture */
    flip_rect rect;                /* numbers also for this rectangle; w or h 0: none */
    flip_params flip;              /* ppd (0: FLIP's 67.02), tone mapper; threads unused */
    flip_exposures exposures;      /* HDR-FLIP's: flip_exposures_for on the reference's pixels,
                                      once per reference (the CPU has them; its median would
                                      cost the GPU a sort) */
    bool skip_flip;                /* FLIP not computed (a metrics-only map; FLIP's numbers
                                      then are zero and has_flip false) */
    bool flip_unchanged;           /* the caller's promise that the images' pixels, source,
                                      flip and exposures are those of the last run that
                                      computed FLIP: its map is reused (HDR-FLIP costs an
                                      LDR-FLIP per exposure; a new mode or rectangle needs
                                      none), and so are the whole image's numbers. Ignored
                                      when there is no such map of this size. */
} compare_gpu_desc;

/* The numbers of one compare_gpu_run. */
typedef struct compare_gpu_numbers {
    uint64_t run;                  /* which run (1 = the first) */
    bool has_flip;
    flip_pooled flip;              /* whole image */
    metrics_values metrics;
    bool has_rect;                 /* the rectangle's numbers, when the run had one */
    flip_pooled flip_rect;
    metrics_values metrics_rect;
    metrics_colorbar colorbar;     /* the display texture's colour bar */
} compare_gpu_numbers;

typedef struct compare_gpu compare_gpu;

/* Builds the programs and buffers. NULL with the reason in err. */
compare_gpu *compare_gpu_create(char *err, size_t errlen);

/* Records one comparison: FLIP (unless skipped), the numbers, the display texture; returns
 * without waiting for the GPU. False, nothing recorded, with the reason in err when the
 * images differ in size ("the reference is WxH, the test WxH"), a texture is 0, the
 * rectangle holds no pixel, HDR-FLIP lacks its exposures, or a program cannot be built. */
bool compare_gpu_run(compare_gpu *c, const compare_gpu_desc *d, char *err, size_t errlen);

/* The RGBA8 texture (W x H of the last run) holding the last run's map; valid for GL commands
 * issued after that run. 0 before any run. Owned by C. */
unsigned compare_gpu_texture(const compare_gpu *c);

/* The numbers of the newest run the GPU has finished, into *out, never waiting; false (out
 * untouched) when no run has finished since the last poll or wait. */
bool compare_gpu_poll(compare_gpu *c, compare_gpu_numbers *out);

/* The numbers of the last run, waiting for the GPU (the command line and tests). False when
 * there was no run, or poll already handed its numbers out. */
bool compare_gpu_wait(compare_gpu *c, compare_gpu_numbers *out);

/* FLIP's map of the last run (W*H floats, top row first), waiting for the GPU. False when the
 * last run skipped FLIP or there was none. */
bool compare_gpu_read_map(compare_gpu *c, float *map);

/* Uploads W x H linear RGB floats (3 a pixel, top row first) as an RGBA32F texture into *img
 * (replacing its texture if it has one). False (reason in err) when GL cannot. */
bool compare_gpu_image_upload(compare_gpu_image *img, const float *rgb, int w, int h, char *err,
                              size_t errlen);

/* Deletes an uploaded image's texture; *img becomes all zero. */
void compare_gpu_image_free(compare_gpu_image *img);

/* Accepts NULL; *c becomes NULL. */
void compare_gpu_destroy(compare_gpu **c);

#endif

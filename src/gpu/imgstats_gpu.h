/* Image statistics on the GPU (the passes pass_brightest/colorhist/greyhist): the same answers
 * as the CPU reference of imgstats.h, read back and finished on the CPU. */
#ifndef HT_IMGSTATS_GPU_H
#define HT_IMGSTATS_GPU_H

#include "imgstats.h"
#include "pipeline.h"

/* GPU, one shot: the statistics of the image P last tone-mapped (pipeline_tonemap_image, or
 * pipeline_upload + pipeline_frame with the image source): IMG must be the
 * image that was uploaded (the exact finish reads it). GREY_KERNEL: HT_GREY_* of options.h.
 * Builds and deletes its programs on every call: for repeated use take an imgstats_gpu_ctx.
 * False with the reason in err. The caller frees *out with imgstats_free. */
bool imgstats_gpu(pipeline *p, const hdr_image *img, int grey_kernel, int peaks,
                  int min_distance, imgstats *out, char *err, size_t errlen);

/* --- Repeated use (viewer, benchmark). Needs a current GL 4.3 context. --- */

/* The GPU passes, for timing them one by one. */
#define IMGSTATS_PASSES(X) \
    X(extrema)      /* brightest.comp: bounds per tile for the brightest/darkest */           \
    X(peaks)        /* brightest_peaks.comp: local maxima */                                  \
    X(hist_clear)   /* colorhist_clear.comp: zeroes both histograms */                        \
    X(rgba)         /* colorhist.comp */                                                      \
    X(grey_global)  /* greyhist.comp, the three strategies */                                 \
    X(grey_shared)                                                                            \
    X(grey_private)
#define IMGSTATS_PASS_ENUM_(n) IMGSTATS_PASS_##n,
enum { IMGSTATS_PASSES(IMGSTATS_PASS_ENUM_) IMGSTATS_PASS_COUNT };
#undef IMGSTATS_PASS_ENUM_
extern const char *const imgstats_pass_names[IMGSTATS_PASS_COUNT];

typedef struct imgstats_gpu_ctx imgstats_gpu_ctx;

/* Builds every program and the buffers. NULL with the reason in err. */
imgstats_gpu_ctx *imgstats_gpu_create(char *err, size_t errlen);
/* Accepts NULL; sets *c to NULL. */
void imgstats_gpu_destroy(imgstats_gpu_ctx **c);

/* Sets the inputs of the next passes and sizes the buffers for them: IMAGE, the float image
 * (a GL_TEXTURE_2D of one sample, pipeline_image_source), and OUTPUT, the RGBA8 tone-mapped
 * image (pipeline_output_texture with the image's size; texture 0 = no histograms). The
 * textures are only read, never owned. False (reason in err) for a multisampled source. */
bool imgstats_gpu_prepare(imgstats_gpu_ctx *c, ht_source image, ht_source output, char *err,
                          size_t errlen);

/* Dispatches one pass (IMGSTATS_PASS_*) on the prepared inputs; no read-back, no wait: the
 * benchmark calls it between its timer queries. The histogram passes add to the counts:
 * run hist_clear before them. False (reason in err) when its program cannot be built. */
bool imgstats_gpu_run_pass(imgstats_gpu_ctx *c, int which, char *err, size_t errlen);

/* Runs the passes a full answer needs (extrema; peaks when PEAKS > 0; clear, rgba and the
 * GREY_KERNEL grey pass when the output is set), then imgstats_gpu_read. */
bool imgstats_gpu_run(imgstats_gpu_ctx *c, const hdr_image *img, int grey_kernel, int peaks,
                      int min_distance, imgstats *out, char *err, size_t errlen);

/* Reads back what the last passes wrote and finishes on the CPU: the brightest/darkest
 * candidate tiles are rescanned in double from IMG (the uploaded image), the peaks are chosen
 * from the local maxima. PEAKS = 0 skips the peaks; histograms are read when an output is
 * set. Waits for the GPU. False when out of memory. */
bool imgstats_gpu_read(imgstats_gpu_ctx *c, const hdr_image *img, int peaks, int min_distance,
                       imgstats *out, char *err, size_t errlen);

/* The SSBO of the histograms (layout ht_hist: rgba[4*256] then grey[256]), for a pass
 * that reads them without a read-back; valid after hist_clear + rgba + a grey pass. */
unsigned imgstats_gpu_hist_buffer(const imgstats_gpu_ctx *c);

#endif

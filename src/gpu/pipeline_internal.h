/* The pipeline's state, shared by its files (pipeline.c: the frame; pipeline_human.c: the
 * human-vision analysis and stage). Internal to the GPU layer. */
#ifndef HT_PIPELINE_INTERNAL_H
#define HT_PIPELINE_INTERNAL_H

#include "gpu_timer.h"
#include "pass.h"
#include "pass_foveal.h"
#include "pass_human.h"
#include "pass_veil.h"

/* Intervals a pass's timer holds unread: the frames the GPU may run behind, and then some. */
enum { TIMER_DEPTH = 4 };

struct pipeline {
    pass_histogram *histogram;
    pass_range *range;
    pass_merge *merge;
    pass_curve *curve;
    pass_apply *apply;
    pass_foveal *foveal;               /* foveal, points_gather, points_bin */
    pass_veil *veil;                   /* veil, sample_radii */

    ht_buffers buf;
    int max_bins;                      /* most bins any run asked for: the first histogram
                                          dispatch bins with the frame's previous count */

    ht_piece *pieces;                  /* the uploaded image: one texture, or a grid of pieces */
    int npieces;                       /* when larger than GL_MAX_TEXTURE_SIZE (pass.h) */
    int image_w, image_h;
    unsigned image_format;             /* GL_RGBA16F or GL_RGBA32F */
    gpu_buf staging;                   /* GL_PIXEL_UNPACK_BUFFER for half uploads */
    struct upload_ring *ring;          /* decoders' upload buffers (pipeline_upload_allocator) */
    int max_piece;                     /* test knob: piece size limit (0: the GL limit) */
    unsigned long uploads;             /* pipeline_image_generation */
    gpu_tex out;                       /* output of the apply pass, RGBA8 (or RGBA16) */
    unsigned target;                   /* pipeline_set_output's texture, 0: out */
    unsigned want_format;              /* GL_RGBA16: the next apply writes RGBA16 (for
                                          pipeline_tonemap_uploaded16), else GL_RGBA8 */

    uint32_t *rebin_groups;            /* the re-binning's groups per piece, 3 each, as the */
    int rebin_pieces;                  /* dispatch buffer holds them */

    int latency;                       /* pipeline_set_latency */
    display_params display;            /* pipeline_set_display */
    bool analysed;                     /* the frame holds an analysis: a curve to apply */
    bool pass_timing;                  /* pipeline_set_pass_timing */
    bool human_on;                     /* the last analysis had human-vision options: */
    human_report report;               /* what it decided */
    tonemap_result *first;             /* its first analysis, read back (NULL until needed) */
    bool human_own;                    /* the stage is the analysis's own (not set by
                                          pipeline_set_human) */

    gpu_timer *timer[HT_PASS_COUNT];
    gpu_timer *frame_timer;
    pipeline_timings timings;
    pipeline_human human;              /* the human-vision stage (pipeline_human.c) */
    /* The binning (the frame's bins .. hi_thresh fields the tiles are binned with) of each
     * analysis of a frame with the veil, so that each bins with its own of the last frame
     * (pipeline_human_binning): [0] the first analysis's, [1] the one after the veil. */
    gpu_buf binnings;
    bool binning_kept[2];              /* binnings holds one */
    int binning_held;                  /* whose the frame holds now */
    bool veiled_analysis;              /* the analysis after the veil is running */
    bool veiled_prepared;              /* the veil pass began that analysis (veiled_prepare) */
};

/* The human-vision analysis's passes (pipeline.h, HT_PASSES; pipeline_human.c), each doing
 * nothing without the options: veil (the first analysis read back, the decisions, the veil,
 * the sample radii), veil_histogram (the analysis again after the veil, from SRC) and
 * sample_radii (their largest collected). IMG: the analysed image. False (reason in err) for an image in pieces, out of memory, or a program
 * that does not build. */
bool pipeline_human_veil(pipeline *p, const ht_pieces *img, const tonemap_params *params,
                         char *err, size_t errlen);
bool pipeline_human_veil_histogram(pipeline *p, ht_source src, const ht_pieces *img,
                                   const tonemap_params *params, char *err, size_t errlen);
bool pipeline_human_radii(pipeline *p, const ht_pieces *img, char *err, size_t errlen);
/* After an analysis: the stage its human-vision options leave for the apply pass on, or off
 * when it had none and the stage was an analysis's own. */
void pipeline_human_after_analysis(pipeline *p);
/* Before the histogram pass bins the image: the frame's binning made the first analysis's of
 * the last frame with the veil, where it holds the other one's. In a frame with the veil
 * the two analyses' ranges differ, and each found the other's binning stale: a re-binning
 * read of the image each, every frame, for the same image. A binning held is only a guess:
 * the range pass still finds it stale when it is, so any binning gives the same result. */
void pipeline_human_binning(pipeline *p);

#endif

/* Constants and GPU buffer layouts shared by C and GLSL, defined once.
 *
 * shaders.c turns HT_CONSTANTS and the HT_*_FIELDS lists below into a GLSL preamble
 * (#defines and std430 struct declarations) that is prepended to every shader, so the two
 * languages cannot drift apart. Every field is a 4-byte scalar or an array of them, so the
 * std430 layout equals the C layout; the _Static_asserts in shaders.c check it. */
#ifndef HT_GPU_SHARED_H
#define HT_GPU_SHARED_H

#include <stdint.h>

/* Build-time knobs for tuning (-DHT_TILE_X_PIXELS=128): tile of the histogram pass, pixels
 * per thread (each way) of the apply pass. */
#ifndef HT_TILE_X_PIXELS
#define HT_TILE_X_PIXELS 64
#endif
#ifndef HT_TILE_Y_PIXELS
#define HT_TILE_Y_PIXELS 64
#endif

#ifndef HT_APPLY_STEP_PIXELS
#define HT_APPLY_STEP_PIXELS 2
#endif

/* X(name, value): integer constants. */
#define HT_CONSTANTS(X)                                                                      \
    X(HT_MAX_BINS, 1024)       /* upper limit of --bins; the curve pass runs one thread per bin */ \
    X(HT_MIN_BINS, 2)                                                                         \
    X(HT_GROUP_X, 16)          /* work-group size of the image passes */                      \
    X(HT_GROUP_Y, 16)                                                                         \
    X(HT_TILE_X, HT_TILE_X_PIXELS) /* pixels per tile of the histogram pass */                \
    X(HT_TILE_Y, HT_TILE_Y_PIXELS)                                                            \
    X(HT_APPLY_STEP, HT_APPLY_STEP_PIXELS) /* the apply pass does STEP^2 pixels per thread */  \
    X(HT_MERGE_GROUP, 256)     /* threads of a merge group */                                 \
    X(HT_MERGE_TILES, 32)      /* tiles a merge group adds up */                               \
    X(HT_CEILING_NONE, 0)                                                                     \
    X(HT_CEILING_LINEAR, 1)                                                                   \
    X(HT_TRANSFER_SRGB, 0)                                                                    \
    X(HT_TRANSFER_GAMMA, 1)                                                                   \
    X(HT_TRANSFER_PQ, 2)         /* SMPTE ST 2084, absolute: 1 = u_peak cd/m^2 (transfer.h) */ \
    X(HT_TRANSFER_HLG, 3)        /* BT.2100 HLG, 1 = the nominal peak u_peak (transfer.h) */  \
    X(HT_MAP_NONE, 0)            /* no valid pixel: everything black */                       \
    X(HT_MAP_HISTOGRAM, 1)                                                                    \
    X(HT_MAP_LINEAR_FITS, 2)     /* scene range fits the display (pcond "range<=display") */  \
    X(HT_MAP_LINEAR_GAVE_UP, 3)  /* ceiling loop cut below CVRATIO ("no_compression_needed") */ \
    X(HT_MAP_EQUALIZE, 4)        /* ceiling none: plain histogram equalisation */             \
    X(HT_MAX_CEILING_ITERATIONS, 1000)                                                        \
    X(HT_CEILING_HUMAN, 2)       /* human contrast sensitivity (pcond -s) */                  \
    X(HT_MAP_LINEAR_FORCED, 5)   /* linear mapping asked for (pcond -l) */                    \
    X(HT_SAMPLING_PIXELS, 0)     /* every pixel is a histogram sample */                      \
    X(HT_SAMPLING_FOVEAL, 1)     /* the 1-degree foveal image (+ pcond's point samples) */    \
    X(HT_LUMINANCE_REC709, 0)                                                                 \
    X(HT_LUMINANCE_RADIANCE, 1)  /* Radiance's standard primaries, as pcond */                \
    X(HT_LUMINANCE_FILE, 2)      /* the Y row of the file's own RGB->XYZ (colour.h) */        \
    X(HT_GAMUT_CLIP, 0)          /* out of gamut: each channel clipped to [0, 1] */           \
    X(HT_GAMUT_COMPRESS, 1)      /* desaturated towards the pixel's display Y, then clipped */ \
    X(HT_POINTS_PER_FOVEAL, 16)  /* pcond: nlumsamp = 16 * fw * fh (at most W * H) */         \
    X(HT_POINTS_GROUP, 256)      /* threads of the point-sample passes */                     \
    X(HT_POINTS_BIN_GROUP, 1024) /* threads of the binning's one group (more loads at once) */ \
    X(HT_POINT_EXACT_HEAD, 8)    /* uints before the exact sums (points.comp's ext) */        \
    X(HT_FOVEAL_GROUP_X, 32)     /* threads of a foveal-pixel group (one box each): */        \
    X(HT_FOVEAL_GROUP_Y, 4)      /* columns, rows */                                          \
    X(HT_FOVEAL_ROWS, 8)         /* rows a foveal thread reads before adding them */          \
    X(HT_VEIL_GROUP, 256)        /* threads of a veil group (one foveal pixel each) */        \
    X(HT_RADII_GROUP, 64)        /* threads of a sample-radius group (a radius each) */       \
    X(HT_PYRAMID_MAX_LEVELS, 31) /* acuity pyramid levels at most (a 2^31 picture has no more) */ \
    HT_PIXEL_CLASSES(X)                                                                       \
    HT_DISPLAY_CONSTANTS(X)

/* X(name, value): the class of a pixel (ht_classify in common.glsl, classify in
 * tonemap_cpu.c). Part of HT_CONSTANTS. */
#define HT_PIXEL_CLASSES(X)     \
    X(HT_PIX_VALID, 0)          /* finite, Lw > 0 */ \
    X(HT_PIX_NONFINITE, 1)      /* R, G, B or Lw not finite */ \
    X(HT_PIX_NONPOSITIVE, 2)    /* finite, Lw <= 0 */

/* X(name, value): the display modes of the apply pass (display.h: display_modes names them)
 * and their choices. Part of HT_CONSTANTS. */
#define HT_DISPLAY_CONSTANTS(X)  \
    X(HT_VIEW_TONEMAP, 0)        /* the operator's response (the default) */ \
    X(HT_VIEW_EXPOSURE, 1)       /* value * 2^EV + offset, display-encoded (tev, HDRView) */ \
    X(HT_VIEW_FALSECOLOR, 2)     /* Radiance falsecolor's scale of luminance in cd/m^2 */ \
    X(HT_VIEW_CHANNEL, 3)        /* one channel alone, over its own range */ \
    X(HT_VIEW_OCIO, 4)           /* an OCIO display/view of value * 2^EV (ocio_view.h) */ \
    X(HT_FC_SMOOTH, 0)           /* falsecolor: the palette everywhere */ \
    X(HT_FC_BANDS, 1)            /* falsecolor -cb: bands at the steps, black between */ \
    X(HT_FC_CONTOURS, 2)         /* falsecolor -cl: lines where the step changes */ \
    X(HT_FC_PALETTE_N, 23)       /* control points of falsecolor's default palette */ \
    X(HT_CHANNEL_R, 0)                                                          \
    X(HT_CHANNEL_G, 1)                                                          \
    X(HT_CHANNEL_B, 2)                                                          \
    X(HT_CHANNEL_A, 3)                                                          \
    X(HT_CHANNEL_Y, 4)           /* luminance (the units' weights), in image units */ \
    X(HT_CH_PALETTE_AUTO, 0)     /* diverging for signed ranges, else sequential */ \
    X(HT_CH_PALETTE_GREY, 1)                                                    \
    X(HT_CH_PALETTE_SEQUENTIAL, 2) /* falsecolor's palette over lo..hi */      \
    X(HT_CH_PALETTE_DIVERGING, 3)  /* blue, white at 0, red over -m..m */      

/* X(name, value): floating-point constants (pcond's; docs/operator.md, Defaults). */
#define HT_FCONSTANTS(X)                                                                     \
    X(HT_LMIN, 1e-7)      /* cd/m^2: lower clamp of the automatic range (darker: black) */ \
    X(HT_LMAX, 1e7)       /* cd/m^2: upper clamp of the automatic range */                \
    X(HT_CVRATIO, 0.025)  /* ceiling-loop tolerance */                                    \
    X(HT_LUM_R, 0.2126)                                                                   \
    X(HT_LUM_G, 0.7152)                                                                   \
    X(HT_LUM_B, 0.0722)                                                                   \
    X(HT_RAD_LUM_R, 0.265105814)  /* pcond's Y row of Radiance's standard primaries */    \
    X(HT_RAD_LUM_G, 0.670105815)                                                          \
    X(HT_RAD_LUM_B, 0.064788356)                                                          \
    X(HT_FTINY, 1e-6)             /* Radiance FTINY: pcond's range-test epsilon, cd/m^2 */   \
    X(HT_WHTEFFICACY, 179.0)      /* lm/W: pcond's -x file scales its linear curve by it */ \
    X(HT_FC_STEP, 0.0454545)      /* falsecolor: palette control points apart (its constant) */ \
    X(HT_FC_BAND, 0.1)            /* falsecolor -cb: half a band, in steps */ \
    HT_TRANSFER_FCONSTANTS(X)

/* X(name, value): the HDR transfer functions' constants (transfer.h; part of HT_FCONSTANTS).
 * SMPTE ST 2084 (PQ): E = ((c1 + c2 Y^m1) / (1 + c3 Y^m1))^m2, Y = L / 10000 cd/m^2.
 * BT.2100 HLG: E = sqrt(3 x) for x <= 1/12, else a ln(12 x - b) + c; the system gamma of a
 * nominal peak Lw is 1.2 + 0.42 log10(Lw / 1000). */
#define HT_TRANSFER_FCONSTANTS(X)                                                             \
    X(HT_PQ_M1, 0.1593017578125)  /* 2610 / 16384 */                                         \
    X(HT_PQ_M2, 78.84375)         /* 2523 / 4096 x 128 */                                     \
    X(HT_PQ_C1, 0.8359375)        /* 3424 / 4096 */                                           \
    X(HT_PQ_C2, 18.8515625)       /* 2413 / 4096 x 32 */                                      \
    X(HT_PQ_C3, 18.6875)          /* 2392 / 4096 x 32 */                                      \
    X(HT_PQ_PEAK, 10000.0)        /* cd/m^2 of PQ's signal 1 */                               \
    X(HT_HLG_A, 0.17883277)                                                                   \
    X(HT_HLG_B, 0.28466892)       /* 1 - 4a */                                                \
    X(HT_HLG_C, 0.55991073)       /* 0.5 - a ln(4a) */                                        \
    X(HT_HLG_GAMMA_REF, 1.2)      /* system gamma at a 1000 cd/m^2 peak */                    \
    X(HT_HLG_GAMMA_K, 0.42)       /* per decade of peak */                                    \
    X(HT_HDR_LDMAX, 1000.0)       /* --hdr's default display maximum, cd/m^2 */               \
    X(HT_HDR_DRANGE, 10000.0)     /* --hdr's default display range (Ldmin 0.1 cd/m^2) */    \
    X(HT_HDR_REF_WHITE, 203.0)    /* BT.2408's HDR reference white, cd/m^2: SDR white in an  \
                                     HDR picture (Ultra HDR's gain maps and their read-back) */

#define HT_ENUM_(name, value) enum { name = (value) };
HT_CONSTANTS(HT_ENUM_)
#undef HT_ENUM_
#define HT_FDEF_(name, value) static const double name = (value);
HT_FCONSTANTS(HT_FDEF_)
#undef HT_FDEF_

/* X(type, name, dims): fields of the std430 structs; type is uint or float (the GLSL names),
 * dims is empty for a scalar or [N] for an array (N may use the constants above). */

/* Per tile of the histogram pass (the counts live in a separate uint array). */
#define HT_TILESUM_FIELDS(X)    \
    X(float, sum_ln, )         \
    X(uint, n_counted, )       \
    X(uint, lw_min_bits, )     /* float bits: positive floats order as uints */ \
    X(uint, lw_max_bits, )     \
    X(uint, n_valid, )         \
    X(uint, n_nonfinite, )

/* The frame: everything the passes hand each other, one instance, never read back inside a
 * frame. Written by range (counts, range), merge (hist, sum), curve (the rest). */
#define HT_FRAME_FIELDS(X)                       \
    X(uint, n_total, )                           \
    X(uint, n_valid, )       /* finite, Lw > 0 */ \
    X(uint, n_nonfinite, )                       \
    X(uint, n_nonpositive, )                     \
    X(uint, n_counted, )     /* samples in the histogram (merge, atomics) */ \
    X(uint, mapping, )       /* HT_MAP_* */       \
    X(uint, iterations, )    /* ceiling passes */ \
    X(uint, rebinned, )      /* 1 when the range pass found the binning stale */ \
    X(float, lw_min, )       /* over valid pixels */ \
    X(float, lw_max, )                           \
    /* The binning the per-tile histograms used (range pass), one run of fields (the */ \
    /* human-vision analysis keeps two of them: pipeline_human.c's binning_copy). */ \
    X(uint, bins, )                              \
    X(uint, widened, )                           \
    X(float, bw_min, )       /* histogram range, ln cd/m^2 */ \
    X(float, bw_max, )                           \
    X(float, lo_thresh, )    /* counted: lo_thresh <= Lw < hi_thresh */ \
    X(float, hi_thresh, )                        \
    X(float, ln_avg, )       /* mean ln Lw over counted samples */ \
    X(float, linear_scale, ) /* linear mapping: Ld = Lw * linear_scale */ \
    X(float, hist_total, )   /* T0 */             \
    X(float, final_total, )  /* T at the start of the last ceiling pass */ \
    X(uint, hist, [HT_MAX_BINS])        /* merged counts */ \
    X(float, trimmed, [HT_MAX_BINS])    /* after the ceiling (bottom-bin rule applied) */ \
    X(float, cumf, [HT_MAX_BINS + 1])   /* response: cumf at bin edges */ \
    /* Foveal sampling (pass_foveal). The pipeline uploads n_points..pcond_rules and */ \
    /* resets the pt_* accumulators before the analysis; all zero in pixel sampling. */ \
    X(uint, n_points, )      /* pcond point samples taken (0: none) */ \
    X(uint, fov_width, )     /* foveal grid (0 with pixel sampling) */ \
    X(uint, fov_height, )                        \
    X(uint, pcond_rules, )   /* 1: pcond's range rules (black samples, 1e-7 margins) */ \
    X(uint, pt_valid, )      /* point samples: finite with Lw > 0 (gather pass, atomics) */ \
    X(uint, pt_nonfinite, )                      \
    X(uint, pt_min_bits, )   /* float bits of their min/max Lw */ \
    X(uint, pt_max_bits, )                       \
    X(uint, pt_counted, )    /* point samples in pt_hist (point binning pass) */ \
    X(float, pt_sum_ln, )    /* their sum of ln Lw */ \
    X(float, pt_weight, )    /* weight of a point sample: counted foveal samples / n_points */ \
    X(uint, pt_hist, [HT_MAX_BINS])     /* point-sample counts; the curve adds pt_weight * these */

#define HT_C_FIELD_(type, name, dims) ht_##type##_t name dims;
typedef uint32_t ht_uint_t;
typedef float ht_float_t;
typedef struct ht_tilesum { HT_TILESUM_FIELDS(HT_C_FIELD_) } ht_tilesum;
typedef struct ht_frame { HT_FRAME_FIELDS(HT_C_FIELD_) } ht_frame;

/* SSBO binding points, one per buffer kind, each its own number (checked below, with the
 * statistics' HT_STATS_BINDINGS): a buffer left bound by one pass never stands in for another
 * pass's buffer. */
#define HT_BINDINGS(X)           \
    X(HT_BIND_PARTIALS, 0)       \
    X(HT_BIND_TILE_HIST, 1)      \
    X(HT_BIND_TILE_SUMS, 2)      \
    X(HT_BIND_FRAME, 3)          \
    X(HT_BIND_OUT, 4)            \
    X(HT_BIND_POINT_LUM, 5)      /* foveal sampling: Lw of the point samples */ \
    X(HT_BIND_POINT_POS, 6)      /* their positions, x | y << 16 */ \
    X(HT_BIND_POINT_EXACT, 14)   /* pcond's exact sums of them and their extremes (points.comp) */ \
    X(HT_BIND_DISPATCH, 12)      /* the fused finishing's counters and dispatch arguments */
#define HT_ENUM_(name, value) enum { name = (value) };
HT_BINDINGS(HT_ENUM_)
#undef HT_ENUM_

/* Image statistics (imgstats.h). */
#define HT_STATS_CONSTANTS(X)                                                                \
    X(HT_COLOR_BINS, 256)          /* bins per channel of the RGBA histogram of the output */ \
    X(HT_GREY_BINS, 256)                                                                      \
    X(HT_GREY_WR, 54)              /* grey = (54 R + 183 G + 19 B + 128) >> 8 on 8-bit values */ \
    X(HT_GREY_WG, 183)                                                                        \
    X(HT_GREY_WB, 19)                                                                         \
    X(HT_GREY_PRIVATE_X, 8)        /* group of the private-histogram kernel: 64 threads, so  */ \
    X(HT_GREY_PRIVATE_Y, 8)        /* 64 x 256 8-bit counters = 16 KiB of shared memory      */

/* Strategies of the 256-bin grey histogram (--histogram-kernel; pass_greyhist.c passes the
 * id to its shader as HT_GREY_KERNEL). */
#define HT_GREY_KERNELS(X) \
    X(HT_GREY_GLOBAL, 0)   \
    X(HT_GREY_SHARED, 1)   \
    X(HT_GREY_PRIVATE, 2)
#define HT_ENUM_(name, value) enum { name = (value) };
HT_GREY_KERNELS(HT_ENUM_)
#undef HT_ENUM_

/* The error bound of the single-precision luminance: |Y_float - Y_double| <= e with
 * e = REL * (|wr||R| + |wg||G| + |wb||B|) + ABS (the luminance weights w; ABS covers flushed
 * denormals); REL is
 * ~34 float ulps where ~4 are needed. 0 when R, G, B are all zero. */
#define HT_STATS_FCONSTANTS(X)     \
    X(HT_EXTREMA_REL_ERR, 2e-6)    \
    X(HT_EXTREMA_ABS_ERR, 1e-37)

/* Binding points of the statistics buffers. */
#define HT_STATS_BINDINGS(X)        \
    X(HT_BIND_EXTREMA_TILES, 7)    \
    X(HT_BIND_PEAKS, 8)           \
    X(HT_BIND_HIST, 9)

#define HT_ENUM_(name, value) enum { name = (value) };
HT_STATS_CONSTANTS(HT_ENUM_)
HT_STATS_BINDINGS(HT_ENUM_)
#undef HT_ENUM_

/* Binding points of the human-vision stage's foveal-resolution inputs (human.h), fw x fh
 * grids, top row first, in the picture's units: the veil, fw * fh vec4 (rgb; a 0), and the
 * sample radii, fw * fh floats (input pixels); and the
 * analysis' view-ray directions (human_ray_dirs), fw * fh vec4 (xyz; w 0). */
#define HT_HUMAN_BINDINGS(X)       \
    X(HT_BIND_VEIL, 10)            \
    X(HT_BIND_SAMPLE_RADII, 11)    \
    X(HT_BIND_RAY_DIRS, 13)
/* Which stages of the human-vision per-pixel stage apply (bits of ht_human_grids.stages and
 * of the shaders' u_human_stages). */
#define HT_HUMAN_STAGES(X)         \
    X(HT_HUMAN_ACUITY, 1)          \
    X(HT_HUMAN_VEIL, 2)            \
    X(HT_HUMAN_COLOR, 4)
#define HT_ENUM_(name, value) enum { name = (value) };
HT_HUMAN_BINDINGS(HT_ENUM_)
HT_HUMAN_STAGES(HT_ENUM_)
#undef HT_ENUM_

/* HT_BIND_COUNT binding points, numbered 0..HT_BIND_COUNT - 1 with none shared: then the sum
 * of 1 << point over them is (1 << HT_BIND_COUNT) - 1. A GL must offer HT_BIND_COUNT
 * (GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS). */
#define HT_ONE_(name, value) +1
#define HT_BIT_(name, value) +(1u << (value))
enum {
    HT_BIND_COUNT = 0 HT_BINDINGS(HT_ONE_) HT_STATS_BINDINGS(HT_ONE_) HT_HUMAN_BINDINGS(HT_ONE_)
};
_Static_assert((0u HT_BINDINGS(HT_BIT_) HT_STATS_BINDINGS(HT_BIT_) HT_HUMAN_BINDINGS(HT_BIT_)) ==
                   (1u << HT_BIND_COUNT) - 1,
               "SSBO binding points: one per buffer kind, numbered 0..HT_BIND_COUNT - 1");
#undef HT_ONE_
#undef HT_BIT_
#define HT_FDEF_(name, value) static const double name = (value);
HT_STATS_FCONSTANTS(HT_FDEF_)
#undef HT_FDEF_

/* Brightest/darkest search, one record per 64x64 tile (brightest.comp): the bounds
 * lo/hi = Y_f -/+ e over the tile's pixels that may have Y > 0 (hi > 0), -/+FLT_MAX where
 * there is none; the CPU lists from them the tiles that may hold the answer and rescans those
 * in double (imgstats_gpu.c). */
#define HT_EXTREMA_FIELDS(X)                                                                 \
    X(float, bright_lo, )   /* max lo: the largest Y is >= this */                           \
    X(float, bright_hi, )   /* max hi: > 0 iff a pixel may have Y > 0 */                     \
    X(float, dark_lo, )     /* min lo */                                                     \
    X(float, dark_hi, )     /* min hi over pixels with lo > 0: the smallest Y > 0 is <= this */

/* Local maxima found by the peaks pass: a count, then (Y_f, idx) pairs. */
#define HT_PEAKS_HEAD_FIELDS(X) \
    X(uint, count, )           \
    X(uint, capacity, )
#define HT_PEAK_FIELDS(X) \
    X(float, y, )        \
    X(uint, idx, )

/* The histograms of the tone-mapped output. */
#define HT_HIST_FIELDS(X)                       \
    X(uint, rgba, [4 * HT_COLOR_BINS])  /* R, G, B, A counts of 8-bit values */ \
    X(uint, grey, [HT_GREY_BINS])

typedef struct ht_extrema { HT_EXTREMA_FIELDS(HT_C_FIELD_) } ht_extrema;
typedef struct ht_peaks_head { HT_PEAKS_HEAD_FIELDS(HT_C_FIELD_) } ht_peaks_head;
typedef struct ht_peak { HT_PEAK_FIELDS(HT_C_FIELD_) } ht_peak;
typedef struct ht_hist { HT_HIST_FIELDS(HT_C_FIELD_) } ht_hist;

#endif

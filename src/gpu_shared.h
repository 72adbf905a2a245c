/* Constants and GPU buffer layouts shared by C and GLSL, defined once.
 *
 * shaders.c turns HT_CONSTANTS and the HT_*_FIELDS lists below into a GLSL preamble
 * (#defines and std430 struct declarations) that is prepended to every shader, so the two
 * languages cannot drift apart. Every field is a 4-byte scalar or an array of them, so the
 * std430 layout equals the C layout; the _Static_asserts in shaders.c check it. */
#ifndef HT_GPU_SHARED_H
#define HT_GPU_SHARED_H

#include <stdint.h>

/* X(name, value): integer constants. */
#define HT_CONSTANTS(X)                                                                      \
    X(HT_MAX_BINS, 1024)       /* upper limit of --bins; the curve pass runs one thread per bin */ \
    X(HT_MIN_BINS, 2)                                                                         \
    X(HT_GROUP_X, 16)          /* work-group size of the image passes */                      \
    X(HT_GROUP_Y, 16)                                                                         \
    X(HT_TILE_X, 64)           /* pixels per tile of the range and histogram passes */        \
    X(HT_TILE_Y, 64)                                                                          \
    X(HT_REDUCE_GROUP, 1024)   /* threads of the single-group reductions (merge, range) */    \
    X(HT_CEILING_NONE, 0)                                                                     \
    X(HT_CEILING_LINEAR, 1)                                                                   \
    X(HT_TRANSFER_SRGB, 0)                                                                    \
    X(HT_TRANSFER_GAMMA, 1)                                                                   \
    X(HT_MAP_NONE, 0)            /* no valid pixel: everything black */                       \
    X(HT_MAP_HISTOGRAM, 1)                                                                    \
    X(HT_MAP_LINEAR_FITS, 2)     /* scene range fits the display (pcond "range<=display") */  \
    X(HT_MAP_LINEAR_GAVE_UP, 3)  /* ceiling loop cut below CVRATIO ("no_compression_needed") */ \
    X(HT_MAP_EQUALIZE, 4)        /* ceiling none: plain histogram equalisation */             \
    X(HT_MAX_CEILING_ITERATIONS, 1000)

/* X(name, value): floating-point constants (pcond's, see WARD97.md). */
#define HT_FCONSTANTS(X)                                                                     \
    X(HT_LMIN, 1e-7)      /* cd/m^2: lower clamp of the automatic range; darker pixels are black */ \
    X(HT_LMAX, 1e7)       /* cd/m^2: upper clamp of the automatic range */                \
    X(HT_CVRATIO, 0.025)  /* ceiling-loop tolerance */                                    \
    X(HT_LUM_R, 0.2126)                                                                   \
    X(HT_LUM_G, 0.7152)                                                                   \
    X(HT_LUM_B, 0.0722)

#define HT_ENUM_(name, value) enum { name = (value) };
HT_CONSTANTS(HT_ENUM_)
#undef HT_ENUM_
#define HT_FDEF_(name, value) static const double name = (value);
HT_FCONSTANTS(HT_FDEF_)
#undef HT_FDEF_

/* X(type, name, dims): fields of the std430 structs; type is uint or float (the GLSL names),
 * dims is empty for a scalar or [N] for an array (N may use the constants above). */

/* Per tile of the range pass. */
#define HT_TILE_FIELDS(X)       \
    X(float, lw_min, )         \
    X(float, lw_max, )         \
    X(uint, n_valid, )         \
    X(uint, n_nonfinite, )     \
    X(uint, n_nonpositive, )   \
    X(uint, pad0, [3])

/* Per tile of the histogram pass (the counts live in a separate uint array). */
#define HT_TILESUM_FIELDS(X)    \
    X(float, sum_ln, )         \
    X(uint, n_counted, )

/* The frame: everything the passes hand each other, one instance, never read back inside a
 * frame. Written by range (counts, range), merge (hist, sum), curve (the rest). */
#define HT_FRAME_FIELDS(X)                       \
    X(uint, n_total, )                          \
    X(uint, n_valid, )      /* finite, Lw > 0 */ \
    X(uint, n_nonfinite, )                      \
    X(uint, n_nonpositive, )                    \
    X(uint, n_counted, )    /* in the histogram */ \
    X(uint, bins, )                             \
    X(uint, widened, )      /* bottom bin duplicated (automatic range, lwmin > LMIN) */ \
    X(uint, mapping, )      /* HT_MAP_* */       \
    X(uint, iterations, )   /* ceiling passes */ \
    X(uint, pad0, [3])                             \
    X(float, lw_min, )      /* over valid pixels */ \
    X(float, lw_max, )                          \
    X(float, bw_min, )      /* histogram range, ln cd/m^2 */ \
    X(float, bw_max, )                          \
    X(float, lo_thresh, )   /* counted: lo_thresh <= Lw < hi_thresh */ \
    X(float, hi_thresh, )                       \
    X(float, ln_avg, )      /* mean ln Lw over counted samples */ \
    X(float, linear_scale, ) /* linear mapping: Ld = Lw * linear_scale */ \
    X(float, hist_total, )  /* T0 */             \
    X(float, final_total, ) /* T at the start of the last ceiling pass */ \
    X(float, pad1, [2])                            \
    X(uint, hist, [HT_MAX_BINS])        /* merged counts */ \
    X(float, trimmed, [HT_MAX_BINS])    /* after the ceiling (bottom-bin rule applied) */ \
    X(float, cumf, [HT_MAX_BINS + 1])   /* response: cumf at bin edges */

#define HT_C_FIELD_(type, name, dims) ht_##type##_t name dims;
typedef uint32_t ht_uint_t;
typedef float ht_float_t;
typedef struct ht_tile { HT_TILE_FIELDS(HT_C_FIELD_) } ht_tile;
typedef struct ht_tilesum { HT_TILESUM_FIELDS(HT_C_FIELD_) } ht_tilesum;
typedef struct ht_frame { HT_FRAME_FIELDS(HT_C_FIELD_) } ht_frame;

/* SSBO binding points, one per buffer kind. */
#define HT_BINDINGS(X)           \
    X(HT_BIND_TILES, 0)          \
    X(HT_BIND_TILE_HIST, 1)      \
    X(HT_BIND_TILE_SUMS, 2)      \
    X(HT_BIND_FRAME, 3)          \
    X(HT_BIND_OUT, 4)
#define HT_ENUM_(name, value) enum { name = (value) };
HT_BINDINGS(HT_ENUM_)
#undef HT_ENUM_

#endif

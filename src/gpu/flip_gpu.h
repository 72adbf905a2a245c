/* FLIP on the GPU (shaders/flip_x.comp, flip_y.comp): LDR-FLIP, and HDR-FLIP as the maximum
 * over exposures, of two textures into an R32F error map; the CPU reference is
 * src/ref/flip.h, whose filter weights and constants the shaders are given. Internal to the
 * GPU layer; compare_gpu.h is the API over it. Needs a current GL 4.3 context. */
#ifndef HT_FLIP_GPU_H
#define HT_FLIP_GPU_H

#include <stdbool.h>
#include <stddef.h>

#include "flip.h"

/* What the input textures hold (the shaders' FLIP_SRC_*). */
typedef enum flip_source_kind {
    FLIP_SRC_LINEAR = 0,   /* linear values; LDR-FLIP clamps them to [0, 1] */
    FLIP_SRC_SRGB = 1,     /* sRGB-encoded display values in [0, 1], decoded first */
    FLIP_SRC_HDR = 2,      /* scene-linear values: HDR-FLIP */
} flip_source_kind;

/* SSBO binding points of the FLIP and comparison programs (none of gpu_shared.h's 0..15 that
 * every shader's common.glsl declares a block at: HT_BIND_FRAME). */
enum {
    FLIP_BIND_FILTERS = 4,
    FLIP_BIND_PARTIALS = 5,
    FLIP_BIND_TOTALS = 6,
    FLIP_BIND_FINE = 7,
    FLIP_BIND_LUT = 8,
    FLIP_BIND_COL_REF = 9,     /* flip_x's intermediates, read by flip_y */
    FLIP_BIND_COL_TEST = 10,
    FLIP_BIND_FEAT_REF = 11,
    FLIP_BIND_FEAT_TEST = 12,
};

/* The #define lines of FLIP's constants for the shaders, from flip.h, metrics.h and the
 * enums here (a static string). */
const char *flip_gpu_defines(void);

typedef struct flip_gpu flip_gpu;

/* Builds the programs. NULL with the reason in err. */
flip_gpu *flip_gpu_create(char *err, size_t errlen);

/* FLIP of the textures REF and TEST (W x H, sampled with texelFetch; RGB used) holding KIND
 * with P (ppd, tone mapper); for FLIP_SRC_HDR, the exposures EX (flip_exposures_for on the
 * CPU; NULL otherwise). Records the passes; waits for nothing. The map is flip_gpu_map's
 * texture, valid for GL commands issued after this. False (reason in err) when a program or
 * the intermediates cannot be made, or P's ppd is out of range. */
bool flip_gpu_run(flip_gpu *f, unsigned ref, unsigned test, int w, int h, flip_source_kind kind,
                  const flip_params *p, const flip_exposures *ex, char *err, size_t errlen);

/* The R32F W x H texture of the last run's error map (0 before any). */
unsigned flip_gpu_map(const flip_gpu *f);

/* Accepts NULL; *f becomes NULL. */
void flip_gpu_destroy(flip_gpu **f);

#endif

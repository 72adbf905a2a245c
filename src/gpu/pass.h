/* What the pass_*.c files share: the buffers the pipeline hands them, and compute programs
 * built per source kind (sampler2D or sampler2DMS) on first use. Internal to the pipeline. */
#ifndef HT_PASS_H
#define HT_PASS_H

#include <stdbool.h>

#include "pipeline.h"

/* Owned by the pipeline; the passes only bind them. */
typedef struct ht_buffers {
    unsigned partials, tile_hist, tile_sums, frame;
    int tiles_x, tiles_y;   /* tile grid of the current (whole) image */
    int merge_groups;       /* ceil(tiles / HT_MERGE_TILES) */
} ht_buffers;

/* An image the analysis reads, as one or more textures: an image larger than
 * GL_MAX_TEXTURE_SIZE is a grid of pieces, each its own texture. Piece i covers
 * [x, x + src.width) x [y, y + src.height) of the WIDTH x HEIGHT image; x is a multiple of
 * HT_TILE_X and y of HT_TILE_Y, so a histogram tile never spans two pieces and the tiles of
 * all pieces are numbered as those of one texture would be (same results, bit for bit). All
 * pieces have the same sample count. A plain source is one piece at (0, 0). */
typedef struct ht_piece {
    ht_source src;
    int x, y;
} ht_piece;

typedef struct ht_pieces {
    const ht_piece *piece;
    int count;
    int width, height;
} ht_pieces;

/* A compute program from one embedded shader, in up to two variants: [0] reads a
 * sampler2D, [1] a sampler2DMS (defines HT_SRC_2D / HT_SRC_MS). */
typedef struct pass_program {
    const char *name;
    unsigned prog[2];
} pass_program;

/* The GL objects of a pass: up to two programs. Every pass struct begins with one, so the
 * passes share their create and destroy. */
typedef struct pass_base {
    pass_program prog[2];
} pass_base;

/* Allocates a pass struct of SIZE bytes (beginning with pass_base) and builds the sampler2D
 * variants of its programs NAME0 and NAME1 (may be NULL). NULL with the reason in err. */
void *pass_create(size_t size, const char *name0, const char *name1, char *err, size_t errlen);
/* Deletes the programs and frees the pass; *pass (a pointer to the pass pointer) becomes NULL.
 * Accepts NULL. */
void pass_destroy(pass_base **pass);

/* Builds the variant for SAMPLES if needed and makes it current. Returns the program, or 0
 * (message in err) when it does not compile. */
unsigned pass_program_use(pass_program *pp, int samples, char *err, size_t errlen);
/* Deletes both variants. */
void pass_program_destroy(pass_program *pp);

/* Binds SRC to texture unit 0 and the buffers to their HT_BIND_* points. */
void pass_bind(ht_source src, const ht_buffers *b);

/* Uniform setters on the current program (missing names are ignored, as GL does). */
void pass_set_int(unsigned prog, const char *name, int v);
void pass_set_uint(unsigned prog, const char *name, unsigned v);
void pass_set_float(unsigned prog, const char *name, float v);
void pass_set_ivec2(unsigned prog, const char *name, int x, int y);
void pass_set_vec2(unsigned prog, const char *name, float x, float y);

/* The passes, in pipeline order. Each create returns NULL with the reason in err; each
 * destroy accepts NULL and sets the pointer to NULL; each run returns false (reason in err)
 * only when its program cannot be built. */
typedef struct pass_histogram pass_histogram;
pass_histogram *pass_histogram_create(char *err, size_t errlen);
/* The one read: classes, min/max and the per-tile histograms with the frame's binning, one
 * dispatch per piece of IMG (each writing its own tiles of the whole image's tile grid). */
bool pass_histogram_run(pass_histogram *p, const ht_pieces *img, const ht_buffers *b,
                        const tonemap_params *params, char *err, size_t errlen);
/* The re-binning: the same program again, doing nothing unless the range pass found the
 * binning stale. */
bool pass_histogram_rebin(pass_histogram *p, const ht_pieces *img, const ht_buffers *b,
                          const tonemap_params *params, char *err, size_t errlen);
void pass_histogram_destroy(pass_histogram **p);

typedef struct pass_range pass_range;
pass_range *pass_range_create(char *err, size_t errlen);
/* TOTAL: the samples of the whole image (width * height). */
bool pass_range_run(pass_range *p, unsigned total, const ht_buffers *b,
                    const tonemap_params *params, char *err, size_t errlen);
void pass_range_destroy(pass_range **p);

typedef struct pass_merge pass_merge;
pass_merge *pass_merge_create(char *err, size_t errlen);
bool pass_merge_run(pass_merge *p, const ht_buffers *b, char *err, size_t errlen);
void pass_merge_destroy(pass_merge **p);

typedef struct pass_curve pass_curve;
pass_curve *pass_curve_create(char *err, size_t errlen);
bool pass_curve_run(pass_curve *p, const ht_buffers *b, const tonemap_params *params, char *err,
                    size_t errlen);
void pass_curve_destroy(pass_curve **p);

typedef struct pass_apply pass_apply;
pass_apply *pass_apply_create(char *err, size_t errlen);
/* Writes the texture OUT of format OUT_FORMAT, GL_RGBA8 or GL_RGBA16 (SRC's size; for an image
 * in pieces, run once per piece). */
bool pass_apply_run(pass_apply *p, ht_source src, const ht_buffers *b, unsigned out,
                    unsigned out_format, const tonemap_params *params, char *err,
                    size_t errlen);
void pass_apply_destroy(pass_apply **p);

#endif

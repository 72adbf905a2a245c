/* What the passes of the GPU layer share (pipeline, statistics, probes): the buffers the
 * pipeline hands them, and their programs, declared as data (pass_desc) and built per source
 * kind (sampler2D at create, sampler2DMS on first use). Internal to the GPU layer. */
#ifndef HT_PASS_H
#define HT_PASS_H

#include <stdbool.h>

#include "gpu_resource.h"
#include "display.h"
#include "pipeline.h"

/* Owned by the pipeline; the passes only bind them. */
typedef struct ht_buffers {
    gpu_buf partials, tile_hist, tile_sums, frame;
    gpu_buf dispatch;       /* the re-binning's arguments (analysis.glsl's HtDispatch) */
    int tiles_x, tiles_y;   /* tile grid of the current (whole) image */
    int merge_groups;       /* ceil(tiles / HT_MERGE_TILES) */
    int pieces;             /* of the analysed image: the re-binning's dispatches */
    /* The human-vision stage's grids (HT_HUMAN_BINDINGS, fw x fh = fov_w x fov_h; written by
     * pass_veil.h's passes, read by the histogram and apply passes) and how the analysis
     * passes take them. */
    gpu_buf veil, sample_radii;
    int fov_w, fov_h;
    int range_fits;         /* the curve pass's "range fits the display": -1 the range decides;
                               0 or 1: decided on the first histogram (human_check2do) */
    bool veiled;            /* the histogram passes read every pixel with the veil added */
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

/* One program of a pass: an embedded compute shader and the defines it is built with (lines
 * of "#define ...", may be NULL); LAZY: built on first use, not by pass_create (a variant
 * only some frames need, such as the human-vision options'). */
typedef struct pass_program_desc {
    const char *shader;
    const char *defines;
    bool lazy;
} pass_program_desc;

enum { PASS_MAX_PROGRAMS = 6 };

/* What a pass is made of, as data: its name and its programs (up to the first without a
 * shader), which pass_create builds and pass_destroy deletes. */
typedef struct pass_desc {
    const char *name;
    pass_program_desc program[PASS_MAX_PROGRAMS];
} pass_desc;

/* A program of a pass in up to two variants: [0] reads a sampler2D, [1] a sampler2DMS
 * (built with HT_SRC_2D / HT_SRC_MS before its own defines). */
typedef struct pass_program {
    const pass_program_desc *desc;
    unsigned prog[2];
} pass_program;

/* The GL programs of a pass, in the order of its pass_desc. Every pass struct begins with
 * one, so the passes share their create and destroy. */
typedef struct pass_base {
    const pass_desc *desc;
    pass_program prog[PASS_MAX_PROGRAMS];
} pass_base;

/* Allocates a pass struct of SIZE bytes (beginning with pass_base) and builds the sampler2D
 * variant of every program of DESC but the lazy ones (which must outlive the pass). NULL with the reason in
 * err. */
void *pass_create(size_t size, const pass_desc *desc, char *err, size_t errlen);
/* Deletes the programs and frees the pass; *pass (a pointer to the pass pointer) becomes NULL.
 * Accepts NULL. */
void pass_destroy(pass_base **pass);

/* Builds program I's variant for SAMPLES if needed and makes it current. Returns the
 * program, or 0 (message in err) when it does not compile. */
unsigned pass_use(pass_base *p, int i, int samples, char *err, size_t errlen);

/* Binds SRC to texture unit 0 and the buffers to their HT_BIND_* points. */
void pass_bind(ht_source src, const ht_buffers *b);

/* Uniform setters on the current program (missing names are ignored, as GL does). */
void pass_set_int(unsigned prog, const char *name, int v);
void pass_set_uint(unsigned prog, const char *name, unsigned v);
void pass_set_float(unsigned prog, const char *name, float v);
void pass_set_ivec2(unsigned prog, const char *name, int x, int y);
void pass_set_vec2(unsigned prog, const char *name, float x, float y);

/* The colour uniforms of common.glsl from P: u_lum_w (tonemap_float_weights, the weights of
 * every Lw), and for the passes that write display colours u_convert (false for the identity:
 * no arithmetic), u_to_display (P->colour's image -> display matrix), u_display_lum (the
 * display's Y row) and u_gamut. */
void pass_set_colour(unsigned prog, const tonemap_params *p);

/* The passes, in pipeline order. Each create returns NULL with the reason in err; each
 * destroy accepts NULL and sets the pointer to NULL; each run returns false (reason in err)
 * only when its program cannot be built. */
typedef struct pass_histogram pass_histogram;
pass_histogram *pass_histogram_create(char *err, size_t errlen);
/* The one read: classes, min/max and the per-tile histograms with the frame's binning, one
 * dispatch per piece of IMG (each writing its own tiles of the whole image's tile grid). */
bool pass_histogram_run(pass_histogram *p, const ht_pieces *img, const ht_buffers *b,
                        const tonemap_params *params, char *err, size_t errlen);
/* The re-binning: the same program again, an indirect dispatch of the groups the range pass
 * asked for (none unless it found the binning stale). */
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

/* Bin counts up to this make the curve in a group of this many threads instead of
 * HT_MAX_BINS: the ceiling loop's barriers then wait for 4 warps, not 32. A literal, for the
 * programs' defines. */
#define PASS_CURVE_SMALL 128
#define PASS_STR_(x) #x
#define PASS_STR(x) PASS_STR_(x)

typedef struct pass_curve pass_curve;
pass_curve *pass_curve_create(char *err, size_t errlen);
bool pass_curve_run(pass_curve *p, const ht_buffers *b, const tonemap_params *params, char *err,
                    size_t errlen);
void pass_curve_destroy(pass_curve **p);

typedef struct pass_apply pass_apply;
typedef struct pipeline_human pipeline_human;
pass_apply *pass_apply_create(char *err, size_t errlen);
/* Writes the texture OUT of format OUT_FORMAT, GL_RGBA8 or GL_RGBA16 (SRC's size; for an image
 * in pieces, run once per piece). HUMAN (pass_human.h; NULL: none): the human-vision stage
 * first, SRC the picture it was made for. DISP (display.h; NULL: tone mapping): another
 * display mode instead of the tone mapping (resolved; then HUMAN is not applied). */
bool pass_apply_run(pass_apply *p, ht_source src, const ht_buffers *b,
                    const pipeline_human *human, unsigned out, unsigned out_format,
                    const tonemap_params *params, const display_params *disp, char *err,
                    size_t errlen);
/* The same for a one-texture SRC of one sample, in the histogram pass's groups, each tile
 * also binned as pass_histogram_run bins it (b's tile grid must be SRC's). */
bool pass_apply_run_binned(pass_apply *p, ht_source src, const ht_buffers *b, unsigned out,
                           unsigned out_format, const tonemap_params *params, char *err,
                           size_t errlen);
void pass_apply_destroy(pass_apply **p);

#endif

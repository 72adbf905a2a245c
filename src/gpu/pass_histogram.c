/* Histogram pass: per-tile histograms of ln Lw in group-shared memory, plus the pixel classes
 * and min/max of each tile, in one read (histogram.comp); and its re-binning dispatch. */
#include <stdint.h>

#include <glad/gl.h>

#include "pass.h"

struct pass_histogram {
    pass_base base;
};

/* The re-binning of the fused finishing: its last group reads what the others wrote; with
 * HT_MAX_BINS bins it makes the curve in 4 layers of threads. */
#define REBIN_FINISH \
    "#define HT_REBIN_FINISH 1\n#define HT_LAST_GROUP 1\n#define HT_FRAME_ACCESS coherent\n"
_Static_assert(HT_MAX_BINS == 4 * HT_GROUP_X * HT_GROUP_Y, "HT_LAYERS 4: a thread per bin");
_Static_assert(PASS_CURVE_SMALL <= HT_GROUP_X * HT_GROUP_Y, "HT_LAYERS 1: a thread per bin");
/* The veil's second histogram in pixel sampling (b->veiled): each program again, veiled. */
#define VEIL "#define HT_HIST_VEIL 1\n"

enum { PLAIN, REBIN_FULL, REBIN_SMALL, VEILED };
static const pass_desc desc = {"histogram", {
    [PLAIN] = {"histogram.comp", NULL, false},
    [REBIN_FULL] = {"histogram.comp", REBIN_FINISH "#define HT_LAYERS 4\n", false},
    [REBIN_SMALL] = {"histogram.comp", REBIN_FINISH "#define HT_LAYERS 1\n", false},
    [VEILED + PLAIN] = {"histogram.comp", VEIL, true},
    [VEILED + REBIN_FULL] = {"histogram.comp", VEIL REBIN_FINISH "#define HT_LAYERS 4\n", true},
    [VEILED + REBIN_SMALL] = {"histogram.comp", VEIL REBIN_FINISH "#define HT_LAYERS 1\n", true},
}};

pass_histogram *pass_histogram_create(char *err, size_t errlen)
{
    return pass_create(sizeof(pass_histogram), &desc, err, errlen);
}

/* One dispatch per piece: the piece's tiles, numbered in the whole image's grid (the tile
 * origin and the grid's width per piece, uniforms only: nothing per pixel). PROGRAM: PLAIN,
 * or a re-binning of the fused finishing. REBIN: dispatched indirectly, the groups the range
 * or finish pass asked for (none unless the binning was stale). */
static bool run(pass_histogram *p, int program, const ht_pieces *img, const ht_buffers *b,
                const tonemap_params *params, bool rebin, char *err, size_t errlen)
{
    unsigned prog = pass_use(&p->base, program + (b->veiled ? VEILED : 0),
                             img->piece[0].src.samples, err, errlen);
    if (!prog)
        return false;
    if (b->veiled) {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_VEIL, b->veil.id);
        pass_set_ivec2(prog, "u_pic", img->width, img->height);
        pass_set_ivec2(prog, "u_grid", b->fov_w, b->fov_h);
    }
    pass_set_int(prog, "u_luminance", params->luminance);
    pass_set_float(prog, "u_scale", (float)params->scale);
    pass_set_int(prog, "u_rebin", rebin);
    pass_set_uint(prog, "u_tiles_x", (unsigned)b->tiles_x);
    if (rebin)
        glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, b->dispatch.id);
    for (int i = 0; i < img->count; i++) {
        const ht_piece *pc = &img->piece[i];
        pass_bind(pc->src, b);
        pass_set_ivec2(prog, "u_size", pc->src.width, pc->src.height);
        if (b->veiled)
            pass_set_ivec2(prog, "u_origin", pc->x, pc->y);
        pass_set_ivec2(prog, "u_tile_origin", pc->x / HT_TILE_X, pc->y / HT_TILE_Y);
        if (rebin)
            glDispatchComputeIndirect((GLintptr)(sizeof(ht_dispatch) + 3 * sizeof(uint32_t) * i));
        else
            glDispatchCompute((GLuint)((pc->src.width + HT_TILE_X - 1) / HT_TILE_X),
                              (GLuint)((pc->src.height + HT_TILE_Y - 1) / HT_TILE_Y), 1);
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    return true;
}

bool pass_histogram_run(pass_histogram *p, const ht_pieces *img, const ht_buffers *b,
                        const tonemap_params *params, char *err, size_t errlen)
{
    return run(p, PLAIN, img, b, params, false, err, errlen);
}

bool pass_histogram_rebin(pass_histogram *p, const ht_pieces *img, const ht_buffers *b,
                          const tonemap_params *params, char *err, size_t errlen)
{
    return run(p, PLAIN, img, b, params, true, err, errlen);
}

bool pass_histogram_rebin_indirect(pass_histogram *p, const ht_pieces *img, const ht_buffers *b,
                                   const tonemap_params *params, bool curve, char *err,
                                   size_t errlen)
{
    int program = pass_curve_small(params) ? REBIN_SMALL : REBIN_FULL;
    /* The uniforms of its last group's merge and curve first: run() dispatches. */
    unsigned prog = pass_use(&p->base, program + (b->veiled ? VEILED : 0),
                             img->piece[0].src.samples, err, errlen);
    if (!prog)
        return false;
    pass_range_uniforms(prog, 0, b, params);
    pass_curve_uniforms(prog, b, params);
    pass_set_int(prog, "u_curve", curve);
    return run(p, program, img, b, params, true, err, errlen);
}

void pass_histogram_destroy(pass_histogram **p)
{
    pass_destroy((pass_base **)p);
}

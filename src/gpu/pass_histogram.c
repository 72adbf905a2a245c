/* Histogram pass: per-tile histograms of ln Lw in group-shared memory, plus the pixel classes
 * and min/max of each tile, in one read (histogram.comp); and its re-binning dispatch. */
#include <stdint.h>

#include <glad/gl.h>

#include "pass.h"

struct pass_histogram {
    pass_base base;
};

/* PLAIN, and the veil's second histogram in pixel sampling (b->veiled). */
enum { PLAIN, VEILED };
static const pass_desc desc = {"histogram", {
    [PLAIN] = {"histogram.comp", NULL, false},
    [VEILED] = {"histogram.comp", "#define HT_HIST_VEIL 1\n", true},
}};

pass_histogram *pass_histogram_create(char *err, size_t errlen)
{
    return pass_create(sizeof(pass_histogram), &desc, err, errlen);
}

/* One dispatch per piece: the piece's tiles, numbered in the whole image's grid (the tile
 * origin and the grid's width per piece, uniforms only: nothing per pixel). REBIN: dispatched
 * indirectly, the groups the range pass asked for (none unless the binning was stale). */
static bool run(pass_histogram *p, const ht_pieces *img, const ht_buffers *b,
                const tonemap_params *params, bool rebin, char *err, size_t errlen)
{
    unsigned prog = pass_use(&p->base, b->veiled ? VEILED : PLAIN, img->piece[0].src.samples,
                             err, errlen);
    if (!prog)
        return false;
    if (b->veiled) {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, HT_BIND_VEIL, b->veil.id);
        pass_set_ivec2(prog, "u_pic", img->width, img->height);
        pass_set_ivec2(prog, "u_grid", b->fov_w, b->fov_h);
    }
    pass_set_colour(prog, params);
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
            glDispatchComputeIndirect((GLintptr)(3 * sizeof(uint32_t) * i));
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
    return run(p, img, b, params, false, err, errlen);
}

bool pass_histogram_rebin(pass_histogram *p, const ht_pieces *img, const ht_buffers *b,
                          const tonemap_params *params, char *err, size_t errlen)
{
    return run(p, img, b, params, true, err, errlen);
}

void pass_histogram_destroy(pass_histogram **p)
{
    pass_destroy((pass_base **)p);
}

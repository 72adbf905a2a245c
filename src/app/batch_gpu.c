#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "batch_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "readback.h"

/* Two slots a frame (an Ultra HDR JPEG's two renditions): one frame being read back while
 * the next is tone-mapped. */
enum { SLOTS = 4 };

struct batch_gpu {
    cmd_backend *be;      /* not owned */
    pipeline *pipe;       /* the backend's */
    gpu_readback *rb;
    double *gl_s;         /* the caller's BATCH_GL_COUNT terms, added to */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

batch_gpu *batch_gpu_create(cmd_backend *be, double *gl_s, char *err, size_t errlen)
{
    batch_gpu *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    g->be = be;
    g->gl_s = gl_s;
    if (!(g->pipe = backend_pipeline(be, err, errlen)) ||
        !(g->rb = gpu_readback_create(SLOTS))) {
        if (g->pipe)
            snprintf(err, errlen, "out of memory");
        free(g);
        return NULL;
    }
    return g;
}

void batch_gpu_destroy(batch_gpu **gp)
{
    if (!gp || !*gp)
        return;
    gpu_readback_destroy(&(*gp)->rb);
    free(*gp);
    *gp = NULL;
}

bool batch_gpu_start(batch_gpu *g, const ht_options *o, hdr_image *img, void *out, int *slot,
                     char *note, size_t notelen, char *err, size_t errlen)
{
    int none;
    return batch_gpu_start2(g, o, NULL, img, out, NULL, slot, &none, note, notelen, err, errlen);
}

bool batch_gpu_start2(batch_gpu *g, const ht_options *o, const ht_options *sdr, hdr_image *img,
                      void *out, uint8_t *sdr_out, int *slot, int *sdr_slot, char *note,
                      size_t notelen, char *err, size_t errlen)
{
    *slot = *sdr_slot = -1;
    tonemap_params tm, tm_sdr;
    if (!options_tonemap(o, img, &tm, err, errlen) ||
        (sdr && !options_tonemap(sdr, img, &tm_sdr, err, errlen))) {
        image_free(img);
        return false;
    }
    double t0 = now_s();
    bool ok = backend_gpu_upload(g->be, o, img, note, notelen, err, errlen);
    double t1 = now_s();
    g->gl_s[BATCH_GL_upload] += t1 - t0;
    if (ok && note[0]) {
        ht_options cpu = *o, cpu_sdr = sdr ? *sdr : *o;
        cpu.backend = cpu_sdr.backend = HT_BACKEND_CPU;
        bool deep = o->depth == 16;
        if (sdr && !backend_tonemap(g->be, &cpu_sdr, img, NULL, sdr_out, err, errlen)) {
            image_free(img);
            return false;
        }
        return backend_tonemap_consume(g->be, &cpu, img, deep ? NULL : out, deep ? out : NULL,
                                       err, errlen);
    }
    int w = img->width, h = img->height;
    image_free(img);   /* the texture has the pixels now */
    if (!ok)
        return false;
    /* In pieces: each piece is applied and read back into its place, one after another. */
    bool pieces = pipeline_image_pieces(g->pipe) > 1;
    if (sdr && (!pipeline_tonemap_uploaded(g->pipe, &tm_sdr, NULL, pieces ? sdr_out : NULL, err,
                                           errlen) ||
                (!pieces && (*sdr_slot = gpu_readback_start(g->rb,
                                 pipeline_output_texture(g->pipe), w, h, 8, err, errlen)) < 0)))
        return false;
    void *now = pieces ? out : NULL;
    ok = o->depth == 16 ? pipeline_tonemap_uploaded16(g->pipe, &tm, NULL, now, err, errlen)
                        : pipeline_tonemap_uploaded(g->pipe, &tm, NULL, now, err, errlen);
    if (ok && !pieces)
        *slot = gpu_readback_start(g->rb, pipeline_output_texture(g->pipe), w, h,
                                   pipeline_output_bits(g->pipe), err, errlen);
    g->gl_s[BATCH_GL_passes] += now_s() - t1;
    ok = ok && (pieces || *slot >= 0);
    if (!ok && *sdr_slot >= 0) {   /* the base's read-back would hold its slot for ever */
        gpu_readback_cancel(g->rb, *sdr_slot);
        *sdr_slot = -1;
    }
    return ok;
}

const image_allocator *batch_gpu_allocator(cmd_backend *be, int frames,
                                           void (*notify)(void *ctx), void *ctx)
{
    char err[HT_ERR_MAX];
    pipeline *p = backend_pipeline(be, err, sizeof err);
    const image_allocator *a = p ? pipeline_upload_allocator(p, frames) : NULL;
    if (a)
        pipeline_upload_notify(p, notify, ctx);
    return a;
}

bool batch_gpu_serve(cmd_backend *be, batch_ring_op op)
{
    char err[HT_ERR_MAX];
    pipeline *p = backend_pipeline(be, err, sizeof err);
    if (p && op == BATCH_RING_STOP)
        pipeline_upload_notify(p, NULL, NULL);
    else if (p && op == BATCH_RING_SERVE)
        pipeline_upload_serve(p);
    return p && op == BATCH_RING_AHEAD && pipeline_upload_make_ahead(p);
}

unsigned long batch_gpu_direct_uploads(const batch_gpu *g)
{
    return g ? pipeline_direct_uploads(g->pipe) : 0;
}

bool batch_gpu_finish(batch_gpu *g, int slot, void *out, char *err, size_t errlen)
{
    double t0 = now_s();
    gpu_readback_wait(g->rb, slot);
    double t1 = now_s();
    bool ok = gpu_readback_finish(g->rb, slot, out, err, errlen);
    g->gl_s[BATCH_GL_readback_wait] += t1 - t0;
    g->gl_s[BATCH_GL_readback_copy] += now_s() - t1;
    return ok;
}

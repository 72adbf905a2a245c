#include "backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_context.h"
#include "human.h"
#include "tonemap_fast.h"

struct cmd_backend {
    gl_context *ctx;   /* the GPU's headless context: made to decide auto, or on first use */
    pipeline *pipe;    /* made on first use */
};

/* The context, made on first use (WHY: why there is none). */
static bool ensure_context(cmd_backend *b, char *why, size_t len)
{
    return b->ctx || (b->ctx = gl_context_create_headless(why, len)) != NULL;
}

/* --backend auto (backend_create). */
static int resolve_auto(cmd_backend *b)
{
    char why[HT_ERR_MAX];
    if (!ensure_context(b, why, sizeof why))
        return HT_BACKEND_CPU;
    const char *renderer = gl_renderer();
    if (strstr(renderer, "llvmpipe") || strstr(renderer, "softpipe") ||
        strstr(renderer, "swrast")) {
        gl_context_destroy(&b->ctx);
        return HT_BACKEND_CPU;
    }
    return HT_BACKEND_GPU;
}

cmd_backend *backend_create(ht_options *o, char *err, size_t errlen)
{
    cmd_backend *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (o->backend == HT_BACKEND_AUTO)
        o->backend = resolve_auto(b);
    return b;
}

void backend_destroy(cmd_backend **bp)
{
    if (!bp || !*bp)
        return;
    pipeline_destroy(&(*bp)->pipe);
    gl_context_destroy(&(*bp)->ctx);
    free(*bp);
    *bp = NULL;
}

bool backend_gl_context(cmd_backend *b, char *err, size_t errlen)
{
    char why[HT_ERR_MAX];
    if (ensure_context(b, why, sizeof why))
        return true;
    snprintf(err, errlen, "no GPU: %s (--backend cpu works without one)", why);
    return false;
}

pipeline *backend_pipeline(cmd_backend *b, char *err, size_t errlen)
{
    if (b->pipe)
        return b->pipe;
    char why[HT_ERR_MAX];
    if (!ensure_context(b, why, sizeof why)) {
        snprintf(err, errlen, "no GPU: %s (--backend cpu works without one)", why);
        return NULL;
    }
    if (!(b->pipe = pipeline_create(why, sizeof why))) {
        snprintf(err, errlen, "GPU pipeline: %s", why);
        gl_context_destroy(&b->ctx);
        return NULL;
    }
    const char *piece = getenv("HT_MAX_PIECE");
    if (piece)
        pipeline_set_max_piece(b->pipe, atoi(piece));
    return b->pipe;
}

bool backend_tonemap(cmd_backend *b, const ht_options *o, const hdr_image *img,
                     tonemap_result *r, uint8_t *rgb, char *err, size_t errlen)
{
    tonemap_params tm;
    if (!options_tonemap(o, img, &tm, err, errlen))
        return false;
    if (o->backend == HT_BACKEND_CPU) {
        tonemap_result local;
        tonemap_result *res = r ? r : &local;
        tonemap_fast_analyze(img, &tm, res, o->jobs);
        if (rgb)
            tonemap_fast_apply(img, &tm, res, rgb, o->jobs);
        return true;
    }
    pipeline *p = backend_pipeline(b, err, errlen);
    return p && pipeline_tonemap_image(p, img, &tm, r, rgb, err, errlen);
}

bool backend_tonemap_consume(cmd_backend *b, const ht_options *o, hdr_image *img, uint8_t *rgb,
                             uint16_t *rgb16, char *err, size_t errlen)
{
    tonemap_params tm;
    if (!options_tonemap(o, img, &tm, err, errlen)) {
        image_free(img);
        return false;
    }
    if (o->backend == HT_BACKEND_CPU) {
        tonemap_result r;
        tonemap_fast_analyze(img, &tm, &r, o->jobs);
        if (rgb)
            tonemap_fast_apply(img, &tm, &r, rgb, o->jobs);
        else
            tonemap_fast_apply16(img, &tm, &r, rgb16, o->jobs);
        image_free(img);
        return true;
    }
    pipeline *p = backend_pipeline(b, err, errlen);
    if (!p || !pipeline_upload(p, img, err, errlen)) {
        image_free(img);
        return false;
    }
    /* The texture has the pixels now: the CPU copy goes before the GPU allocates the rest
     * (with a CPU rasteriser all of it is system memory). */
    image_free(img);
    bool ok = rgb ? pipeline_tonemap_uploaded(p, &tm, NULL, rgb, err, errlen)
                  : pipeline_tonemap_uploaded16(p, &tm, NULL, rgb16, err, errlen);
    pipeline_release_textures(p);
    return ok;
}

bool backend_gpu_upload(cmd_backend *b, const ht_options *o, const hdr_image *img, char *note,
                        size_t len, char *err, size_t errlen)
{
    note[0] = '\0';
    pipeline *p = backend_pipeline(b, err, errlen);
    if (!p || !pipeline_upload(p, img, err, errlen))
        return false;
    int pieces = pipeline_image_pieces(p);
    if (!human_requested(&o->tm) || pieces <= 1)
        return true;
    snprintf(note, len, "larger than a texture (in %d pieces), which the GPU's human-vision "
             "stage cannot take: the CPU reference runs the options on it", pieces);
    pipeline_release_textures(p);
    return true;
}

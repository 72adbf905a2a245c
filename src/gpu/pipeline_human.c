/* The human-vision stage in the pipeline (human_gpu.h): its inputs from a CPU analysis, the
 * apply pass's variant, the prepare pass. */
#include "pass_human.h"

#include <stdio.h>
#include <stdlib.h>

#include <glad/gl.h>

/* Fills the SSBO *BUF (made when 0) with BYTES of DATA. */
static void fill(unsigned *buf, size_t bytes, const void *data)
{
    if (!*buf)
        glGenBuffers(1, buf);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, *buf);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)bytes, data, GL_STATIC_DRAW);
}

bool human_grids_upload(ht_human_grids *g, const human_state *hs, char *err, size_t errlen)
{
    size_t n = (size_t)hs->fw * hs->fh;
    bool veil = hs->veil && hs->report.veil == HUMAN_APPLIED;
    bool acuity = hs->sr && hs->report.acuity == HUMAN_APPLIED;
    /* At least one element each, so that both bindings always have a buffer. */
    float *v = calloc(n ? 4 * n : 4, sizeof *v), *sr = calloc(n ? n : 1, sizeof *sr);
    if (!v || !sr) {
        free(v);
        free(sr);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    for (size_t k = 0; k < n; k++) {
        for (int c = 0; c < 3 && veil; c++)
            v[4 * k + c] = hs->veil[3 * k + c];
        sr[k] = acuity ? hs->sr[k] : 0.0f;
    }
    fill(&g->veil, (n ? n : 1) * 4 * sizeof *v, v);
    fill(&g->sample_radii, (n ? n : 1) * sizeof *sr, sr);
    free(v);
    free(sr);
    g->fw = hs->fw;
    g->fh = hs->fh;
    g->root_level = hs->report.root_level;
    g->stages = (acuity ? HT_HUMAN_ACUITY : 0u) | (veil ? HT_HUMAN_VEIL : 0u) |
                (hs->report.color == HUMAN_APPLIED ? HT_HUMAN_COLOR : 0u);
    return true;
}

void human_grids_release(ht_human_grids *g)
{
    if (g->veil)
        glDeleteBuffers(1, &g->veil);
    if (g->sample_radii)
        glDeleteBuffers(1, &g->sample_radii);
    *g = (ht_human_grids){0};
}

void pipeline_set_human(pipeline *p, const ht_human_grids *g)
{
    pipeline_human *h = pipeline_human_of(p);
    h->on = g && g->stages;
    h->grids = h->on ? *g : (ht_human_grids){0};
}

void pipeline_human_release(pipeline_human *h, bool all)
{
    if (h->pass && all)
        pass_human_destroy(&h->pass);
    else if (h->pass)
        pass_human_release_textures(h->pass);
}

/* The uploaded image for the stage in *IMG, the stage's passes made, the pyramid for G
 * built. False (reason in err) for an image in pieces or none, or a program that does not
 * build. */
static bool ready(pipeline *p, const ht_human_grids *g, ht_source *img, char *err,
                  size_t errlen)
{
    pipeline_human *h = pipeline_human_of(p);
    *img = pipeline_image_source(p);
    if (pipeline_image_pieces(p) != 1) {
        snprintf(err, errlen, "human-vision stage: %s",
                 pipeline_image_pieces(p) ? "an image in pieces (larger than a texture)"
                                          : "no image uploaded");
        return false;
    }
    if (!h->pass && !(h->pass = pass_human_create(err, errlen)))
        return false;
    return pass_human_pyramid(h->pass, *img, pipeline_image_generation(p), g, err, errlen);
}

bool pipeline_human_for_apply(pipeline *p, ht_source src, const pipeline_human **out,
                              char *err, size_t errlen)
{
    pipeline_human *h = pipeline_human_of(p);
    ht_source img;
    *out = NULL;
    if (!h->on)
        return true;
    if (!ready(p, &h->grids, &img, err, errlen))
        return false;
    if (src.texture != img.texture || src.samples != 1) {
        snprintf(err, errlen, "human-vision stage: the apply pass reads %s, not the image",
                 src.samples != 1 ? "a multisampled source" : "another texture");
        return false;
    }
    *out = h;
    return true;
}

bool pipeline_human_prepare(pipeline *p, const ht_human_grids *g, const tonemap_params *params,
                            ht_source *out, char *err, size_t errlen)
{
    ht_source img;
    return ready(p, g, &img, err, errlen) &&
           pass_human_prepare(pipeline_human_of(p)->pass, img, g, params, out, err, errlen);
}

bool pipeline_human_pyramid(pipeline *p, const ht_human_grids *g, unsigned *texture,
                            int *levels, char *err, size_t errlen)
{
    ht_source img;
    *texture = 0;
    *levels = 0;
    if (!ready(p, g, &img, err, errlen))
        return false;
    if (g->stages & HT_HUMAN_ACUITY)
        *texture = pass_human_pyramid_texture(pipeline_human_of(p)->pass, levels);
    return true;
}

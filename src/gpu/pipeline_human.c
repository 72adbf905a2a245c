/* The human-vision parts of the pipeline (human_gpu.h): the analysis's passes (veil,
 * veil_histogram, sample_radii), and the per-pixel stage: its inputs from the analysis or a CPU
 * one, the apply pass's variant, the prepare pass. */
#include "pipeline_internal.h"

#include <math.h>
#include <stddef.h>
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

/* The HT_HUMAN_* bits of the stages R applies: HUMAN_APPLIED only (acuity's no-op is none). */
static unsigned applied_stages(const human_report *r)
{
    return (r->acuity == HUMAN_APPLIED ? HT_HUMAN_ACUITY : 0u) |
           (r->veil == HUMAN_APPLIED ? HT_HUMAN_VEIL : 0u) |
           (r->color == HUMAN_APPLIED ? HT_HUMAN_COLOR : 0u);
}

bool human_grids_upload(ht_human_grids *g, const human_state *hs, char *err, size_t errlen)
{
    size_t n = (size_t)hs->fw * hs->fh;
    /* A stage applies only with its grid: the CPU analysis leaves none where it did not run. */
    unsigned stages = applied_stages(&hs->report) & ~(hs->veil ? 0u : HT_HUMAN_VEIL) &
                      ~(hs->sr ? 0u : HT_HUMAN_ACUITY);
    bool veil = stages & HT_HUMAN_VEIL, acuity = stages & HT_HUMAN_ACUITY;
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
    g->stages = stages;
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
    p->human_own = false;
    p->human.grids = g && g->stages ? *g : (ht_human_grids){0};
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
    pipeline_human *h = &p->human;
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
    pipeline_human *h = &p->human;
    ht_source img;
    *out = NULL;
    if (!h->grids.stages)
        return true;
    /* The analysis's own stage on another source: the caller (the viewer) ran it before,
     * through pipeline_human_prepare. */
    if (p->human_own && src.texture != pipeline_image_source(p).texture)
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
           pass_human_prepare(p->human.pass, img, g, params, out, err, errlen);
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
        *texture = pass_human_pyramid_texture(p->human.pass, levels);
    return true;
}

void pipeline_human_pyramid_stale(pipeline *p)
{
    if (p->human.pass)
        pass_human_pyramid_stale(p->human.pass);
}

/* The start of the analysis after the veil, queued at the end of the veil pass: its frame
 * fields and point positions (pass_foveal_prepare, walk 1), and for pcond's darkest-bin rule
 * (set_dark) the exact sums of the veiled foveal image and of the point samples with their
 * fenced read, collected in set_dark after the passes queued between. False (reason in err)
 * when a program does not build or out of memory. */
static bool veiled_prepare(pipeline *p, const ht_pieces *img, const tonemap_params *params,
                           char *err, size_t errlen)
{
    pass_foveal_prepare(p->foveal, img, &p->buf, params, 1);
    p->veiled_prepared = true;
    return !params->pcond || !pass_foveal_points(p->foveal) ||
           pass_foveal_exact(p->foveal, img, &p->buf, params, err, errlen);
}

/* The veil pass (pipeline.h, HT_PASSES): the decisions on the first analysis, the foveal
 * image where pixel sampling has none, the veil; with acuity the sample radii from the
 * (veiled) foveal image, which the analysis after the veil does not change: their largest is
 * read back in the sample_radii pass, while the GPU runs that analysis. */
bool pipeline_human_veil(pipeline *p, const ht_pieces *img, const tonemap_params *params,
                         char *err, size_t errlen)
{
    p->human_on = false;
    if (!human_requested(params))
        return true;
    if (img->count > 1) {
        snprintf(err, errlen, "the human-vision options (veil, acuity, colour loss) need an "
                              "image that fits one texture; this one (%dx%d) is in %d pieces",
                 img->width, img->height, img->count);
        return false;
    }
    human_view view;
    if ((!p->first && !(p->first = malloc(sizeof *p->first))) ||
        !pass_veil_prepare(p->veil, img->width, img->height, params, &p->buf, &view)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    pipeline_read_result(p, p->first);
    human_check2do(p->first, params, &view, img->width, img->height, &p->report);
    p->human_on = true;
    bool veil = p->report.veil == HUMAN_APPLIED;
    if (!veil && p->report.acuity != HUMAN_APPLIED)
        return true;
    if (params->sampling != HT_SAMPLING_FOVEAL &&
        !pass_foveal_run(p->foveal, img, &p->buf, params, err, errlen))
        return false;
    ht_source fov = pass_foveal_source(p->foveal);
    return (!veil || pass_veil_run(p->veil, fov, &p->buf, err, errlen)) &&
           (p->report.acuity != HUMAN_APPLIED ||
            pass_veil_radii(p->veil, fov, img->width, img->height, &p->buf, params, err,
                            errlen)) &&
           (!veil || veiled_prepare(p, img, params, err, errlen));
}

/* pcond's darkest-bin rule for the analysis after the veil (foveal sampling with point
 * samples and pcond's rules, after the range pass): the bin tonemap_darkest_bin gives the
 * darkest samples of a widened range from the exact extremes of the veiled foveal image and of
 * the point samples (a point sample's rounded to float, as pcond holds it), as the CPU
 * reference's (tonemap_stage_input.pcond_exact) double arithmetic has it; GLSL has no double
 * log. The extremes come from the GPU as exact sums (pass_foveal_exact, queued by the veil
 * pass, so collecting them waits for no pass of this analysis); the binning pass applies the
 * rule only where the range pass widened the range (points.comp). The point samples at that
 * darkest exact Lw are binned there by the Lw the GPU gathered for the first of them (a
 * sample of another colour with the same gathered Lw would go along; the GPU's veil, rounded
 * otherwise than the CPU's, could decide the extremes otherwise). False (reason in err) when
 * a program does not build. */
static bool set_dark(pipeline *p, const ht_pieces *img, const tonemap_params *params,
                     char *err, size_t errlen)
{
    if (!params->pcond || !pass_foveal_points(p->foveal))
        return true;
    /* Queued by the veil pass; here when a caller runs this pass alone. */
    if (!pass_foveal_exact_pending(p->foveal) &&
        !pass_foveal_exact(p->foveal, img, &p->buf, params, err, errlen))
        return false;
    float ext[4];   /* sums: foveal min, points' min, foveal max, points' max; NaN: none */
    if (!pass_foveal_exact_read(p->foveal, ext, err, errlen))
        return false;
    const double u = HT_WHTEFFICACY;
    double lo = isnan(ext[0]) ? INFINITY : u * ext[0];
    double hi = isnan(ext[2]) ? 0.0 : fmax(0.0, u * ext[2]);
    float plo = isnan(ext[1]) ? INFINITY : (float)(u * ext[1]);
    float phi = isnan(ext[3]) ? 0.0f : fmaxf(0.0f, (float)(u * ext[3]));
    if (isnan(ext[1]) || !(plo <= lo))
        return true;
    int dark = tonemap_darkest_bin(params->bins, fmin(lo, plo), fmax(hi, phi));
    float top = ext[1];   /* the largest sum whose Lw rounds to plo too */
    while ((float)(u * nextafterf(top, INFINITY)) == plo)
        top = nextafterf(top, INFINITY);
    pass_foveal_set_dark(p->foveal, dark, ext[1], top);
    return true;
}

/* The frame's binning fields, one run (one copy back, one save a slot). */
enum { BINNING_SLOT = 24 };   /* bytes: bins, widened, bw_min, bw_max, lo_thresh, hi_thresh */
_Static_assert(offsetof(ht_frame, hi_thresh) + sizeof(float) - offsetof(ht_frame, bins) ==
                   BINNING_SLOT,
               "the binning fields lie in one run");

/* Copies analysis K's binning back into the frame, on the GPU in order with the passes. */
static void binning_restore(pipeline *p, int k)
{
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);   /* after binning_save's dispatch */
    glBindBuffer(GL_COPY_READ_BUFFER, p->binnings.id);
    glBindBuffer(GL_COPY_WRITE_BUFFER, p->buf.frame.id);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, (GLintptr)k * BINNING_SLOT,
                        (GLintptr)offsetof(ht_frame, bins), BINNING_SLOT);
}

/* Saves the frame's binning into K's slot by a dispatch (pass_veil_binning_save: a buffer
 * copy reading the frame cost the H200 27-69 us). False (reason in err) when its program
 * does not build. */
static bool binning_save(pipeline *p, int k, char *err, size_t errlen)
{
    if (!p->binnings.id)
        gpu_buf_recreate(&p->binnings, 2 * BINNING_SLOT);
    if (!pass_veil_binning_save(p->veil, &p->buf, p->binnings.id, k, err, errlen))
        return false;
    p->binning_kept[k] = true;
    return true;
}

void pipeline_human_binning(pipeline *p)
{
    if (p->veiled_analysis || p->binning_held == 0)
        return;
    if (p->binning_kept[0])
        binning_restore(p, 0);
    p->binning_held = 0;
}

/* The veil_histogram pass: the analysis passes after the veil (foveal sampling: the veiled
 * foveal image, the second walk's point samples; pixel sampling: the veiled pixels), with the
 * first histogram's "range fits the display". */
bool pipeline_human_veil_histogram(pipeline *p, ht_source src, const ht_pieces *img,
                                   const tonemap_params *params, char *err, size_t errlen)
{
    if (!p->human_on || p->report.veil != HUMAN_APPLIED)
        return true;
    if (!p->veiled_prepared)   /* the veil pass prepared it, unless this pass runs alone */
        pass_foveal_prepare(p->foveal, img, &p->buf, params, 1);
    p->veiled_prepared = false;
    p->buf.range_fits = p->report.range_fits;
    p->buf.veiled = params->sampling != HT_SAMPLING_FOVEAL;
    if (!binning_save(p, 0, err, errlen))
        return false;
    if (p->binning_kept[1])
        binning_restore(p, 1);
    p->binning_held = 1;
    p->veiled_analysis = true;
    bool ok = true;
    for (int pass = HT_PASS_points_gather; ok && pass <= HT_PASS_curve; pass++) {
        if (pass == HT_PASS_points_bin)
            ok = set_dark(p, img, params, err, errlen);
        ok = ok && pipeline_run_pass(p, pass, src, params, err, errlen);
    }
    pass_foveal_set_dark(p->foveal, -1, 0.0f, 0.0f);
    p->buf.range_fits = -1;
    p->buf.veiled = false;
    p->veiled_analysis = false;
    return ok && binning_save(p, 1, err, errlen);
}

/* The sample_radii pass: the largest radius (the veil pass made them) collected for the root
 * level. */
bool pipeline_human_radii(pipeline *p, const ht_pieces *img, char *err, size_t errlen)
{
    if (!p->human_on || p->report.acuity != HUMAN_APPLIED)
        return true;
    float max_sr;
    if (!pass_veil_radii_max(p->veil, &max_sr, err, errlen))
        return false;
    p->report.max_sr = max_sr;
    p->report.root_level = human_root_level(max_sr, img->width, img->height);
    if (!(max_sr > 1.0f))   /* every radius <= 1: the stage changes nothing */
        p->report.acuity = HUMAN_APPLIED_NOOP;
    return true;
}

const human_report *pipeline_human_report(const pipeline *p)
{
    return p->human_on ? &p->report : NULL;
}

ht_human_grids pipeline_human_grids(const pipeline *p)
{
    ht_human_grids g = {0};
    if (!p->human_on)
        return g;
    g.veil = p->buf.veil.id;
    g.sample_radii = p->buf.sample_radii.id;
    g.fw = p->buf.fov_w;
    g.fh = p->buf.fov_h;
    g.root_level = p->report.root_level;
    g.stages = applied_stages(&p->report);
    return g;
}

void pipeline_read_human_grids(pipeline *p, float *veil, float *sr)
{
    size_t n = (size_t)p->buf.fov_w * p->buf.fov_h;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    float *v4 = veil ? malloc(n * 4 * sizeof *v4) : NULL;
    if (v4) {
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, p->buf.veil.id);
        glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(n * 4 * sizeof *v4), v4);
        for (size_t k = 0; k < n; k++)
            for (int c = 0; c < 3; c++)
                veil[3 * k + c] = v4[4 * k + c];
        free(v4);
    }
    if (sr) {
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, p->buf.sample_radii.id);
        glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(n * sizeof *sr), sr);
    }
}

void pipeline_human_after_analysis(pipeline *p)
{
    if (p->human_on) {
        p->human.grids = pipeline_human_grids(p);
        p->human_own = true;
    } else if (p->human_own) {
        pipeline_set_human(p, NULL);
    }
}

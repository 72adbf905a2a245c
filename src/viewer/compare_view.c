/* The reference image and the views that compare with it (tev's reference, mrv2's wipe):
 * the reference loaded into a pipeline of its own, drawn with the current image's view,
 * settings and curve (so a difference in the pictures is a difference in the images), and
 * composed with the current image: held (Z), or split by a divider the mouse drags. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "viewer_internal.h"

const ht_enum compare_modes[] = {
    {COMPARE_OFF, "off", "off"},
    {COMPARE_WIPE, "wipe", "wipe: current | reference"},
    {0, NULL, NULL},
};

/* The reference's image in its pipeline, loaded when the entry changed. False with the reason
 * in v->ref_err. */
static bool ref_load(viewer *v)
{
    if (v->ref < 0 || v->ref >= v->nfiles) {
        v->ref = -1;
        return false;
    }
    const char *path = v->files[v->ref];
    if (v->ref_loaded && strcmp(path, v->ref_path) == 0)
        return true;
    v->ref_loaded = false;
    image_free(&v->ref_img);
    char err[HT_ERR_MAX];
    if (!v->ref_pipe && !(v->ref_pipe = pipeline_create(err, sizeof err))) {
        snprintf(v->ref_err, sizeof v->ref_err, "reference: %.200s", err);
        return false;
    }
    if (!viewer_load_source(v, path, &v->ref_img, err, sizeof err) ||
        !pipeline_upload(v->ref_pipe, &v->ref_img, err, sizeof err)) {
        snprintf(v->ref_err, sizeof v->ref_err, "reference %.200s", err);
        image_free(&v->ref_img);
        return false;
    }
    snprintf(v->ref_path, sizeof v->ref_path, "%s", path);
    v->ref_loaded = true;
    v->ref_err[0] = '\0';
    return true;
}

bool viewer_ref_shown(viewer *v)
{
    if (v->ref < 0 || !v->have_image || (v->compare == COMPARE_OFF && !v->flip_held))
        return false;
    if (!ref_load(v))
        return false;
    const int *a = v->img.data_window, *b = v->ref_img.data_window;
    if (a[2] - a[0] != b[2] - b[0] || a[3] - a[1] != b[3] - b[1]) {
        snprintf(v->ref_err, sizeof v->ref_err,
                 "the reference is %dx%d, the image %dx%d: only images of one size compare",
                 b[2] - b[0] + 1, b[3] - b[1] + 1, a[2] - a[0] + 1, a[3] - a[1] + 1);
        return false;
    }
    v->ref_err[0] = '\0';
    return true;
}

void viewer_ref_render(viewer *v, const scene_view *view, int samples)
{
    if (!v->rb.valid)
        return;   /* the curve comes with the current image's first read-back */
    tonemap_params tm = v->tm;
    tm.veil = tm.acuity = tm.color_loss = false;   /* the stage runs on the current image only */
    ht_source scene = pass_scene_run_image(v->scene, v->ref_pipe, !v->ref_img.half_exact,
                                           v->vp.w, v->vp.h, samples, *view);
    char err[HT_ERR_MAX];
    pipeline_set_result(v->ref_pipe, &v->rb.r);
    if (!pipeline_run_pass(v->ref_pipe, HT_PASS_apply, scene, &tm, err, sizeof err))
        snprintf(v->ref_err, sizeof v->ref_err, "reference: %.200s", err);
}

/* Framebuffer rectangle of the viewport's pixels [X0, X1) x [Y0, Y1) (y down) from TEX. */
static void blit(viewer *v, unsigned tex, int x0, int y0, int x1, int y1)
{
    glBindFramebuffer(GL_READ_FRAMEBUFFER, v->present_fbo);
    glFramebufferTexture(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex, 0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    /* The output's rows are the viewport's, bottom-up; the window's too. */
    int sy0 = v->vp.h - y1, sy1 = v->vp.h - y0, dy = v->fb_h - (v->vp.y + v->vp.h);
    glBlitFramebuffer(x0, sy0, x1, sy1, v->vp.x + x0, dy + sy0, v->vp.x + x1, dy + sy1,
                      GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

int viewer_wipe_pos(const viewer *v)
{
    double f = fmin(1, fmax(0, v->wipe));
    return (int)lround(f * (v->wipe_horizontal ? v->vp.h : v->vp.w));
}

void viewer_present(viewer *v, bool ref)
{
    blit(v, pipeline_output_texture(v->pipe), 0, 0, v->vp.w, v->vp.h);
    if (!ref)
        return;
    unsigned r = pipeline_output_texture(v->ref_pipe);
    int at = viewer_wipe_pos(v);
    if (v->flip_held)
        blit(v, r, 0, 0, v->vp.w, v->vp.h);
    else if (v->compare == COMPARE_WIPE && v->wipe_horizontal)
        blit(v, r, 0, at, v->vp.w, v->vp.h);
    else if (v->compare == COMPARE_WIPE)
        blit(v, r, at, 0, v->vp.w, v->vp.h);
}

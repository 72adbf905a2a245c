/* The scene pass (scene.comp) against its CPU reference: every sample of the target holds the
 * image texel under the sample's position (the driver's positions) or 0 outside the image.
 * At zoom 1 and any whole-pixel pan, and zoomed in and out at fractional pans; 1 sample (the
 * target read back directly) and 4 samples (resolved by the driver, against the average of
 * the reference's samples). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "pass_scene.h"
#include "pipeline.h"
#include "testutil.h"

/* The reference: the texel (or 0) of the sample at window position (WX, WY), y up. */
static void reference(const hdr_image *img, scene_view v, int height, double wx, double wy,
                      float out[4])
{
    float ix = (float)(((float)wx - (float)v.x) / (float)v.zoom);
    float iy = (float)(((float)height - (float)wy - (float)v.y) / (float)v.zoom);
    memset(out, 0, 4 * sizeof *out);
    if (ix < 0 || iy < 0 || ix >= img->width || iy >= img->height)
        return;
    int tx = (int)floorf(ix), ty = (int)floorf(iy);
    memcpy(out, img->rgba + ((size_t)ty * img->width + tx) * 4, 4 * sizeof *out);
    out[3] = 1.0f;   /* the texture's alpha */
}

/* The target of SAMPLES samples resolved to one (a blit), read back as RGBA floats. */
static float *read_target(ht_source t, int w, int h)
{
    float *px = malloc(sizeof(float) * 4 * (size_t)w * h);
    GLuint fbo[2], res = 0;
    glGenFramebuffers(2, fbo);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo[0]);
    glFramebufferTexture(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, t.texture, 0);
    if (t.samples > 1) {
        glGenTextures(1, &res);
        glBindTexture(GL_TEXTURE_2D, res);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, w, h);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo[1]);
        glFramebufferTexture(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, res, 0);
        glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo[1]);
    }
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_FLOAT, px);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(2, fbo);
    glDeleteTextures(1, &res);
    return px;
}

static void check_view(pass_scene *s, pipeline *p, const hdr_image *img, int samples,
                       scene_view v)
{
    const int w = 173, h = 119;
    int got = pass_scene_samples(s, samples, true);
    ht_source t = pass_scene_run_image(s, p, true, w, h, got, v);
    CHECK(pass_scene_error(s)[0] == 0, "scene: %s", pass_scene_error(s));
    float pos[16][2] = {{0.5f, 0.5f}};
    GLuint fbo;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, t.texture, 0);
    for (int i = 0; got > 1 && i < got; i++)
        glGetMultisamplefv(GL_SAMPLE_POSITION, (GLuint)i, pos[i]);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    float *px = read_target(t, w, h);
    long bad = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float want[4] = {0}, one[4];
            for (int i = 0; i < got; i++) {
                reference(img, v, h, x + pos[i][0], y + pos[i][1], one);
                for (int c = 0; c < 4; c++)
                    want[c] += one[c] / got;
            }
            const float *g = px + ((size_t)y * w + x) * 4;
            for (int c = 0; c < 4; c++)
                if (fabsf(g[c] - want[c]) > 1e-6f * fabsf(want[c]) + 1e-30f && bad++ < 3)
                    CHECK(0, "%d samples, view (%g, %g) x%g: pixel (%d, %d) channel %d: %g, "
                          "want %g", got, v.x, v.y, v.zoom, x, y, c, g[c], want[c]);
        }
    CHECK(bad == 0, "%d samples, view (%g, %g) x%g: %ld values differ", got, v.x, v.y, v.zoom,
          bad);
    free(px);
}

int main(void)
{
    test_require_gl();
    char err[HT_ERR_MAX];
    pipeline *p = pipeline_create(err, sizeof err);
    pass_scene *s = pass_scene_create(err, sizeof err);
    CHECK(p && s, "create: %s", err);
    if (!p || !s)
        return test_finish("test_scene");
    hdr_image img;
    test_scene_seed = 7;
    test_make_image(&img, 61, 47, test_scene_random);
    img.half_exact = false;   /* RGBA32F: the target keeps every value */
    CHECK(pipeline_upload(p, &img, err, sizeof err), "upload: %s", err);
    const scene_view views[] = {{0, 0, 1}, {17, -9, 1}, {-30, 40, 1}, {3.25, 7.5, 2.5},
                                {10.3, 5.7, 0.37}, {-4.1, 2.9, 3.9}};
    for (size_t i = 0; i < sizeof views / sizeof views[0]; i++) {
        check_view(s, p, &img, 1, views[i]);
        check_view(s, p, &img, 4, views[i]);
    }
    /* An image in pieces (tile-aligned, 64 pixels here) draws what one texture would. */
    image_free(&img);
    test_make_image(&img, 150, 130, test_scene_random);
    img.half_exact = false;
    pipeline_set_max_piece(p, 64);
    CHECK(pipeline_upload(p, &img, err, sizeof err) && pipeline_image_pieces(p) > 1,
          "upload in pieces: %s (%d pieces)", err, pipeline_image_pieces(p));
    check_view(s, p, &img, 4, (scene_view){-20.5, -10.25, 1.3});
    check_view(s, p, &img, 1, (scene_view){5, 3, 1});
    check_view(s, p, &img, 4, (scene_view){2.2, 1.1, 0.61});
    image_free(&img);
    pass_scene_destroy(&s);
    pipeline_destroy(&p);
    return test_finish("test_scene");
}

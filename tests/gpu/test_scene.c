/* The scene pass (scene.comp) against its CPU reference: every sample of the target holds the
 * image texel under the sample's position (the driver's positions) or 0 outside the image.
 * At zoom 1 and any whole-pixel pan, and zoomed in and out at fractional pans; 1 sample (the
 * target read back directly) and 4 samples (resolved by the driver, against the average of
 * the reference's samples).
 *
 * The shader divides by the zoom, which GLSL allows to be 2.5 ulps off (a * 1/b on NVIDIA),
 * where the reference divides in IEEE float: a sample whose image position lies within a few
 * ulps of a texel edge may take the texel on either side. The reference allows both there
 * (whole rows or columns of samples that fall on an edge), and nothing else. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "pass_scene.h"
#include "pipeline.h"
#include "testutil.h"

/* An image position this many ulps (of the integer) or less from a nonzero integer may round
 * to either side of it on the GPU: the division's 2.5 ulps, with a margin. */
#define EDGE_ULPS 4
/* A multisampled pixel may differ from the average of its samples by this many ulps of the
 * largest sample (per channel): the resolve adds the samples in its own order. */
#define RESOLVE_ULPS 4
/* At most this share of a view's samples may lie on a texel edge (in percent), so that most
 * samples have one texel. The views here reach 16 % (zoom 2.5, 1 sample: the centres of every
 * fifth row are on an edge). */
#define EDGE_PERCENT 25
/* The most samples a pixel may have: the choices enumerated per pixel are at most 4^this. */
#define MAX_SAMPLES 4

/* The distance from X to the next float away from 0. */
static float ulp(float x)
{
    return nextafterf(fabsf(x), INFINITY) - fabsf(x);
}

/* The texels along one axis that a sample at image position Q may take: T[0] = floor(Q), and
 * where Q is within EDGE_ULPS of an integer, T[1] across it. Returns how many (1 or 2). At 0
 * there is no doubt: the quotient of 0 is 0, and of anything else keeps its sign. */
static int axis_texels(float q, int t[2])
{
    float r = rintf(q);
    t[0] = (int)floorf(q);
    if (r == 0 || fabsf(q - r) > EDGE_ULPS * ulp(r))
        return 1;
    t[1] = q < r ? (int)r : (int)r - 1;
    return 2;
}

/* The values (RGBA) the sample at window position (WX, WY), y up, may take: the texel under
 * it or 0 outside the image, first the one of IEEE division, then any other across a texel
 * edge. Returns how many (1 to 4). */
static int reference(const hdr_image *img, scene_view v, int height, double wx, double wy,
                     float out[4][4])
{
    float ix = (float)(((float)wx - (float)v.x) / (float)v.zoom);
    float iy = (float)(((float)height - (float)wy - (float)v.y) / (float)v.zoom);
    int tx[2], ty[2];
    int nx = axis_texels(ix, tx), ny = axis_texels(iy, ty), n = 0;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            float *o = out[n];
            memset(o, 0, 4 * sizeof *o);
            if (tx[i] >= 0 && ty[j] >= 0 && tx[i] < img->width && ty[j] < img->height) {
                memcpy(o, img->rgba + ((size_t)ty[j] * img->width + tx[i]) * 4, 4 * sizeof *o);
                o[3] = 1.0f;   /* the texture's alpha */
            }
            int k = 0;
            while (k < n && memcmp(out[k], o, 4 * sizeof *o) != 0)
                k++;
            n += k == n;   /* a new value (two texels outside the image are one 0) */
        }
    return n;
}

/* The reference pixel of GOT samples for choice K (a number in the mixed radix of the samples'
 * counts N; 0 = every sample's first value) into WANT, with each channel's tolerance. */
static void average(int got, const int n[], float cand[][4][4], int k, float want[4],
                    float tol[4])
{
    float big[4] = {0};
    memset(want, 0, 4 * sizeof *want);
    for (int i = 0; i < got; i++) {
        const float *one = cand[i][k % n[i]];
        k /= n[i];
        for (int c = 0; c < 4; c++) {
            want[c] += one[c] / got;
            if (isfinite(one[c]))
                big[c] = fmaxf(big[c], fabsf(one[c]));
        }
    }
    for (int c = 0; c < 4; c++)
        tol[c] = got > 1 ? RESOLVE_ULPS * ulp(big[c]) : 0;
}

/* Whether G is WANT within TOL, NaN for NaN and infinity for the same infinity. */
static bool matches(float g, float want, float tol)
{
    return g == want || (isnan(g) && isnan(want)) || fabsf(g - want) <= tol;
}

/* Whether pixel G is the average of some choice among its samples' values (CAND, N each). */
static bool pixel_matches(const float g[4], int got, const int n[], float cand[][4][4])
{
    int choices = 1;
    for (int i = 0; i < got; i++)
        choices *= n[i];
    for (int k = 0; k < choices; k++) {
        float want[4], tol[4];
        average(got, n, cand, k, want, tol);
        int c = 0;
        while (c < 4 && matches(g[c], want[c], tol[c]))
            c++;
        if (c == 4)
            return true;
    }
    return false;
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

/* Checks pixel (X, Y) of PX (W wide) against the reference; counts the samples on a texel edge
 * in *EDGE and the values that differ from the IEEE texels in *BAD, reporting the first 3. */
static void check_pixel(const float *px, int w, int x, int y, const hdr_image *img, int got,
                        float pos[][2], scene_view v, int h, long *edge, long *bad)
{
    float cand[MAX_SAMPLES][4][4];
    int n[MAX_SAMPLES];
    for (int i = 0; i < got; i++) {
        n[i] = reference(img, v, h, x + pos[i][0], y + pos[i][1], cand[i]);
        *edge += n[i] > 1;
    }
    const float *g = px + ((size_t)y * w + x) * 4;
    if (pixel_matches(g, got, n, cand))
        return;
    float want[4], tol[4];
    average(got, n, cand, 0, want, tol);
    for (int c = 0; c < 4; c++)
        if (!matches(g[c], want[c], tol[c]) && (*bad)++ < 3)
            CHECK(0, "%d samples, view (%g, %g) x%g: pixel (%d, %d) channel %d: %g, want %g",
                  got, v.x, v.y, v.zoom, x, y, c, g[c], want[c]);
}

static void check_view(pass_scene *s, pipeline *p, const hdr_image *img, int samples,
                       scene_view v)
{
    const int w = 173, h = 119;
    int got = pass_scene_samples(s, samples, true);
    ht_source t = pass_scene_run_image(s, p, true, w, h, got, v);
    CHECK(pass_scene_error(s)[0] == 0, "scene: %s", pass_scene_error(s));
    CHECK(got >= 1 && got <= MAX_SAMPLES, "%d samples, more than %d", got, MAX_SAMPLES);
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
    long bad = 0, edge = 0, all = (long)w * h * got;
    for (int y = 0; y < h && got <= MAX_SAMPLES; y++)
        for (int x = 0; x < w; x++)
            check_pixel(px, w, x, y, img, got, pos, v, h, &edge, &bad);
    CHECK(bad == 0, "%d samples, view (%g, %g) x%g: %ld values differ", got, v.x, v.y, v.zoom,
          bad);
    printf("%d samples, view (%g, %g) x%g: %ld of %ld samples on a texel edge\n", got, v.x, v.y,
           v.zoom, edge, all);
    CHECK(edge * 100 <= all * EDGE_PERCENT, "%d samples, view (%g, %g) x%g: %ld of %ld samples "
          "on a texel edge", got, v.x, v.y, v.zoom, edge, all);
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
    /* The last two put the pixel centres 0.005 past a texel edge on both axes, then 0.005
     * before one: an offset of that much either way fails, where an edge allows both. */
    const scene_view views[] = {{0, 0, 1},          {17, -9, 1},          {-30, 40, 1},
                                {3.25, 7.5, 2.5},   {10.3, 5.7, 0.37},    {-4.1, 2.9, 3.9},
                                {0.495, 0.495, 1},  {-0.495, -0.495, 1}};
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

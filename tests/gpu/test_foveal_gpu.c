/* The GPU's foveal image (foveal.comp, read from the pipeline's foveal pass) against the CPU
 * reference tonemap_cpu_foveal_image, box by box, on pictures whose boxes are smaller than,
 * as large as, and larger than one step of a foveal group (HT_FOVEAL_GROUP_X columns by
 * HT_FOVEAL_GROUP_Y * HT_FOVEAL_ROWS rows), with non-finite pixels (test_scene_random),
 * in one texture and in pieces, without and with pcond's RGBE rounding (also of boxes beyond
 * what RGBE holds, which both sides store as its largest value).
 *  - Without rounding each channel lies within AVG_TOL of the CPU's, relative to the box's
 *    largest channel (float sums on the GPU, double on the CPU): a pixel counted twice or
 *    left out moves a box of random pixels by far more.
 *  - With rounding the same, or one RGBE step apart (at most 1/128 of the largest channel),
 *    where the two sums straddle a step, in at most ROUNDED_MAX of the boxes. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>

#include <glad/gl.h>

#include "pipeline.h"
#include "pipeline_internal.h"   /* the foveal pass's image (pass_foveal_source) */
#include "testutil.h"

#define AVG_TOL 1e-5
#define ROUNDED_MAX 0.02   /* of the boxes */

static double worst;

/* The largest deviation of GPU from CPU (3 floats per box, GPU 4) over N boxes, relative to
 * each box's largest CPU channel; *steps: the boxes more than AVG_TOL apart. */
static double deviation(const float *gpu, const float *cpu, int n, int *steps)
{
    double d = 0;
    *steps = 0;
    for (int i = 0; i < n; i++) {
        const float *g = gpu + 4 * i, *c = cpu + 3 * i;
        double m = fmax(fabs(c[0]), fmax(fabs(c[1]), fabs(c[2]))), e = 0;
        for (int k = 0; k < 3; k++)
            e = fmax(e, fabs(g[k] - c[k]) / (m > 0 ? m : 1));
        d = fmax(d, e);
        *steps += e > AVG_TOL;
    }
    return d;
}

/* GAIN: the pixels' factor; SCALE: --scale (0: the preset's). */
static void check_case(pipeline *pl, const char *label, int w, int h, double fov, int piece,
                       bool pcond, float gain, double scale)
{
    char err[HT_ERR_MAX];
    hdr_image img;
    test_make_image(&img, w, h, test_scene_random);
    for (size_t k = 0; k < (size_t)w * h * 4; k++)
        img.rgba[k] *= (k % 4) < 3 ? gain : 1.0f;
    tonemap_params p;
    tonemap_params_default(&p);
    if (pcond)
        tonemap_apply_preset(&p, HT_PRESET_PCOND);
    p.scale = scale > 0 ? scale : p.scale;
    p.sampling = HT_SAMPLING_FOVEAL;
    p.fov = fov;
    p.point_samples = 0;
    int fw = 0, fh = 0;
    float *cpu = NULL;
    pipeline_set_max_piece(pl, piece);
    bool ok = tonemap_cpu_foveal_image(&img, &p, &fw, &fh, &cpu) &&
              pipeline_upload(pl, &img, err, sizeof err) &&
              pipeline_run_pass(pl, HT_PASS_foveal, pipeline_image_source(pl), &p, err,
                                sizeof err);
    CHECK(ok, "%s: %s", label, cpu ? err : "out of memory");
    CHECK(!piece || pipeline_image_pieces(pl) > 1, "%s: not in pieces", label);
    ht_source s = pass_foveal_source(pl->foveal);
    CHECK(s.width == fw && s.height == fh, "%s: grid %dx%d, the CPU's %dx%d", label, s.width,
          s.height, fw, fh);
    float *gpu = malloc(sizeof *gpu * 4 * (size_t)fw * (size_t)fh);
    if (ok && gpu && s.width == fw && s.height == fh) {
        glBindTexture(GL_TEXTURE_2D, s.texture);
        glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, gpu);
        glBindTexture(GL_TEXTURE_2D, 0);
        int steps = 0;
        double d = deviation(gpu, cpu, fw * fh, &steps);
        if (pcond)
            CHECK(d <= 1.0 / 128 + AVG_TOL && steps <= ROUNDED_MAX * fw * fh,
                  "%s: %d of %d boxes an RGBE step apart (at most %g), worst %g", label, steps,
                  fw * fh, ROUNDED_MAX * fw * fh, d);
        else
            CHECK(d <= AVG_TOL, "%s: box off the CPU's by %g of its largest channel", label, d);
        if (!pcond)
            worst = fmax(worst, d);
        printf("%-34s %4dx%-4d grid %2dx%-2d  worst %.2e  %d step(s)\n", label, w, h, fw, fh, d,
               steps);
    }
    free(gpu);
    free(cpu);
    image_free(&img);
}

int main(void)
{
    test_scene_seed = 4242;
    test_require_gl();
    char err[HT_ERR_MAX];
    pipeline *pl = pipeline_create(err, sizeof err);
    if (!pl) {
        CHECK(0, "%s", err);
        return test_finish("test_foveal_gpu");
    }
    /* Boxes of a few pixels (the default field). */
    check_case(pl, "small boxes", 131, 77, 40, 0, false, 1.0f, 0);
    check_case(pl, "smaller than the grid", 3, 2, 40, 0, false, 1.0f, 0);
    /* 96 x 94: the boxes of a 3840x2160 picture at 40 degrees. */
    check_case(pl, "4K's boxes", 1920, 1080, 20, 0, false, 1.0f, 0);
    /* Boxes wider and taller than a group's step, neither a multiple of it. */
    check_case(pl, "large boxes", 1000, 700, 9, 0, false, 1.0f, 0);
    check_case(pl, "wide flat boxes", 1500, 45, 3, 0, false, 1.0f, 0);
    check_case(pl, "large boxes, pieces", 1000, 700, 9, 192, false, 1.0f, 0);
    check_case(pl, "small boxes, pieces", 300, 200, 40, 64, false, 1.0f, 0);
    check_case(pl, "4K's boxes, pcond rounding", 1920, 1080, 20, 0, true, 1.0f, 0);
    check_case(pl, "large boxes, pieces, pcond", 1000, 700, 9, 192, true, 1.0f, 0);
    /* Stored values of up to 1e40 in small boxes (9 pixels: no float sum overflows). */
    check_case(pl, "small boxes, pcond, beyond RGBE", 131, 77, 40, 0, true, 1e33f, 179e3);
    printf("worst without rounding %.2e (tolerance %g)\n", worst, AVG_TOL);
    pipeline_destroy(&pl);
    return test_finish("test_foveal_gpu");
}

/* The GPU pipeline against the CPU reference with the pcond options (foveal sampling, pcond's
 * point samples and rules, Radiance weights, human ceiling, forced linear), and the GPU's
 * curves against pcond's own (pcond-reference, when $HT_SHARED is there).
 *
 * compare_backends (gpucpu.h): COMPARE_TOL_PIXELS with pixel sampling. Foveal sampling: the
 * foveal averages are float sums on the GPU and double sums on the CPU, so the samples may
 * differ in the last bits (with pcond's RGBE rounding, rarely by one RGBE step: 1/256 of the
 * largest channel, within lw's 1e-5 relative for at most one foveal sample, which then shows
 * as a histogram move), hence COMPARE_TOL_FOVEAL (compare.h). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpucpu.h"
#include "pcond_ref.h"
#include "testutil.h"

static double worst_gpu_vs_pcond[6];

int main(void)
{
    test_scene_seed = 777;
    test_lamp_x = 60.0f;
    test_lamp_y = 30.0f;
    test_require_gl();
    char err[HT_ERR_MAX];
    tonemap_params p;
    hdr_image img;
    tonemap_result *g = calloc(1, sizeof *g);

    /* Pixel sampling with the new options: the existing comparison. */
    test_make_image(&img, 131, 77, test_scene_random);
    tonemap_params_default(&p);
    p.luminance = HT_LUMINANCE_RADIANCE;
    compare_backends("random, radiance weights", &img, &p, NULL, NULL);
    p.ceiling = HT_CEILING_HUMAN;
    compare_backends("random, radiance, human ceiling", &img, &p, NULL, NULL);
    p.force_linear = true;
    compare_backends("random, forced linear", &img, &p, NULL, NULL);
    tonemap_params_default(&p);
    p.luminance = HT_LUMINANCE_RADIANCE;
    p.pcond = true;
    compare_backends("random, pixels, pcond rules", &img, &p, NULL, NULL);

    /* Foveal sampling on synthetic pictures. */
    tonemap_params_default(&p);
    p.sampling = HT_SAMPLING_FOVEAL;
    compare_backends("random, foveal", &img, &p, g, NULL);
    tonemap_apply_preset(&p, HT_PRESET_PCOND);
    compare_backends("random, pcond preset", &img, &p, g, NULL);
    CHECK(g->n_nonpositive > 0 && g->bw_min == (float)log(HT_LMIN),
          "random, pcond preset: a black sample must drop the range to LMIN (%u black, bw_min %g)",
          g->n_nonpositive, g->bw_min);
    image_free(&img);
    test_make_image(&img, 240, 130, test_scene_lamp);
    tonemap_params_default(&p);
    tonemap_apply_preset(&p, HT_PRESET_PCOND);
    compare_backends("lamp, pcond preset", &img, &p, g, NULL);
    p.ceiling = HT_CEILING_HUMAN;
    compare_backends("lamp, pcond -s", &img, &p, g, NULL);
    p.fov = 90;
    p.point_samples = 0;
    compare_backends("lamp, pcond -s, 90 deg, no point samples", &img, &p, g, NULL);
    tonemap_params_default(&p);
    p.sampling = HT_SAMPLING_FOVEAL;
    p.ceiling = HT_CEILING_HUMAN;
    compare_backends("lamp, foveal, human ceiling", &img, &p, g, NULL);
    image_free(&img);
    test_make_image(&img, 3, 2, test_scene_lamp);   /* smaller than the foveal grid */
    tonemap_params_default(&p);
    tonemap_apply_preset(&p, HT_PRESET_PCOND);
    compare_backends("3x2, pcond preset", &img, &p, g, NULL);
    image_free(&img);

    /* pcond-reference: two folders (llvmpipe is slow), all six runs, GPU vs CPU and GPU vs
     * pcond's curve files. */
    if (getenv("HT_SHARED")) {
        const char *dir = test_shared_path("pcond-reference");
        const char *names[] = {"Desk", "bimodal_window"};
        for (size_t f = 0; f < sizeof names / sizeof names[0]; f++) {
            const char *in = ref_path(dir, names[f], "input_decoded.exr");
            if (!image_load(in, NULL, &img, err, sizeof err)) {
                CHECK(0, "%s", err);
                continue;
            }
            for (int m = 0; m < 6; m++) {
                char label[128];
                snprintf(label, sizeof label, "%s %s", names[f], PCOND_MODES[m].column);
                pcond_mode_params(&PCOND_MODES[m], &p);
                compare_backends(label, &img, &p, g, NULL);
                int npts = 0;
                double at = 0;
                double d = curve_deviation(ref_path(dir, names[f], PCOND_MODES[m].curve), g, &p,
                                           tonemap_curve_ld_pcond, &npts, &at);
                CHECK(npts == 100 && d >= 0 && d <= 0.005,
                      "%s: GPU curve off pcond's by %.4f at %g", label, d, at);
                worst_gpu_vs_pcond[m] = fmax(worst_gpu_vs_pcond[m], d);
            }
            image_free(&img);
        }
        printf("GPU vs pcond, worst (log10):");
        for (int m = 0; m < 6; m++)
            printf(" %s %.4f", PCOND_MODES[m].column, worst_gpu_vs_pcond[m]);
        printf("\n");
    }
    free(g);
    return test_finish("test_pcond_gpu");
}

/* The GPU pipeline against the CPU reference on synthetic and real images, with the
 * tolerances of compare_tol_for (src/ref/compare.h). */
#include <math.h>
#include <string.h>

#include "gpucpu.h"
#include "testutil.h"

int main(void)
{
    test_scene_seed = 12345;
    test_lamp_x = 40.0f;
    test_lamp_y = 20.0f;
    test_require_gl();
    tonemap_params p;
    hdr_image img;

    test_make_image(&img, 131, 77, test_scene_random);   /* odd size: partial tiles */
    tonemap_params_default(&p);
    compare_backends("random default", &img, &p, NULL, NULL);
    p.ceiling = HT_CEILING_NONE;
    compare_backends("random ceiling none", &img, &p, NULL, NULL);
    tonemap_params_default(&p);
    p.lmin = 0.1;
    p.lmax = 500;
    p.transfer = HT_TRANSFER_GAMMA;
    p.gamma = 2.2;
    compare_backends("random user range, gamma", &img, &p, NULL, NULL);
    tonemap_params_default(&p);
    p.bins = HT_MAX_BINS;
    p.scale = 179;
    compare_backends("random 1024 bins, scale 179", &img, &p, NULL, NULL);
    p.bins = HT_MIN_BINS;
    compare_backends("random 2 bins", &img, &p, NULL, NULL);
    image_free(&img);

    test_make_image(&img, 200, 150, test_scene_lamp);
    tonemap_params_default(&p);
    compare_backends("lamp default", &img, &p, NULL, NULL);
    p.bins = 64;
    p.ldmax = 250;
    p.drange = 30;
    compare_backends("lamp 64 bins, Ldmax 250, Dr 30", &img, &p, NULL, NULL);
    image_free(&img);

    /* The binning of the previous run is reused when the range comes out the same: run an
     * image twice (the second run must not re-bin), then an image with the same min and max
     * but other pixels in between (no re-binning either, and still the right histogram). */
    {
        test_make_image(&img, 200, 150, test_scene_lamp);
        tonemap_params_default(&p);
        tonemap_result first, second, cpu;
        compare_backends("lamp, first run", &img, &p, &first, NULL);
        compare_backends("lamp, second run", &img, &p, &second, NULL);
        CHECK_EQ(second.rebinned, 0);   /* the same image again */
        CHECK(memcmp(first.hist, second.hist, sizeof first.hist) == 0,
              "histograms differ between runs");
        /* Keep rows 0..30 (the lamp, the maximum) and 149 (the darkest corner, the minimum). */
        for (size_t k = 4 * 200 * 31; k < 4 * 200 * 149; k += 4) {
            float l = 0.5f + 6e-3f * (float)(k % 9973);
            img.rgba[k] = img.rgba[k + 1] = img.rgba[k + 2] = l;
        }
        compare_backends("lamp, same range, other pixels", &img, &p, &second, &cpu);
        CHECK(second.lw_min == first.lw_min && second.lw_max == first.lw_max,
              "the case needs the same min/max: %g %g vs %g %g", second.lw_min, second.lw_max,
              first.lw_min, first.lw_max);
        CHECK_EQ(second.rebinned, 0);   /* the same range */
        CHECK(memcmp(first.hist, second.hist, sizeof first.hist) != 0, "histogram did not change");
        image_free(&img);
    }

    /* The brightest floats: scale * Y near 3e38 must come out white on the GPU too (found by
     * review: an intermediate overflowed and made them black). */
    test_make_image(&img, 3, 2, test_scene_lamp);
    img.rgba[0] = img.rgba[1] = img.rgba[2] = 3e38f;
    img.rgba[4] = 2e38f;
    tonemap_params_default(&p);
    compare_backends("3e38 pixels", &img, &p, NULL, NULL);
    image_free(&img);

    test_make_image(&img, 1, 1, test_scene_lamp);
    tonemap_params_default(&p);
    compare_backends("1x1", &img, &p, NULL, NULL);
    image_free(&img);

    /* Real files, when the shared samples are there (skip otherwise, after the above). */
    const char *real[] = {"exr-samples/Desk.exr", "exr-samples/BrightRingsNanInf.exr",
                          "exr-samples/venice_sunset_1k.hdr", "exr-samples/composite_b.exr",
                          "pcond-reference/ramp_1e-2_1e4/input_decoded.exr"};
    if (getenv("HT_SHARED"))
        for (size_t i = 0; i < sizeof real / sizeof real[0]; i++) {
            char err[HT_ERR_MAX];
            const char *path = test_shared_path(real[i]);
            if (!image_load(path, NULL, &img, err, sizeof err)) {
                CHECK(0, "%s", err);
                continue;
            }
            tonemap_params_default(&p);
            compare_backends(real[i], &img, &p, NULL, NULL);
            image_free(&img);
        }
    return test_finish("test_gpu_vs_cpu");
}

/* The apply pass's PQ and HLG encodings (ht_encode in common.glsl) against the CPU reference's
 * (tonemap_cpu_apply16, transfer.h): with a linear mapping, where the GPU's float and the CPU's
 * double give the same display value to a few ulps, every 16-bit code within one step; with
 * the histogram (whose float curve moves a value more) 99.9 % within one, as test_encode
 * allows the SDR encodings. sRGB, Rec. 2020 (a 3x3) and Display P3 displays, Ldmax 100 to 4000. */
#include <stdlib.h>

#include "pipeline.h"
#include "testutil.h"
#include "tonemap.h"

typedef struct hdr_case {
    int transfer, display_space;
    double ldmax;
    bool linear;
} hdr_case;

static void check_case(pipeline *pipe, const hdr_image *img, const hdr_case *c)
{
    tonemap_params p;
    tonemap_params_default(&p);
    p.transfer = c->transfer;
    p.ldmax = c->ldmax;
    p.drange = 1e4;
    p.force_linear = c->linear;
    p.display_space = c->display_space;
    char err[HT_ERR_MAX];
    CHECK(tonemap_set_colour(&p, &img->colour, err, sizeof err), "%s", err);
    size_t n = (size_t)img->width * img->height * 3;
    uint16_t *cpu = malloc(2 * n), *gpu = malloc(2 * n);
    tonemap_result r;
    tonemap_cpu_analyze(img, &p, &r);
    tonemap_cpu_apply16(img, &p, &r, cpu);
    bool ok = pipeline_upload(pipe, img, err, sizeof err) &&
              pipeline_tonemap_uploaded16(pipe, &p, NULL, gpu, err, sizeof err);
    CHECK(ok, "gpu: %s", err);
    size_t off = 0;
    int worst = 0, top = 0;
    for (size_t i = 0; ok && i < n; i++) {
        int d = abs((int)gpu[i] - (int)cpu[i]);
        off += d > 1;
        worst = d > worst ? d : worst;
        top = cpu[i] > top ? cpu[i] : top;
    }
    const char *name = c->transfer == HT_TRANSFER_PQ ? "PQ" : "HLG";
    if (c->linear)
        CHECK(worst <= 1, "%s, display %d, Ldmax %g, linear: GPU %d codes from the CPU", name,
              c->display_space, c->ldmax, worst);
    else
        CHECK(off * 1000 <= n && worst <= 257, "%s, display %d, Ldmax %g: %zu values more than "
              "one code off, max %d", name, c->display_space, c->ldmax, off, worst);
    CHECK(top > 30000, "%s: the picture reaches code %d only", name, top);
    free(cpu);
    free(gpu);
}

int main(void)
{
    test_require_gl();
    hdr_image img = {0};
    test_make_image(&img, 300, 200, test_scene_random);
    static const hdr_case cases[] = {
        {HT_TRANSFER_PQ, HT_DISPLAY_SPACE_SRGB, 1000, true},
        {HT_TRANSFER_PQ, HT_DISPLAY_SPACE_REC2020, 1000, true},
        {HT_TRANSFER_PQ, HT_DISPLAY_SPACE_REC2020, 4000, false},
        {HT_TRANSFER_PQ, HT_DISPLAY_SPACE_SRGB, 100, false},
        {HT_TRANSFER_HLG, HT_DISPLAY_SPACE_REC2020, 1000, true},
        {HT_TRANSFER_HLG, HT_DISPLAY_SPACE_DISPLAY_P3, 2000, true},
        {HT_TRANSFER_HLG, HT_DISPLAY_SPACE_REC2020, 1000, false},
    };
    char err[HT_ERR_MAX];
    pipeline *pipe = pipeline_create(err, sizeof err);
    CHECK(pipe, "pipeline: %s", err);
    for (size_t i = 0; pipe && i < sizeof cases / sizeof cases[0]; i++)
        check_case(pipe, &img, &cases[i]);
    pipeline_destroy(&pipe);
    image_free(&img);
    return test_finish("test_hdr_gpu");
}

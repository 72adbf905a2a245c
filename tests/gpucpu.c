#include "gpucpu.h"

#include <stdlib.h>

#include "pipeline.h"
#include "testutil.h"

void check_tonemap(const char *label, const tonemap_params *p, const tonemap_result *a,
                   const uint8_t *argb, const tonemap_result *b, const uint8_t *brgb, int w, int h,
                   const compare_tol *t)
{
    compare_report r;
    compare_tonemap(a, argb, b, brgb, w, h, p, t, &r);
    char text[2048];
    CHECK(r.ok, "%s: %s", label, compare_report_text(&r, text, sizeof text));
}

void compare_backends(const char *label, const hdr_image *img, const tonemap_params *p,
                      tonemap_result *gpu_out, tonemap_result *cpu_out)
{
    static pipeline *pipe;
    char err[HT_ERR_MAX];
    if (!pipe && !(pipe = pipeline_create(err, sizeof err))) {
        CHECK(0, "%s: pipeline_create: %s", label, err);
        return;
    }
    size_t n = (size_t)img->width * img->height;
    tonemap_result *g = calloc(1, sizeof *g), *c = calloc(1, sizeof *c);
    uint8_t *grgb = malloc(n * 3), *crgb = malloc(n * 3);
    if (!g || !c || !grgb || !crgb)
        abort();
    bool ok = pipeline_tonemap_image(pipe, img, p, g, grgb, err, sizeof err);
    CHECK(ok, "%s: GPU: %s", label, err);
    tonemap_cpu_analyze(img, p, c);
    tonemap_cpu_apply(img, p, c, crgb);
    if (ok)
        check_tonemap(label, p, g, grgb, c, crgb, img->width, img->height, compare_tol_for(p));
    if (gpu_out)
        *gpu_out = *g;
    if (cpu_out)
        *cpu_out = *c;
    free(g);
    free(c);
    free(grgb);
    free(crgb);
}

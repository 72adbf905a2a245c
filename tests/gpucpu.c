#include "gpucpu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"
#include "testutil.h"

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
    if (ok) {
        CHECK(g->n_total == c->n_total && g->n_valid == c->n_valid &&
                  g->n_nonfinite == c->n_nonfinite && g->n_nonpositive == c->n_nonpositive,
              "%s: counts gpu %u/%u/%u/%u cpu %u/%u/%u/%u", label, g->n_total, g->n_valid,
              g->n_nonfinite, g->n_nonpositive, c->n_total, c->n_valid, c->n_nonfinite,
              c->n_nonpositive);
        CHECK(g->lw_min == c->lw_min && g->lw_max == c->lw_max, "%s: lw range gpu %g..%g cpu %g..%g",
              label, g->lw_min, g->lw_max, c->lw_min, c->lw_max);
        CHECK(g->widened == c->widened && g->bins == c->bins, "%s: widened/bins", label);
        CHECK(fabsf(g->bw_min - c->bw_min) < 1e-5f && fabsf(g->bw_max - c->bw_max) < 1e-5f,
              "%s: bw gpu %.7g..%.7g cpu %.7g..%.7g", label, g->bw_min, g->bw_max, c->bw_min,
              c->bw_max);
        long moved = 0;
        for (unsigned i = 0; i < c->bins; i++)
            moved += labs((long)g->hist[i] - (long)c->hist[i]);
        long allowed = 2 * (long)fmax(4, c->n_counted / 1000.0);
        CHECK(moved <= allowed, "%s: histograms differ by %ld counts (allowed %ld)", label, moved,
              allowed);
        CHECK(labs((long)g->n_counted - (long)c->n_counted) <= allowed / 2,
              "%s: counted gpu %u cpu %u", label, g->n_counted, c->n_counted);
        CHECK(g->mapping == c->mapping, "%s: mapping gpu %s cpu %s", label,
              tonemap_mapping_name(g->mapping), tonemap_mapping_name(c->mapping));
        if (c->n_counted)
            CHECK(fabs(g->ln_avg - c->ln_avg) < 1e-4 * fmax(1, fabs(c->ln_avg)),
                  "%s: ln_avg gpu %.7g cpu %.7g", label, g->ln_avg, c->ln_avg);
        double worst = 0;
        double db = ((double)c->bw_max - c->bw_min) / c->bins;
        for (unsigned i = 0; i < c->bins; i++) {
            double lw = exp(c->bw_min + (i + 0.5) * db);
            double d = fabs(log10(tonemap_curve_ld(g, p, lw)) - log10(tonemap_curve_ld(c, p, lw)));
            worst = fmax(worst, d);
        }
        CHECK(worst <= 2e-3, "%s: curves differ by %.2g log10", label, worst);
        size_t off1 = 0, off2 = 0;
        for (size_t k = 0; k < n * 3; k++) {
            int d = abs((int)grgb[k] - (int)crgb[k]);
            off1 += d > 1;
            off2 += d > 2;
        }
        CHECK(off2 == 0 && off1 <= n * 3 / 1000, "%s: %zu values off by >1 LSB, %zu by >2 (of %zu)",
              label, off1, off2, n * 3);
    }
    if (gpu_out)
        *gpu_out = *g;
    if (cpu_out)
        *cpu_out = *c;
    free(g);
    free(c);
    free(grgb);
    free(crgb);
}

/* The binning each analysis of a frame with the veil keeps (pipeline_human_binning): the same
 * image again re-bins in neither the first analysis nor the one after the veil (the frame's
 * rebinned is 0 in both), and every frame's bytes and analysis are the first frame's; a frame
 * without the options in between, and after, is a fresh pipeline's. In pixel sampling
 * (hdrtone's defaults) and under the pcond preset (foveal sampling, point samples). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline_internal.h"
#include "testutil.h"

static char err[HT_ERR_MAX];

/* A frame of IMG through P: the bytes into RGB, the analysis into R. */
static void frame(pipeline *p, const hdr_image *img, const tonemap_params *params,
                  tonemap_result *r, uint8_t *rgb)
{
    CHECK(pipeline_tonemap_image(p, img, params, r, rgb, err, sizeof err), "frame: %s", err);
}

/* P's frame of IMG with PARAMS against a fresh pipeline's: bytes, and the analysis but for
 * whether it re-binned. */
static void same_as_fresh(const char *label, pipeline *p, const hdr_image *img,
                          const tonemap_params *params, uint8_t *a, uint8_t *b, size_t bytes)
{
    pipeline *fresh = pipeline_create(err, sizeof err);
    tonemap_result *ra = malloc(sizeof *ra), *rb = malloc(sizeof *rb);
    CHECK(fresh && ra && rb, "%s: %s", label, err);
    if (fresh && ra && rb) {
        frame(p, img, params, ra, a);
        frame(fresh, img, params, rb, b);
        ra->rebinned = rb->rebinned;
        CHECK(memcmp(a, b, bytes) == 0 && memcmp(ra, rb, sizeof *ra) == 0,
              "%s: not a fresh pipeline's frame", label);
    }
    pipeline_destroy(&fresh);
    free(ra);
    free(rb);
}

static void repeat(const char *label, const hdr_image *img, const tonemap_params *human)
{
    size_t bytes = (size_t)img->width * img->height * 3;
    uint8_t *first = malloc(bytes), *a = malloc(bytes), *b = malloc(bytes);
    tonemap_result *r0 = malloc(sizeof *r0), *r = malloc(sizeof *r);
    pipeline *p = pipeline_create(err, sizeof err);
    CHECK(p && first && a && b && r0 && r, "%s: %s", label, err);
    if (!p || !first || !a || !b || !r0 || !r)
        goto done;
    tonemap_params plain = *human;
    plain.veil = plain.acuity = plain.color_loss = false;
    frame(p, img, human, r0, first);
    CHECK(p->report.veil == HUMAN_APPLIED, "%s: the veil must apply (%d)", label, p->report.veil);
    for (int f = 1; f < 4; f++) {
        if (f == 2)   /* a frame without the options between */
            same_as_fresh(label, p, img, &plain, a, b, bytes);
        frame(p, img, human, r, a);
        CHECK(p->first->rebinned == 0 && r->rebinned == 0, "%s, frame %d: re-binned (first "
              "analysis %u, after the veil %u)", label, f, p->first->rebinned, r->rebinned);
        r->rebinned = r0->rebinned;
        CHECK(memcmp(a, first, bytes) == 0 && memcmp(r, r0, sizeof *r) == 0,
              "%s, frame %d: not the first frame's", label, f);
    }
    same_as_fresh(label, p, img, &plain, a, b, bytes);
done:
    pipeline_destroy(&p);
    free(first);
    free(a);
    free(b);
    free(r0);
    free(r);
}

int main(void)
{
    test_require_gl();
    hdr_image img;
    test_make_image(&img, 500, 300, test_scene_lamp);
    tonemap_params p;
    tonemap_params_default(&p);
    p.veil = p.acuity = p.color_loss = true;
    p.ceiling = HT_CEILING_HUMAN;
    repeat("defaults --human", &img, &p);
    tonemap_apply_preset(&p, HT_PRESET_PCOND);
    p.veil = true;
    repeat("pcond --veil", &img, &p);
    image_free(&img);
    return test_finish("test_human_binning");
}

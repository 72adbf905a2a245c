/* The one-frame-latency form (pipeline_set_latency 1):
 *  - a static image gives the bytes (pixels and frame) of latency 0 on every frame (the first
 *    runs without latency: there is no curve yet);
 *  - in a stream A, B, C (C of another size), frame N is applied with frame N-1's analysis
 *    (pipeline_apply_result of it, the reference) while the frame then holds frame N's, the
 *    same as latency 0's. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"
#include "testutil.h"

static pipeline *lat, *ref;   /* latency 1; latency 0, the reference */
static char err[HT_ERR_MAX];

/* A frame of IMG (uploaded) through P into R and RGB. */
static void frame(pipeline *p, const hdr_image *img, const tonemap_params *params,
                  tonemap_result *r, uint8_t *rgb)
{
    CHECK(pipeline_tonemap_image(p, img, params, r, rgb, err, sizeof err), "frame: %s", err);
}

static void static_image(const char *label, const hdr_image *img, const tonemap_params *params)
{
    size_t bytes = (size_t)img->width * img->height * 3;
    uint8_t *a = malloc(bytes), *b = malloc(bytes);
    tonemap_result *ra = malloc(sizeof *ra), *rb = malloc(sizeof *rb);
    for (int f = 0; f < 4; f++) {   /* the first: applied with the last image's analysis */
        frame(ref, img, params, ra, a);
        frame(lat, img, params, rb, b);
        CHECK(f == 0 || memcmp(a, b, bytes) == 0,
              "%s, frame %d: the pixels differ from latency 0's", label, f);
        CHECK(f == 0 || memcmp(ra, rb, sizeof *ra) == 0,
              "%s, frame %d: the frame differs from latency 0's", label, f);
    }
    free(a);
    free(b);
    free(ra);
    free(rb);
}

/* The stream IMGS[0..N) through the latency pipeline, each frame against IMGS[i] applied
 * (latency 0) with the analysis of the frame before (for the first, of the last image both
 * pipelines saw). */
static void stream(const char *label, const hdr_image *imgs, int n, const tonemap_params *params)
{
    tonemap_result *prev = malloc(sizeof *prev), *got = malloc(sizeof *got);
    tonemap_result *want = malloc(sizeof *want);
    pipeline_read_result(ref, prev);   /* the analysis both pipelines made last */
    for (int i = 0; i < n; i++) {
        size_t bytes = (size_t)imgs[i].width * imgs[i].height * 3;
        uint8_t *a = malloc(bytes), *b = malloc(bytes);
        frame(lat, &imgs[i], params, got, b);
        /* The reference: frame i's analysis, and frame i applied with the previous one. */
        frame(ref, &imgs[i], params, want, a);
        CHECK(pipeline_apply_result(ref, params, prev, a, 8, err, sizeof err), "%s", err);
        CHECK(memcmp(a, b, bytes) == 0, "%s, frame %d: not the image applied with frame %d's "
              "analysis", label, i, i - 1);
        /* Whether the binning was stale depends on the binning each pipeline held before. */
        got->rebinned = want->rebinned;
        CHECK(memcmp(got, want, sizeof *got) == 0, "%s, frame %d: the frame is not its analysis",
              label, i);
        memcpy(prev, want, sizeof *prev);
        free(a);
        free(b);
    }
    free(prev);
    free(got);
    free(want);
}

int main(void)
{
    test_scene_seed = 99;
    test_lamp_x = 150.0f;
    test_lamp_y = 80.0f;
    test_require_gl();
    lat = pipeline_create(err, sizeof err);
    ref = pipeline_create(err, sizeof err);
    CHECK(lat && ref, "pipeline_create: %s", err);
    if (!lat || !ref)
        return test_finish("test_latency");
    pipeline_set_latency(lat, 1);

    hdr_image imgs[3];
    test_make_image(&imgs[0], 500, 300, test_scene_random);
    test_make_image(&imgs[1], 500, 300, test_scene_lamp);
    test_scene_seed = 7;
    test_make_image(&imgs[2], 260, 190, test_scene_random);
    tonemap_params p;
    tonemap_params_default(&p);
    static_image("static", &imgs[1], &p);
    stream("stream", imgs, 3, &p);
    p.bins = 1024;
    p.ceiling = HT_CEILING_HUMAN;
    static_image("1024 bins, human ceiling: static", &imgs[0], &p);
    stream("1024 bins, human ceiling: stream", imgs, 3, &p);
    for (int i = 0; i < 3; i++)
        image_free(&imgs[i]);
    pipeline_destroy(&lat);
    pipeline_destroy(&ref);
    return test_finish("test_latency");
}

/* The forms of the finishing (pipeline_set_finish) give the same frames and pixels, bit for
 * bit: the separate passes against the finish pass in one group and in the merge groups
 * (last group finishing), on a first frame (the binning stale: the indirect re-binning's last
 * group finishes it) and on the frames after it (the finish pass alone), with bin counts on
 * both sides of the curve's small group, the ceilings, a user range, the pcond preset (the
 * curve pass after the point samples) and an image in pieces (one indirect re-binning per
 * piece). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"
#include "testutil.h"

enum { FORMS = 3, FRAMES = 3 };
static pipeline *pipe[FORMS];

typedef struct output {
    tonemap_result r;
    uint8_t *rgb;
} output;

/* FRAMES frames of IMG with PARAMS (the first uploads it) through every form, each against
 * the separate one. */
static void compare_forms(const char *label, const hdr_image *img, const tonemap_params *params,
                          int frames)
{
    size_t bytes = (size_t)img->width * img->height * 3;
    output *out = calloc(FORMS, sizeof *out);
    for (int i = 0; i < FORMS; i++)
        out[i].rgb = malloc(bytes);
    char err[HT_ERR_MAX];
    for (int f = 0; f < frames; f++) {
        for (int i = 0; i < FORMS; i++) {
            bool ok = f == 0 ? pipeline_tonemap_image(pipe[i], img, params, &out[i].r,
                                                      out[i].rgb, err, sizeof err)
                             : pipeline_tonemap_uploaded(pipe[i], params, &out[i].r, out[i].rgb,
                                                         err, sizeof err);
            CHECK(ok, "%s: %s", label, err);
        }
        for (int i = 1; i < FORMS; i++) {
            CHECK(memcmp(&out[i].r, &out[0].r, sizeof out[0].r) == 0,
                  "%s, frame %d: the frame of form %d differs from the separate passes'", label,
                  f, i);
            CHECK(memcmp(out[i].rgb, out[0].rgb, bytes) == 0,
                  "%s, frame %d: the pixels of form %d differ from the separate passes'", label,
                  f, i);
        }
        CHECK(out[0].r.rebinned == (f == 0), "%s, frame %d: rebinned %u", label, f,
              out[0].r.rebinned);
    }
    for (int i = 0; i < FORMS; i++)
        free(out[i].rgb);
    free(out);
}

static void set_form_pieces(int size)
{
    for (int i = 0; i < FORMS; i++)
        pipeline_set_max_piece(pipe[i], size);
}

int main(void)
{
    test_scene_seed = 4242;
    test_lamp_x = 200.0f;
    test_lamp_y = 90.0f;
    test_require_gl();
    char err[HT_ERR_MAX];
    for (int i = 0; i < FORMS; i++) {
        pipe[i] = pipeline_create(err, sizeof err);
        CHECK(pipe[i], "pipeline_create: %s", err);
        if (!pipe[i])
            return test_finish("test_finish");
    }
    pipeline_set_finish(pipe[0], PIPELINE_FINISH_SEPARATE);
    pipeline_set_finish(pipe[1], PIPELINE_FINISH_ONE_GROUP);
    pipeline_set_finish(pipe[2], PIPELINE_FINISH_LAST_GROUP);
    CHECK_EQ(pipeline_finish(pipe[1]), PIPELINE_FINISH_ONE_GROUP);

    hdr_image img;
    tonemap_params p;
    /* 88 tiles: 3 merge groups. */
    test_make_image(&img, 700, 500, test_scene_random);
    tonemap_params_default(&p);
    compare_forms("random, defaults", &img, &p, FRAMES);
    p.bins = 1024;
    compare_forms("random, 1024 bins", &img, &p, FRAMES);
    p.bins = 200;
    p.ceiling = HT_CEILING_HUMAN;
    compare_forms("random, 200 bins, human ceiling", &img, &p, FRAMES);
    tonemap_params_default(&p);
    p.ceiling = HT_CEILING_NONE;
    p.lmin = 1e-2;
    p.lmax = 1e3;
    compare_forms("random, no ceiling, user range", &img, &p, FRAMES);
    tonemap_params_default(&p);
    tonemap_apply_preset(&p, HT_PRESET_PCOND);
    compare_forms("random, pcond preset", &img, &p, FRAMES);
    tonemap_params_default(&p);
    set_form_pieces(192);
    compare_forms("random, in pieces", &img, &p, FRAMES);
    set_form_pieces(0);
    image_free(&img);

    /* The ceiling loop iterates; 1100 tiles: 35 merge groups. */
    test_make_image(&img, 2200, 1250, test_scene_lamp);
    tonemap_params_default(&p);
    compare_forms("lamp, defaults", &img, &p, 2);
    p.bins = 300;
    compare_forms("lamp, 300 bins", &img, &p, 2);
    image_free(&img);

    for (int i = 0; i < FORMS; i++)
        pipeline_destroy(&pipe[i]);
    return test_finish("test_finish");
}

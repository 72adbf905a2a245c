/* image_load_options.progress (image.h's image_progress): a PIZ OpenEXR file, decoded straight
 * to half floats by the C++ library, tells the rows done from the top in growing whole-chunk
 * bands ending at the height, each band's rows already final when told (a copy taken then
 * equals the finished image), on one thread and on two, and the image is bit-identical to a
 * load without progress. */
#define _POSIX_C_SOURCE 200809L   /* getpid */

#include <string.h>
#include <unistd.h>

#include <tinyexr.h>

#include "image_internal.h"
#include "map_write.h"
#include "testutil.h"

enum { W = 301, H = 517, MAX_CALLS = 64 };

typedef struct seen {
    int calls, done[MAX_CALLS], width, height;
    bool ordered;               /* DONE grew */
    uint16_t *copy;             /* the rows as told, W x H x 4 */
} seen;

static void on_rows(void *ctx, const uint16_t *half, int width, int done, int height)
{
    seen *s = ctx;
    int before = s->calls ? s->done[s->calls - 1] : 0;
    s->ordered = s->ordered && done > before && done <= H && width == W;
    if (!s->ordered || s->calls >= MAX_CALLS)
        return;
    s->done[s->calls++] = done;
    s->width = width;
    s->height = height;
    size_t row = (size_t)W * 4;
    memcpy(s->copy + (size_t)before * row, half + (size_t)before * row,
           (size_t)(done - before) * row * sizeof *half);
}

static void check_load(const char *path, int compression, int chunk, int threads,
                       float *const *pl)
{
    const char *names[3] = {"B", "G", "R"};
    char err[HT_ERR_MAX];
    CHECK(exr_write_planes(path, (const float *const *)pl, names, 3, W, H, true, compression, err,
                           sizeof err), "%s", err);
    static uint16_t copy[W * H * 4];
    seen s = {.ordered = true, .copy = copy};
    image_progress pr = {on_rows, &s};
    image_load_options lo = {.half_only = true, .threads = threads,
                             .decoder = IMAGE_DECODER_OPENEXR, .progress = &pr};
    hdr_image with = {0}, without = {0};
    CHECK(image_load(path, &lo, &with, err, sizeof err), "%s", err);
    lo.progress = NULL;
    CHECK(image_load(path, &lo, &without, err, sizeof err), "%s", err);
    CHECK(s.calls > 1, "%d threads: %d calls", threads, s.calls);
    CHECK(s.ordered, "%d threads: the rows done did not grow within the image", threads);
    CHECK_EQ(s.width, W);
    CHECK_EQ(s.height, H);
    for (int k = 0; k + 1 < s.calls; k++)
        CHECK(s.done[k] % chunk == 0, "band end %d is not a chunk's (%d)", s.done[k], chunk);
    CHECK_EQ(s.calls ? s.done[s.calls - 1] : 0, H);
    size_t bytes = (size_t)W * H * 4 * sizeof *with.half;
    CHECK(with.half && !memcmp(with.half, copy, bytes), "%d threads: rows told before final",
          threads);
    CHECK(with.half && without.half && !memcmp(with.half, without.half, bytes),
          "%d threads: the image differs with progress", threads);
    image_free(&with);
    image_free(&without);
    remove(path);
}

int main(void)
{
    if (!image_have_openexr()) {
        printf("skipped: built without the OpenEXR library\n");
        return SKIP_CODE;
    }
    static float b[W * H], g[W * H], r[W * H];
    unsigned st = 7;
    for (int i = 0; i < W * H; i++) {
        r[i] = 100 * test_rand(&st);
        g[i] = (float)(i % W) / W;
        b[i] = (float)(i / W) / H;
    }
    float *pl[3] = {b, g, r};
    char path[64];
    snprintf(path, sizeof path, "test_load_progress_%d.exr", (int)getpid());
    check_load(path, TINYEXR_COMPRESSIONTYPE_PIZ, 32, 1, pl);
    check_load(path, TINYEXR_COMPRESSIONTYPE_PIZ, 32, 2, pl);
    return test_finish("test_load_progress");
}

/* Every OpenEXR decoder path gives the pixels of the paths before issue 24, as half floats,
 * bit for bit: for every sample image in ../shared/exr-samples (parts, layers, luminance/
 * chroma, tiled, multi-resolution), every part and every layer of it, each decoder
 * (image_decoder) on one thread and on three, straight to half (half_only) and as floats.
 * The reference is the decoders before the change: tinyexr, OpenEXRCore or the RGBA
 * interface to floats, then image_rgba_to_half (what image_add_half gave the GPU). The
 * straight-to-half paths: the C++ library (none, PIZ, DWA) and OpenEXRCore (the rest). Also: the
 * floats of a half view are the halves' values; a half_alloc allocator gets and takes back
 * the buffer exactly once; the floor decodes what hdrtone does. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "testutil.h"

/* The decoders asked for, and how often each was the one used (by its hdr_image.decoder). */
static const char *const used_names[] = {"OpenEXR", "OpenEXRCore", "tinyexr", "OpenEXR RGBA"};
enum { NUSED = sizeof used_names / sizeof used_names[0] };
static int used[NUSED];

/* Equal halves, NaN matching NaN (a NaN's payload is not part of the picture). */
static bool same_half(uint16_t x, uint16_t y)
{
    return x == y || ((x & 0x7fff) > 0x7c00 && (y & 0x7fff) > 0x7c00);
}

/* IMG's pixels as halves (its own, or its floats rounded as image_add_half does); malloc'd. */
static uint16_t *halves_of(const hdr_image *img)
{
    size_t n = (size_t)img->width * img->height * 4;
    uint16_t *h = malloc(n * sizeof *h + 1);
    if (h && img->half)
        memcpy(h, img->half, n * sizeof *h);
    else if (h && img->rgba)
        image_rgba_to_half(img->rgba, n, h);
    return h;
}

static void count_used(const hdr_image *img)
{
    for (int k = 0; k < NUSED; k++)
        used[k] += strcmp(img->decoder, used_names[k]) == 0;
}

/* Loads WHAT (PATH, part PART, layer LAYER) with DECODER on THREADS threads, HALF_ONLY or not,
 * and compares it with REF (halves, W x H x 4). */
static void check_one(const char *what, const char *path, const char *part, const char *layer,
                      int decoder, int threads, bool half_only, const hdr_image *ref,
                      const uint16_t *ref_half)
{
    image_load_options lo = {.part = part, .layer = layer, .threads = threads,
                             .half_only = half_only, .decoder = decoder};
    hdr_image img;
    char err[HT_ERR_MAX];
    if (!image_load(path, &lo, &img, err, sizeof err)) {
        CHECK(false, "%s: decoder %d: %s", what, decoder, err);
        return;
    }
    count_used(&img);
    CHECK(img.width == ref->width && img.height == ref->height && img.half_exact ==
              ref->half_exact, "%s: %s: size or half_exact differ", what, img.decoder);
    CHECK(!half_only || !img.half_exact || (img.half && !img.rgba),
          "%s: %s: half_only gave floats", what, img.decoder);
    CHECK(half_only || img.rgba, "%s: %s: no floats", what, img.decoder);
    if (img.width == ref->width && img.height == ref->height && ref->half_exact) {
        uint16_t *h = halves_of(&img);
        size_t n = (size_t)img.width * img.height * 4, i = 0;
        while (h && i < n && same_half(h[i], ref_half[i]))
            i++;
        CHECK(h && i == n, "%s: %s (%d threads%s): value %zu is %#x, before %#x", what,
              img.decoder, threads, half_only ? ", half" : "", i, h && i < n ? h[i] : 0,
              i < n ? ref_half[i] : 0);
        free(h);
    }
    image_free(&img);
}

/* Every decoder against the reference, for one view of PATH. */
static void check_view(const char *path, const char *name, const char *part, const char *layer)
{
    char what[512];
    snprintf(what, sizeof what, "%s part %s layer '%s'", name, part, layer ? layer : "(default)");
    /* tinyexr asked for: never a straight-to-half path; where tinyexr cannot read the file,
     * OpenEXRCore to floats or the RGBA interface, as before. */
    image_load_options lo = {.part = part, .layer = layer, .threads = 1,
                             .decoder = IMAGE_DECODER_TINYEXR};
    hdr_image ref;
    char err[HT_ERR_MAX];
    if (!image_load(path, &lo, &ref, err, sizeof err)) {
        CHECK(false, "%s: the reference load failed: %s", what, err);
        return;
    }
    CHECK(strcmp(ref.decoder, "OpenEXR") != 0, "%s: the reference used the new path", what);
    uint16_t *ref_half = halves_of(&ref);
    static const int decoders[] = {IMAGE_DECODER_AUTO, IMAGE_DECODER_OPENEXR,
                                   IMAGE_DECODER_CORE, IMAGE_DECODER_TINYEXR};
    for (size_t d = 0; ref_half && d < sizeof decoders / sizeof *decoders; d++)
        for (int threads = 1; threads <= 3; threads += 2)
            for (int half_only = 0; half_only < 2; half_only++)
                check_one(what, path, part, layer, decoders[d], threads, half_only, &ref,
                          ref_half);
    free(ref_half);
    image_free(&ref);
}

/* Each part of PATH and each layer that part lists. */
static void check_file(const char *path, const char *name)
{
    hdr_image img;
    char err[HT_ERR_MAX];
    if (!image_load(path, NULL, &img, err, sizeof err)) {
        CHECK(false, "%s", err);
        return;
    }
    for (int p = 0; p < img.part_count; p++) {
        char part[16], layers[192];
        snprintf(part, sizeof part, "%d", p);
        check_view(path, name, part, NULL);
        snprintf(layers, sizeof layers, "%s", img.parts ? img.parts[p].layers : "");
        for (char *save = NULL, *l = strtok_r(layers, ",", &save); l;
             l = strtok_r(NULL, ",", &save))
            check_view(path, name, part, strcmp(l, "(none)") == 0 ? "" : l);
    }
    image_free(&img);
}

/* A test allocator: one buffer at a time, counted. */
typedef struct counting {
    int gets, puts;
    void *last;
} counting;

static void *count_get(void *ctx, size_t bytes)
{
    counting *c = ctx;
    c->gets++;
    return c->last = malloc(bytes);
}

static void count_put(void *ctx, void *p)
{
    counting *c = ctx;
    c->puts += p == c->last;
    free(p);
}

static void check_allocator(const char *path)
{
    counting c = {0};
    image_allocator al = {count_get, count_put, &c};
    image_load_options lo = {.half_only = true, .half_alloc = &al};
    hdr_image img;
    char err[HT_ERR_MAX];
    bool ok = image_load(path, &lo, &img, err, sizeof err);
    CHECK(ok, "%s", err);
    CHECK(c.gets == 1 && ok && img.half == c.last && img.half_alloc == &al,
          "the half floats did not come from the allocator (%d gets)", c.gets);
    image_free(&img);
    CHECK(c.puts == 1, "the allocator got %d buffers back, not 1", c.puts);
    /* No floats wanted: the allocator is not for them. */
    lo.half_only = false;
    c = (counting){0};
    ok = image_load(path, &lo, &img, err, sizeof err);
    CHECK(ok && img.rgba && !img.half && c.gets == 0, "floats: %d gets", c.gets);
    image_free(&img);
}

/* image_exr_floor decodes Desk.exr's R, G, B as hdrtone does. */
static void check_floor(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data = malloc(64 << 20);
    size_t size = f && data ? fread(data, 1, 64 << 20, f) : 0;
    if (f)
        fclose(f);
    image_load_options lo = {.half_only = true};
    hdr_image img;
    char err[HT_ERR_MAX];
    CHECK(size > 0 && image_load_memory(path, data, size, &lo, &img, err, sizeof err),
          "%s: cannot load", path);
    if (size > 0 && img.half) {
        size_t n = (size_t)img.width * img.height * 4;
        uint16_t *out = calloc(n, sizeof *out);
        CHECK(out && image_exr_floor(data, size, out, err, sizeof err), "floor: %s", err);
        size_t i = 0;
        while (out && i < n && (i % 4 == 3 || same_half(out[i], img.half[i])))
            i++;
        CHECK(i == n, "the floor differs at value %zu", i);
        free(out);
        image_free(&img);
    }
    free(data);
}

int main(void)
{
    if (!getenv("HT_HAVE_OPENEXR")) {
        printf("skipped: built without the OpenEXR library\n");
        return SKIP_CODE;
    }
    const char *dir = test_shared_path("exr-samples");
    DIR *d = opendir(dir);
    CHECK(d != NULL, "cannot open %s", dir);
    int files = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".exr") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        check_file(path, e->d_name);
        files++;
    }
    if (d)
        closedir(d);
    CHECK(files >= 10, "only %d sample files", files);
    for (int k = 0; k < 3; k++) /* every decoder but the RGBA one (DWA floats) ran */
        CHECK(used[k] > 0, "decoder %s never ran", used_names[k]);
    char path[4096];
    snprintf(path, sizeof path, "%s/Desk.exr", dir);
    check_allocator(path);
    check_floor(path);
    return test_finish("test_decoders");
}

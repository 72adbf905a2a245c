/* libFuzzer harness: any bytes through the loaders (OpenEXR, Radiance, PFM, the HDR PNGs and
 * Ultra HDR JPEGs: image_load_memory picks by content), as a file's
 * content. A crash, hang, leak or sanitizer report is a bug; refusing the input is fine.
 * Each input is loaded by every OpenEXR decoder (image_decoder: the C++ library straight to
 * half and OpenEXRCore, each on one thread and on three, tinyexr; image_exr.c's
 * choose_decoder), as half floats where the image is half-exact. One decoder on one thread and
 * on three must give the same pixels whenever it accepts the file; two decoders, when every
 * decoder accepts it: damaged compressed data (a PIZ chunk that decompresses short, say) is
 * refused by OpenEXRCore but decoded to different garbage by the C++ library and tinyexr.
 * The runs on three threads tell their progress (image_progress), whose contract is checked:
 * rows growing within the image, the height told once the load succeeds and never otherwise.
 * Every build links it with tests/fuzz/driver.c for a smoke run; scripts/fuzz with libFuzzer. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Equal pixels: each value equal, or NaN in both (a NaN's payload may differ by path). */
static bool same(const hdr_image *a, const hdr_image *b)
{
    if (a->width != b->width || a->height != b->height || !a->half != !b->half)
        return false;
    size_t n = (size_t)a->width * (size_t)a->height * 4;
    for (size_t i = 0; i < n; i++) {
        if (a->half) {
            uint16_t x = a->half[i], y = b->half[i];
            if (x != y && !((x & 0x7fff) > 0x7c00 && (y & 0x7fff) > 0x7c00))
                return false;
        } else {
            float x = a->rgba[i], y = b->rgba[i];
            if (memcmp(&x, &y, sizeof x) != 0 && !(x != x && y != y))
                return false;
        }
    }
    return true;
}

/* What a load's progress (image_progress) told last: DONE of HEIGHT rows; DONE -1 after a
 * broken contract (rows not growing, beyond the image). */
typedef struct told {
    int done, height;
} told;

static void on_rows(void *ctx, const uint16_t *half, int width, int done, int height)
{
    told *t = ctx;
    bool fits = half && width > 0 && done > t->done && done <= height &&
                (!t->done || height == t->height);
    *t = (told){fits ? done : -1, height};
}

/* Aborts unless T fits the load's outcome: the image's height told when it loaded (or nothing,
 * by a decoder that tells none), never when it failed. */
static void check_told(told t, bool ok, const hdr_image *img)
{
    if (t.done < 0 || (ok ? t.done && (t.done != img->height || t.height != img->height)
                          : t.done && t.done == t.height))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A small pixel limit keeps the fuzzer on parsing, not on decoding huge honest images. */
    static const struct {
        int decoder, threads;
    } runs[] = {
        {IMAGE_DECODER_OPENEXR, 1}, {IMAGE_DECODER_OPENEXR, 3}, {IMAGE_DECODER_CORE, 1},
        {IMAGE_DECODER_CORE, 3},    {IMAGE_DECODER_TINYEXR, 1},
    };
    enum { NRUNS = sizeof runs / sizeof runs[0] };
    hdr_image img[NRUNS];
    bool ok[NRUNS];
    char err[HT_ERR_MAX];
    for (int r = 0; r < NRUNS; r++) {
        told t = {0, 0};
        image_progress pr = {on_rows, &t};
        image_load_options opts = {.max_pixels = (uint64_t)1 << 22, .threads = runs[r].threads,
                                   .half_only = true, .decoder = runs[r].decoder,
                                   .progress = runs[r].threads > 1 ? &pr : NULL};
        ok[r] = image_load_memory("fuzz-input", data, size, &opts, &img[r], err, sizeof err);
        check_told(t, ok[r], &img[r]);
    }
    bool all = true;
    for (int r = 0; r < NRUNS; r++)
        all = all && ok[r];
    for (int r = 1; r < NRUNS; r++)
        for (int q = 0; q < r; q++) {
            bool one_decoder = ok[r] && ok[q] && strcmp(img[q].decoder, img[r].decoder) == 0;
            if ((one_decoder || all) && !same(&img[q], &img[r]))
                abort(); /* two decoders (or thread counts) decoded different pixels */
        }
    for (int r = 0; r < NRUNS; r++)
        if (ok[r])
            image_free(&img[r]);
    return 0;
}

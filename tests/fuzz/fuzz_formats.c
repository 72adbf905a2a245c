/* libFuzzer harness: any bytes through the loaders of the formats read with OpenImageIO and
 * libjxl (image_oiio.c, jxl_read.c; issue 31), as a file's content. OpenEXR, Radiance and PFM
 * inputs are left to fuzz_load. A crash, hang, leak or sanitizer report is a bug; refusing the
 * input is fine. Each accepted input is loaded on one thread and on three, which must give the
 * same pixels, and its metadata entries must be terminated strings. Seeds: small files of
 * every format in tests/fuzz/seeds/fuzz_formats/ (smoke.sh and scripts/fuzz start from them),
 * and what runs found there: avif-ispe-larger-than-picture.avif, a heap overflow in
 * OpenImageIO 2.4's HEIF reader (HEIF is read with libheif itself since), and
 * dpx-user-data-beyond-file.dpx, a 2 GiB allocation and an assertion in its DPX reader;
 * jp2-components-differ.jp2, a read past a buffer inside OpenImageIO's JPEG 2000 reader, which
 * ASan cannot see there but the thread check did (the stale bytes differ from load to load). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "image_formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    image_format_id id = image_format_sniff(data, size);
    if (id == IMAGE_FORMAT_NONE || id == IMAGE_FORMAT_EXR || id == IMAGE_FORMAT_RADIANCE ||
        id == IMAGE_FORMAT_PFM)
        return 0;
    hdr_image img[2];
    bool ok[2];
    char err[HT_ERR_MAX];
    for (int r = 0; r < 2; r++) {
        /* A small pixel limit keeps the fuzzer on parsing, not on decoding huge honest images. */
        image_load_options opts = {.max_pixels = (uint64_t)1 << 20, .threads = r ? 3 : 1};
        ok[r] = image_load_memory("fuzz-input", data, size, &opts, &img[r], err, sizeof err);
        if (!ok[r] && strncmp(err, "fuzz-input: ", 12) != 0)
            abort(); /* a refusal names the file */
    }
    if (ok[0] != ok[1])
        abort(); /* one thread count accepted what the other refused */
    if (ok[0]) {
        size_t n = (size_t)img[0].width * img[0].height * 4, bytes = 0;
        if (img[1].width != img[0].width || img[1].height != img[0].height)
            abort();
        for (size_t i = 0; i < n; i++)
            if (memcmp(&img[0].rgba[i], &img[1].rgba[i], sizeof(float)) != 0 &&
                !(img[0].rgba[i] != img[0].rgba[i] && img[1].rgba[i] != img[1].rgba[i]))
                abort(); /* thread counts decoded different pixels */
        for (int k = 0; k < img[0].meta_count; k++)
            bytes += strlen(img[0].meta[k].key) + strlen(img[0].meta[k].value);
        if (bytes > (size_t)img[0].meta_count * (IMAGE_META_FOLD + 1024))
            abort(); /* a value escaped the fold */
        image_free(&img[0]);
        image_free(&img[1]);
    }
    return 0;
}

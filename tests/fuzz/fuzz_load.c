/* libFuzzer harness: any bytes through the loaders (OpenEXR, Radiance, PFM), as a file's
 * content. A crash, hang, leak or sanitizer report is a bug; refusing the input is fine.
 * Built and run by scripts/fuzz (not part of the normal build). */
#include <stddef.h>
#include <stdint.h>

#include "image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A small pixel limit keeps the fuzzer on parsing, not on decoding huge honest images. */
    image_load_options opts = {NULL, NULL, (uint64_t)1 << 22, false};
    hdr_image img;
    char err[HT_ERR_MAX];
    if (image_load_memory("fuzz-input", data, size, &opts, &img, err, sizeof err))
        image_free(&img);
    return 0;
}

/* libFuzzer harness: any bytes through the loaders (OpenEXR, Radiance, PFM), as a file's
 * content. A crash, hang, leak or sanitizer report is a bug; refusing the input is fine.
 * Each input is loaded on one thread and on three: one OpenEXR decoder against the other
 * (image_exr.c's choose_decoder), where both accept the file their pixels must be the same.
 * Every build links it with tests/fuzz/driver.c for a smoke run; scripts/fuzz with libFuzzer. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A small pixel limit keeps the fuzzer on parsing, not on decoding huge honest images. */
    image_load_options opts = {.max_pixels = (uint64_t)1 << 22, .threads = 1};
    hdr_image one, three;
    char err[HT_ERR_MAX];
    bool ok1 = image_load_memory("fuzz-input", data, size, &opts, &one, err, sizeof err);
    opts.threads = 3;
    bool ok3 = image_load_memory("fuzz-input", data, size, &opts, &three, err, sizeof err);
    if (ok1 && ok3 &&
        (one.width != three.width || one.height != three.height ||
         memcmp(one.rgba, three.rgba, (size_t)one.width * (size_t)one.height * 4 *
                                          sizeof(float)) != 0))
        abort(); /* one thread and three decoded different pixels */
    if (ok1)
        image_free(&one);
    if (ok3)
        image_free(&three);
    return 0;
}

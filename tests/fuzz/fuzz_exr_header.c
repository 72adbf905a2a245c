/* libFuzzer harness: any bytes through exr_validate alone, the OpenEXR loader's structural
 * checks (src/io/exr_validate.c), with no decoder behind them. A crash, hang, leak or sanitizer
 * report is a bug; refusing the input is fine. Each accepted file's parts are read through, so
 * that a description pointing outside the input or a wrong channel count shows up here.
 * Every build links it with tests/fuzz/driver.c for a smoke run; scripts/fuzz with libFuzzer. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "exr_validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    exr_file f;
    char why[HT_ERR_MAX];
    if (exr_validate(data, size, &f, why, sizeof why)) {
        volatile size_t sink = 0;
        for (int k = 0; k < f.nparts; k++)
            for (int c = 0; c < f.parts[k].nchannels; c++)
                sink += strlen(f.parts[k].chans[c].name);
        (void)sink;
    } else if (memchr(why, '\0', sizeof why) == NULL) {
        __builtin_trap(); /* the reason must be a terminated string */
    }
    exr_file_free(&f);
    return 0;
}

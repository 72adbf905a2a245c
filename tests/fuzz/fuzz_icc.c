/* libFuzzer harness: the colour path of PNG and JPEG. Bytes that begin like a PNG or a JPEG go
 * through image_ldr_load_memory (the colour chunks, iCCP's inflation, APP2's segments, then
 * lcms2 on the profile they hold); any other bytes are an ICC profile given to icc_to_linear
 * with pixels of 8, 16 and 32 bits, RGB and grey (each with an alpha). lcms2 is the parser: a
 * crash, hang, leak or sanitizer report is a bug; refusing the input is fine. Nothing is
 * asserted of the values (a hostile curve may rightly make NaN), only the layout: the slot
 * after B is left as it was. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "icc.h"
#include "image_ldr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Codes of a few colours: black, white, a grey, the primaries, a mix. */
static const uint8_t CODES8[] = {0, 0, 0, 255, 255, 255, 128, 128, 128, 255, 0, 0,
                                 0, 255, 0, 0, 0, 255, 37, 200, 90, 255, 255, 0};
enum { NVAL = sizeof CODES8, NPIX = NVAL / 3 };

static void run_profile(const uint8_t *p, size_t n)
{
    uint16_t c16[NVAL];
    float cf[NVAL], out[NVAL * 2];   /* grey: NVAL / 2 pixels of 4 floats */
    for (int i = 0; i < NVAL; i++) {
        c16[i] = (uint16_t)(CODES8[i] * 257);
        cf[i] = CODES8[i] / 255.0f;
    }
    const void *in[3] = {CODES8, c16, cf};
    image_colour c;
    char err[HT_ERR_MAX];
    for (int t = ICC_U8; t <= ICC_F32; t++)
        for (int grey = 0; grey < 2; grey++) {
            /* Grey: the codes two by two, grey and alpha. */
            icc_pixels px = {in[t], t, grey ? 2 : 3, grey ? NVAL / 2 : NPIX, out, 4};
            for (int i = 0; i < NVAL * 2; i++)
                out[i] = -12345.0f;
            if (icc_to_linear(p, n, &px, &c, "fuzz-profile", err, sizeof err))
                for (size_t i = 0; i < px.count; i++)
                    if (out[4 * i + 3] != -12345.0f)   /* the slot after B is left as it was */
                        abort();
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (image_ldr_sniff(data, size)) {
        ldr_image img;
        char err[HT_ERR_MAX];
        if (image_ldr_load_memory("fuzz-input", data, size, (uint64_t)1 << 20, &img, err,
                                  sizeof err))
            image_ldr_free(&img);
        return 0;
    }
    run_profile(data, size);
    return 0;
}

/* Transfer functions to linear light (contract in image_internal.h), written from the
 * standards: IEC 61966-2-1 (sRGB), BT.709, SMPTE ST 2084 (PQ), BT.2100 (HLG). */
#include "image_internal.h"

#include <math.h>

#include "../ref/transfer.h"   /* static inline: no link upwards (transfer.h) */

float image_transfer_to_linear(float v, int code, float gamma)
{
    float a = fabsf(v), l;
    switch (code) {
    case IMAGE_TRANSFER_LINEAR:
        return v;
    case IMAGE_TRANSFER_BT709:
    case 6:  /* BT.601: the same curve */
    case 14: /* BT.2020 10-bit */
    case 15: /* BT.2020 12-bit */
        l = a < 0.081f ? a / 4.5f : powf((a + 0.099f) / 1.099f, 1.0f / 0.45f);
        break;
    case IMAGE_TRANSFER_PQ:   /* signals in [0, 1]: the curves of transfer.h, which clip */
        l = (float)transfer_pq_decode(a);
        break;
    case IMAGE_TRANSFER_HLG:
        l = (float)transfer_hlg_inverse_oetf(a);
        break;
    case IMAGE_TRANSFER_DCI:
        l = powf(a, 2.6f);
        break;
    case 4: /* gamma 2.2 */
        l = powf(a, 2.2f);
        break;
    case 5: /* gamma 2.8 */
        l = powf(a, 2.8f);
        break;
    case IMAGE_TRANSFER_GAMMA:
        l = powf(a, 1.0f / gamma);
        break;
    default: /* sRGB, and what is unknown */
        l = a <= 0.04045f ? a / 12.92f : powf((a + 0.055f) / 1.055f, 2.4f);
        break;
    }
    return v < 0 ? -l : l;
}

void image_transfer_table_init(image_transfer_table *t, int code, float gamma, int bits)
{
    t->code = code, t->gamma = gamma;
    t->max = bits >= 1 && bits <= 16 ? (float)((1u << bits) - 1) : 0.0f;
    for (unsigned k = 0; t->max > 0 && k <= (unsigned)t->max; k++)
        t->lut[k] = image_transfer_to_linear((float)k / t->max, code, gamma);
}

void image_transfer_table_apply(const image_transfer_table *t, const float *src, float *dst,
                                size_t n)
{
    for (size_t i = 0; i < n; i++, src += 4, dst += 4) {
        for (int c = 0; c < 3; c++) {
            float v = src[c] * t->max + 0.5f; /* no table (max 0): never in it */
            dst[c] = v >= 0.5f && v < t->max + 0.5f
                         ? t->lut[(unsigned)v]
                         : image_transfer_to_linear(src[c], t->code, t->gamma);
        }
        dst[3] = src[3];
    }
}

void image_linearise(float *rgba, size_t n, int code, float gamma, int bits)
{
    if (code == IMAGE_TRANSFER_LINEAR)
        return;
    /* Integer samples take 2^BITS values: a table, not a pow per value (a 4K 16-bit JPEG XL
     * spent 1.38x libjxl's own decode time linearising one value at a time). */
    image_transfer_table t; /* 256 kB on the stack, as the table always was */
    image_transfer_table_init(&t, code, gamma, bits);
    image_transfer_table_apply(&t, rgba, rgba, n);
}

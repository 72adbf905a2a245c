/* image_rgba_to_half (the CPU's F16C conversion) equals the portable image_float_to_half bit
 * for bit: every 97th float bit pattern (NaNs, infinities, half denormals, overflow and every
 * rounding tie region included), and the exact ties. Skipped where there is no F16C path
 * (clang, non-x86, a CPU without it): both sides would be the portable function. */
#include <string.h>

#include "image_internal.h"
#include "testutil.h"

enum { CHUNK = 1 << 20 };

static float bits_to_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

int main(void)
{
    if (!image_half_f16c()) {
        printf("skipped: image_rgba_to_half has no F16C path here (clang, non-x86 or the CPU)\n");
        return SKIP_CODE;
    }
    static float in[CHUNK];
    static uint16_t out[CHUNK];
    long bad = 0;
    uint64_t u = 0;
    while (u <= 0xffffffffull) {
        size_t n = 0;
        for (; n < CHUNK && u <= 0xffffffffull; n++, u += 97)
            in[n] = bits_to_float((uint32_t)u);
        /* Odd lengths reach the scalar tail of the vector loop too. */
        image_rgba_to_half(in, n - (n & 1 ? 0 : 1), out);
        for (size_t i = 0; i + (n & 1 ? 0 : 1) < n; i++)
            if (out[i] != image_float_to_half(in[i]) && bad++ < 5) {
                uint32_t b;   /* the failing float's bits (u is already past the chunk) */
                memcpy(&b, &in[i], sizeof b);
                CHECK(0, "float %08x: 0x%04x, want 0x%04x", (unsigned)b, out[i],
                      image_float_to_half(in[i]));
            }
    }
    /* Exact ties between two halves (the half's mantissa LSB and the dropped bits 0x1000). */
    size_t n = 0;
    for (uint32_t e = 103; e < 143; e++)
        for (uint32_t m = 0; m < 64; m++)
            in[n++] = bits_to_float(e << 23 | m << 13 | 0x1000u);
    image_rgba_to_half(in, n, out);
    for (size_t i = 0; i < n; i++)
        CHECK_EQ(out[i], image_float_to_half(in[i]));
    CHECK(bad == 0, "%ld of the sampled floats convert differently", bad);
    return test_finish("test_half");
}

/* The CPU FLIP's strips and vector blocks (flip.c, flip_rows.c) on random pictures whose
 * sizes leave remainders (widths not a multiple of the 32-pixel blocks, heights not of the
 * strips): the map is the same bit for bit on 1, 2, 3 and 7 threads; and FLIP of the
 * transposed pair is the transposed map within 2e-5 (the x and y filters are the same
 * taps, so a ring row or a block put in the wrong place shows), for LDR-FLIP and HDR-FLIP. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flip.h"
#include "testutil.h"

/* A W x H RGB picture: smooth gradients plus noise (xorshift from SEED), in [0, SCALE). */
static float *picture(int w, int h, unsigned seed, float scale)
{
    float *p = malloc((size_t)w * h * 3 * sizeof *p);
    unsigned s = seed;
    for (int i = 0; i < w * h * 3; i++) {
        s ^= s << 13, s ^= s >> 17, s ^= s << 5;
        int x = (i / 3) % w, y = (i / 3) / w;
        float base = 0.5f + 0.4f * sinf(0.07f * (float)x * (float)(i % 3 + 1) + 0.05f * y);
        p[i] = scale * base * (0.8f + 0.4f * (float)(s & 0xffff) / 65536.0f);
    }
    return p;
}

static float *transposed(const float *p, int w, int h, int ch)
{
    float *t = malloc((size_t)w * h * ch * sizeof *t);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            memcpy(t + ((size_t)x * h + y) * ch, p + ((size_t)y * w + x) * ch,
                   (size_t)ch * sizeof *p);
    return t;
}

static bool run(bool hdr, const float *a, const float *b, int w, int h, int threads,
                float *map)
{
    flip_params p = {.threads = threads};
    flip_exposures ex = {-2.0f, 1.0f, 3};
    char err[256];
    bool ok = hdr ? flip_hdr(a, b, w, h, 3, &p, &ex, map, err, sizeof err)
                  : flip_ldr(a, b, w, h, 3, &p, map, err, sizeof err);
    CHECK(ok, "%s", err);
    return ok;
}

static void check_pair(bool hdr, int w, int h)
{
    float scale = hdr ? 8.0f : 1.0f;
    float *a = picture(w, h, 1234u + (unsigned)w, scale);
    float *b = picture(w, h, 99u + (unsigned)h, scale);
    size_t n = (size_t)w * h;
    float *one = malloc(n * sizeof *one), *many = malloc(n * sizeof *many);
    run(hdr, a, b, w, h, 1, one);
    static const int threads[] = {2, 3, 7};
    for (int k = 0; k < 3; k++) {
        run(hdr, a, b, w, h, threads[k], many);
        CHECK(memcmp(one, many, n * sizeof *one) == 0, "%s %dx%d: %d threads differ from 1",
              hdr ? "HDR" : "LDR", w, h, threads[k]);
    }
    float *ta = transposed(a, w, h, 3), *tb = transposed(b, w, h, 3);
    run(hdr, ta, tb, h, w, 2, many);
    float *back = transposed(many, h, w, 1);
    double worst = 0, sum = 0;
    for (size_t i = 0; i < n; i++) {
        worst = fmax(worst, fabs((double)back[i] - one[i]));
        sum += one[i];
    }
    CHECK(worst <= 2e-5, "%s %dx%d: transposed map off by %g", hdr ? "HDR" : "LDR", w, h,
          worst);
    CHECK(sum > 0.01 * (double)n, "%s %dx%d: mean error %g, nothing compared",
          hdr ? "HDR" : "LDR", w, h, sum / (double)n);
    free(a), free(b), free(ta), free(tb), free(one), free(many), free(back);
}

int main(void)
{
    check_pair(false, 75, 131);
    check_pair(false, 33, 7);
    check_pair(true, 101, 67);
    return test_finish("test_flip_threads");
}

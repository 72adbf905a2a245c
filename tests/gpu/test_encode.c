/* export's encoders and 16-bit output, below the command line (test_export_formats.sh covers
 * the command line with other decoders):
 *  - encode.c's PNG of 1 to 4 channels at 8 and 16 bits decodes (stb_image) to its input,
 *    bit for bit, also for odd sizes; its JPEG decodes within 40 dB; y4m's frame size;
 *  - its Radiance picture (flat and run-length encoded scanlines, long runs and literals)
 *    loads back as encode_rgbe's RGBE of the floats, with the EXPOSURE line when asked; its
 *    PFM loads back bit for bit;
 *  - the CPU reference's 16-bit output rounds to its 8-bit output within 1;
 *  - the GPU's 16-bit output (one texture, and in pieces) against the CPU's: pieces equal one
 *    texture bit for bit, the CPU within 1/4 of an 8-bit step on 99.9 % of the values; after
 *    it, the 8-bit output is what it was (the output texture back to RGBA8). */
#define _GNU_SOURCE /* memmem */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>

#include "encode.h"
#include "pipeline.h"
#include "testutil.h"

static void fill(uint8_t *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        p[i] = (uint8_t)((i / 7) % 200 + (seed >> 28));   /* smooth with some grain */
    }
}

static void png_round_trip(int w, int h, int channels, int depth)
{
    size_t n = (size_t)w * h * channels;
    uint8_t *bytes = malloc(n * 2);
    fill(bytes, n * 2, (uint32_t)(w * 31 + channels * 7 + depth));
    encode_image im = {bytes, w, h, channels, depth, 0.0, NULL};
    encode_buffer out;
    char err[256];
    if (!encode_image_to(ENCODE_PNG, 0, &im, &out, err, sizeof err)) {
        CHECK(0, "%dx%d c%d d%d: %s", w, h, channels, depth, err);
        free(bytes);
        return;
    }
    int rw, rh, rc;
    void *back = depth == 16
                     ? (void *)stbi_load_16_from_memory(out.data, (int)out.len, &rw, &rh, &rc, 0)
                     : (void *)stbi_load_from_memory(out.data, (int)out.len, &rw, &rh, &rc, 0);
    CHECK(back && rw == w && rh == h && rc == channels, "%dx%d c%d d%d: decode", w, h, channels,
          depth);
    if (back && rw == w && rh == h && rc == channels)
        CHECK(memcmp(back, bytes, n * (size_t)(depth / 8)) == 0, "%dx%d c%d d%d: pixels differ",
              w, h, channels, depth);
    stbi_image_free(back);
    free(out.data);
    free(bytes);
}

/* hdr and pfm of a W x 3 picture of runs, grain, tiny, negative and non-finite values. */
static void linear_round_trip(int w)
{
    size_t n = (size_t)w * 3 * 3;
    float *px = malloc(n * sizeof *px);
    uint32_t seed = 9;
    for (size_t i = 0; px && i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        size_t x = i / 3 % (size_t)w;
        px[i] = x % 400 < 200 ? (float)(x / 150 + 1)   /* runs */
                              : ldexpf((float)(seed >> 8), -20 - (int)(x % 7));
    }
    if (!px || n < 12)
        return;
    px[0] = -1.0f, px[4] = NAN, px[8] = 1e-35f, px[9] = 3e38f;
    encode_image im = {px, w, 3, 3, 32, 0.0, NULL};
    encode_buffer out[2];
    char err[256];
    hdr_image img[2] = {{0}, {0}};
    image_load_options mid = {.rgbe_mid = true};
    for (int f = 0; f < 2; f++)
        CHECK(encode_image_exposure(f ? ENCODE_PFM : ENCODE_HDR, 0, &im, 0.0, &out[f], err,
                                    sizeof err) &&
                  image_load_memory("x", out[f].data, out[f].len, &mid, &img[f], err, sizeof err),
              "%d-pixel %s: %s", w, f ? "pfm" : "hdr", err);
    size_t off[2] = {0, 0};
    for (size_t k = 0; img[0].rgba && img[1].rgba && k < n / 3; k++) {
        uint8_t rgbe[4];
        const float *v = px + 3 * k;
        encode_rgbe(v[0], v[1], v[2], rgbe);
        for (int c = 0; c < 3; c++) {
            float want = rgbe[3] ? ldexpf(rgbe[c] + 0.5f, rgbe[3] - 136) : 0.0f;
            off[0] += memcmp(&img[0].rgba[4 * k + c], &want, 4) != 0;
            off[1] += memcmp(&img[1].rgba[4 * k + c], &v[c], 4) != 0;
        }
    }
    CHECK(off[0] == 0 && off[1] == 0, "%d-pixel: %zu hdr, %zu pfm values differ", w, off[0],
          off[1]);
    for (int f = 0; f < 2; f++) {
        free(out[f].data);
        image_free(&img[f]);
    }
    const char *line = "\nEXPOSURE=1.6238e+01\n";
    CHECK(encode_image_exposure(ENCODE_HDR, 0, &im, 16.2381916, &out[0], err, sizeof err) &&
              memmem(out[0].data, out[0].len, line, strlen(line)),
          "hdr: no EXPOSURE line as Radiance writes it");
    free(out[0].data);
    free(px);
}

static void encoder_tests(void)
{
    linear_round_trip(5);       /* flat scanlines */
    linear_round_trip(1000);    /* run-length encoded */
    linear_round_trip(40000);   /* flat again: beyond RLE's 32767 */
    static const int sizes[][2] = {{1, 1}, {3, 2}, {17, 5}, {640, 480}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int c = 1; c <= 4; c++)
            for (int d = 8; d <= 16; d += 8)
                png_round_trip(sizes[s][0], sizes[s][1], c, d);

    enum { W = 320, H = 240 };
    uint8_t *rgb = malloc(W * H * 3);
    uint32_t seed = 5;
    for (size_t i = 0; i < W * H * 3; i++) {   /* gradients with a little grain, photo-like */
        seed = seed * 1664525u + 1013904223u;
        size_t px = i / 3, x = px % W, y = px / W;
        rgb[i] = (uint8_t)(20 + (i % 3 == 0 ? x * 200 / W : i % 3 == 1 ? y * 200 / H : (x + y) / 3)
                           + (seed >> 30));
    }
    encode_image im = {rgb, W, H, 3, 8, 0.0, NULL};
    encode_buffer out;
    char err[256];
    CHECK(encode_image_to(ENCODE_JPEG, 95, &im, &out, err, sizeof err), "jpeg: %s", err);
    int rw, rh, rc;
    uint8_t *back = stbi_load_from_memory(out.data, (int)out.len, &rw, &rh, &rc, 3);
    CHECK(back && rw == W && rh == H, "jpeg: decode");
    if (back) {
        double se = 0;
        for (size_t i = 0; i < W * H * 3; i++)
            se += ((double)back[i] - rgb[i]) * ((double)back[i] - rgb[i]);
        double psnr = 10 * log10(255.0 * 255.0 / fmax(se / (W * H * 3), 1e-12));
        CHECK(psnr >= 40, "jpeg: PSNR %.2f dB", psnr);
    }
    stbi_image_free(back);
    free(out.data);
    CHECK(encode_image_to(ENCODE_Y4M, 0, &im, &out, err, sizeof err) &&
              out.len == 6 + 3 * (size_t)W * H && memcmp(out.data, "FRAME\n", 6) == 0,
          "y4m frame");
    free(out.data);
    im.depth = 16;
    CHECK(!encode_image_to(ENCODE_JPEG, 95, &im, &out, err, sizeof err), "16-bit JPEG accepted");
    CHECK(encode_format_of_path("a/b.JPEG") == ENCODE_JPEG &&
              encode_format_of_path("x.png") == ENCODE_PNG &&
              encode_format_of_path("dir.png/x") == ENCODE_AUTO &&
              encode_format_of_path(".png") == ENCODE_AUTO,
          "encode_format_of_path");
    free(rgb);
}

/* GPU 16-bit of IMG on PIPE into out16 (and 8-bit afterwards into out8). */
static bool gpu16(pipeline *pipe, const hdr_image *img, const tonemap_params *p, uint16_t *out16,
                  uint8_t *out8)
{
    char err[HT_ERR_MAX];
    bool ok = pipeline_upload(pipe, img, err, sizeof err) &&
              pipeline_tonemap_uploaded16(pipe, p, NULL, out16, err, sizeof err) &&
              pipeline_tonemap_uploaded(pipe, p, NULL, out8, err, sizeof err);
    CHECK(ok, "gpu: %s", err);
    return ok;
}

static void depth16_tests(void)
{
    hdr_image img = {0};
    test_make_image(&img, 300, 200, test_scene_random);
    tonemap_params p;
    tonemap_params_default(&p);
    size_t n = (size_t)img.width * img.height * 3;
    uint8_t *c8 = malloc(n), *g8 = malloc(n), *s8 = malloc(n), *g8_before = malloc(n);
    uint16_t *c16 = malloc(2 * n), *g16 = malloc(2 * n), *s16 = malloc(2 * n);
    tonemap_result r;
    tonemap_cpu_analyze(&img, &p, &r);
    tonemap_cpu_apply(&img, &p, &r, c8);
    tonemap_cpu_apply16(&img, &p, &r, c16);
    int worst = 0;
    for (size_t i = 0; i < n; i++) {
        int d = abs((c16[i] * 255 + 32767) / 65535 - c8[i]);
        worst = d > worst ? d : worst;
    }
    CHECK(worst <= 1, "CPU 16-bit rounded to 8 differs by %d", worst);

    char err[HT_ERR_MAX];
    pipeline *whole = pipeline_create(err, sizeof err), *split = pipeline_create(err, sizeof err);
    CHECK(whole && split, "pipeline: %s", err);
    if (whole && split) {
        pipeline_set_max_piece(split, 64);
        bool ok = pipeline_tonemap_image(whole, &img, &p, NULL, g8_before, err, sizeof err) &&
                  gpu16(whole, &img, &p, g16, g8) && gpu16(split, &img, &p, s16, s8);
        CHECK(ok, "GPU runs");
        if (ok) {
            CHECK(pipeline_image_pieces(split) > 1, "not split");
            CHECK(memcmp(g16, s16, 2 * n) == 0, "16-bit: pieces differ from one texture");
            CHECK(memcmp(g8, g8_before, n) == 0, "8-bit output changed after a 16-bit one");
            CHECK(memcmp(s8, g8, n) == 0, "8-bit: pieces differ from one texture");
            size_t off = 0;
            int big = 0;
            for (size_t i = 0; i < n; i++) {
                int d = abs((int)g16[i] - (int)c16[i]);
                off += d > 64;
                big = d > big ? d : big;
            }
            CHECK(off * 1000 <= n && big <= 257, "GPU vs CPU 16-bit: %zu values off > 64, max %d",
                  off, big);
        }
    }
    pipeline_destroy(&split);
    pipeline_destroy(&whole);
    free(c8), free(g8), free(s8), free(g8_before), free(c16), free(g16), free(s16);
    image_free(&img);
}

int main(void)
{
    encoder_tests();
    test_require_gl();
    depth16_tests();
    return test_finish("test_encode");
}

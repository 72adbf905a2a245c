/* bench_encoders [IN] [RUNS]
 * Times export's encoders on one core (BENCHMARKS.md, "Encoders"): IN tone-mapped by the CPU
 * reference (default settings) to RGB8, or without IN a synthetic grainy 3840 x 2160 frame;
 * each encoder RUNS times (default 5), the median. Encoders: stb_image_write with the
 * settings export had before encode.c (Sub filter, zlib level 4), encode.c's PNG (its own
 * deflate_fast, Sub), its 16-bit PNG, its JPEG (q95, 4:4:4) and its y4m frame. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <stb_image_write.h>

#include "encode.h"
#include "image.h"
#include "tool_time.h"
#include "tonemap.h"

enum { SYNTH_W = 3840, SYNTH_H = 2160, MAX_RUNS = 101 };

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void count_bytes(void *ctx, void *data, int size)
{
    (void)data;
    *(size_t *)ctx += (size_t)size;
}

/* A smooth picture with film-like grain: gradients plus uniform noise of +-12 codes. */
static void synthetic(uint8_t *rgb, int w, int h)
{
    uint32_t s = 12345;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < 3; c++) {
                s = s * 1664525u + 1013904223u;
                int base = (c == 0 ? x * 200 / w : c == 1 ? y * 200 / h : (x + y) * 100 / (w + h));
                int v = 28 + base + (int)(s >> 24) % 25 - 12;
                rgb[(size_t)3 * ((size_t)y * w + x) + c] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
}

/* One encoder: KIND 0 stb, else encode.c's format F at DEPTH. Returns seconds, *size bytes. */
static double run_once(int kind, encode_format f, int depth, const encode_image *im,
                       size_t *size)
{
    char err[256];
    double t0 = now_s();
    if (kind == 0) {
        *size = 0;
        stbi_write_force_png_filter = 1;
        stbi_write_png_compression_level = 4;
        stbi_write_png_to_func(count_bytes, size, im->width, im->height, 3, im->pixels,
                               im->width * 3);
    } else {
        encode_image e = *im;
        e.depth = depth;
        encode_buffer out;
        if (!encode_image_to(f, 95, &e, &out, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            exit(1);
        }
        *size = out.len;
        free(out.data);
    }
    return now_s() - t0;
}

int main(int argc, char **argv)
{
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    if (argc > 3 || runs < 1 || runs > MAX_RUNS) {
        fprintf(stderr, "usage: %s [IN] [RUNS (1..%d)]\n", argv[0], MAX_RUNS);
        return 2;
    }
    int w = SYNTH_W, h = SYNTH_H;
    uint8_t *rgb = NULL;
    uint16_t *rgb16 = NULL;
    if (argc > 1 && strcmp(argv[1], "-") != 0) {
        char err[HT_ERR_MAX];
        hdr_image img = {0};
        if (!image_load(argv[1], NULL, &img, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        tonemap_params p;
        tonemap_params_default(&p);
        tonemap_result r;
        tonemap_cpu_analyze(&img, &p, &r);
        w = img.width;
        h = img.height;
        rgb = malloc((size_t)w * h * 3);
        rgb16 = malloc((size_t)w * h * 6);
        if (rgb && rgb16) {
            tonemap_cpu_apply(&img, &p, &r, rgb);
            tonemap_cpu_apply16(&img, &p, &r, rgb16);
        }
        image_free(&img);
    } else {
        rgb = malloc((size_t)w * h * 3);
        rgb16 = malloc((size_t)w * h * 6);
        if (rgb && rgb16) {
            synthetic(rgb, w, h);
            for (size_t i = 0; i < (size_t)w * h * 3; i++)
                rgb16[i] = (uint16_t)(rgb[i] * 257);
        }
    }
    if (!rgb || !rgb16) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    static const struct { const char *name; int kind; encode_format f; int depth; } encs[] = {
        {"stb_image_write PNG (Sub, zlib level 4)", 0, ENCODE_PNG, 8},
        {"encode.c PNG 8-bit (deflate_fast, Sub)", 1, ENCODE_PNG, 8},
        {"encode.c PNG 16-bit (deflate_fast, Sub)", 1, ENCODE_PNG, 16},
        {"encode.c JPEG (libturbojpeg q95, 4:4:4)", 1, ENCODE_JPEG, 8},
        {"encode.c y4m frame (BT.709 4:4:4)", 1, ENCODE_Y4M, 8},
    };
    printf("%d x %d, median of %d runs, one thread\n\n", w, h, runs);
    printf("| encoder | ms | MB |\n|---|---:|---:|\n");
    for (size_t e = 0; e < sizeof encs / sizeof encs[0]; e++) {
        encode_image im = {encs[e].depth == 16 ? (const void *)rgb16 : rgb, w, h, 3, 8, 0.0, NULL};
        double t[MAX_RUNS];
        size_t size = 0;
        for (int i = 0; i < runs; i++)
            t[i] = run_once(encs[e].kind, encs[e].f, encs[e].depth, &im, &size);
        qsort(t, (size_t)runs, sizeof t[0], cmp_double);
        printf("| %s | %.0f | %.2f |\n", encs[e].name, t[runs / 2] * 1e3, size / 1e6);
    }
    free(rgb);
    free(rgb16);
    return 0;
}

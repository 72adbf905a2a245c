/* make_icon IN.exr OUT.png SIZE
 * The application icon, made by hdrtone's own parts: the window with the sun from the bundled
 * default image, box-filtered in linear light to SIZE x SIZE and tone-mapped by the CPU
 * reference with the curve of the whole image (so the sun keeps its glare-free white). */
#include <stdio.h>
#include <stdlib.h>

#include "image.h"
#include "png_export.h"
#include "tonemap.h"

/* The square of the default image that holds the window and the sun (960 x 540 picture). */
enum { CROP_X = 575, CROP_Y = 55, CROP_SIZE = 360 };

/* Box-filters the CROP_SIZE square at (CROP_X, CROP_Y) of IN into OUT (SIZE x SIZE). */
static bool crop_filter(const hdr_image *in, int size, hdr_image *out)
{
    *out = *in;
    out->parts = NULL;
    out->half = NULL;
    out->width = out->height = size;
    out->half_exact = false;
    out->rgba = calloc((size_t)size * size * 4, sizeof(float));
    if (!out->rgba)
        return false;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int x0 = CROP_X + x * CROP_SIZE / size, x1 = CROP_X + (x + 1) * CROP_SIZE / size;
            int y0 = CROP_Y + y * CROP_SIZE / size, y1 = CROP_Y + (y + 1) * CROP_SIZE / size;
            double sum[4] = {0};
            for (int sy = y0; sy < y1; sy++)
                for (int sx = x0; sx < x1; sx++)
                    for (int c = 0; c < 4; c++)
                        sum[c] += in->rgba[((size_t)sy * in->width + sx) * 4 + c];
            for (int c = 0; c < 4; c++)
                out->rgba[((size_t)y * size + x) * 4 + c] =
                    (float)(sum[c] / ((x1 - x0) * (y1 - y0)));
        }
    return true;
}

int main(int argc, char **argv)
{
    int size = argc == 4 ? atoi(argv[3]) : 0;
    if (size < 16 || size > CROP_SIZE) {
        fprintf(stderr, "usage: %s IN.exr OUT.png SIZE (16..%d)\n", argv[0], CROP_SIZE);
        return 2;
    }
    char err[HT_ERR_MAX];
    hdr_image in = {0}, icon = {0};
    if (!image_load(argv[1], NULL, &in, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    if (in.width < CROP_X + CROP_SIZE || in.height < CROP_Y + CROP_SIZE) {
        fprintf(stderr, "%s: %dx%d is smaller than the icon's square\n", argv[1], in.width,
                in.height);
        return 1;
    }
    tonemap_params p;
    tonemap_params_default(&p);
    tonemap_result r;
    tonemap_cpu_analyze(&in, &p, &r);
    uint8_t *rgb = malloc((size_t)size * size * 3);
    bool ok = rgb && crop_filter(&in, size, &icon);
    if (ok) {
        tonemap_cpu_apply(&icon, &p, &r, rgb);
        ok = png_write_atomic(argv[2], rgb, size, size, err, sizeof err);
        if (!ok)
            fprintf(stderr, "%s\n", err);
    }
    free(rgb);
    free(icon.rgba);
    image_free(&in);
    return ok ? 0 : 1;
}

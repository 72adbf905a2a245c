/* What hdrtone decodes from an HDR file (image_load: the pixels every command starts from),
 * for the Python tests' independent references: one JSON line on standard output {"width",
 * "height", "format", "channels"} and the values as float32 R, G, B (native byte order, top row
 * first) into OUT. Exit 1 with the loader's message on standard error when refused.
 *   hdr_dump FILE OUT [--sdr-base] */
#include <stdio.h>
#include <string.h>

#include "image.h"

int main(int argc, char **argv)
{
    if (argc != 3 && !(argc == 4 && strcmp(argv[3], "--sdr-base") == 0)) {
        fprintf(stderr, "usage: hdr_dump FILE OUT [--sdr-base]\n");
        return 2;
    }
    image_load_options lo = {0};
    lo.sdr_base = argc == 4;
    hdr_image img;
    char err[HT_ERR_MAX];
    if (!image_load(argv[1], &lo, &img, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    size_t n = (size_t)img.width * img.height;
    FILE *f = fopen(argv[2], "wb");
    bool ok = f != NULL;
    for (size_t k = 0; ok && k < n; k++)
        ok = fwrite(img.rgba + 4 * k, sizeof *img.rgba, 3, f) == 3;
    if (f && fclose(f) != 0)
        ok = false;
    printf("{\"width\": %d, \"height\": %d, \"format\": \"%s\", \"channels\": \"%s\"}\n",
           img.width, img.height, img.format, img.channels);
    image_free(&img);
    if (!ok)
        fprintf(stderr, "hdr_dump: cannot write %s\n", argv[2]);
    return ok ? 0 : 1;
}

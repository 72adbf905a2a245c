/* What hdrtone decodes from a PNG or JPEG (image_ldr_load, its colour tags honoured), for the
 * Python tests' independent references: one JSON line on standard output {"width", "height",
 * "bits", "linear", "source", "tag"} and the values as float32 R, G, B (native byte order, top
 * row first) into OUT. Exit 1 with the loader's message on standard error when refused.
 *   ldr_dump FILE OUT */
#include <stdio.h>

#include "colour.h"
#include "image_ldr.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: ldr_dump FILE OUT\n");
        return 2;
    }
    ldr_image img;
    char err[HT_ERR_MAX];
    if (!image_ldr_load(argv[1], 0, &img, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    size_t n = (size_t)img.width * img.height * 3;
    FILE *f = fopen(argv[2], "wb");
    bool ok = f && fwrite(img.rgb, sizeof *img.rgb, n, f) == n;
    if (f && fclose(f) != 0)
        ok = false;
    printf("{\"width\": %d, \"height\": %d, \"bits\": %d, \"linear\": %s, \"source\": \"%s\", "
           "\"tag\": \"%s\"}\n", img.width, img.height, img.bits, img.linear ? "true" : "false",
           colour_source_name(img.colour.source), img.tag);
    image_ldr_free(&img);
    if (!ok)
        fprintf(stderr, "ldr_dump: cannot write %s\n", argv[2]);
    return ok ? 0 : 1;
}

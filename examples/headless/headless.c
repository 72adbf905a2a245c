/* headless IN OUT.png: tone-maps an OpenEXR, Radiance or PFM file with libhdrtone's defaults
 * in a headless EGL context and writes the PNG `hdrtone export IN -o OUT.png` writes. */
#include <stdio.h>
#include <stdlib.h>

#include <hdrtone/hdrtone.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: headless IN OUT.png\n");
        return 2;
    }
    hdrtone_egl *egl = NULL;
    hdrtone *t = NULL;
    hdrtone_image img = {0};
    uint8_t *rgb = NULL;
    int status = 1;
    if (hdrtone_egl_create(&egl) == HDRTONE_OK && hdrtone_create(NULL, &t) == HDRTONE_OK &&
        hdrtone_image_load(argv[1], &img) == HDRTONE_OK &&
        (rgb = malloc((size_t)img.width * img.height * 3)) != NULL &&
        hdrtone_tonemap_image(t, &img, rgb) == HDRTONE_OK &&
        hdrtone_write_png(argv[2], rgb, img.width, img.height, NULL) == HDRTONE_OK)
        status = 0;
    else if (img.rgba && !rgb)
        fprintf(stderr, "headless: out of memory\n");
    else
        fprintf(stderr, "headless: %s\n", hdrtone_last_error());
    free(rgb);
    hdrtone_image_free(&img);
    hdrtone_destroy(t);
    hdrtone_egl_destroy(egl);
    return status;
}

#include "image_ldr.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>

#include "image.h"

static bool is_png(const uint8_t *h, size_t n)
{
    return n >= 8 && memcmp(h, "\x89PNG\r\n\x1a\n", 8) == 0;
}

static bool is_jpeg(const uint8_t *h, size_t n)
{
    return n >= 3 && h[0] == 0xFF && h[1] == 0xD8 && h[2] == 0xFF;
}

bool image_ldr_sniff(const uint8_t *head, size_t len)
{
    return is_png(head, len) || is_jpeg(head, len);
}

bool image_ldr_is_ldr(const char *path)
{
    uint8_t head[8];
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return image_ldr_sniff(head, n);
}

bool image_ldr_load(const char *path, uint64_t max_pixels, ldr_image *img, char *err,
                    size_t errlen)
{
    memset(img, 0, sizeof *img);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open (%s)", path, strerror(errno));
        return false;
    }
    uint8_t head[8];
    size_t hn = fread(head, 1, sizeof head, f);
    if (!image_ldr_sniff(head, hn)) {
        fclose(f);
        snprintf(err, errlen, "%s: not a PNG or JPEG file", path);
        return false;
    }
    rewind(f);
    int w, h, comp;
    if (!stbi_info_from_file(f, &w, &h, &comp)) {
        fclose(f);
        snprintf(err, errlen, "%s: unreadable %s (%s)", path, is_png(head, hn) ? "PNG" : "JPEG",
                 stbi_failure_reason());
        return false;
    }
    uint64_t limit = max_pixels ? max_pixels : HT_DEFAULT_MAX_PIXELS;
    if ((uint64_t)w * (uint64_t)h > limit) {
        fclose(f);
        snprintf(err, errlen, "%s: %dx%d is more than %llu pixels", path, w, h,
                 (unsigned long long)limit);
        return false;
    }
    rewind(f);
    bool wide = stbi_is_16_bit_from_file(f);
    rewind(f);
    void *px = wide ? (void *)stbi_load_from_file_16(f, &w, &h, &comp, 3)
                    : (void *)stbi_load_from_file(f, &w, &h, &comp, 3);
    fclose(f);
    size_t n = (size_t)w * (size_t)h * 3;
    img->rgb = px ? malloc(n * sizeof *img->rgb) : NULL;
    if (!img->rgb) {
        snprintf(err, errlen, "%s: %s", path, px ? "out of memory" : stbi_failure_reason());
        stbi_image_free(px);
        return false;
    }
    for (size_t i = 0; i < n; i++)
        img->rgb[i] = wide ? ((const uint16_t *)px)[i] / 65535.0f
                           : ((const uint8_t *)px)[i] / 255.0f;
    stbi_image_free(px);
    img->width = w;
    img->height = h;
    img->bits = wide ? 16 : 8;
    snprintf(img->format, sizeof img->format, "%s", is_png(head, hn) ? "PNG" : "JPEG");
    return true;
}

void image_ldr_free(ldr_image *img)
{
    free(img->rgb);
    memset(img, 0, sizeof *img);
}

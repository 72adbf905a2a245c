/* A HEIF file's HDR light levels (clli: MaxCLL and MaxFALL; mdcv: the mastering display's
 * primaries, white and luminance range) reach `metadata` (heif_read.c). No Debian tool writes
 * those boxes (libavif 0.11 cannot; heif-enc has no option), so libheif's own encoder writes
 * them here (HEVC): a 64x64 grey picture with known levels, read back through image_load_memory. */
#include <libheif/heif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "testutil.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
/* x265 (3.5) leaves 1,168 bytes of its encoder unfreed: what the encoder allocates is not
 * checked for leaks; the reading, hdrtone's, is. */
#define ENCODER_BEGIN() __lsan_disable()
#define ENCODER_END() __lsan_enable()
#else
#define ENCODER_BEGIN() ((void)0)
#define ENCODER_END() ((void)0)
#endif

typedef struct {
    uint8_t *data;
    size_t size;
} membuf;

static struct heif_error keep(struct heif_context *ctx, const void *data, size_t size,
                              void *userdata)
{
    (void)ctx;
    membuf *b = userdata;
    struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, ""};
    if ((b->data = malloc(size)))
        memcpy(b->data, data, b->size = size);
    return ok;
}

/* The encoded file, or size 0 when this libheif has no HEVC encoder. */
static membuf encode_with_levels(void)
{
    membuf out = {0};
    ENCODER_BEGIN();
    struct heif_context *ctx = heif_context_alloc();
    struct heif_encoder *enc = NULL;
    if (heif_context_get_encoder_for_format(ctx, heif_compression_HEVC, &enc).code) {
        heif_context_free(ctx);
        ENCODER_END();
        return out;
    }
    /* 8-bit 4:2:0 YCbCr, as x265 takes it (aom asserts on what libheif 1.15 asks of it). */
    struct heif_image *im = NULL;
    heif_image_create(64, 64, heif_colorspace_YCbCr, heif_chroma_420, &im);
    const enum heif_channel planes[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    for (int c = 0; c < 3; c++) {
        int side = c ? 32 : 64, stride = 0;
        heif_image_add_plane(im, planes[c], side, side, 8);
        uint8_t *p = heif_image_get_plane(im, planes[c], &stride);
        for (int y = 0; y < side; y++)
            memset(p + (size_t)y * stride, c ? 128 : 100, (size_t)side);
    }
    struct heif_content_light_level cll = {1000, 400};
    heif_image_set_content_light_level(im, &cll);
    /* BT.2020 primaries in H.265's recommended order (green, blue, red), D65, 0.005-1000
     * cd/m2, in the box's units (0.00002; 0.0001 cd/m2) */
    struct heif_mastering_display_colour_volume m = {
        {8500, 6550, 35400}, {39850, 2300, 14600}, 15635, 16450, 10000000, 50};
    heif_image_set_mastering_display_colour_volume(im, &m);
    struct heif_image_handle *h = NULL;
    struct heif_writer w = {1, keep};
    if (heif_context_encode_image(ctx, im, enc, NULL, &h).code == heif_error_Ok)
        heif_context_write(ctx, &w, &out);
    if (h)
        heif_image_handle_release(h);
    heif_image_release(im);
    heif_encoder_release(enc);
    heif_context_free(ctx);
    ENCODER_END();
    return out;
}

int main(void)
{
    membuf f = encode_with_levels();
    CHECK(f.size > 0, "libheif wrote no HEIF file (no HEVC encoder: scripts/setup)");
    hdr_image img;
    char err[HT_ERR_MAX];
    if (f.size && image_load_memory("levels.heic", f.data, f.size, NULL, &img, err, sizeof err)) {
        const char *cll = NULL, *md = NULL;
        for (int k = 0; k < img.meta_count; k++) {
            if (!strcmp(img.meta[k].key, "content_light_level"))
                cll = img.meta[k].value;
            if (!strcmp(img.meta[k].key, "mastering_display"))
                md = img.meta[k].value;
        }
        printf("content_light_level: %s\nmastering_display: %s\n", cll ? cll : "(none)",
               md ? md : "(none)");
        CHECK(cll && !strcmp(cll, "MaxCLL 1000, MaxFALL 400 cd/m2"), "clli: %s", cll);
        CHECK(md && !strcmp(md, "primaries 0.17,0.797 0.131,0.046 0.708,0.292 white "
                                "0.3127,0.329; 0.005-1000 cd/m2"), "mdcv: %s", md);
        image_free(&img);
    } else if (f.size) {
        CHECK(false, "%s", err);
    }
    free(f.data);
    return test_finish("test_heif_light");
}

/* AVIF output through libavif (encode_codecs.h). */
#include "encode_codecs.h"

#include "avif_boxes.h"
#include "cicp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <avif/avif.h>

enum { AVIF_DEPTH = 10, AVIF_SPEED = 8, AVIF_THREADS = 8 };

/* QUALITY 1..100 to AV1's quantizer 63..0 (0 = lossless). */
static int quantizer(int quality)
{
    return quality <= 0 ? AVIF_QUANTIZER_LOSSLESS : (100 - quality) * 63 / 99;
}

/* IM's RGB into the planes of IMG (10-bit, 4:4:4). */
static avifResult fill_planes(const encode_image *im, avifImage *img)
{
    avifRGBImage rgb;
    avifRGBImageSetDefaults(&rgb, img);
    rgb.format = AVIF_RGB_FORMAT_RGB;
    rgb.depth = (uint32_t)im->depth;
    rgb.pixels = (uint8_t *)im->pixels;   /* read only: avifImageRGBToYUV does not write it */
    rgb.rowBytes = (uint32_t)im->width * 3 * (im->depth / 8);
    return avifImageRGBToYUV(img, &rgb);
}

/* OUT = DATA, with a clli box when TAGS measured the light levels. */
static bool copy_out(const avifRWData *data, const encode_tags *tags, encode_buffer *out)
{
    if (tags && tags->max_cll > 0)
        return avif_add_clli(data->data, data->size, (unsigned)(tags->max_cll + 0.5),
                             (unsigned)(tags->max_fall + 0.5), out);
    if (!(out->data = malloc(data->size)))
        return false;
    memcpy(out->data, data->data, data->size);
    out->len = data->size;
    return true;
}

bool encode_avif(const encode_image *im, int quality, encode_buffer *out, char *err,
                 size_t errlen)
{
    const uint8_t *cicp = im->tags && im->tags->cicp[0] ? im->tags->cicp
                                                         : (const uint8_t[4]){1, 13, 0, 1};
    avifImage *img = avifImageCreate(im->width, im->height, AVIF_DEPTH, AVIF_PIXEL_FORMAT_YUV444);
    avifEncoder *enc = avifEncoderCreate();
    avifRWData data = AVIF_DATA_EMPTY;
    avifResult r = img && enc ? AVIF_RESULT_OK : AVIF_RESULT_OUT_OF_MEMORY;
    if (r == AVIF_RESULT_OK) {
        img->colorPrimaries = cicp[0];
        img->transferCharacteristics = cicp[1];
        img->matrixCoefficients = quality <= 0            ? AVIF_MATRIX_COEFFICIENTS_IDENTITY
                                  : cicp[0] == CICP_BT2020 ? AVIF_MATRIX_COEFFICIENTS_BT2020_NCL
                                                           : AVIF_MATRIX_COEFFICIENTS_BT709;
        img->yuvRange = AVIF_RANGE_FULL;
        if (im->tags && im->tags->icc)   /* a gamma without a CICP code point (output_tags.h) */
            avifImageSetProfileICC(img, im->tags->icc, im->tags->icc_len);
        r = fill_planes(im, img);
    }
    if (r == AVIF_RESULT_OK) {
        enc->maxThreads = AVIF_THREADS;
        enc->speed = AVIF_SPEED;
        enc->minQuantizer = enc->maxQuantizer = quantizer(quality);
        r = avifEncoderWrite(enc, img, &data);
    }
    bool ok = r == AVIF_RESULT_OK && copy_out(&data, im->tags, out);
    if (!ok)
        snprintf(err, errlen, "AVIF encoding failed: %s",
                 r == AVIF_RESULT_OK ? "out of memory, or its boxes not as libavif 0.11 lays "
                                       "them out (for the clli box)"
                                     : avifResultToString(r));
    avifRWDataFree(&data);
    if (enc)
        avifEncoderDestroy(enc);
    if (img)
        avifImageDestroy(img);
    return ok;
}

/* Writes the fuzz targets' smoke-run seeds into DIR: small images of every format the loaders
 * read (OpenEXR in each compression tinyexr writes, half and float, RGBA and one channel;
 * Radiance flat and run-length encoded; PFM colour and grey; 16-bit PQ and HLG PNGs; an Ultra
 * HDR JPEG). Made at
 * test time from code, so the seeds follow the writers instead of rotting as committed binaries
 * would.
 *   make_corpus DIR */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image_write.h>
#include <tinyexr.h>

#include "encode.h"
#include "encode_codecs.h"

enum { W = 9, H = 5 }; /* odd sizes: partial blocks, lines and tiles */

/* Scene value of channel C at (x, y): a ramp over eight decades, with a zero and a negative. */
static float value(int x, int y, int c)
{
    if (x == 0 && y == 0)
        return c == 1 ? -1.0f : 0.0f;
    return powf(10.0f, (float)(x + W * y) / (W * H) * 8.0f - 4.0f) * (1.0f + 0.25f * c);
}

static int write_exr(const char *dir, const char *name, int channels, int type, int compression)
{
    static const char *names[4] = {"A", "B", "G", "R"};
    float planes[4][W * H];
    unsigned char *images[4];
    EXRChannelInfo infos[4];
    int types[4], requested[4];
    memset(infos, 0, sizeof infos);
    for (int c = 0; c < channels; c++) {
        for (int i = 0; i < W * H; i++)
            planes[c][i] = value(i % W, i / W, c);
        images[c] = (unsigned char *)planes[c];
        strcpy(infos[c].name, channels == 1 ? "Y" : names[4 - channels + c]);
        types[c] = TINYEXR_PIXELTYPE_FLOAT;
        requested[c] = type;
    }
    EXRHeader header;
    EXRImage image;
    InitEXRHeader(&header);
    InitEXRImage(&image);
    image.num_channels = channels;
    image.images = images;
    image.width = W;
    image.height = H;
    header.num_channels = channels;
    header.channels = infos;
    header.pixel_types = types;
    header.requested_pixel_types = requested;
    header.compression_type = compression;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    const char *err = NULL;
    if (SaveEXRImageToFile(&image, &header, path, &err) != TINYEXR_SUCCESS) {
        fprintf(stderr, "make_corpus: %s: %s\n", path, err ? err : "cannot write");
        if (err)
            FreeEXRErrorMessage(err);
        return 1;
    }
    return 0;
}

/* Radiance: stb writes a scanline run-length encoded when it is 8 to 32767 pixels wide. */
static int write_hdr(const char *dir, const char *name, int w)
{
    float rgb[64 * H * 3];
    for (int i = 0; i < w * H; i++)
        for (int c = 0; c < 3; c++)
            rgb[3 * i + c] = fabsf(value(i % w, i / w, c));
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!stbi_write_hdr(path, w, H, 3, rgb)) {
        fprintf(stderr, "make_corpus: %s: cannot write\n", path);
        return 1;
    }
    return 0;
}

static int write_pfm(const char *dir, const char *name, int channels)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        return 1;
    }
    /* A negative scale means little-endian samples; rows run bottom to top. */
    fprintf(f, "%s\n%d %d\n-1.0\n", channels == 3 ? "PF" : "Pf", W, H);
    for (int i = 0; i < W * H; i++)
        for (int c = 0; c < channels; c++) {
            float v = value(i % W, i / W, c);
            fwrite(&v, sizeof v, 1, f);
        }
    return fclose(f) != 0;
}

/* A 16-bit PNG with cICP PQ or HLG (TRANSFER 16 or 18), as export --hdr writes it; with UHDR
 * an Ultra HDR JPEG of the same HDR picture over an 8-bit base. */
static int write_png_hdr(const char *dir, const char *name, int transfer, bool uhdr)
{
    enum { W = 5, H = 3 };
    uint16_t px[W * H * 3];
    uint8_t sdr[W * H * 3];
    for (int i = 0; i < W * H * 3; i++) {
        px[i] = (uint16_t)(i * 4099);
        sdr[i] = (uint8_t)(i * 17);
    }
    encode_tags t = {.cicp = {9, (uint8_t)transfer, 0, 1}, .ldmax = 1000, .ldmin = 0.1,
                     .max_cll = 900, .max_fall = 100,
                     .xy = {{0.708, 0.292}, {0.170, 0.797}, {0.131, 0.046}, {0.3127, 0.329}}};
    encode_image im = {px, W, H, 3, 16, 0.0, &t};
    encode_buffer out;
    char path[4096], err[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = NULL;
    encode_image base = {sdr, W, H, 3, 8, 0.0, NULL};
    bool ok = (uhdr ? encode_ultrahdr(&base, &im, 90, 0, &out, err, sizeof err)
                    : encode_image_to(ENCODE_PNG, 0, &im, &out, err, sizeof err)) &&
              (f = fopen(path, "wb")) != NULL && fwrite(out.data, 1, out.len, f) == out.len;
    if (f)
        ok = fclose(f) == 0 && ok;
    if (!ok)
        fprintf(stderr, "make_corpus: %s: cannot write\n", path);
    free(out.data);
    return !ok;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    const char *d = argv[1];
    int bad = 0;
    bad |= write_exr(d, "none_half.exr", 4, TINYEXR_PIXELTYPE_HALF, TINYEXR_COMPRESSIONTYPE_NONE);
    bad |= write_exr(d, "rle_float.exr", 3, TINYEXR_PIXELTYPE_FLOAT, TINYEXR_COMPRESSIONTYPE_RLE);
    bad |= write_exr(d, "zips_half.exr", 3, TINYEXR_PIXELTYPE_HALF, TINYEXR_COMPRESSIONTYPE_ZIPS);
    bad |= write_exr(d, "zip_float.exr", 4, TINYEXR_PIXELTYPE_FLOAT, TINYEXR_COMPRESSIONTYPE_ZIP);
    bad |= write_exr(d, "piz_half.exr", 3, TINYEXR_PIXELTYPE_HALF, TINYEXR_COMPRESSIONTYPE_PIZ);
    bad |= write_exr(d, "y_half.exr", 1, TINYEXR_PIXELTYPE_HALF, TINYEXR_COMPRESSIONTYPE_ZIP);
    bad |= write_hdr(d, "flat.hdr", 4);
    bad |= write_hdr(d, "rle.hdr", 12);
    bad |= write_pfm(d, "rgb.pfm", 3);
    bad |= write_pfm(d, "grey.pfm", 1);
    bad |= write_png_hdr(d, "pq.png", 16, false);
    bad |= write_png_hdr(d, "hlg.png", 18, false);
    bad |= write_png_hdr(d, "ultrahdr.jpg", 16, true);
    return bad;
}

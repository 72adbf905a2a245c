/* OpenImageIO behind a small C interface (oiio_cxx.cpp): the formats hdrtone reads through the
 * field's own library (TIFF, DPX, Cineon, PSD, WebP, HEIF/AVIF, JPEG 2000, DDS, TGA, BMP, PNM,
 * camera RAW through its libraw plugin). Only bytes in memory; no exception leaves it. */
#ifndef HT_OIIO_H
#define HT_OIIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct oiio_file oiio_file;

/* What the opened subimage holds, as the file declares it. */
typedef struct oiio_spec {
    int width, height;       /* of the data window */
    int x, y;                /* the data window's origin */
    int full_width, full_height, full_x, full_y; /* the display window */
    int nchannels;
    int subimages;           /* pages (TIFF), images (HEIF), 1 for most formats */
    int bits;                /* bits per sample as stored ("oiio:BitsPerSample") */
    int type_bits;           /* bits of the type the samples come in (a 10-bit DPX: 16):
                                what OpenImageIO scales integers to 0..1 by */
    bool is_float;           /* half or float samples */
    char channels[128];      /* "R,G,B,A (uint16)" */
    char compression[32];    /* "lzw", "zip", "" when none said */
    char colorspace[32];     /* "oiio:ColorSpace": "sRGB", "linear", "KodakLog", ... */
} oiio_spec;

/* Opens DATA (SIZE bytes, kept by the caller until oiio_close) with the OpenImageIO plugin
 * PLUGIN ("tiff", "dpx", "raw", ...; chosen by image.c from the magic bytes) at SUBIMAGE, and
 * fills *SPEC. Only the header is read (a plugin that decodes on open is kept out by image.c's
 * own size check first). The "raw" plugin is asked for linear, white-balanced Rec. 709 through
 * the camera's matrix (libraw: camera white balance, camera matrix, gamma 1, no auto
 * brightening). NULL with the reason in WHY. */
oiio_file *oiio_open(const uint8_t *data, size_t size, const char *plugin, int subimage,
                     oiio_spec *spec, char *why, size_t wl);

/* Decodes the opened subimage's first min(nchannels, 4) channels as floats, packed (width x
 * height x min(nchannels, 4): the library's contiguous path), into RGBA (room for width x
 * height x 4) on up to THREADS threads (0 = the library's default: all). False with the
 * reason in WHY. */
bool oiio_read_rgba(oiio_file *f, float *rgba, int threads, char *why, size_t wl);

/* The library alone (bench --decode's floor, as oiiotool reads a file): every channel of the
 * opened subimage as contiguous floats into OUT (width x height x nchannels) on all threads. */
bool oiio_read_native(oiio_file *f, float *out, char *why, size_t wl);

/* Calls EACH(CTX, NAME, VALUE) for every metadata attribute of the opened subimage (EXIF, XMP,
 * IPTC, the format's own), VALUE as text; the ICC profile's bytes are not among them. */
void oiio_each_attribute(const oiio_file *f, void (*each)(void *, const char *, const char *),
                         void *ctx);

/* The embedded ICC profile's bytes (owned by F) and their count, or NULL. */
const uint8_t *oiio_icc_profile(const oiio_file *f, size_t *size);

/* Closes F (NULL is accepted). */
void oiio_close(oiio_file *f);

/* OpenImageIO's version ("2.4.7") and the libraries its plugins use ("LIBTIFF ..., libraw ..."). */
const char *oiio_version(void);
const char *oiio_libraries(void);

#endif

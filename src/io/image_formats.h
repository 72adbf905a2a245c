/* The image formats hdrtone reads: one table (name, decoder, extensions, MIME type) that the
 * loader's dispatch by content, `hdrtone --formats`, docs/formats.md and the file lists read. */
#ifndef HT_IMAGE_FORMATS_H
#define HT_IMAGE_FORMATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum image_format_id {
    IMAGE_FORMAT_NONE,
    IMAGE_FORMAT_EXR, IMAGE_FORMAT_RADIANCE, IMAGE_FORMAT_PFM, IMAGE_FORMAT_JXL,
    IMAGE_FORMAT_TIFF, IMAGE_FORMAT_RAW, IMAGE_FORMAT_DPX, IMAGE_FORMAT_CINEON, IMAGE_FORMAT_PSD,
    IMAGE_FORMAT_WEBP, IMAGE_FORMAT_HEIF, IMAGE_FORMAT_JP2, IMAGE_FORMAT_DDS, IMAGE_FORMAT_TGA,
    IMAGE_FORMAT_BMP, IMAGE_FORMAT_PNM, IMAGE_FORMAT_PNG, IMAGE_FORMAT_JPEG,
    IMAGE_FORMAT_COUNT
} image_format_id;

typedef struct image_format {
    const char *name;        /* hdr_image.format: "TIFF" */
    const char *library;     /* what decodes it: "OpenImageIO", "libjxl", "hdrtone" */
    const char *plugin;      /* OpenImageIO's plugin ("tiff", "raw"), NULL for the others */
    const char *extensions;  /* ".tif .tiff": what file lists and the desktop entry take */
    const char *mime;        /* "image/tiff;...": the desktop entry's MIME types */
} image_format;

/* The entry of ID (IMAGE_FORMAT_NONE < ID < IMAGE_FORMAT_COUNT). */
const image_format *image_format_get(image_format_id id);

/* The format of a file by its first bytes (DATA, SIZE bytes: the whole file, as TGA is known
 * by its footer): IMAGE_FORMAT_NONE when none matches. TIFF files that are camera raws (a DNG's
 * DNGVersion tag, Canon CR2, and NEF, ARW, PEF, SRW, ... by their first directory: a camera's
 * Make with SubIFDs or a CFA mosaic) are IMAGE_FORMAT_RAW, never by the file's extension.
 * Every PNG is IMAGE_FORMAT_PNG and every JPEG IMAGE_FORMAT_JPEG, HDR ones too (image_load tells
 * those apart first). */
image_format_id image_format_sniff(const uint8_t *data, size_t size);

/* Whether DATA is IMAGE_FORMAT_RAW only by that guess about its first directory (a TIFF-shaped
 * raw without DNGVersion, not a CR2): a file that libraw then refuses opens as TIFF. */
bool image_format_raw_by_guess(const uint8_t *data, size_t size);

/* Whether PATH's extension is one of the table's (case-insensitive): for folder listings. */
bool image_format_extension_known(const char *path);

/* Prints what this build reads (every format of the table, its extensions, the library and its
 * version) and writes (export's formats): `hdrtone --formats`. */
void image_formats_print(FILE *f);

#endif

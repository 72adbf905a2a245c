/* The format table and the magic bytes (contract in image_formats.h). */
#include "image_formats.h"
#include "oiio.h"

#include <jxl/decode.h>
#include <libheif/heif.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#ifdef HT_HAVE_OPENEXR
#include <OpenEXR/OpenEXRConfig.h>
#endif

static const image_format FORMATS[IMAGE_FORMAT_COUNT] = {
    [IMAGE_FORMAT_EXR] = {"OpenEXR", "OpenEXR/tinyexr", NULL, ".exr", "image/x-exr"},
    [IMAGE_FORMAT_RADIANCE] = {"Radiance", "hdrtone", NULL, ".hdr .pic .rgbe",
                               "image/vnd.radiance"},
    [IMAGE_FORMAT_PFM] = {"PFM", "hdrtone", NULL, ".pfm", "image/x-portable-floatmap"},
    [IMAGE_FORMAT_JXL] = {"JPEG XL", "libjxl", NULL, ".jxl", "image/jxl"},
    [IMAGE_FORMAT_TIFF] = {"TIFF", "OpenImageIO", "tiff", ".tif .tiff", "image/tiff"},
    /* MIME types of shared-mime-info where it has one (not for SRW, 3FR, ERF, IIQ, MOS, MEF). */
    [IMAGE_FORMAT_RAW] = {"RAW", "OpenImageIO", "raw",
                          ".dng .cr2 .cr3 .crw .nef .nrw .arw .srf .sr2 .orf .rw2 .rwl .raf .pef "
                          ".srw .3fr .fff .erf .kdc .dcr .mrw .x3f .iiq .mos .mef",
                          "image/x-adobe-dng;image/x-canon-cr2;image/x-canon-cr3;"
                          "image/x-canon-crw;image/x-nikon-nef;image/x-nikon-nrw;"
                          "image/x-sony-arw;image/x-sony-srf;image/x-sony-sr2;"
                          "image/x-olympus-orf;image/x-panasonic-rw2;image/x-fuji-raf;"
                          "image/x-pentax-pef;image/x-kodak-kdc;image/x-kodak-dcr;"
                          "image/x-minolta-mrw;image/x-sigma-x3f"},
    [IMAGE_FORMAT_DPX] = {"DPX", "OpenImageIO", "dpx", ".dpx", "image/x-dpx"},
    [IMAGE_FORMAT_CINEON] = {"Cineon", "OpenImageIO", "cineon", ".cin", "image/x-cineon"},
    [IMAGE_FORMAT_PSD] = {"PSD", "OpenImageIO", "psd", ".psd",
                          "image/vnd.adobe.photoshop"},
    [IMAGE_FORMAT_WEBP] = {"WebP", "OpenImageIO", "webp", ".webp", "image/webp"},
    [IMAGE_FORMAT_HEIF] = {"HEIF", "libheif", NULL, ".heic .heif .avif",
                           "image/heic;image/heif;image/avif"},
    [IMAGE_FORMAT_JP2] = {"JPEG 2000", "OpenImageIO", "jpeg2000", ".jp2 .j2k .j2c",
                          "image/jp2;image/x-jp2-codestream"},
    [IMAGE_FORMAT_DDS] = {"DDS", "OpenImageIO", "dds", ".dds", "image/x-dds"},
    [IMAGE_FORMAT_TGA] = {"TGA", "OpenImageIO", "targa", ".tga", "image/x-tga"},
    [IMAGE_FORMAT_BMP] = {"BMP", "OpenImageIO", "bmp", ".bmp", "image/bmp"},
    [IMAGE_FORMAT_PNM] = {"PNM", "OpenImageIO", "pnm", ".pnm .ppm .pgm .pbm",
                          "image/x-portable-anymap;image/x-portable-pixmap;"
                          "image/x-portable-graymap;image/x-portable-bitmap"},
    /* Display-referred pictures (image_load_sdr); a PNG with a PQ or HLG cICP and an Ultra HDR
     * JPEG are told apart by content before (image_load). */
    [IMAGE_FORMAT_PNG] = {"PNG", "stb_image", NULL, ".png", "image/png"},
    [IMAGE_FORMAT_JPEG] = {"JPEG", "stb_image", NULL, ".jpg .jpeg", "image/jpeg"},
};

const image_format *image_format_get(image_format_id id)
{
    return id > IMAGE_FORMAT_NONE && id < IMAGE_FORMAT_COUNT ? &FORMATS[id] : NULL;
}

static uint32_t rd32(const uint8_t *p, bool le)
{
    return le ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                    (uint32_t)p[3] << 24
              : (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 |
                    (uint32_t)p[0] << 24;
}

static unsigned rd16(const uint8_t *p, bool le)
{
    return le ? (unsigned)p[0] | (unsigned)p[1] << 8 : (unsigned)p[0] << 8 | p[1];
}

/* Whether a classic TIFF's first directory holds TAG; *VALUE: its first value when it is a
 * SHORT or LONG held in the entry (else 0). */
static bool tiff_tag(const uint8_t *d, size_t size, unsigned tag, uint32_t *value)
{
    bool le = d[0] == 'I';
    if (size < 8 || d[2] != (le ? 42 : 0))
        return false;
    uint32_t ifd = rd32(d + 4, le);
    if (ifd > size || size - ifd < 2)
        return false;
    unsigned n = rd16(d + ifd, le);
    for (unsigned i = 0; i < n && (size_t)ifd + 2 + 12 * (i + 1) <= size; i++) {
        const uint8_t *e = d + ifd + 2 + 12 * i;
        if (rd16(e, le) != tag)
            continue;
        unsigned type = rd16(e + 2, le);
        *value = type == 4 ? rd32(e + 8, le) : type == 3 ? rd16(e + 8, le) : 0;
        return true;
    }
    return false;
}

/* A DNG (tag DNGVersion, 50706) is a TIFF whose main image is the sensor's mosaic, for libraw,
 * not a picture. So are the TIFF-shaped raws of Nikon (NEF, NRW), Sony (ARW), Pentax (PEF),
 * Samsung (SRW), Kodak and others, without that tag: their first directory names the camera
 * (Make) and holds sub-images (SubIFDs: the raw beside the preview) or is the mosaic itself
 * (PhotometricInterpretation CFA). Read as TIFF, they show the embedded preview. */
static bool tiff_is_camera_raw(const uint8_t *d, size_t size)
{
    uint32_t v = 0;
    if (tiff_tag(d, size, 50706, &v))
        return true;
    return tiff_tag(d, size, 271, &v) &&
           (tiff_tag(d, size, 330, &v) || (tiff_tag(d, size, 262, &v) && v == 32803));
}

bool image_format_raw_by_guess(const uint8_t *d, size_t size)
{
    uint32_t v = 0;
    return size >= 4 && (!memcmp(d, "II*\0", 4) || !memcmp(d, "MM\0*", 4)) &&
           !tiff_tag(d, size, 50706, &v) && !(size >= 10 && d[8] == 'C' && d[9] == 'R') &&
           tiff_is_camera_raw(d, size);
}

/* An ISO base media file ('ftyp' box first) of a HEIF brand (HEIC, AVIF, ...) or Canon's CR3. */
static image_format_id bmff_format(const uint8_t *d, size_t size)
{
    static const char *const heif[] = {"heic", "heix", "hevc", "heim", "heis", "hevm",
                                       "hevs", "mif1", "msf1", "avif", "avis"};
    if (size < 16 || memcmp(d + 4, "ftyp", 4) != 0)
        return IMAGE_FORMAT_NONE;
    size_t box = rd32(d, false);
    if (box < 16 || box > size)
        return IMAGE_FORMAT_NONE;
    for (size_t at = 8; at + 4 <= box; at += at == 8 ? 8 : 4) { /* major, version, the rest */
        if (memcmp(d + at, "crx ", 4) == 0)
            return IMAGE_FORMAT_RAW;
        for (size_t k = 0; k < sizeof heif / sizeof heif[0]; k++)
            if (memcmp(d + at, heif[k], 4) == 0)
                return IMAGE_FORMAT_HEIF;
    }
    return IMAGE_FORMAT_NONE;
}

/* TGA has no magic: a 2.0 file ends with its footer; an older one is taken when its header is
 * plausible (a colour-map flag, a known image type and pixel depth, a non-zero size). */
static bool is_tga(const uint8_t *d, size_t size)
{
    if (size >= 26 && memcmp(d + size - 18, "TRUEVISION-XFILE.", 18) == 0)
        return true;
    if (size < 18 || d[1] > 1)
        return false;
    int type = d[2], bpp = d[16];
    bool known = type == 1 || type == 2 || type == 3 || type == 9 || type == 10 || type == 11;
    bool depth = bpp == 8 || bpp == 15 || bpp == 16 || bpp == 24 || bpp == 32;
    return known && depth && (d[12] | d[13]) && (d[14] | d[15]);
}

image_format_id image_format_sniff(const uint8_t *d, size_t size)
{
    static const uint8_t jxl_box[12] = {0, 0, 0, 12, 'J', 'X', 'L', ' ', 13, 10, 0x87, 10};
    static const uint8_t jp2_box[12] = {0, 0, 0, 12, 'j', 'P', ' ', ' ', 13, 10, 0x87, 10};
    if (size >= 4 && (memcmp(d, "II*\0", 4) == 0 || memcmp(d, "MM\0*", 4) == 0)) {
        bool cr2 = size >= 10 && d[8] == 'C' && d[9] == 'R';
        return cr2 || tiff_is_camera_raw(d, size) ? IMAGE_FORMAT_RAW : IMAGE_FORMAT_TIFF;
    }
    if (size >= 4 && (memcmp(d, "II+\0", 4) == 0 || memcmp(d, "MM\0+", 4) == 0))
        return IMAGE_FORMAT_TIFF; /* BigTIFF */
    if (size >= 4 && (memcmp(d, "IIRO", 4) == 0 || memcmp(d, "IIRS", 4) == 0 ||
                      memcmp(d, "MMOR", 4) == 0 || memcmp(d, "IIU\0", 4) == 0))
        return IMAGE_FORMAT_RAW; /* Olympus ORF, Panasonic RW2 */
    if (size >= 15 && memcmp(d, "FUJIFILMCCD-RAW", 15) == 0)
        return IMAGE_FORMAT_RAW;
    if (size >= 14 && (memcmp(d, "\0MRM", 4) == 0 || memcmp(d, "FOVb", 4) == 0 ||
                       memcmp(d, "II\x1a\0\0\0HEAPCCDR", 14) == 0 ||
                       (memcmp(d, "IIII", 4) == 0 && memcmp(d + 5, "waR", 3) == 0) ||
                       (memcmp(d, "MMMM", 4) == 0 && memcmp(d + 4, "Raw", 3) == 0)))
        return IMAGE_FORMAT_RAW; /* Minolta MRW, Sigma X3F, Canon CRW, Phase One IIQ */
    if ((size >= 2 && d[0] == 0xff && d[1] == 0x0a) || (size >= 12 && !memcmp(d, jxl_box, 12)))
        return IMAGE_FORMAT_JXL;
    if ((size >= 4 && !memcmp(d, "\xff\x4f\xff\x51", 4)) || (size >= 12 && !memcmp(d, jp2_box, 12)))
        return IMAGE_FORMAT_JP2;
    if (size >= 4 && (memcmp(d, "SDPX", 4) == 0 || memcmp(d, "XPDS", 4) == 0))
        return IMAGE_FORMAT_DPX;
    if (size >= 4 &&
        (memcmp(d, "\x80\x2a\x5f\xd7", 4) == 0 || memcmp(d, "\xd7\x5f\x2a\x80", 4) == 0))
        return IMAGE_FORMAT_CINEON;
    if (size >= 4 && memcmp(d, "8BPS", 4) == 0)
        return IMAGE_FORMAT_PSD;
    if (size >= 12 && memcmp(d, "RIFF", 4) == 0 && memcmp(d + 8, "WEBP", 4) == 0)
        return IMAGE_FORMAT_WEBP;
    if (size >= 4 && memcmp(d, "DDS ", 4) == 0)
        return IMAGE_FORMAT_DDS;
    if (size >= 14 && d[0] == 'B' && d[1] == 'M')
        return IMAGE_FORMAT_BMP;
    if (size >= 3 && d[0] == 'P' && d[1] >= '1' && d[1] <= '6' &&
        (d[2] == ' ' || d[2] == '\n' || d[2] == '\r' || d[2] == '\t'))
        return IMAGE_FORMAT_PNM;
    if (size >= 8 && memcmp(d, "\x89PNG\r\n\x1a\n", 8) == 0)
        return IMAGE_FORMAT_PNG;
    if (size >= 3 && d[0] == 0xff && d[1] == 0xd8 && d[2] == 0xff)
        return IMAGE_FORMAT_JPEG;
    image_format_id b = bmff_format(d, size);
    if (b != IMAGE_FORMAT_NONE)
        return b;
    return is_tga(d, size) ? IMAGE_FORMAT_TGA : IMAGE_FORMAT_NONE;
}

bool image_format_extension_known(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/'))
        return false;
    size_t n = strlen(dot);
    for (int id = IMAGE_FORMAT_NONE + 1; id < IMAGE_FORMAT_COUNT; id++)
        for (const char *e = FORMATS[id].extensions; (e = strchr(e, '.')); e++)
            if (strncasecmp(e, dot, n) == 0 && (e[n] == ' ' || e[n] == '\0'))
                return true;
    return false;
}

/* The version part of OpenImageIO's library_list entry of PLUGIN ("tiff:LIBTIFF 4.5.0;..."),
 * into OUT; "" when it lists none. */
static const char *plugin_library(const char *plugin, char *out, size_t ol)
{
    const char *list = oiio_libraries();
    size_t pl = strlen(plugin);
    out[0] = '\0';
    for (const char *e = list; e && *e; e = strchr(e, ';') ? strchr(e, ';') + 1 : NULL)
        if (strncmp(e, plugin, pl) == 0 && e[pl] == ':') {
            snprintf(out, ol, "%.*s", (int)strcspn(e + pl + 1, ";"), e + pl + 1);
            break;
        }
    return out;
}

void image_formats_print(FILE *f)
{
    uint32_t jxl = JxlDecoderVersion();
    fputs("reads (recognised by content, not by extension):\n", f);
    for (int id = IMAGE_FORMAT_NONE + 1; id < IMAGE_FORMAT_COUNT; id++) {
        const image_format *m = &FORMATS[id];
        char lib[96] = "";
        if (m->plugin)
            snprintf(lib, sizeof lib, "OpenImageIO %s", oiio_version());
        else if (id == IMAGE_FORMAT_JXL)
            snprintf(lib, sizeof lib, "libjxl %u.%u.%u", jxl / 1000000, jxl / 1000 % 1000,
                     jxl % 1000);
        else if (id == IMAGE_FORMAT_PNG || id == IMAGE_FORMAT_JPEG)
            snprintf(lib, sizeof lib, "stb_image (display-referred: white at 203 cd/m^2)");
        else if (id == IMAGE_FORMAT_HEIF)
            snprintf(lib, sizeof lib, "libheif %s", heif_get_version());
        else if (id == IMAGE_FORMAT_EXR)
#ifdef HT_HAVE_OPENEXR
            snprintf(lib, sizeof lib, "OpenEXR %s, tinyexr", OPENEXR_VERSION_STRING);
#else
            snprintf(lib, sizeof lib, "tinyexr");
#endif
        else
            snprintf(lib, sizeof lib, "hdrtone's own reader");
        char dep[80];
        if (m->plugin && *plugin_library(m->plugin, dep, sizeof dep))
            fprintf(f, "  %-10s %-40s %s (%s)\n", m->name, m->extensions, lib, dep);
        else
            fprintf(f, "  %-10s %-40s %s\n", m->name, m->extensions, lib);
    }
    fputs("MIME types (the desktop entry's):\n  ", f);
    for (int id = IMAGE_FORMAT_NONE + 1; id < IMAGE_FORMAT_COUNT; id++)
        fprintf(f, "%s;", FORMATS[id].mime);
    fputc('\n', f);
    fprintf(f, "writes (export):\n"
               "  png        8/16-bit sRGB                             hdrtone's own deflate\n"
               "  jpeg       8-bit sRGB                                libjpeg-turbo (TurboJPEG)\n"
               "  rgb24, y4m raw video frames for ffmpeg                hdrtone's own writer\n"
               "  hdr, pfm   linear float                              hdrtone's own writer\n");
}

/* Shared between the loaders (image*.c); not part of the public interface. */
#ifndef HT_IMAGE_INTERNAL_H
#define HT_IMAGE_INTERNAL_H

#include "image.h"

/* image_rgba_to_half has the CPU's F16C conversion where GCC builds for x86-64 (clang 14's
 * __builtin_cpu_supports does not know "f16c"). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define HT_HAVE_F16C 1
#endif
/* Whether image_rgba_to_half uses F16C here: built with it, and the CPU has it. */
bool image_half_f16c(void);

/* IEEE float -> half, rounding to nearest even like Imath's half (and GPUs); the other way
 * is image.h's image_half_to_float. */
uint16_t image_float_to_half(float f);
static inline float image_round_half(float f)
{
    return image_half_to_float(image_float_to_half(f));
}

/* The big-endian 32-bit number at P (PNG's and ICC's). */
static inline uint32_t image_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The calling thread's file buffer, at least BYTES long, reused by its next call and freed when
 * the thread ends; NULL when out of memory. */
uint8_t *image_thread_buffer(size_t bytes);

/* image_load_options.threads resolved (OPTS may be NULL): 0 = one per online CPU, capped. */
int image_load_threads(const image_load_options *opts);

/* Reads the whole of PATH: a regular file into the thread's buffer (*owned false) unless it is
 * larger than IMAGE_KEEP_FILE_BYTES, anything else into a malloc'd one (*owned true, the
 * caller frees it); a large regular file in pieces on up to THREADS threads. Returns NULL
 * with err "PATH: reason" filled on failure. */
uint8_t *image_read_file(const char *path, int threads, size_t *size_out, bool *owned,
                         char *err, size_t errlen);

/* The effective --max-pixels (opts may be NULL). */
uint64_t image_max_pixels(const image_load_options *opts);

/* Checks W x H against the pixel limit; fills err "PATH: ..." and returns false when over. */
bool image_check_pixels(const char *path, uint64_t w, uint64_t h, const image_load_options *opts,
                        char *err, size_t errlen);

/* The format loaders image_load_memory chooses by content; same contract as image_load. DATA/SIZE
 * is the whole file; OPTS NULL = image_load_defaults. */
bool image_load_exr(const char *path, const uint8_t *data, size_t size,
                    const image_load_options *opts, hdr_image *img, char *err, size_t errlen);
bool image_load_hdr(const char *path, const uint8_t *data, size_t size,
                    const image_load_options *opts, hdr_image *img, char *err, size_t errlen);
bool image_load_pfm(const char *path, const uint8_t *data, size_t size,
                    const image_load_options *opts, hdr_image *img, char *err, size_t errlen);

/* PNGs with an HDR signal (image_png_hdr.c): whether DATA is a PNG whose cICP says PQ or HLG,
 * and its loader (linear cd/m^2 in the cICP's primaries; same contract as image_load). */
bool image_png_is_hdr(const uint8_t *data, size_t size);
bool image_load_png_hdr(const char *path, const uint8_t *data, size_t size,
                        const image_load_options *opts, hdr_image *img, char *err,
                        size_t errlen);
/* Ultra HDR gain-map JPEGs (image_uhdr.c; uhdr.h): whether DATA is a JPEG whose first image's
 * XMP names hdrgm, and its loader (the base plus the gain map, or with opts->sdr_base the base
 * alone, in cd/m^2: SDR white at HT_HDR_REF_WHITE; same contract as image_load). */
bool image_jpeg_is_uhdr(const uint8_t *data, size_t size);
bool image_load_uhdr(const char *path, const uint8_t *data, size_t size,
                     const image_load_options *opts, hdr_image *img, char *err, size_t errlen);
/* A PNG or JPEG picture without an HDR signal (image_ldr_sniff; image_uhdr.c): display-
 * referred, as an Ultra HDR base alone: its colour tags honoured (image_ldr.h), in cd/m^2 with
 * SDR white at HT_HDR_REF_WHITE, as tev and HDRView open such pictures beside HDR ones; same
 * contract as image_load. */
bool image_load_sdr(const char *path, const uint8_t *data, size_t size,
                    const image_load_options *opts, hdr_image *img, char *err, size_t errlen);

/* Adds every attribute of the OpenEXR header at POS of DATA (SIZE bytes; walked by
 * exr_validate) to IMG's metadata, in the file's order, each value as text. */
void exr_meta_add(hdr_image *img, const uint8_t *data, size_t size, size_t pos);

/* Adds IMG's metadata entries of the ICC profile ICC (N bytes): its size and description. */
void image_meta_icc(hdr_image *img, const uint8_t *icc, size_t n);

/* The loaders of the formats read through OpenImageIO (image_oiio.c: the format's plugin from
 * image_formats.h), libjxl (jxl_read.c) and libheif (heif_read.c); image_load's contract. */
bool image_load_oiio(const char *path, const uint8_t *data, size_t size, int format,
                     const image_load_options *opts, hdr_image *img, char *err, size_t errlen);
bool image_load_jxl(const char *path, const uint8_t *data, size_t size,
                    const image_load_options *opts, hdr_image *img, char *err, size_t errlen);
bool image_load_heif(const char *path, const uint8_t *data, size_t size,
                     const image_load_options *opts, hdr_image *img, char *err, size_t errlen);

/* IMG's decoded values (RGBA codes of the file's encoding, 0..1 for integers) converted in
 * place through its embedded ICC profile (IMG->icc) to linear Rec. 709, *colour set to source
 * IMAGE_COLOUR_ICC (icc_to_linear's rules; alpha kept). GREY: the picture has one colour
 * channel (R = G = B), which a grey profile converts; an RGB profile converts R, G, B. For the
 * OpenImageIO, libjxl and libheif loaders, where a profile rules (no CICP-like numbers). False
 * with "PATH: the ICC profile ...: reason" for a profile lcms2 refuses. */
bool image_icc_apply(hdr_image *img, bool grey, const char *path, char *err, size_t errlen);

/* libjxl alone decoding DATA to RGBA floats into OUT (NFLOATS) on all threads, no colour
 * handling: image_library_floor's JPEG XL part. */
bool image_jxl_floor(const uint8_t *data, size_t size, float *out, size_t nfloats, char *why,
                     size_t wl);

/* Most pixels along a side any loader accepts (the sizes are kept in int). */
#define IMAGE_MAX_SIDE (1 << 20)

/* Transfer characteristics by their H.273 code (JPEG XL's enumeration uses the same numbers),
 * and JPEG XL's plain gamma. */
enum {
    IMAGE_TRANSFER_BT709 = 1,
    IMAGE_TRANSFER_LINEAR = 8,
    IMAGE_TRANSFER_SRGB = 13,
    IMAGE_TRANSFER_PQ = 16,   /* linear in units of 10,000 cd/m^2 */
    IMAGE_TRANSFER_DCI = 17,  /* gamma 2.6 */
    IMAGE_TRANSFER_HLG = 18,  /* scene light 0..1, no OOTF */
    IMAGE_TRANSFER_GAMMA = 65535, /* v^(1/GAMMA): GAMMA is the encoding exponent */
};

/* The encoded value V as linear light by transfer CODE (IMAGE_TRANSFER_*, or another H.273
 * code: 6, 14, 15 as BT.709, 4 and 5 as gamma 2.2 and 2.8; anything unknown as sRGB);
 * negative values mirrored. */
float image_transfer_to_linear(float v, int code, float gamma);

/* The R, G, B of N RGBA pixels made linear by transfer CODE (image_transfer_to_linear); BITS
 * 1..16: the values are integer codes / (2^BITS - 1), linearised through a table (the same
 * results); else one by one. */
void image_linearise(float *rgba, size_t n, int code, float gamma, int bits);

/* The linear values of the 2^BITS integer codes (BITS 1..16; else no table: every value by
 * image_transfer_to_linear) of transfer CODE, which image_linearise builds and jxl_read.c
 * applies as libjxl hands out rows. */
typedef struct {
    int code;
    float gamma, max;
    float lut[1 << 16];
} image_transfer_table;
void image_transfer_table_init(image_transfer_table *t, int code, float gamma, int bits);
/* N RGBA pixels of SRC (codes / (2^BITS - 1)) into DST (may be SRC): R, G, B linearised (values
 * off the table one by one), alpha copied. */
void image_transfer_table_apply(const image_transfer_table *t, const float *src, float *dst,
                                size_t n);

/* Every option at its default. */
extern const image_load_options image_load_defaults;

/* Number of multiples of S in [A, B] (S > 0): how many samples a channel with sampling S has
 * in the pixel range A..B. */
static inline int64_t image_multiples(int64_t a, int64_t b, int64_t s)
{
    if (b < a)
        return 0;
    int64_t fb = b >= 0 ? b / s : -((-b + s - 1) / s);
    int64_t a1 = a - 1;
    int64_t fa = a1 >= 0 ? a1 / s : -((-a1 + s - 1) / s);
    return fb - fa;
}

/* ---- Luminance/chroma reconstruction (image_yca.c) ---- */

/* Reconstructs RGBA from Y, RY, BY (RY/BY sampled at even x and even y, absolute
 * coordinates), A (may be NULL = 1) the way OpenEXR's RgbaInputFile does: 27-tap horizontal
 * then vertical chroma filters, YCA -> RGB with weights YW (from the chromaticities),
 * desaturation of isolated super-saturated pixels, every intermediate rounded to half.
 * Y and A are W x H planes; RY/BY are planes of CW x CH samples. OUT gets W*H*4 floats.
 * Returns false only when out of memory. */
bool image_yca_to_rgba(int x0, int y0, int w, int h, const float *y, const float *ry,
                       const float *by, int cw, int ch, const float *a, const float yw[3],
                       float *out);

/* Luminance weights from CIE xy chromaticities CHROMA (r, g, b, white: 8 floats), as
 * OpenEXR's RgbaYca::computeYw; CHROMA NULL: Rec.709 and D65, OpenEXR's default when a file
 * has no chromaticities. */
void image_yca_weights(const float *chroma, float yw[3]);

/* ---- OpenEXRCore decoding (image_openexr.c) ---- */

/* A decoded channel: nx x ny samples (its sampled grid over the data window) as floats. */
typedef struct exr_plane {
    const char *name;  /* which channel (in) */
    int nx, ny;        /* out */
    float *v;          /* out, malloc'd, caller frees */
} exr_plane;

/* Reads part 0's un-prefixed R,G,B (or Y, or Y,RY,BY) of PATH through OpenEXR's RGBA
 * interface (the C++ library's C wrapper), into W x H x 4 floats; DW is the data window the
 * headers gave. For DWAA/DWAB, which OpenEXRCore 3.1 cannot decode. */
bool image_openexr_rgba(const char *path, const int dw[4], float *rgba, char *why, size_t wl);

/* Decodes level 0 of part PART from the whole file in memory (validated by exr_validate) with
 * OpenEXR's C++ library, on up to THREADS threads, straight into OUT: the part's data window
 * as interleaved RGBA half floats, slot k from the HALF channel NAMES[k] (full resolution),
 * or, for a NULL name, filled with 0 (R, G, B) or 1 (A). False with "reason" (no path) in
 * WHY. */
bool image_openexr_half(const uint8_t *data, size_t size, int part, const char *const names[4],
                        int threads, uint16_t *out, char *why, size_t wl);
/* The same, telling PR (NULL: none) of the rows done as image_progress says, in bands of
 * whole chunks of CHUNK_ROWS rows (the part's scanlines per chunk or tile height). */
bool image_openexr_half_progress(const uint8_t *data, size_t size, int part,
                                 const char *const names[4], int threads, uint16_t *out,
                                 const image_progress *pr, int chunk_rows, char *why, size_t wl);

/* The same with OpenEXRCore, which refuses a chunk that decompresses to fewer bytes than its
 * pixels need (the C++ library 3.1 then leaves the rest of its line buffer, stale memory, in
 * the image): chunks on up to THREADS threads, each channel written in place with the
 * interleaved stride, the slots of no channel filled too (colour 0, alpha 1), and a G or B
 * named as R (slot 0) a copy of R (a grey view: Y in R, G, B). Tells PR (NULL: none) of the
 * rows done as image_progress says, about every sixteenth of the image. */
bool image_openexr_core_half(const uint8_t *data, size_t size, int part,
                             const char *const names[4], int threads, uint16_t *out,
                             const image_progress *pr, char *why, size_t wl);

/* True when this build has the OpenEXR library. */
bool image_have_openexr(void);

/* Decodes PLANES (by channel name) of part PART, level 0, with OpenEXRCore from the whole file
 * in memory, on up to THREADS threads (the calling one among them; each decodes chunks of its
 * own, with its own pipeline), with the same result for every THREADS. The structure was
 * validated by exr_validate first. Returns false with "reason" (no path) in why: the failure
 * of the first failing chunk in file-independent order, as one thread would meet it. */
bool image_openexr_decode(const uint8_t *data, size_t size, int part, int threads,
                          exr_plane *planes, int nplanes, char *why, size_t wl);

#endif

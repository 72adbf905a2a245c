/* Image encoders of export, into memory: PNG (8 or 16 bits, our own deflate), JPEG
 * (libturbojpeg), the frames of the video streams rgb24 (raw RGB8) and y4m (YUV4MPEG2), and
 * the linear output as floats: a Radiance picture (hdr, RGBE) or a PFM.
 * No I/O here: png_export.h writes the bytes (atomically to a file, or to a descriptor). */
#ifndef HT_ENCODE_H
#define HT_ENCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The formats, in --format's order after "auto" (X(ID, name)). */
#define ENCODE_FORMATS(X) \
    X(PNG, png) X(JPEG, jpeg) X(RGB24, rgb24) X(Y4M, y4m) X(HDR, hdr) X(PFM, pfm)          \
    X(AVIF, avif) X(JXL, jxl)
#define ENCODE_ENUM_(id, name) ENCODE_##id,
typedef enum encode_format {
    ENCODE_AUTO,   /* from the output file's extension */
    ENCODE_FORMATS(ENCODE_ENUM_)
    ENCODE_FORMAT_COUNT
} encode_format;
#undef ENCODE_ENUM_

enum {
    ENCODE_JPEG_QUALITY_DEFAULT = 95,
    ENCODE_Y4M_FPS = 25,   /* the frame rate a y4m header states; ffmpeg's -r overrides it */
};

/* What an output says of its colour (output_tags.c makes it; out_tags.c writes it): PNG's cICP,
 * sRGB, gAMA, iCCP, mDCv and cLLi chunks, JPEG's APP2 ICC profile, Radiance's PRIMARIES=.
 * Zero means absent, field by field. */
typedef struct encode_tags {
    uint8_t cicp[4];          /* ITU-T H.273 colour primaries, transfer, matrix (0: RGB), full
                                 range (1); cicp[0] 0: none */
    bool srgb;                /* PNG's sRGB chunk (the sRGB space itself) */
    double gamma;             /* PNG's gAMA chunk: a plain power 1/GAMMA; 0: none */
    const uint8_t *icc;       /* an ICC profile (PNG iCCP unless srgb, JPEG APP2), or NULL */
    size_t icc_len;
    double xy[4][2];          /* the display's R, G, B and white (Radiance PRIMARIES=, mDCv) */
    double ldmax, ldmin;      /* the mastering display's luminance range, cd/m^2 (mDCv: HDR
                                 outputs; ldmax 0: none) */
    double max_cll, max_fall; /* cd/m^2, measured (cLLi; max_cll 0: none) */
    bool chroma420;           /* y4m's 10-bit frames: 4:2:0 (else 4:4:4); not a colour tag, but
                                 the one setting of a format that travels with them */
} encode_tags;

/* Pixels to encode: rows packed, top row first; CHANNELS 1 grey, 2 grey+alpha, 3 RGB,
 * 4 RGBA; DEPTH 8 (uint8_t samples) or 16 (uint16_t, native byte order), whose values are
 * display-encoded: GAMMA 0 means the sRGB curve (a PNG gets an sRGB chunk), else a plain
 * power 1/GAMMA (a PNG gets a gAMA chunk); or DEPTH 32: float samples, linear (hdr, pfm;
 * GAMMA unused). */
typedef struct encode_image {
    const void *pixels;
    int width, height;
    int channels;
    int depth;
    double gamma;
    const encode_tags *tags;  /* NULL: as GAMMA says (a PNG's sRGB or gAMA chunk, nothing else) */
} encode_image;

/* Encoded bytes, malloc'd (free(data)). */
typedef struct encode_buffer {
    uint8_t *data;
    size_t len;
} encode_buffer;

/* The format that PATH's extension names (.png, .jpg, .jpeg, .rgb, .y4m, .hdr, .pfm, .avif,
 * .jxl; any case), or ENCODE_AUTO when it names none. */
encode_format encode_format_of_path(const char *path);

/* The name of a format ("png", ...; "auto" for ENCODE_AUTO) and the file extension export
 * gives it in a directory ("png", "jpg", "rgb", "y4m", "hdr", "pfm"). */
const char *encode_format_name(encode_format f);
const char *encode_format_extension(encode_format f);

/* F holds linear float RGB (DEPTH 32) only: hdr and pfm. */
bool encode_format_is_float(encode_format f);

/* F at DEPTH holds the linear output as floats: hdr and pfm, JPEG XL at 32 bits. */
bool encode_format_is_linear(encode_format f, int depth);

/* Whether F can hold IM's kind of pixels: PNG everything of 8 or 16 bits; JPEG 8-bit grey or
 * RGB; rgb24 and y4m 8-bit RGB; hdr and pfm float RGB; AVIF 8- or 16-bit RGB, JPEG XL 8-,
 * 16-bit or float RGB
 * (encode_codecs.h; QUALITY 0 is lossless for them). False with the reason in err. */
bool encode_format_accepts(encode_format f, int channels, int depth, char *err, size_t errlen);

/* One image or frame of F into *out (nothing to free on failure): PNG with the Sub filter on
 * every row and our own deflate in stripes on all online CPUs (zlib_stripes.h); JPEG at
 * QUALITY (1..100) with 4:4:4 chroma; rgb24 the
 * raw bytes; y4m one "FRAME" (encode_y4m_header says what it holds). False with the reason
 * in err (e.g. out of memory, a format that does not accept IM). */
bool encode_image_to(encode_format f, int quality, const encode_image *im, encode_buffer *out,
                     char *err, size_t errlen);

/* encode_image_to with, for hdr, the EXPOSURE line (written as Radiance does, %.4e) of a
 * picture whose values are EXPOSURE times the scene's radiance (0: no line; other formats
 * ignore it). An hdr is a Radiance picture: "#?RADIANCE", FORMAT=32-bit_rle_rgbe, the
 * EXPOSURE line, "-Y H +X W", every scanline run-length encoded per component (flat below 8
 * or above 32767 pixels), pixels RGBE as Radiance's setcolr makes them (encode_rgbe). A pfm
 * is "PF", little-endian, bottom row first. */
bool encode_image_exposure(encode_format f, int quality, const encode_image *im,
                           double exposure, encode_buffer *out, char *err, size_t errlen);

/* encode_image_exposure with PNG's and JPEG's stripes compressed on THREADS threads (0: one
 * per online CPU); the bytes are the same for any THREADS. */
bool encode_image_threads(encode_format f, int quality, const encode_image *im,
                          double exposure, int threads, encode_buffer *out, char *err,
                          size_t errlen);

/* R, G, B as Radiance stores them (setcolr): the largest's binary exponent + 128 shared,
 * each mantissa truncated to 8 bits; all 0 at or below 1e-32 (and for non-finite values);
 * all 255, the largest RGBE holds, when the exponent does not fit. */
void encode_rgbe(double r, double g, double b, uint8_t rgbe[4]);

/* RGBE's values into RGB: mantissa * 2^(exponent - 136) (Ward's rgbe.c), or with MID
 * (mantissa + 0.5) * 2^(exponent - 136) (Radiance's colr_color: the middle of the step);
 * all 0 when the exponent is 0. Exact in float. */
void decode_rgbe(const uint8_t rgbe[4], bool mid, float rgb[3]);

/* The YUV4MPEG2 stream header for W x H frames, written once before the first frame; DEPTH 8:
 * 4:4:4 (C444), full range (XCOLORRANGE=FULL), progressive, square pixels, ENCODE_Y4M_FPS, the
 * frames the display-encoded RGB converted with the BT.709 matrix (Y = 0.2126 R + 0.7152 G +
 * 0.0722 B), full range: Y, Cb, Cr in 0..255, Cb and Cr centred on 128. DEPTH 16 (an HDR
 * output's 16-bit PQ or HLG RGB): 10-bit, C444p10 or with C420 C420p10, narrow range, BT.2020's
 * matrix (encode_y4m_frame10). Returns the header's length (< LEN), or 0 when LEN is too
 * small. */
size_t encode_y4m_header(int w, int h, int depth, bool c420, char *buf, size_t len);

#endif

/* Colour-managed decoding of display-referred pictures (8/16-bit or float values with an ICC
 * profile, PNG's cICP or cHRM/gAMA) into linear Rec. 709 floats, through Little CMS 2 (lcms2,
 * Debian liblcms2): the one parser of profiles, its errors caught (it never prints or aborts).
 * Transforms are float and unbounded: a colour outside Rec. 709's gamut comes back with a value
 * below 0 or above 1, not clipped. docs/formats.md says the rules. */
#ifndef HT_ICC_H
#define HT_ICC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "image.h"

/* The largest profile read (a printer's LUT profile is a few MB): PNG's iCCP is inflated up
 * to this, no further. */
#define ICC_MAX_PROFILE_BYTES ((size_t)64 << 20)

/* The type of the values given (icc_pixels.type). */
enum {
    ICC_U8 = 0,   /* 8-bit codes, 0..255 */
    ICC_U16 = 1,  /* 16-bit codes, 0..65535, in the machine's byte order */
    ICC_F32 = 2,  /* float codes, 0..1 (values beyond are extrapolated where the curve allows) */
};

/* Pixels to convert: COUNT pixels of CHANNELS interleaved values of TYPE at IN, the colour
 * ones first (grey, or R, G, B) and then any others (alpha), which are not read. The result
 * is COUNT pixels of OUT_CHANNELS floats at OUT: linear R, G, B are written, any slot after
 * them is left as it was. OUT may be IN when TYPE is ICC_F32 and CHANNELS == OUT_CHANNELS. */
typedef struct icc_pixels {
    const void *in;
    int type;           /* ICC_U8, ICC_U16, ICC_F32 */
    int channels;       /* 1 or 2 (grey) or 3 or 4 (RGB) */
    size_t count;
    float *out;
    int out_channels;   /* 3 or 4 */
} icc_pixels;

/* Converts PX by the ICC profile PROFILE (N bytes, as stored in the file: PNG's iCCP after
 * inflating, JPEG's APP2 segments joined) to linear Rec. 709 (D65) with the perceptual intent
 * (the relative colorimetric one for matrix/TRC profiles: the profile's white becomes
 * R = G = B, as every colour-managed viewer shows it), and sets *COLOUR to Rec. 709 with source
 * IMAGE_COLOUR_ICC. The profile must describe RGB data for 3/4 channels and grey data for 1/2
 * and be an input, display, output or colour-space profile. For any loader (the formats to
 * come call it too).
 * False, *COLOUR and OUT unspecified, with "PATH: the ICC profile ...: reason" in ERR when the
 * profile is corrupt, hostile, of another colour space (CMYK, Lab, ...) or class, or memory
 * runs out. Thread-safe (each call has its own lcms2 context). */
bool icc_to_linear(const uint8_t *profile, size_t n, const icc_pixels *px, image_colour *colour,
                   const char *path, char *err, size_t errlen);

/* Whether PROFILE (N bytes) says it describes grey data (its header's colour space), so
 * that a decoder hands icc_to_linear one channel, not grey expanded to RGB. Reads the header
 * only: a false claim is found by icc_to_linear. */
bool icc_profile_is_grey(const uint8_t *profile, size_t n);

/* Transfer functions of encodings described by numbers (icc_encoding.curve). */
enum {
    ICC_CURVE_SRGB = 0,   /* IEC 61966-2-1's (cICP transfer 13) */
    ICC_CURVE_BT709 = 1,  /* the inverse of BT.709's OETF (cICP transfer 1, 6, 14, 15) */
    ICC_CURVE_GAMMA = 2,  /* V^gamma (PNG gAMA; cICP transfer 4 and 5) */
    ICC_CURVE_LINEAR = 3, /* V (cICP transfer 8) */
};

/* An encoding described by numbers instead of a profile (PNG cICP, cHRM and gAMA). */
typedef struct icc_encoding {
    double xy[4][2];      /* chromaticities of R, G, B and white */
    int curve;            /* ICC_CURVE_* */
    double gamma;         /* the exponent of ICC_CURVE_GAMMA (2.2 for gAMA 45455) */
    int source;           /* the IMAGE_COLOUR_* *COLOUR says (CICP, CHROMATICITIES) */
} icc_encoding;

/* *E of the ITU-T H.273 code points PRIMARIES and TRANSFER (PNG's cICP; AVIF's, HEIF's and
 * JPEG XL's the same numbers), source IMAGE_COLOUR_CICP: primaries 1 (BT.709), 9 (BT.2020),
 * 12 (P3-D65); transfers 1, 6, 14, 15 (BT.709's), 4 and 5 (gamma 2.2, 2.8), 8 (linear), 13
 * (sRGB). False with the reason in WHY for others (PQ, 16, and HLG, 18: not read yet). */
bool icc_cicp_encoding(int primaries, int transfer, icc_encoding *e, char *why, size_t wl);

/* As icc_to_linear for the encoding E (its white, if not D65, adapted to D65 as an ICC
 * profile's is); sets *COLOUR to Rec. 709 with E's source. False with "PATH: reason" when E is
 * degenerate (image_colour_check's reasons) or memory runs out. */
bool icc_encoding_to_linear(const icc_encoding *e, const icc_pixels *px, image_colour *colour,
                            const char *path, char *err, size_t errlen);

#endif

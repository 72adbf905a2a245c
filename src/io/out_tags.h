/* The colour tags of export's outputs (encode.h's encode_tags) as bytes: PNG's chunks, JPEG's
 * APP2 ICC markers, Radiance's PRIMARIES= line; and the ICC profile of a display (lcms2).
 * Kept apart from the encoders (encode.c) so that their pixel paths change independently. */
#ifndef HT_OUT_TAGS_H
#define HT_OUT_TAGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "encode.h"

/* One PNG chunk at P (length, type, data, CRC); returns its end. DATA may overlap P + 8. */
uint8_t *png_chunk(uint8_t *p, const char type[4], const uint8_t *data, size_t len);

/* The bytes out_tags_png writes for IM at most. */
size_t out_tags_png_size(const encode_image *im);

/* The colour chunks of IM at P, between IHDR and the first IDAT: without tags an sRGB chunk,
 * or gAMA for IM->gamma; with tags cICP, then sRGB or iCCP, gAMA, mDCv and cLLi as they say.
 * Returns the end. */
uint8_t *out_tags_png(uint8_t *p, const encode_image *im);

/* Where a JPEG's own APP markers go in D (N bytes, starting with SOI): after SOI and an APP0
 * (JFIF) right behind it; 0 when that runs past N. */
size_t out_tags_jpeg_insert_at(const uint8_t *d, size_t n);

/* Inserts ICC (LEN bytes) into the JPEG in *OUT as APP2 ICC_PROFILE markers (split into
 * pieces of 65519 bytes at most), after SOI and any APP0 (JFIF). False with the reason in err
 * (out of memory, a profile of more than 255 pieces, not a JPEG); *OUT unchanged then. */
bool out_tags_jpeg_icc(encode_buffer *out, const uint8_t *icc, size_t len, char *err,
                       size_t errlen);

/* Radiance's "PRIMARIES= rx ry gx gy bx by wx wy\n" of T->xy into BUF; its length, 0 when T
 * has no primaries (or BUF is too small). */
size_t out_tags_primaries_line(const encode_tags *t, char *buf, size_t len);

/* An ICC v4 display profile (lcms2) of primaries and white XY (R, G, B, white) with the sRGB
 * curve (GAMMA 0) or a plain power GAMMA, described as DESC: malloc'd into *ICC, *LEN. False
 * with the reason in err. */
bool out_profile_make(const double xy[4][2], double gamma, const char *desc, uint8_t **icc,
                      size_t *len, char *err, size_t errlen);

/* V big-endian into P's first 2 or 4 bytes (PNG chunks, JPEG markers, MPF). */
void put_be16(uint8_t *p, unsigned v);
void put_be32(uint8_t *p, uint32_t v);

#endif

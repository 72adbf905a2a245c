/* The encoders on codec libraries and the HDR video frames, each in its file (encode.h's contract, IM already
 * accepted by encode_format_accepts): AVIF through libavif (Debian 0.11: its encoder is aom)
 * and JPEG XL through libjxl (0.7). QUALITY 1..100, or 0 for lossless. Colour from IM->tags'
 * cICP (none: sRGB). */
#ifndef HT_ENCODE_CODECS_H
#define HT_ENCODE_CODECS_H

#include "encode.h"

/* 10-bit YUV 4:4:4 (lossless: the identity matrix; else BT.2020's or BT.709's), full range,
 * the cICP's primaries and transfer in the AV1 sequence header and the colr box. libavif 0.11
 * writes no clli box (1.0 added it): the light levels stay in the PNG. */
bool encode_avif(const encode_image *im, int quality, encode_buffer *out, char *err,
                 size_t errlen);

/* 8- or 16-bit RGB as JPEG XL, its colour encoding (primaries, D65, transfer) from the cICP;
 * the intensity target 10000 cd/m^2 for PQ, the mastering peak for HLG. Float RGB (depth 32,
 * tags required): the linear output, its encoding linear in the tags' primaries and white,
 * the intensity target the tags' ldmax (1 = Ldmax). */
bool encode_jxl(const encode_image *im, int quality, encode_buffer *out, char *err,
                size_t errlen);

/* 8-bit RGB (4:4:4) or grey as baseline JPEG at QUALITY 1..100, the tags' ICC profile in
 * APP2; a frame of 256 rows or more in stripes on up to THREADS threads (< 1: one per online CPU), joined
 * by restart markers (encode_jpeg.c), the bytes the same for any THREADS. */
bool encode_jpeg(const encode_image *im, int quality, int threads, encode_buffer *out,
                 char *err, size_t errlen);

/* An Ultra HDR gain-map JPEG (uhdr_write.c; its layout in uhdr.h): the base SDR (8-bit RGB,
 * its tags' ICC profile) exactly as encode_image_to(ENCODE_JPEG, QUALITY) encodes it; the
 * gain map, full resolution, 8-bit grey JPEG at quality 100, the log2 ratio of HDR's luminance
 * (16-bit PQ or HLG RGB of the same size and primaries: its tags' cICP, xy and ldmax) over
 * HT_HDR_REF_WHITE to that of the base as a reader decodes it. Both JPEGs' stripes on THREADS
 * threads (encode_jpeg's). */
bool encode_ultrahdr(const encode_image *sdr, const encode_image *hdr, int quality,
                     int threads, encode_buffer *out, char *err, size_t errlen);

/* One 10-bit y4m frame ("FRAME", Y, Cb, Cr) of 16-bit RGB IM (y4m_hdr.c): BT.2020's
 * matrix, narrow range, 4:2:0 with C420 (else 4:4:4). encode_y4m_header (encode.h) with
 * depth 16 says so. */
bool encode_y4m_frame10(const encode_image *im, bool c420, encode_buffer *out, char *err,
                        size_t errlen);

#endif

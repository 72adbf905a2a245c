/* encode_jpeg's stripes (encode_jpeg.c): a frame of 256 rows or more, RGB and grey, odd
 * sizes, joined by restart markers (a DRI marker, RST0.. between the scans), the same bytes on
 * 1, 3 and 16 threads and one per CPU (0); turbojpeg decodes it to exactly the pixels of one turbojpeg stream of
 * the whole frame (the blocks are the same, only the entropy coding restarts); a frame of
 * fewer rows stays one stream (no DRI). */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <turbojpeg.h>

#include "encode.h"
#include "testutil.h"

/* The pixels turbojpeg decodes from JPEG (W x H x CHANNELS), malloc'd; NULL if it fails. */
static uint8_t *decode(const uint8_t *jpeg, size_t len, int w, int h, int channels)
{
    tjhandle tj = tjInitDecompress();
    uint8_t *px = malloc((size_t)w * h * channels);
    bool ok = tj && px && tjDecompress2(tj, jpeg, len, px, w, w * channels, h,
                                        channels == 1 ? TJPF_GRAY : TJPF_RGB, 0) == 0;
    if (tj)
        tjDestroy(tj);
    if (!ok)
        free(px);
    return ok ? px : NULL;
}

/* One turbojpeg stream of IM: the reference. */
static uint8_t *whole_stream(const encode_image *im, int quality, unsigned long *len)
{
    tjhandle tj = tjInitCompress();
    uint8_t *buf = NULL;
    *len = 0;
    bool grey = im->channels == 1;
    if (tj && tjCompress2(tj, im->pixels, im->width, im->width * im->channels, im->height,
                          grey ? TJPF_GRAY : TJPF_RGB, &buf, len,
                          grey ? TJSAMP_GRAY : TJSAMP_444, quality, 0) != 0)
        buf = NULL;
    if (tj)
        tjDestroy(tj);
    return buf;
}

static void check_frame(int w, int h, int channels, bool striped)
{
    size_t n = (size_t)w * h * channels;
    uint8_t *px = malloc(n);
    uint32_t seed = (uint32_t)(w * 7 + h + channels);
    for (size_t i = 0; i < n; i++) {   /* ramps with grain: every block's DC and AC vary */
        seed = seed * 1664525u + 1013904223u;
        px[i] = (uint8_t)((i / channels) % (size_t)w * 180 / w + (i / channels / w) % 40 +
                          (seed >> 28));
    }
    encode_image im = {px, w, h, channels, 8, 0.0, NULL};
    encode_buffer one, many;
    char err[256];
    bool ok = encode_image_threads(ENCODE_JPEG, 90, &im, 0.0, 1, &one, err, sizeof err);
    CHECK(ok, "%dx%dx%d: %s", w, h, channels, err);
    if (!ok)
        return;
    static const int threads[] = {3, 16, 0};   /* 0: one per online CPU */
    for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
        CHECK(encode_image_threads(ENCODE_JPEG, 90, &im, 0.0, threads[t], &many, err,
                                   sizeof err) &&
                  many.len == one.len && memcmp(one.data, many.data, one.len) == 0,
              "%dx%dx%d: 1 and %d threads differ", w, h, channels, threads[t]);
        free(many.data);
    }
    bool dri = memmem(one.data, one.len, "\xff\xdd\x00\x04", 4) != NULL;
    bool rst = memmem(one.data, one.len, "\xff\xd0", 2) != NULL;
    CHECK(dri == striped && rst == striped, "%dx%dx%d: restart markers %d %d, expected %d", w,
          h, channels, dri, rst, striped);
    unsigned long rlen;
    uint8_t *ref = whole_stream(&im, 90, &rlen);
    uint8_t *a = decode(one.data, one.len, w, h, channels);
    uint8_t *b = ref ? decode(ref, rlen, w, h, channels) : NULL;
    CHECK(a && b && memcmp(a, b, n) == 0, "%dx%dx%d: pixels differ from one stream's", w, h,
          channels);
    CHECK(striped || (ref && rlen == one.len && memcmp(ref, one.data, rlen) == 0),
          "%dx%dx%d: one stream's bytes differ from turbojpeg's", w, h, channels);
    free(a);
    free(b);
    tjFree(ref);
    free(one.data);
    free(px);
}

int main(void)
{
    check_frame(333, 517, 3, true);    /* 5 stripes of 128 rows, the last 5 rows */
    check_frame(640, 2160, 3, true);   /* 16 stripes of 136 rows, the last 120 */
    check_frame(301, 300, 1, true);    /* grey: 2 stripes */
    check_frame(320, 240, 3, false);   /* under 256 rows: one stream */
    return test_finish("test_encode_jpeg");
}

/* 10-bit YUV4MPEG2 frames of an HDR output (export --format y4m --hdr): the 16-bit PQ or HLG
 * RGB through BT.2020's non-constant-luminance matrix, 10-bit narrow range (what HDR10 video
 * carries), 4:4:4 or 4:2:0 (the 2x2 average of the chroma); samples little-endian, as
 * ffmpeg's yuv4mpeg demuxer reads C444p10 and C420p10. */
#include "encode_codecs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* BT.2020: Kr, Kb; 10-bit narrow range: Y 64..940, C 64..960 around 512. */
static const double KR = 0.2627, KB = 0.0593;
enum { Y_OFF = 64, Y_SPAN = 876, C_MID = 512, C_SPAN = 896, MAX10 = 1023 };

static uint16_t q10(double v)
{
    long q = lround(v);
    return (uint16_t)(q < 0 ? 0 : q > MAX10 ? MAX10 : q);
}

static void put_le16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

size_t encode_y4m_header(int w, int h, int depth, bool c420, char *buf, size_t len)
{
    int n = depth == 16
        ? snprintf(buf, len, "YUV4MPEG2 W%d H%d F%d:1 Ip A1:1 C%sp10 XCOLORRANGE=LIMITED\n", w, h,
                   ENCODE_Y4M_FPS, c420 ? "420" : "444")
        : snprintf(buf, len, "YUV4MPEG2 W%d H%d F%d:1 Ip A1:1 C444 XCOLORRANGE=FULL\n", w, h,
                   ENCODE_Y4M_FPS);
    return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

/* Y', Cb, Cr of pixel K of IM (16-bit RGB), in [0, 1] and [-0.5, 0.5]. */
static void ycc(const encode_image *im, size_t k, double out[3])
{
    const uint16_t *s = (const uint16_t *)im->pixels + 3 * k;
    double r = s[0] / 65535.0, g = s[1] / 65535.0, b = s[2] / 65535.0;
    double y = KR * r + (1.0 - KR - KB) * g + KB * b;
    out[0] = y;
    out[1] = (b - y) / (2.0 * (1.0 - KB));
    out[2] = (r - y) / (2.0 * (1.0 - KR));
}

bool encode_y4m_frame10(const encode_image *im, bool c420, encode_buffer *out, char *err,
                        size_t errlen)
{
    static const char tag[] = "FRAME\n";
    int w = im->width, h = im->height, cw = c420 ? (w + 1) / 2 : w, ch = c420 ? (h + 1) / 2 : h;
    size_t head = sizeof tag - 1, ny = (size_t)w * h, nc = (size_t)cw * ch;
    uint8_t *p = malloc(head + 2 * (ny + 2 * nc));
    double *c = malloc(2 * nc * sizeof *c);   /* chroma sums, then averages */
    unsigned *cnt = calloc(nc, sizeof *cnt);
    if (!p || !c || !cnt) {
        free(p), free(c), free(cnt);
        snprintf(err, errlen, "out of memory for a %d x %d frame", w, h);
        return false;
    }
    memset(c, 0, 2 * nc * sizeof *c);
    memcpy(p, tag, head);
    uint8_t *yp = p + head, *up = yp + 2 * ny, *vp = up + 2 * nc;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double v[3];
            size_t k = (size_t)y * w + x, m = c420 ? (size_t)(y / 2) * cw + x / 2 : k;
            ycc(im, k, v);
            put_le16(yp + 2 * k, q10(Y_OFF + Y_SPAN * v[0]));
            c[2 * m] += v[1];
            c[2 * m + 1] += v[2];
            cnt[m]++;
        }
    for (size_t m = 0; m < nc; m++) {
        put_le16(up + 2 * m, q10(C_MID + C_SPAN * c[2 * m] / cnt[m]));
        put_le16(vp + 2 * m, q10(C_MID + C_SPAN * c[2 * m + 1] / cnt[m]));
    }
    free(c);
    free(cnt);
    out->data = p;
    out->len = head + 2 * (ny + 2 * nc);
    return true;
}

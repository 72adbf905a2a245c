/* JPEG XL output through libjxl (encode_codecs.h). */
#include "encode_codecs.h"

#include "cicp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jxl/encode.h>
#include <jxl/thread_parallel_runner.h>

enum { JXL_EFFORT = 3 };   /* libjxl's "falcon": fast; 7 is its default */

/* IM's H.273 transfer code point (CICP_PQ, _HLG, ...); 0: none tagged. */
static int transfer_code(const encode_image *im)
{
    return im->tags && im->tags->cicp[0] ? im->tags->cicp[1] : 0;
}

/* IM's colour encoding: the display's primaries and white (T->xy; libjxl names the standard
 * ones), its transfer from the cICP when it has one, else T->gamma (gamma 2.4 has no H.273 code
 * point) or the sRGB curve; DEPTH 32 is linear. Without tags: sRGB, or IM->gamma's power. */
static void colour_encoding(const encode_image *im, JxlColorEncoding *c)
{
    const encode_tags *t = im->tags;
    memset(c, 0, sizeof *c);
    c->color_space = JXL_COLOR_SPACE_RGB;
    c->rendering_intent = JXL_RENDERING_INTENT_RELATIVE;
    c->white_point = JXL_WHITE_POINT_D65;
    c->primaries = JXL_PRIMARIES_SRGB;
    if (t) {
        c->white_point = JXL_WHITE_POINT_CUSTOM;
        c->primaries = JXL_PRIMARIES_CUSTOM;
        double(*p[4])[2] = {&c->primaries_red_xy, &c->primaries_green_xy,
                             &c->primaries_blue_xy, &c->white_point_xy};
        for (int i = 0; i < 4; i++)
            memcpy(*p[i], t->xy[i], sizeof t->xy[i]);
    }
    int tc = transfer_code(im);
    double gamma = t ? t->gamma : im->gamma;
    c->transfer_function = im->depth == 32  ? JXL_TRANSFER_FUNCTION_LINEAR
                           : tc == CICP_PQ  ? JXL_TRANSFER_FUNCTION_PQ
                           : tc == CICP_HLG ? JXL_TRANSFER_FUNCTION_HLG
                           : gamma > 0      ? JXL_TRANSFER_FUNCTION_GAMMA
                                            : JXL_TRANSFER_FUNCTION_SRGB;
    c->gamma = gamma > 0 ? 1.0 / gamma : 0.0;
}

/* QUALITY 1..100 as a Butteraugli distance (libjxl's cjxl mapping of -q above 30). */
static float distance(int quality)
{
    return quality >= 100 ? 0.1f : 0.1f + (100 - quality) * 0.09f;
}

/* The frame's settings and pixels into ENC. */
static bool add_frame(JxlEncoder *enc, const encode_image *im, int quality)
{
    int tc = transfer_code(im);
    JxlBasicInfo info;
    JxlEncoderInitBasicInfo(&info);
    info.xsize = (uint32_t)im->width;
    info.ysize = (uint32_t)im->height;
    info.bits_per_sample = (uint32_t)im->depth;
    info.exponent_bits_per_sample = im->depth == 32 ? 8 : 0;
    info.uses_original_profile = quality <= 0 ? JXL_TRUE : JXL_FALSE;
    bool linear = im->depth == 32 && im->tags;
    info.intensity_target = linear ? (float)im->tags->ldmax
                            : tc == CICP_PQ ? 10000.0f
                            : tc == CICP_HLG && im->tags->ldmax > 0 ? (float)im->tags->ldmax
                                                                            : 255.0f;
    JxlColorEncoding c;
    colour_encoding(im, &c);
    JxlEncoderFrameSettings *fs = NULL;
    JxlPixelFormat pf = {3, im->depth == 32 ? JXL_TYPE_FLOAT
                            : im->depth == 16 ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8,
                         JXL_NATIVE_ENDIAN, 0};
    size_t bytes = (size_t)im->width * im->height * 3 * (im->depth / 8);
    return JxlEncoderSetBasicInfo(enc, &info) == JXL_ENC_SUCCESS &&
           JxlEncoderSetColorEncoding(enc, &c) == JXL_ENC_SUCCESS &&
           (fs = JxlEncoderFrameSettingsCreate(enc, NULL)) != NULL &&
           JxlEncoderFrameSettingsSetOption(fs, JXL_ENC_FRAME_SETTING_EFFORT, JXL_EFFORT) ==
               JXL_ENC_SUCCESS &&
           (quality <= 0 ? JxlEncoderSetFrameLossless(fs, JXL_TRUE)
                         : JxlEncoderSetFrameDistance(fs, distance(quality))) == JXL_ENC_SUCCESS &&
           JxlEncoderAddImageFrame(fs, &pf, im->pixels, bytes) == JXL_ENC_SUCCESS;
}

/* The codestream into *OUT, growing it as libjxl asks. */
static bool collect(JxlEncoder *enc, encode_buffer *out)
{
    size_t cap = 1 << 16, used = 0;
    uint8_t *buf = malloc(cap);
    JxlEncoderStatus s = JXL_ENC_NEED_MORE_OUTPUT;
    while (buf && s == JXL_ENC_NEED_MORE_OUTPUT) {
        uint8_t *next = buf + used;
        size_t avail = cap - used;
        s = JxlEncoderProcessOutput(enc, &next, &avail);
        used = (size_t)(next - buf);
        if (s == JXL_ENC_NEED_MORE_OUTPUT) {
            uint8_t *grown = realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                buf = NULL;
            } else {
                buf = grown;
                cap *= 2;
            }
        }
    }
    if (!buf || s != JXL_ENC_SUCCESS) {
        free(buf);
        return false;
    }
    out->data = buf;
    out->len = used;
    return true;
}

bool encode_jxl(const encode_image *im, int quality, encode_buffer *out, char *err,
                size_t errlen)
{
    JxlEncoder *enc = JxlEncoderCreate(NULL);
    void *runner = JxlThreadParallelRunnerCreate(NULL, JxlThreadParallelRunnerDefaultNumWorkerThreads());
    bool ok = enc && runner &&
              JxlEncoderSetParallelRunner(enc, JxlThreadParallelRunner, runner) ==
                  JXL_ENC_SUCCESS &&
              add_frame(enc, im, quality);
    if (ok) {
        JxlEncoderCloseInput(enc);
        ok = collect(enc, out);
    }
    if (!ok)
        snprintf(err, errlen, "JPEG XL encoding failed%s",
                 enc && runner ? "" : ": out of memory");
    if (runner)
        JxlThreadParallelRunnerDestroy(runner);
    if (enc)
        JxlEncoderDestroy(enc);
    return ok;
}

/* JPEG XL output through libjxl (encode_codecs.h). */
#include "encode_codecs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jxl/encode.h>
#include <jxl/thread_parallel_runner.h>

enum {
    JXL_EFFORT = 3,   /* libjxl's "falcon": fast; 7 is its default */
    CICP_BT709 = 1, CICP_BT2020 = 9, CICP_P3_D65 = 12,
    CICP_GAMMA22 = 4, CICP_GAMMA28 = 5, CICP_SRGB = 13, CICP_PQ = 16, CICP_HLG = 18,
};

/* The colour encoding a cICP names (transfer 4 and 5: gammas 2.2 and 2.8). */
static void colour_encoding(const uint8_t cicp[4], JxlColorEncoding *c)
{
    memset(c, 0, sizeof *c);
    c->color_space = JXL_COLOR_SPACE_RGB;
    c->white_point = JXL_WHITE_POINT_D65;
    c->primaries = cicp[0] == CICP_BT2020 ? JXL_PRIMARIES_2100
                   : cicp[0] == CICP_P3_D65 ? JXL_PRIMARIES_P3 : JXL_PRIMARIES_SRGB;
    c->transfer_function = cicp[1] == CICP_PQ    ? JXL_TRANSFER_FUNCTION_PQ
                           : cicp[1] == CICP_HLG ? JXL_TRANSFER_FUNCTION_HLG
                           : cicp[1] == CICP_SRGB ? JXL_TRANSFER_FUNCTION_SRGB
                                                  : JXL_TRANSFER_FUNCTION_GAMMA;
    c->gamma = cicp[1] == CICP_GAMMA28 ? 1.0 / 2.8 : 1.0 / 2.2;
    c->rendering_intent = JXL_RENDERING_INTENT_RELATIVE;
}

/* The linear output's colour encoding: linear, the display's primaries and white (T->xy). */
static void linear_encoding(const encode_tags *t, JxlColorEncoding *c)
{
    memset(c, 0, sizeof *c);
    c->color_space = JXL_COLOR_SPACE_RGB;
    c->white_point = JXL_WHITE_POINT_CUSTOM;
    c->primaries = JXL_PRIMARIES_CUSTOM;
    double(*p[4])[2] = {&c->primaries_red_xy, &c->primaries_green_xy, &c->primaries_blue_xy,
                         &c->white_point_xy};
    for (int i = 0; i < 4; i++)
        memcpy(*p[i], t->xy[i], sizeof t->xy[i]);
    c->transfer_function = JXL_TRANSFER_FUNCTION_LINEAR;
    c->rendering_intent = JXL_RENDERING_INTENT_RELATIVE;
}

/* QUALITY 1..100 as a Butteraugli distance (libjxl's cjxl mapping of -q above 30). */
static float distance(int quality)
{
    return quality >= 100 ? 0.1f : 0.1f + (100 - quality) * 0.09f;
}

/* The frame's settings and pixels into ENC. */
static bool add_frame(JxlEncoder *enc, const encode_image *im, int quality)
{
    const uint8_t *cicp = im->tags && im->tags->cicp[0] ? im->tags->cicp
                                                         : (const uint8_t[4]){1, 13, 0, 1};
    JxlBasicInfo info;
    JxlEncoderInitBasicInfo(&info);
    info.xsize = (uint32_t)im->width;
    info.ysize = (uint32_t)im->height;
    info.bits_per_sample = (uint32_t)im->depth;
    info.exponent_bits_per_sample = im->depth == 32 ? 8 : 0;
    info.uses_original_profile = quality <= 0 ? JXL_TRUE : JXL_FALSE;
    bool linear = im->depth == 32 && im->tags;
    info.intensity_target = linear ? (float)im->tags->ldmax
                            : cicp[1] == CICP_PQ ? 10000.0f
                            : cicp[1] == CICP_HLG && im->tags->ldmax > 0 ? (float)im->tags->ldmax
                                                                          : 255.0f;
    JxlColorEncoding c;
    if (linear)
        linear_encoding(im->tags, &c);
    else
        colour_encoding(cicp, &c);
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

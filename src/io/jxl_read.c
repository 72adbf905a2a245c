/* JPEG XL through libjxl (OpenImageIO 2.4 has no JPEG XL reader): integer and float pictures
 * as floats, the first frame, on all threads; the size checked against --max-pixels at the
 * basic info, before any pixel buffer exists; the colour encoding made image_colour and the
 * transfer decoded to linear light (a file with only an ICC profile: through the profile). A
 * lossy (XYB) file is asked for linear output with its own primaries and white, which libjxl
 * produces itself; a lossless one keeps its stored encoding, linearised here. */
#include "cicp.h"
#include "image_internal.h"

#include <jxl/decode.h>
#include <jxl/thread_parallel_runner.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Chromaticities of the named primaries and whites (JPEG XL's enumeration = H.273's). */
static void encoding_xy(const JxlColorEncoding *e, double xy[4][2])
{
    static const double srgb[4][2] = CICP_BT709_XY, bt2100[4][2] = CICP_BT2020_XY,
                        p3[4][2] = CICP_P3_D65_XY;
    const double(*named)[2] = e->primaries == JXL_PRIMARIES_2100 ? bt2100
                              : e->primaries == JXL_PRIMARIES_P3 ? p3
                                                                 : srgb;
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 2; k++)
            xy[c][k] = e->primaries != JXL_PRIMARIES_CUSTOM ? named[c][k]
                       : c == 0 ? e->primaries_red_xy[k]
                       : c == 1 ? e->primaries_green_xy[k]
                                : e->primaries_blue_xy[k];
    double w[2] = CICP_D65_XY;
    if (e->white_point == JXL_WHITE_POINT_E)
        w[0] = w[1] = 1.0 / 3.0;
    else if (e->white_point == JXL_WHITE_POINT_DCI)
        w[0] = 0.314, w[1] = 0.351;
    else if (e->white_point == JXL_WHITE_POINT_CUSTOM)
        w[0] = e->white_point_xy[0], w[1] = e->white_point_xy[1];
    xy[3][0] = w[0], xy[3][1] = w[1];
}

static const char *transfer_name(JxlTransferFunction tf)
{
    switch (tf) {
    case JXL_TRANSFER_FUNCTION_709: return "BT.709";
    case JXL_TRANSFER_FUNCTION_LINEAR: return "linear";
    case JXL_TRANSFER_FUNCTION_SRGB: return "sRGB";
    case JXL_TRANSFER_FUNCTION_PQ: return "PQ";
    case JXL_TRANSFER_FUNCTION_DCI: return "DCI gamma 2.6";
    case JXL_TRANSFER_FUNCTION_HLG: return "HLG";
    case JXL_TRANSFER_FUNCTION_GAMMA: return "gamma";
    default: return "unknown (sRGB assumed)";
    }
}

/* The decoder's state between its events. */
typedef struct jxl_state {
    JxlBasicInfo info;
    JxlColorEncoding enc;
    bool have_enc;            /* the pixels' encoding is known (else: sRGB assumed) */
    image_transfer_table *table; /* integer codes linearised as libjxl hands out rows */
    float *rgba;              /* where those rows go */
    size_t width;
} jxl_state;

/* At the colour encoding: an XYB file asked for linear light in its own space; then what the
 * pixels will be in, or the ICC profile when the file has only that. */
static void colour_event(JxlDecoder *dec, jxl_state *st, hdr_image *img)
{
    JxlColorEncoding orig;
    if (!st->info.uses_original_profile &&
        JxlDecoderGetColorAsEncodedProfile(dec, NULL, JXL_COLOR_PROFILE_TARGET_ORIGINAL,
                                           &orig) == JXL_DEC_SUCCESS) {
        orig.transfer_function = JXL_TRANSFER_FUNCTION_LINEAR;
        JxlDecoderSetPreferredColorProfile(dec, &orig);
    }
    st->have_enc = JxlDecoderGetColorAsEncodedProfile(dec, NULL, JXL_COLOR_PROFILE_TARGET_DATA,
                                                      &st->enc) == JXL_DEC_SUCCESS;
    size_t n = 0;
    if (!st->have_enc &&
        JxlDecoderGetICCProfileSize(dec, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &n) ==
            JXL_DEC_SUCCESS &&
        n > 0 && (img->icc = malloc(n))) {
        if (JxlDecoderGetColorAsICCProfile(dec, NULL, JXL_COLOR_PROFILE_TARGET_DATA, img->icc,
                                           n) == JXL_DEC_SUCCESS) {
            img->icc_size = n;
            image_meta_icc(img, img->icc, n);
        } else {
            free(img->icc);
            img->icc = NULL;
        }
    }
}

/* The pixels' transfer (JPEG XL's numbers are H.273's, and GAMMA is IMAGE_TRANSFER_GAMMA)
 * and its exponent; the result: the integer depth whose codes a table linearises, or 0 (float
 * samples; an XYB file, which comes back in floats whatever its depth). */
static int transfer_of(const jxl_state *st, int *tf, float *gamma)
{
    *tf = st->have_enc ? (int)st->enc.transfer_function : JXL_TRANSFER_FUNCTION_UNKNOWN;
    *gamma = st->have_enc && st->enc.gamma > 0 ? (float)st->enc.gamma : 1.0f;
    bool flt = st->info.exponent_bits_per_sample > 0;
    return flt || !st->info.uses_original_profile ? 0 : (int)st->info.bits_per_sample;
}

static void *rows_init(void *st, size_t threads, size_t pixels)
{
    (void)threads, (void)pixels;
    return st;
}

static void rows_run(void *opaque, size_t thread, size_t x, size_t y, size_t n, const void *px)
{
    (void)thread;
    const jxl_state *st = opaque;
    image_transfer_table_apply(st->table, px, st->rgba + (y * st->width + x) * 4, n);
}

static void rows_destroy(void *opaque) { (void)opaque; }

/* The output of a file with a transfer to undo, without an ICC profile (converted afterwards,
 * image_icc_apply): rows linearised (integer codes through the table) on libjxl's threads as
 * they are decoded, not in a pass of its own afterwards (4K, here on 2 cores: a 16-bit file
 * 1.40x libjxl's own time with the pass, a float file tagged sRGB 1.57x). Else the buffer. */
static bool set_output(JxlDecoder *dec, const JxlPixelFormat *fmt, jxl_state *st,
                       hdr_image *img, size_t need)
{
    int tf;
    float gamma;
    int bits = transfer_of(st, &tf, &gamma);
    if (img->icc || tf == JXL_TRANSFER_FUNCTION_LINEAR)
        return JxlDecoderSetImageOutBuffer(dec, fmt, img->rgba, need) == JXL_DEC_SUCCESS;
    if (!(st->table = malloc(sizeof *st->table)))
        return false;
    image_transfer_table_init(st->table, tf, gamma, bits);
    st->rgba = img->rgba, st->width = st->info.xsize;
    return JxlDecoderSetMultithreadedImageOutCallback(dec, fmt, rows_init, rows_run,
                                                      rows_destroy, st) == JXL_DEC_SUCCESS;
}

/* After the pixels: linear light, the colour tags, the description. */
static void finish(const jxl_state *st, hdr_image *img)
{
    const JxlBasicInfo *in = &st->info;
    int tf;
    float gamma;
    int bits = transfer_of(st, &tf, &gamma);
    bool flt = in->exponent_bits_per_sample > 0;
    if (!img->icc && !st->table)
        image_linearise(img->rgba, (size_t)img->width * img->height, tf, gamma, bits);
    char v[128];
    if (st->have_enc && st->enc.color_space == JXL_COLOR_SPACE_RGB) {
        double(*xy)[2] = img->colour.xy;
        encoding_xy(&st->enc, xy);
        img->colour.source = IMAGE_COLOUR_CICP;
        snprintf(v, sizeof v, "R %.4g,%.4g G %.4g,%.4g B %.4g,%.4g white %.4g,%.4g", xy[0][0],
                 xy[0][1], xy[1][0], xy[1][1], xy[2][0], xy[2][1], xy[3][0], xy[3][1]);
        image_meta_add(img, "jxl:primaries", v);
    }
    if (tf == JXL_TRANSFER_FUNCTION_PQ)
        img->white_luminance = 10000.0;
    snprintf(img->format, sizeof img->format, "JPEG XL");
    snprintf(img->decoder, sizeof img->decoder, "libjxl");
    snprintf(img->channels, sizeof img->channels, "%s%s (%u-bit %s)",
             in->num_color_channels == 1 ? "Y" : "R,G,B", in->alpha_bits ? ",A" : "",
             in->bits_per_sample, flt ? "float" : "integer");
    snprintf(img->compression, sizeof img->compression, "%s",
             in->uses_original_profile ? "lossless or modular" : "VarDCT (XYB)");
    snprintf(img->rgb_source, sizeof img->rgb_source, "%s",
             in->num_color_channels == 1 ? "grey (R=G=B)" : "R,G,B");
    image_meta_add(img, "jxl:transfer",
                   img->icc ? "the ICC profile's" : transfer_name((JxlTransferFunction)tf));
    snprintf(v, sizeof v, "%g", (double)in->intensity_target);
    image_meta_add(img, "jxl:intensity_target", v);
    snprintf(v, sizeof v, "%u", in->bits_per_sample);
    image_meta_add(img, "jxl:bits_per_sample", v);
    image_meta_add(img, "jxl:xyb", in->uses_original_profile ? "no" : "yes");
}

/* Runs the decoder to the first frame's pixels. */
static bool decode(const char *path, JxlDecoder *dec, const image_load_options *opts,
                   jxl_state *st, hdr_image *img, char *err, size_t errlen)
{
    static const JxlPixelFormat fmt = {4, JXL_TYPE_FLOAT, JXL_NATIVE_ENDIAN, 0};
    for (;;) {
        JxlDecoderStatus s = JxlDecoderProcessInput(dec);
        size_t need = 0;
        switch (s) {
        case JXL_DEC_BASIC_INFO:
            if (JxlDecoderGetBasicInfo(dec, &st->info) != JXL_DEC_SUCCESS ||
                st->info.xsize == 0 || st->info.ysize == 0 ||
                st->info.xsize > IMAGE_MAX_SIDE || st->info.ysize > IMAGE_MAX_SIDE) {
                snprintf(err, errlen, "%s: JPEG XL file declares an unusable size", path);
                return false;
            }
            if (!image_check_pixels(path, st->info.xsize, st->info.ysize, opts, err, errlen))
                return false;
            break;
        case JXL_DEC_COLOR_ENCODING:
            colour_event(dec, st, img);
            break;
        case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
            if (JxlDecoderImageOutBufferSize(dec, &fmt, &need) != JXL_DEC_SUCCESS ||
                need != (size_t)st->info.xsize * st->info.ysize * 4 * sizeof(float) ||
                !(img->rgba = image_pool_get(need)) || !set_output(dec, &fmt, st, img, need)) {
                snprintf(err, errlen, "%s: JPEG XL: cannot make the %zu-byte pixel buffer",
                         path, need);
                return false;
            }
            img->width = (int)st->info.xsize;
            img->height = (int)st->info.ysize;
            break;
        case JXL_DEC_FULL_IMAGE:
        case JXL_DEC_SUCCESS:
            if (img->rgba)
                return true;
            snprintf(err, errlen, "%s: JPEG XL file holds no image", path);
            return false;
        case JXL_DEC_NEED_MORE_INPUT:
            snprintf(err, errlen, "%s: JPEG XL file is truncated", path);
            return false;
        default:
            snprintf(err, errlen, "%s: JPEG XL file is damaged (libjxl refused it)", path);
            return false;
        }
    }
}

bool image_load_jxl(const char *path, const uint8_t *data, size_t size,
                    const image_load_options *opts, hdr_image *img, char *err, size_t errlen)
{
    JxlDecoder *dec = JxlDecoderCreate(NULL);
    size_t threads = opts->threads > 0 ? (size_t)opts->threads
                                       : JxlThreadParallelRunnerDefaultNumWorkerThreads();
    void *runner = threads > 1 ? JxlThreadParallelRunnerCreate(NULL, threads) : NULL;
    jxl_state st = {0};
    bool ok = dec &&
              (!runner || JxlDecoderSetParallelRunner(dec, JxlThreadParallelRunner, runner) ==
                              JXL_DEC_SUCCESS) &&
              JxlDecoderSubscribeEvents(dec, JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING |
                                                 JXL_DEC_FULL_IMAGE) == JXL_DEC_SUCCESS &&
              JxlDecoderSetInput(dec, data, size) == JXL_DEC_SUCCESS;
    if (!ok)
        snprintf(err, errlen, "%s: cannot start the JPEG XL decoder", path);
    else {
        JxlDecoderCloseInput(dec);
        ok = decode(path, dec, opts, &st, img, err, errlen);
    }
    if (ok) {
        img->data_window[2] = img->display_window[2] = img->width - 1;
        img->data_window[3] = img->display_window[3] = img->height - 1;
        finish(&st, img);
        if (img->icc)
            ok = image_icc_apply(img, st.info.num_color_channels == 1, path, err, errlen);
    }
    if (runner)
        JxlThreadParallelRunnerDestroy(runner);
    JxlDecoderDestroy(dec);
    free(st.table);
    return ok;
}

bool image_jxl_floor(const uint8_t *data, size_t size, float *out, size_t nfloats, char *why,
                     size_t wl)
{
    static const JxlPixelFormat fmt = {4, JXL_TYPE_FLOAT, JXL_NATIVE_ENDIAN, 0};
    JxlDecoder *dec = JxlDecoderCreate(NULL);
    void *runner = JxlThreadParallelRunnerCreate(NULL,
                                                 JxlThreadParallelRunnerDefaultNumWorkerThreads());
    bool ok = dec && runner &&
              JxlDecoderSetParallelRunner(dec, JxlThreadParallelRunner, runner) ==
                  JXL_DEC_SUCCESS &&
              JxlDecoderSubscribeEvents(dec, JXL_DEC_FULL_IMAGE) == JXL_DEC_SUCCESS &&
              JxlDecoderSetInput(dec, data, size) == JXL_DEC_SUCCESS;
    if (ok)
        JxlDecoderCloseInput(dec);
    size_t need = 0;
    for (JxlDecoderStatus s = JXL_DEC_ERROR; ok; ) {
        s = JxlDecoderProcessInput(dec);
        if (s == JXL_DEC_NEED_IMAGE_OUT_BUFFER)
            ok = JxlDecoderImageOutBufferSize(dec, &fmt, &need) == JXL_DEC_SUCCESS &&
                 need <= nfloats * sizeof(float) &&
                 JxlDecoderSetImageOutBuffer(dec, &fmt, out, need) == JXL_DEC_SUCCESS;
        else if (s == JXL_DEC_FULL_IMAGE || s == JXL_DEC_SUCCESS)
            break;
        else
            ok = false;
    }
    if (!ok)
        snprintf(why, wl, "libjxl failed");
    if (runner)
        JxlThreadParallelRunnerDestroy(runner);
    JxlDecoderDestroy(dec);
    return ok;
}

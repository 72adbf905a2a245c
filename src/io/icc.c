/* ICC profiles and numeric encodings to linear Rec. 709 through lcms2 (icc.h). */
#define _POSIX_C_SOURCE 200809L /* sysconf */
#include "icc.h"

#include <lcms2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cicp.h"
#include "image_internal.h"
#include "parallel.h"

/* Pixels one worker converts at least (fewer: one thread; starting threads costs more). */
#define ICC_PIXELS_PER_WORKER ((size_t)1 << 16)

/* lcms2's last error of a context (its user data): kept, never printed. */
typedef struct icc_error {
    char text[192];
} icc_error;

static void on_error(cmsContext ctx, cmsUInt32Number code, const char *text)
{
    (void)code;
    icc_error *e = cmsGetContextUserData(ctx);
    if (e && !e->text[0])   /* the first error is the cause; later ones follow from it */
        snprintf(e->text, sizeof e->text, "%s", text ? text : "unknown error");
}

/* A context whose errors land in *E (NULL when out of memory). */
static cmsContext context_new(icc_error *e)
{
    memset(e, 0, sizeof *e);
    cmsContext ctx = cmsCreateContext(NULL, e);
    if (ctx)
        cmsSetLogErrorHandlerTHR(ctx, on_error);
    return ctx;
}

bool icc_profile_is_grey(const uint8_t *profile, size_t n)
{
    return n >= 20 && memcmp(profile + 16, "GRAY", 4) == 0;
}

/* Linear Rec. 709 with D65 (the destination of every conversion), or NULL. */
static cmsHPROFILE linear_rec709(cmsContext ctx)
{
    const double(*xy)[2] = image_colour_xy(&(image_colour){0});
    cmsCIExyY white = {xy[3][0], xy[3][1], 1.0};
    cmsCIExyYTRIPLE prim = {{xy[0][0], xy[0][1], 1.0}, {xy[1][0], xy[1][1], 1.0},
                            {xy[2][0], xy[2][1], 1.0}};
    cmsToneCurve *lin = cmsBuildGamma(ctx, 1.0);
    cmsToneCurve *curves[3] = {lin, lin, lin};
    cmsHPROFILE p = lin ? cmsCreateRGBProfileTHR(ctx, &white, &prim, curves) : NULL;
    if (lin)
        cmsFreeToneCurve(lin);
    return p;
}

/* lcms2's pixel format of PX's input (GREY: one colour channel) and of its output. */
static cmsUInt32Number in_format(const icc_pixels *px, bool grey)
{
    int colour = grey ? 1 : 3;
    cmsUInt32Number f = COLORSPACE_SH(grey ? PT_GRAY : PT_RGB) | CHANNELS_SH(colour) |
                        EXTRA_SH(px->channels - colour);
    return f | (px->type == ICC_U8 ? BYTES_SH(1) : px->type == ICC_U16 ? BYTES_SH(2)
                                                                       : FLOAT_SH(1) | BYTES_SH(4));
}

static cmsUInt32Number out_format(const icc_pixels *px)
{
    return FLOAT_SH(1) | COLORSPACE_SH(PT_RGB) | CHANNELS_SH(3) | BYTES_SH(4) |
           EXTRA_SH(px->out_channels - 3);
}

/* Bytes of one value of TYPE (ICC_U8, ICC_U16, ICC_F32). */
static size_t value_bytes(int type)
{
    return type == ICC_U8 ? 1 : type == ICC_U16 ? 2 : 4;
}

typedef struct icc_job {
    cmsHTRANSFORM xf;
    const icc_pixels *px;
    int workers;
} icc_job;

static void convert_part(void *ctx, int worker)
{
    const icc_job *j = ctx;
    const icc_pixels *px = j->px;
    size_t per = (px->count + (size_t)j->workers - 1) / (size_t)j->workers;
    size_t first = per * (size_t)worker, bytes = value_bytes(px->type);
    /* cmsDoTransform counts in 32 bits: blocks well below that. */
    for (size_t i = first; i < px->count && i < first + per;) {
        size_t n = px->count - i < first + per - i ? px->count - i : first + per - i;
        if (n > ((size_t)1 << 24))
            n = (size_t)1 << 24;
        cmsDoTransform(j->xf, (const uint8_t *)px->in + i * (size_t)px->channels * bytes,
                       px->out + i * (size_t)px->out_channels, (cmsUInt32Number)n);
        i += n;
    }
}

/* Whether PX's layout is one this module takes; else the reason in WHY. */
static bool pixels_ok(const icc_pixels *px, char *why, size_t wl)
{
    bool ok = px->channels >= 1 && px->channels <= 4 && px->out_channels >= 3 &&
              px->out_channels <= 4 && px->type >= ICC_U8 && px->type <= ICC_F32 && px->out &&
              (px->in || !px->count);
    if (!ok)
        snprintf(why, wl, "unsupported pixel layout (%d channels of type %d into %d)",
                 px->channels, px->type, px->out_channels);
    return ok;
}

/* PX's codes (8 or 16 bits, COLOUR colour channels) through XF, a matrix/TRC transform: each
 * channel's curve, then a 3x3, so f(v) = f(0) + sum over c of (f(v_c e_c) - f(0)). Tables of
 * each channel's term over every code make a pixel three lookups, where lcms2 evaluates its
 * float pipeline, curves and matrices, for every pixel (its own tables are for integer output).
 * False when out of memory (nothing written). */
static bool convert_tables(cmsHTRANSFORM xf, const icc_pixels *px, int colour)
{
    size_t bytes = value_bytes(px->type), codes = (size_t)1 << (8 * bytes);
    size_t ch = (size_t)px->channels, oc = (size_t)px->out_channels;
    uint8_t *in = calloc(codes * ch, bytes);
    float *tmp = malloc(codes * oc * sizeof *tmp);
    float *t = malloc((size_t)colour * codes * 3 * sizeof *t);
    bool ok = in && tmp && t;
    for (int c = 0; ok && c < colour; c++) {   /* code v in channel c, the others 0 */
        memset(in, 0, codes * ch * bytes);
        for (size_t v = 0; v < codes; v++)
            if (bytes == 1)
                in[v * ch + (size_t)c] = (uint8_t)v;
            else
                ((uint16_t *)(void *)in)[v * ch + (size_t)c] = (uint16_t)v;
        cmsDoTransform(xf, in, tmp, (cmsUInt32Number)codes);
        for (size_t v = 0; v < codes; v++)   /* f(0) kept in the first channel's table only */
            for (int k = 0; k < 3; k++)
                t[((size_t)c * codes + v) * 3 + (size_t)k] = tmp[v * oc + (size_t)k] -
                                                             (c ? tmp[k] : 0.0f);
    }
    const uint8_t *p8 = px->in;
    const uint16_t *p16 = px->in;
    for (size_t i = 0; ok && i < px->count; i++) {
        float sum[3] = {0.0f, 0.0f, 0.0f};
        for (int c = 0; c < colour; c++) {
            size_t v = bytes == 1 ? p8[i * ch + (size_t)c] : p16[i * ch + (size_t)c];
            const float *e = t + ((size_t)c * codes + v) * 3;
            for (int k = 0; k < 3; k++)
                sum[k] += e[k];
        }
        memcpy(px->out + i * oc, sum, sizeof sum);
    }
    free(in);
    free(tmp);
    free(t);
    return ok;
}

/* Runs XF (from SRC, GREY or RGB) on PX: by convert_tables when SRC is matrix/TRC, its codes
 * are integers and there are more pixels than codes; else lcms2 on every pixel, on threads. */
static void run(cmsHTRANSFORM xf, cmsHPROFILE src, bool grey, const icc_pixels *px)
{
    size_t codes = (size_t)1 << (8 * value_bytes(px->type));
    if (px->type != ICC_F32 && px->count > codes && cmsIsMatrixShaper(src) &&
        !cmsIsCLUT(src, INTENT_PERCEPTUAL, LCMS_USED_AS_INPUT) &&
        convert_tables(xf, px, grey ? 1 : 3))
        return;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t want = px->count / ICC_PIXELS_PER_WORKER + 1;
    icc_job job = {xf, px, (int)(want < (size_t)(cpus > 0 ? cpus : 1) ? want : (size_t)cpus)};
    if (job.workers < 1)
        job.workers = 1;
    parallel_run(job.workers, convert_part, &job);
}

/* Converts PX from profile SRC (owned: closed here) to linear Rec. 709 in context CTX. False
 * with the reason in WHY. */
static bool convert(cmsContext ctx, cmsHPROFILE src, const icc_pixels *px, char *why, size_t wl)
{
    cmsHPROFILE dst = linear_rec709(ctx);
    cmsColorSpaceSignature cs = cmsGetColorSpace(src);
    cmsProfileClassSignature cl = cmsGetDeviceClass(src);
    bool grey = cs == cmsSigGrayData, ok = false;
    cmsHTRANSFORM xf = NULL;
    if (!dst) {
        snprintf(why, wl, "out of memory");
    } else if (cs != cmsSigRgbData && cs != cmsSigGrayData) {
        char sig[5] = {(char)(cs >> 24), (char)(cs >> 16), (char)(cs >> 8), (char)cs, 0};
        for (int i = 0; i < 4; i++)
            sig[i] = sig[i] >= 0x20 && sig[i] < 0x7f ? sig[i] : '?';
        snprintf(why, wl, "describes colour space '%s', not RGB or grey", sig);
    } else if (cl != cmsSigInputClass && cl != cmsSigDisplayClass &&
               cl != cmsSigOutputClass && cl != cmsSigColorSpaceClass) {
        snprintf(why, wl, "is a device link, abstract or named-colour profile, not one of an "
                          "image's colours");
    } else if (grey != (px->channels <= 2)) {
        snprintf(why, wl, "is for %s data but the picture is %s", grey ? "grey" : "RGB",
                 px->channels <= 2 ? "grey" : "RGB");
    } else if (!(xf = cmsCreateTransformTHR(ctx, src, in_format(px, grey), dst, out_format(px),
                                            INTENT_PERCEPTUAL, cmsFLAGS_NOCACHE))) {
        snprintf(why, wl, "cannot be used (a tag missing, truncated or corrupt)");
    } else {
        run(xf, src, grey, px);
        ok = true;
    }
    if (xf)
        cmsDeleteTransform(xf);
    if (dst)
        cmsCloseProfile(dst);
    cmsCloseProfile(src);
    return ok;
}

bool icc_to_linear(const uint8_t *profile, size_t n, const icc_pixels *px, image_colour *colour,
                   const char *path, char *err, size_t errlen)
{
    char why[256] = "";
    icc_error e;
    cmsContext ctx = NULL;
    cmsHPROFILE src = NULL;
    bool ok = false;
    if (!pixels_ok(px, why, sizeof why)) {
        /* why said */
    } else if (n > ICC_MAX_PROFILE_BYTES) {
        snprintf(why, sizeof why, "is more than %zu bytes", ICC_MAX_PROFILE_BYTES);
    } else if (n < 132) {   /* the header and the tag count */
        snprintf(why, sizeof why, "is too short for a profile's header");
    } else if (image_be32(profile) > n) {   /* lcms2 would drop the tags past the end */
        snprintf(why, sizeof why, "is truncated (its header says %u bytes)",
                 image_be32(profile));
    } else if (!(ctx = context_new(&e))) {
        snprintf(why, sizeof why, "out of memory");
    } else if (!(src = cmsOpenProfileFromMemTHR(ctx, profile, (cmsUInt32Number)n))) {
        snprintf(why, sizeof why, "is corrupt (%s)", e.text[0] ? e.text : "unreadable");
    } else {
        ok = convert(ctx, src, px, why, sizeof why);
        if (!ok && e.text[0]) {   /* what lcms2 said, after our words */
            size_t l = strlen(why);
            snprintf(why + l, sizeof why - l, ": %s", e.text);
        }
    }
    if (ctx)
        cmsDeleteContext(ctx);
    if (!ok) {
        snprintf(err, errlen, "%s: the ICC profile (%zu bytes) %s", path, n, why);
        return false;
    }
    memset(colour, 0, sizeof *colour);
    colour->source = IMAGE_COLOUR_ICC;
    return true;
}

/* cICP's colour primaries code points that this build decodes (ITU-T H.273, table 2). */
static const struct {
    int code;
    double xy[4][2];
} cicp_primaries[] = {
    {CICP_BT709, CICP_BT709_XY}, {CICP_BT2020, CICP_BT2020_XY}, {CICP_P3_D65, CICP_P3_D65_XY},
};

/* cICP's transfer code points (H.273, table 3) as icc curves; -1: not decoded here. */
static int cicp_curve(int code, double *gamma)
{
    *gamma = code == 4 ? 2.2 : 2.8;
    switch (code) {
    case 1: case 6: case 14: case 15: return ICC_CURVE_BT709;
    case 4: case 5: return ICC_CURVE_GAMMA;
    case 8: return ICC_CURVE_LINEAR;
    case 13: return ICC_CURVE_SRGB;
    default: return -1;
    }
}


bool icc_cicp_encoding(int primaries, int transfer, icc_encoding *e, char *why, size_t wl)
{
    memset(e, 0, sizeof *e);
    e->source = IMAGE_COLOUR_CICP;
    e->curve = cicp_curve(transfer, &e->gamma);
    for (size_t i = 0; e->curve >= 0 && i < sizeof cicp_primaries / sizeof cicp_primaries[0];
         i++)
        if (cicp_primaries[i].code == primaries) {
            memcpy(e->xy, cicp_primaries[i].xy, sizeof e->xy);
            return true;
        }
    snprintf(why, wl, "%s", transfer == 16   ? "PQ (SMPTE ST 2084), not read yet"
                            : transfer == 18 ? "HLG (BT.2100), not read yet"
                            : e->curve < 0   ? "a transfer not read (1, 4, 5, 6, 8, 13, 14, 15 are)"
                                             : "primaries not read (1, 9, 12 are)");
    return false;
}

/* The tone curve of E (encoded -> linear), or NULL. */
static cmsToneCurve *encoding_curve(cmsContext ctx, const icc_encoding *e)
{
    /* lcms2's type 4: Y = (aX + b)^g for X >= d, else cX. */
    static const double srgb[5] = {2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045};
    static const double bt709[5] = {1.0 / 0.45, 1.0 / 1.099, 0.099 / 1.099, 1.0 / 4.5, 0.081};
    switch (e->curve) {
    case ICC_CURVE_SRGB: return cmsBuildParametricToneCurve(ctx, 4, srgb);
    case ICC_CURVE_BT709: return cmsBuildParametricToneCurve(ctx, 4, bt709);
    case ICC_CURVE_GAMMA: return cmsBuildGamma(ctx, e->gamma);
    default: return cmsBuildGamma(ctx, 1.0);
    }
}

bool icc_encoding_to_linear(const icc_encoding *e, const icc_pixels *px, image_colour *colour,
                            const char *path, char *err, size_t errlen)
{
    char why[256] = "";
    image_colour tag = {.source = e->source};
    memcpy(tag.xy, e->xy, sizeof tag.xy);
    if (!image_colour_check(&tag, why, sizeof why) || !pixels_ok(px, why, sizeof why) ||
        !(e->curve != ICC_CURVE_GAMMA || (e->gamma > 0.01 && e->gamma < 100.0))) {
        if (!why[0])
            snprintf(why, sizeof why, "the gamma %g is out of range", e->gamma);
        snprintf(err, errlen, "%s: %s", path, why);
        return false;
    }
    icc_error er;
    cmsContext ctx = context_new(&er);
    cmsToneCurve *c = ctx ? encoding_curve(ctx, e) : NULL;
    cmsCIExyY white = {e->xy[3][0], e->xy[3][1], 1.0};
    cmsCIExyYTRIPLE prim = {{e->xy[0][0], e->xy[0][1], 1.0}, {e->xy[1][0], e->xy[1][1], 1.0},
                            {e->xy[2][0], e->xy[2][1], 1.0}};
    cmsToneCurve *curves[3] = {c, c, c};
    cmsHPROFILE src = NULL;
    if (c && px->channels <= 2)
        src = cmsCreateGrayProfileTHR(ctx, &white, c);
    else if (c)
        src = cmsCreateRGBProfileTHR(ctx, &white, &prim, curves);
    bool ok = src && convert(ctx, src, px, why, sizeof why);
    if (!src)
        snprintf(why, sizeof why, "cannot describe the encoding (%s)",
                 er.text[0] ? er.text : "out of memory");
    if (c)
        cmsFreeToneCurve(c);
    if (ctx)
        cmsDeleteContext(ctx);
    if (!ok) {
        snprintf(err, errlen, "%s: %s", path, why);
        return false;
    }
    memset(colour, 0, sizeof *colour);
    colour->source = e->source;
    return true;
}

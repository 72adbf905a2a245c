/* Colour tags of the outputs (output_tags.h). */
#include "output_tags.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cicp.h"
#include "colour.h"
#include "out_tags.h"
#include "transfer.h"

static int cicp_primaries(int ds)
{
    return ds == HT_DISPLAY_SPACE_DISPLAY_P3 ? CICP_P3_D65
           : ds == HT_DISPLAY_SPACE_REC2020  ? CICP_BT2020 : CICP_BT709;
}

/* The transfer's code point; 0 when H.273 has none (a gamma other than 2.2 and 2.8). */
static int cicp_transfer(const tonemap_params *tm)
{
    switch (tm->transfer) {
    case HT_TRANSFER_PQ:
        return CICP_PQ;
    case HT_TRANSFER_HLG:
        return CICP_HLG;
    case HT_TRANSFER_GAMMA:
        return tm->gamma == 2.2 ? CICP_GAMMA22 : tm->gamma == 2.8 ? CICP_GAMMA28 : 0;
    default:
        return CICP_SRGB;
    }
}

/* An HDR output's mastering display and light levels (measured from 16-bit PX). */
static bool hdr_tags(const tonemap_params *tm, int depth, const void *px, int w, int h,
                     encode_tags *t, char *err, size_t errlen)
{
    t->ldmax = tm->ldmax;
    t->ldmin = tm->ldmax / tm->drange;
    if (!px || depth != 16)
        return true;
    double lum[3];
    colour_display_lum(tm->display_space, lum);
    if (!transfer_light_levels(px, (size_t)w * h, tm->transfer, tm->ldmax, lum,
                               &t->max_cll, &t->max_fall)) {
        snprintf(err, errlen, "out of memory measuring the light levels");
        return false;
    }
    return true;
}

bool output_tags_make(const tonemap_params *tm, encode_format f, int depth, bool c420,
                      const void *px, int w, int h, output_tags *et, char *err, size_t errlen)
{
    memset(et, 0, sizeof *et);
    encode_tags *t = &et->t;
    int ds = tm->display_space, tc = cicp_transfer(tm);
    bool hdr = tm->transfer == HT_TRANSFER_PQ || tm->transfer == HT_TRANSFER_HLG;
    colour_display_xy(ds, t->xy);
    t->chroma420 = c420;
    if (encode_format_is_linear(f, depth))   /* JPEG XL's intensity target: 1 = Ldmax */
        t->ldmax = tm->ldmax;
    if (!tc && f == ENCODE_AVIF)   /* AVIF's CICP names the primaries; the ICC profile below
                                      holds the gamma H.273 has no code point for */
        tc = CICP_UNSPECIFIED;
    if (tc) {
        t->cicp[0] = (uint8_t)cicp_primaries(ds);
        t->cicp[1] = (uint8_t)tc;
        t->cicp[2] = CICP_RGB;
        t->cicp[3] = CICP_FULL_RANGE;
    }
    if (hdr)
        return hdr_tags(tm, depth, px, w, h, t, err, errlen);
    t->srgb = ds == HT_DISPLAY_SPACE_SRGB && tm->transfer == HT_TRANSFER_SRGB;
    t->gamma = tm->transfer == HT_TRANSFER_GAMMA ? tm->gamma : 0.0;
    bool avif_gamma = f == ENCODE_AVIF && t->cicp[1] == CICP_UNSPECIFIED;
    if (f != ENCODE_JPEG && !avif_gamma && (f != ENCODE_PNG || t->srgb))
        return true;   /* no profile: the sRGB chunk or the CICP says it, or the format holds
                          none */
    char desc[96];
    const char *name = ht_enum_name(colour_display_spaces, ds);
    if (t->gamma > 0)
        snprintf(desc, sizeof desc, "hdrtone %s, gamma %.3g", name, t->gamma);
    else
        snprintf(desc, sizeof desc, "hdrtone %s, sRGB curve", name);
    if (!out_profile_make((const double(*)[2])t->xy, t->gamma, desc, &et->icc, &t->icc_len, err, errlen))
        return false;
    t->icc = et->icc;
    return true;
}

void output_tags_free(output_tags *et)
{
    free(et->icc);
    memset(et, 0, sizeof *et);
}

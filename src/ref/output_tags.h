/* The colour tags of the outputs (encode.h's encode_tags) from the tone mapping's parameters,
 * for export and libhdrtone alike: the display space and its curve as cICP, sRGB/gAMA and an ICC profile (SDR), or cICP, mDCv and the
 * light levels measured from the picture (--hdr). docs/hdr.md lists them per format. */
#ifndef HT_OUTPUT_TAGS_H
#define HT_OUTPUT_TAGS_H

#include "encode.h"
#include "tonemap.h"

typedef struct output_tags {
    encode_tags t;
    uint8_t *icc;   /* owned: t.icc */
} output_tags;

/* The tags of an output of TM (display space, transfer, Ldmax, drange) in format F for the
 * picture PX (W x H RGB of DEPTH bits: what the HDR light levels are measured from; NULL:
 * none measured); C420: y4m's 4:2:0. AVIF in a gamma H.273 has no code point for (2.4): its
 * CICP transfer unspecified (2), the curve in an ICC profile. False with the reason in err; free with
 * output_tags_free (also after a failure). */
bool output_tags_make(const tonemap_params *tm, encode_format f, int depth, bool c420,
                      const void *px, int w, int h, output_tags *et, char *err, size_t errlen);
void output_tags_free(output_tags *et);

#endif

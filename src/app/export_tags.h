/* The colour tags of export's outputs (encode.h's encode_tags) from the options: the display
 * space and its curve as cICP, sRGB/gAMA and an ICC profile (SDR), or cICP, mDCv and the
 * light levels measured from the picture (--hdr). docs/hdr.md lists them per format. */
#ifndef HT_EXPORT_TAGS_H
#define HT_EXPORT_TAGS_H

#include "encode.h"
#include "options.h"

typedef struct export_tags {
    encode_tags t;
    uint8_t *icc;   /* owned: t.icc */
} export_tags;

/* The tags of O's output in format F for the picture PX (W x H RGB of O->depth bits: what
 * the HDR light levels are measured from; NULL: none measured). False with the reason in
 * err; free with export_tags_free (also after a failure). */
bool export_tags_make(const ht_options *o, encode_format f, const void *px, int w, int h,
                      export_tags *et, char *err, size_t errlen);
void export_tags_free(export_tags *et);

/* The H.273 colour primaries of display space DS (HT_DISPLAY_SPACE_*): 1, 12 or 9. */
int export_cicp_primaries(int ds);

#endif

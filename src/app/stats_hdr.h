/* stats --hdr pq|hlg: what an HDR output of the picture carries as metadata: MaxCLL and MaxFALL
 * (measured, as export writes them in cLLi) and the mastering display (mDCv, SMPTE ST 2086),
 * plus the x265 parameters that carry them (docs/hdr.md, Video). */
#ifndef HT_STATS_HDR_H
#define HT_STATS_HDR_H

#include <stdio.h>

#include "options.h"

/* ', "hdr": {...}' into the JSON object being written (nothing without --hdr). O's tm with
 * IMG's colour. */
void stats_hdr_json(FILE *f, const ht_options *o, const hdr_image *img);

/* The same as text lines. */
void stats_hdr_text(FILE *f, const ht_options *o, const hdr_image *img);

#endif

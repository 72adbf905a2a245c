/* The output's settings (options.h) that the export and the viewer's export apply, apart
 * from options.c: --hdr's defaults, the codecs' quality. */
#include "options.h"

#include "encode.h"

void options_hdr_defaults(ht_options *o)
{
    if (o->hdr == HT_TRANSFER_SRGB)
        return;
    o->tm.transfer = o->hdr;
    if (!options_given(o, "ldmax"))
        o->tm.ldmax = HT_HDR_LDMAX;
    if (!options_given(o, "drange"))
        o->tm.drange = HT_HDR_DRANGE;
    if (!options_given(o, "display-space"))
        o->tm.display_space = HT_DISPLAY_SPACE_REC2020;
    if (!options_given(o, "depth"))
        o->depth = 16;
}

int options_quality(const ht_options *o)
{
    bool codec = o->format == ENCODE_AVIF || o->format == ENCODE_JXL;
    return codec && !options_given(o, "quality") ? 0 : o->quality;
}

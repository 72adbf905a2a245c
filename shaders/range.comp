// Range pass: the tiles' counts and min/max, and from them the histogram range (ht_range in
// analysis.glsl). If it differs in any bit from the binning the per-tile histograms used, it
// becomes the frame's binning and the re-binning's indirect dispatch gets the image's groups;
// otherwise none (a dispatch of no groups costs next to nothing; a full grid of groups that
// leave at once cost 8 us at 4K on the H100).
layout(local_size_x = HT_MERGE_GROUP) in;
#include "analysis.glsl"

void main()
{
    uint t = gl_LocalInvocationIndex;
    ht_rebin_args(t, uint(HT_MERGE_GROUP), ht_range(t, uint(HT_MERGE_GROUP)));
}

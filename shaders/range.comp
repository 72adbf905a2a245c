// Range pass: the tiles' counts and min/max, and from them the histogram range (ht_range in
// finish.glsl). If it differs in any bit from the binning the per-tile histograms used, it
// becomes the frame's binning and 'rebinned' tells the re-binning dispatch to run; otherwise
// its groups leave at once.
layout(local_size_x = HT_MERGE_GROUP) in;
#include "finish.glsl"

void main()
{
    ht_range(gl_LocalInvocationIndex, uint(HT_MERGE_GROUP));
}

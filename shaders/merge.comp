// Merge pass: each group adds up the histograms and sums of HT_MERGE_TILES tiles in shared
// memory, then adds its histogram into frame.hist with one atomic per bin and leaves its sum
// of ln Lw in partials[] (GL 4.3 has no float atomics; the curve pass adds the partials).
layout(local_size_x = HT_MERGE_GROUP) in;
#include "analysis.glsl"
const uint N = uint(HT_MERGE_GROUP);

void main()
{
    uint t = gl_LocalInvocationIndex, g = gl_WorkGroupID.x;
    uint bins = frame.bins;
    float sum = ht_merge_group(t, N, g, bins);
    for (uint i = t; i < bins; i += N)
        if (s_hist[i] != 0u) atomicAdd(frame.hist[i], s_hist[i]);
    if (t == 0u) {
        partials[g] = sum;
        atomicAdd(frame.n_counted, s_count);
    }
}

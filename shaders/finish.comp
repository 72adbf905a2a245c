// Finish pass: range, merge and curve in one dispatch (finish.glsl), and the re-binning's
// indirect dispatch arguments: none unless the range finds the binning stale, in which case
// the re-binning's last group merges and makes the curve instead. Two forms:
//  HT_FINISH_ONE_GROUP: one group does it all, merging every tile itself;
//  else: one group per HT_MERGE_TILES tiles merges them, as the merge pass does, into the
//    counts of ht_dispatch, with the binning the tiles were made with, and the last group to
//    finish computes the range and, when the binning was right, makes the curve.
layout(local_size_x = HT_FINISH_THREADS) in;
#include "finish.glsl"
const uint T = uint(HT_FINISH_THREADS);

#ifdef HT_FINISH_ONE_GROUP
void main()
{
    uint t = gl_LocalInvocationIndex;
    bool stale = ht_range(t, T);
    ht_rebin_args(t, T, stale);
    if (!stale) ht_finish_one_group(t, T);
}
#else
void main()
{
    uint t = gl_LocalInvocationIndex, g = gl_WorkGroupID.x;
    uint bins = frame.bins;   // 0 before any range: nothing merged, and the range finds it stale
    float sum = ht_merge_group(t, T, g, bins);
    for (uint i = t; i < bins; i += T)
        if (s_hist[i] != 0u) atomicAdd(disp.hist[i], s_hist[i]);
    if (t == 0u) {
        partials[g] = sum;
        atomicAdd(disp.n_counted, s_count);
    }
    if (!ht_last_group(t, gl_NumWorkGroups.x, false)) return;

    bool stale = ht_range(t, T);
    ht_rebin_args(t, T, stale);
    uint n = frame.bins, count = t < n ? disp.hist[t] : 0u, counted = disp.n_counted;
    if (!stale) {
        for (uint i = t; i < uint(HT_MAX_BINS); i += T) frame.hist[i] = i < n ? disp.hist[i] : 0u;
        if (t == 0u) frame.n_counted = counted;
    }
    barrier();
    for (uint i = t; i < uint(HT_MAX_BINS); i += T) disp.hist[i] = 0u;   // for the next frame
    if (t == 0u) disp.n_counted = 0u;
    if (stale || !u_curve) return;
    float ln = 0.0;
    if (t < u_stride)
        for (uint k = t; k < gl_NumWorkGroups.x; k += u_stride) ln += partials[k];
    ht_curve(t, u_stride, count, counted, ln);
}
#endif

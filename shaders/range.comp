// Range pass: from the histogram pass's min/max, the histogram range (WARD97.md;
// tonemap_cpu.c compute_range). If it differs in any bit from the binning the per-tile
// histograms used, it becomes the frame's binning and the re-binning dispatch gets every tile;
// otherwise that dispatch gets no group at all. One thread: a handful of instructions.
layout(local_size_x = 1) in;
uniform uint u_total;
uniform int u_bins;
uniform vec2 u_user_range;   // lmin, lmax in cd/m^2; (0,0) = automatic
uniform uvec2 u_tiles;

void main()
{
    uint n_valid = frame.n_valid;
    float lwmin = uintBitsToFloat(frame.lw_min_bits), lwmax = uintBitsToFloat(frame.lw_max_bits);
    frame.n_total = u_total;
    frame.lw_min = n_valid > 0u ? lwmin : 0.0;
    frame.lw_max = n_valid > 0u ? lwmax : 0.0;
    uint widened = 0u;
    float bwmin, bwmax;
    if (n_valid == 0u) {
        bwmin = 0.0; bwmax = 1.0;
    } else if (u_user_range.x > 0.0 && u_user_range.y > u_user_range.x) {
        bwmin = log(u_user_range.x); bwmax = log(u_user_range.y);
    } else {
        bwmax = log(min(1.01 * lwmax, float(HT_LMAX)));
        if (lwmin < float(HT_LMIN)) {
            bwmin = log(float(HT_LMIN));
        } else {
            float span = max(bwmax - log(lwmin), log(1.01));
            bwmin = bwmax - span * float(u_bins) / float(u_bins - 1);
            widened = 1u;
        }
        if (bwmin >= bwmax) bwmin = bwmax - log(1.01);
    }
    float lo = max(exp(bwmin), float(HT_LMIN)), hi = exp(bwmax);
    bool same = frame.bins == uint(u_bins) && frame.widened == widened &&
                floatBitsToUint(frame.bw_min) == floatBitsToUint(bwmin) &&
                floatBitsToUint(frame.bw_max) == floatBitsToUint(bwmax) &&
                floatBitsToUint(frame.lo_thresh) == floatBitsToUint(lo) &&
                floatBitsToUint(frame.hi_thresh) == floatBitsToUint(hi);
    frame.bins = uint(u_bins);
    frame.widened = widened;
    frame.bw_min = bwmin;
    frame.bw_max = bwmax;
    frame.lo_thresh = lo;
    frame.hi_thresh = hi;
    frame.rebinned = same ? 0u : 1u;
    frame.rebin_groups[0] = same ? 0u : u_tiles.x;
    frame.rebin_groups[1] = same ? 0u : u_tiles.y;
    frame.rebin_groups[2] = 1u;
}

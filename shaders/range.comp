// Range pass: the tiles' counts and min/max, and from them the histogram range (WARD97.md;
// tonemap_cpu.c compute_range). If it differs in any bit from the binning the per-tile
// histograms used, it becomes the frame's binning and 'rebinned' tells the re-binning
// dispatch to run; otherwise its groups leave at once.
layout(local_size_x = HT_MERGE_GROUP) in;
layout(std430, binding = HT_BIND_TILE_SUMS) readonly buffer TileSums { ht_tilesum tile_sums[]; };
uniform uint u_tile_count;

const uint N = uint(HT_MERGE_GROUP);
shared uint s_min[N], s_max[N], s_valid[N], s_nonfinite[N];
uniform uint u_total;
uniform int u_bins;
uniform vec2 u_user_range;   // lmin, lmax in cd/m^2; (0,0) = automatic

void main()
{
    uint t = gl_LocalInvocationIndex;
    uint mn = 0x7f7fffffu, mx = 0u, valid = 0u, nonfinite = 0u;
    for (uint k = t; k < u_tile_count; k += N) {
        ht_tilesum s = tile_sums[k];
        if (s.n_valid > 0u) { mn = min(mn, s.lw_min_bits); mx = max(mx, s.lw_max_bits); }
        valid += s.n_valid;
        nonfinite += s.n_nonfinite;
    }
    s_min[t] = mn; s_max[t] = mx; s_valid[t] = valid; s_nonfinite[t] = nonfinite;
    barrier();
    for (uint s = N / 2u; s > 0u; s >>= 1) {
        if (t < s) {
            s_min[t] = min(s_min[t], s_min[t + s]);
            s_max[t] = max(s_max[t], s_max[t + s]);
            s_valid[t] += s_valid[t + s];
            s_nonfinite[t] += s_nonfinite[t + s];
        }
        barrier();
    }
    if (t != 0u) return;
    // Foveal sampling: pcond's point samples join the foveal image's samples (points.comp).
    uint total = u_total + frame.n_points;
    uint n_valid = s_valid[0] + frame.pt_valid, n_nonfinite = s_nonfinite[0] + frame.pt_nonfinite;
    float lwmin = uintBitsToFloat(min(s_min[0], frame.pt_min_bits));
    float lwmax = uintBitsToFloat(max(s_max[0], frame.pt_max_bits));
    frame.n_total = total;
    frame.n_valid = n_valid;
    frame.n_nonfinite = n_nonfinite;
    frame.n_nonpositive = total - n_valid - n_nonfinite;
    // pcond's rules: a sample with Lw <= 0 drops the bottom to LMIN as well.
    bool pcond = frame.pcond_rules != 0u;
    bool black = pcond && frame.n_nonpositive > 0u;
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
        if (lwmin < float(HT_LMIN) || black) {
            bwmin = log(float(HT_LMIN));
        } else {
            float span = max(bwmax - log(lwmin), log(1.01));
            bwmin = bwmax - span * float(u_bins) / float(u_bins - 1);
            widened = 1u;
        }
        if (bwmin >= bwmax) bwmin = bwmax - log(1.01);
    }
    float lo = max(exp(bwmin), float(HT_LMIN)), hi = exp(bwmax);
    if (pcond && n_valid > 0u && !(u_user_range.x > 0.0 && u_user_range.y > u_user_range.x)) {
        // pcond3.c comphist: HT_FTINY inside both ends; no bottom-bin rule for a bottom
        // within HT_FTINY of LMIN (tonemap_cpu.c compute_range).
        lo = exp(bwmin) + float(HT_FTINY);
        hi = min(1.01 * lwmax, float(HT_LMAX)) - float(HT_FTINY);
        widened = widened != 0u && exp(bwmin) > float(HT_LMIN + HT_FTINY) ? 1u : 0u;
    }
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
}

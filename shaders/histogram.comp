// Histogram pass: the one read of the image the analysis needs. Per tile (group-shared
// memory): a histogram of ln Lw over the binning range the frame holds, the sum of ln Lw, the
// count of the samples binned, the pixel classes and the min/max of the valid luminances.
// The last group to finish (a counter in the frame; over every piece of a split image) then
// computes the range from all tiles (WARD97.md; tonemap_cpu.c compute_range): if it differs in
// any bit from the binning the tiles used, it becomes the frame's binning and 'rebinned' tells
// the re-binning dispatch (this program with u_rebin) to run; otherwise its groups leave at
// once. Doing the range here saves a dispatch and its barrier on every frame.
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;
layout(std430, binding = HT_BIND_TILE_HIST) writeonly buffer TileHist { uint tile_hist[]; };
// coherent: the last group reads what the others wrote in this dispatch.
layout(std430, binding = HT_BIND_TILE_SUMS) coherent buffer TileSums { ht_tilesum tile_sums[]; };
uniform ivec2 u_size;          // of the piece this dispatch reads
uniform ivec2 u_tile_origin;   // the piece's first tile in the whole image's tile grid
uniform uint u_tiles_x;        // the width of that grid
uniform float u_scale;
uniform bool u_rebin;
uniform uint u_tile_count;     // tiles of the whole image: the groups of all pieces
uniform uint u_total;          // pixels of the whole image
uniform int u_bins;
uniform vec2 u_user_range;     // lmin, lmax in cd/m^2; (0,0) = automatic

const uint N = uint(HT_GROUP_X * HT_GROUP_Y);
shared uint s_hist[HT_MAX_BINS];
shared float s_sum[N];
shared uint s_count, s_min, s_max, s_valid, s_nonfinite;
shared bool s_last;
shared uint r_min[N], r_max[N], r_valid[N], r_nonfinite[N];

// The range from every tile's results, by the last group (all N threads take part).
void range_from_tiles(uint t)
{
    uint mn = 0x7f7fffffu, mx = 0u, valid = 0u, nonfinite = 0u;
    for (uint k = t; k < u_tile_count; k += N) {
        ht_tilesum s = tile_sums[k];
        if (s.n_valid > 0u) { mn = min(mn, s.lw_min_bits); mx = max(mx, s.lw_max_bits); }
        valid += s.n_valid;
        nonfinite += s.n_nonfinite;
    }
    r_min[t] = mn; r_max[t] = mx; r_valid[t] = valid; r_nonfinite[t] = nonfinite;
    barrier();
    for (uint s = N / 2u; s > 0u; s >>= 1) {
        if (t < s) {
            r_min[t] = min(r_min[t], r_min[t + s]);
            r_max[t] = max(r_max[t], r_max[t + s]);
            r_valid[t] += r_valid[t + s];
            r_nonfinite[t] += r_nonfinite[t + s];
        }
        barrier();
    }
    if (t != 0u) return;
    // Foveal sampling: pcond's point samples join the foveal image's samples (points.comp).
    uint total = u_total + frame.n_points;
    uint n_valid = r_valid[0] + frame.pt_valid, n_nonfinite = r_nonfinite[0] + frame.pt_nonfinite;
    float lwmin = uintBitsToFloat(min(r_min[0], frame.pt_min_bits));
    float lwmax = uintBitsToFloat(max(r_max[0], frame.pt_max_bits));
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
        // pcond3.c comphist: 1e-7 cd/m^2 inside both ends; no bottom-bin rule for a bottom
        // within 1e-7 of LMIN (tonemap_cpu.c compute_range).
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

void main()
{
    if (u_rebin && frame.rebinned == 0u) return;   // the same for the whole group
    uint t = gl_LocalInvocationIndex;
    uint bins = max(frame.bins, 1u);   // 0 before any range step: everything lands in bin 0
    for (uint i = t; i < bins; i += N) s_hist[i] = 0u;
    if (t == 0u) { s_count = 0u; s_min = 0x7f7fffffu; s_max = 0u; s_valid = 0u; s_nonfinite = 0u; }
    barrier();
    float bwmin = frame.bw_min;
    float inv_width = float(bins) / max(frame.bw_max - frame.bw_min, 1e-30);
    float lo = frame.lo_thresh, hi = frame.hi_thresh;
    int lowest = int(frame.widened);   // bin 0 is empty by construction when widened (CPU: bin_of)
    ivec2 base = ivec2(gl_WorkGroupID.xy) * ivec2(HT_TILE_X, HT_TILE_Y) + ivec2(gl_LocalInvocationID.xy);
    float sum = 0.0;
    uint count = 0u, valid = 0u, nonfinite = 0u;
    uint mn = 0x7f7fffffu, mx = 0u;
    for (int j = 0; j < HT_TILE_Y; j += HT_GROUP_Y)
        for (int i = 0; i < HT_TILE_X; i += HT_GROUP_X) {
            ivec2 p = base + ivec2(i, j);
            if (p.x >= u_size.x || p.y >= u_size.y) continue;
            float lw;
            int cls = ht_classify(ht_load(p).rgb, u_scale, lw);
            if (cls != HT_PIX_VALID) { nonfinite += uint(cls == HT_PIX_NONFINITE); continue; }
            valid++;
            mn = min(mn, floatBitsToUint(lw));
            mx = max(mx, floatBitsToUint(lw));
            if (lw < lo || lw >= hi) continue;
            float b = log(lw);
            int bin = clamp(int(floor((b - bwmin) * inv_width)), lowest, int(bins) - 1);
            atomicAdd(s_hist[bin], 1u);
            sum += b;
            count++;
        }
    // Integers by shared atomics (no extra barriers); only the float sum needs the tree.
    if (count > 0u) atomicAdd(s_count, count);
    if (valid > 0u) { atomicMin(s_min, mn); atomicMax(s_max, mx); atomicAdd(s_valid, valid); }
    if (nonfinite > 0u) atomicAdd(s_nonfinite, nonfinite);
    s_sum[t] = sum;
    barrier();
    for (uint s = N / 2u; s > 0u; s >>= 1) {
        if (t < s) s_sum[t] += s_sum[t + s];
        barrier();
    }
    // Numbered in the whole image's grid: an image in pieces fills the arrays as one would.
    uvec2 tile = gl_WorkGroupID.xy + uvec2(u_tile_origin);
    uint k = tile.y * u_tiles_x + tile.x;
    for (uint i = t; i < bins; i += N) tile_hist[k * bins + i] = s_hist[i];
    if (t == 0u)
        tile_sums[k] = ht_tilesum(s_sum[0], s_count, s_min, s_max, s_valid, s_nonfinite);
    if (u_rebin) return;
    memoryBarrierBuffer();   // this group's tile results visible before it is counted
    barrier();
    if (t == 0u) s_last = atomicAdd(frame.groups_done, 1u) == u_tile_count - 1u;
    barrier();
    if (!s_last) return;
    memoryBarrierBuffer();
    range_from_tiles(t);
    if (t == 0u) frame.groups_done = 0u;   // ready for the next frame
}

// The per-tile binning of the histogram pass (histogram.comp) and of the apply pass's binning
// form (apply.comp, HT_APPLY_BIN): per tile of HT_TILE_X x HT_TILE_Y pixels, one group of
// HT_GROUP_X x HT_GROUP_Y threads, in group-shared memory: a histogram of
// ln Lw over the binning range the frame holds, the sum of ln Lw, the count of the samples
// binned, the pixel classes and the min/max of the valid luminances, from which the range
// decides whether that binning range was the right one. The includer declares u_size (the
// piece the dispatch reads) and u_scale, and may define HT_TILE_PIXEL(p), run for every pixel
// of the tile inside the piece, and HT_TILE_RGB(p), the colour binned (default: the pixel).
#ifndef HT_TILE_PIXEL
#define HT_TILE_PIXEL(p)
#endif
#ifndef HT_TILE_RGB
#define HT_TILE_RGB(p) ht_load(p).rgb
#endif
layout(std430, binding = HT_BIND_TILE_HIST) writeonly buffer TileHist { uint tile_hist[]; };
layout(std430, binding = HT_BIND_TILE_SUMS) writeonly buffer TileSums { ht_tilesum tile_sums[]; };
shared uint s_hist[HT_MAX_BINS];
shared uint s_count, s_min, s_max, s_valid, s_nonfinite;
uniform ivec2 u_tile_origin;   // the piece's first tile in the whole image's tile grid
uniform uint u_tiles_x;        // the width of that grid

const uint N = uint(HT_GROUP_X * HT_GROUP_Y);
shared float s_sum[N];

void bin_tile(uint t)
{
    uint bins = max(frame.bins, 1u);   // 0 before any range pass: everything lands in bin 0
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
            HT_TILE_PIXEL(p);
            float lw;
            int cls = ht_classify(HT_TILE_RGB(p), u_scale, lw);
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
}

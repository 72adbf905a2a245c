// Histogram pass: the one read of the image the analysis needs. Per tile (group-shared
// memory): a histogram of ln Lw over the binning range the frame holds, the sum of ln Lw, the
// count of the samples binned, the pixel classes and the min/max of the valid luminances, from
// which the range pass decides whether that binning range was the right one. With u_rebin set
// (the re-binning dispatch) groups leave at once unless the range pass found it was not.
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;
layout(std430, binding = HT_BIND_TILE_HIST) writeonly buffer TileHist { uint tile_hist[]; };
layout(std430, binding = HT_BIND_TILE_SUMS) writeonly buffer TileSums { ht_tilesum tile_sums[]; };
uniform ivec2 u_size;          // of the piece this dispatch reads
uniform ivec2 u_tile_origin;   // the piece's first tile in the whole image's tile grid
uniform uint u_tiles_x;        // the width of that grid
uniform float u_scale;
uniform bool u_rebin;

#ifdef HT_HIST_VEIL
// The veil's second histogram in pixel sampling: every pixel with the veil added,
// (1 - HT_VEIL_ADAPT) P + the bilinear veil, as human.c's veiled_copy.
layout(std430, binding = HT_BIND_VEIL) readonly buffer Veil { vec4 veil[]; };
uniform ivec2 u_origin;   // the piece in the picture
uniform ivec2 u_pic;      // the picture
uniform ivec2 u_grid;     // the veil's foveal grid
vec3 pixel(ivec2 p)
{
    ht_grid_cell g = ht_grid_lookup(p + u_origin, u_pic, u_grid);
    vec3 v = ht_grid_mix(g, veil[g.i00], veil[g.i01], veil[g.i10], veil[g.i11]).rgb;
    precise vec3 c = float(1.0 - HT_VEIL_ADAPT) * ht_load(p).rgb + v;
    return c;
}
#else
vec3 pixel(ivec2 p) { return ht_load(p).rgb; }
#endif

const uint N = uint(HT_GROUP_X * HT_GROUP_Y);
shared uint s_hist[HT_MAX_BINS];
shared float s_sum[N];
shared uint s_count, s_min, s_max, s_valid, s_nonfinite;

void main()
{
    if (u_rebin && frame.rebinned == 0u) return;   // the same for the whole group
    uint t = gl_LocalInvocationIndex;
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
            float lw;
            int cls = ht_classify(pixel(p), u_scale, lw);
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

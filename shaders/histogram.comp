// Histogram pass: per tile, a histogram of ln Lw over the frame's range in group-shared
// memory, plus the sum of ln Lw and the count of the samples it holds. Written per tile;
// merge.comp adds the tiles up.
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;
layout(std430, binding = HT_BIND_TILE_HIST) writeonly buffer TileHist { uint tile_hist[]; };
layout(std430, binding = HT_BIND_TILE_SUMS) writeonly buffer TileSums { ht_tilesum tile_sums[]; };
uniform ivec2 u_size;
uniform float u_scale;

const uint N = uint(HT_GROUP_X * HT_GROUP_Y);
shared uint s_hist[HT_MAX_BINS];
shared float s_sum[N];
shared uint s_count[N];

void main()
{
    uint t = gl_LocalInvocationIndex;
    uint bins = frame.bins;
    for (uint i = t; i < bins; i += N) s_hist[i] = 0u;
    barrier();
    float bwmin = frame.bw_min;
    float inv_width = float(bins) / (frame.bw_max - frame.bw_min);
    float lo = frame.lo_thresh, hi = frame.hi_thresh;
    int lowest = int(frame.widened);   // bin 0 is empty by construction when widened (CPU: bin_of)
    ivec2 base = ivec2(gl_WorkGroupID.xy) * ivec2(HT_TILE_X, HT_TILE_Y) + ivec2(gl_LocalInvocationID.xy);
    float sum = 0.0;
    uint count = 0u;
    for (int j = 0; j < HT_TILE_Y; j += HT_GROUP_Y)
        for (int i = 0; i < HT_TILE_X; i += HT_GROUP_X) {
            ivec2 p = base + ivec2(i, j);
            if (p.x >= u_size.x || p.y >= u_size.y) continue;
            float lw;
            if (ht_classify(ht_load(p).rgb, u_scale, lw) != HT_PIX_VALID || lw < lo || lw >= hi)
                continue;
            float b = log(lw);
            int bin = clamp(int(floor((b - bwmin) * inv_width)), lowest, int(bins) - 1);
            atomicAdd(s_hist[bin], 1u);
            sum += b;
            count++;
        }
    s_sum[t] = sum;
    s_count[t] = count;
    barrier();
    for (uint s = N / 2u; s > 0u; s >>= 1) {
        if (t < s) { s_sum[t] += s_sum[t + s]; s_count[t] += s_count[t + s]; }
        barrier();
    }
    uint k = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    for (uint i = t; i < bins; i += N) tile_hist[k * bins + i] = s_hist[i];
    if (t == 0u) { tile_sums[k].sum_ln = s_sum[0]; tile_sums[k].n_counted = s_count[0]; }
}

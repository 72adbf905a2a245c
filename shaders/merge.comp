// Merge pass: the tiles' histograms -> frame.hist, and their sums -> n_counted, ln_avg.
layout(local_size_x = HT_REDUCE_GROUP) in;
layout(std430, binding = HT_BIND_TILE_HIST) readonly buffer TileHist { uint tile_hist[]; };
layout(std430, binding = HT_BIND_TILE_SUMS) readonly buffer TileSums { ht_tilesum tile_sums[]; };
uniform uint u_tiles;

const uint N = uint(HT_REDUCE_GROUP);
shared uint s_hist[HT_MAX_BINS];
shared float s_sum[N];
shared uint s_count[N];

void main()
{
    uint t = gl_LocalInvocationIndex;
    uint bins = frame.bins;
    for (uint i = t; i < bins; i += N) s_hist[i] = 0u;
    barrier();
    // Consecutive threads read consecutive words; each adds into its bin in shared memory.
    uint words = u_tiles * bins;
    for (uint w = t; w < words; w += N) {
        uint c = tile_hist[w];
        if (c != 0u) atomicAdd(s_hist[w % bins], c);
    }
    float sum = 0.0;
    uint count = 0u;
    for (uint k = t; k < u_tiles; k += N) { sum += tile_sums[k].sum_ln; count += tile_sums[k].n_counted; }
    s_sum[t] = sum;
    s_count[t] = count;
    barrier();
    for (uint s = N / 2u; s > 0u; s >>= 1) {
        if (t < s) { s_sum[t] += s_sum[t + s]; s_count[t] += s_count[t + s]; }
        barrier();
    }
    for (uint i = t; i < bins; i += N) frame.hist[i] = s_hist[i];
    if (t == 0u) {
        frame.n_counted = s_count[0];
        frame.ln_avg = s_count[0] > 0u ? s_sum[0] / float(s_count[0]) : 0.0;
    }
}

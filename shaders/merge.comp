// Merge pass: each group adds up the histograms and sums of HT_MERGE_TILES tiles in shared
// memory, then adds its histogram into frame.hist with one atomic per bin and leaves its sum
// of ln Lw in partials[] (GL 4.3 has no float atomics; the curve pass adds the partials).
layout(local_size_x = HT_MERGE_GROUP) in;
layout(std430, binding = HT_BIND_TILE_HIST) readonly buffer TileHist { uint tile_hist[]; };
layout(std430, binding = HT_BIND_TILE_SUMS) readonly buffer TileSums { ht_tilesum tile_sums[]; };
layout(std430, binding = HT_BIND_PARTIALS) writeonly buffer Partials { float partials[]; };
uniform uint u_tiles;

const uint N = uint(HT_MERGE_GROUP);
shared uint s_hist[HT_MAX_BINS];
shared float s_sum[N];
shared uint s_count[N];

void main()
{
    uint t = gl_LocalInvocationIndex;
    uint bins = frame.bins;
    for (uint i = t; i < bins; i += N) s_hist[i] = 0u;
    barrier();
    uint first = gl_WorkGroupID.x * uint(HT_MERGE_TILES);
    uint last = min(first + uint(HT_MERGE_TILES), u_tiles);
    // Consecutive threads read consecutive words.
    for (uint w = first * bins + t; w < last * bins; w += N) {
        uint c = tile_hist[w];
        if (c != 0u) atomicAdd(s_hist[w % bins], c);
    }
    uint k = first + t;
    s_sum[t] = k < last ? tile_sums[k].sum_ln : 0.0;
    s_count[t] = k < last ? tile_sums[k].n_counted : 0u;
    barrier();
    for (uint s = N / 2u; s > 0u; s >>= 1) {
        if (t < s) { s_sum[t] += s_sum[t + s]; s_count[t] += s_count[t + s]; }
        barrier();
    }
    for (uint i = t; i < bins; i += N)
        if (s_hist[i] != 0u) atomicAdd(frame.hist[i], s_hist[i]);
    if (t == 0u) {
        partials[gl_WorkGroupID.x] = s_sum[0];
        atomicAdd(frame.n_counted, s_count[0]);
    }
}

// RGBA histogram of the tone-mapped 8-bit output: per 64x64 tile, counts in group-shared
// memory with atomic adds, then one global atomic add per non-empty bin.
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;
layout(std430, binding = HT_BIND_HIST) buffer Hist { ht_hist hist; };
uniform ivec2 u_size;

const uint N = uint(HT_GROUP_X * HT_GROUP_Y);
const uint BINS = uint(4 * HT_COLOR_BINS);
shared uint s_hist[BINS];

void main()
{
    uint t = gl_LocalInvocationIndex;
    for (uint i = t; i < BINS; i += N) s_hist[i] = 0u;
    barrier();
    ivec2 base = ivec2(gl_WorkGroupID.xy) * ivec2(HT_TILE_X, HT_TILE_Y) + ivec2(gl_LocalInvocationID.xy);
    for (int j = 0; j < HT_TILE_Y; j += HT_GROUP_Y)
        for (int i = 0; i < HT_TILE_X; i += HT_GROUP_X) {
            ivec2 p = base + ivec2(i, j);
            if (p.x >= u_size.x || p.y >= u_size.y) continue;
            // UNORM8 reads back as v / 255 exactly enough for the rounding to give v again.
            uvec4 v = uvec4(ht_load(p) * 255.0 + 0.5);
            atomicAdd(s_hist[v.r], 1u);
            atomicAdd(s_hist[uint(HT_COLOR_BINS) + v.g], 1u);
            atomicAdd(s_hist[uint(2 * HT_COLOR_BINS) + v.b], 1u);
            atomicAdd(s_hist[uint(3 * HT_COLOR_BINS) + v.a], 1u);
        }
    barrier();
    for (uint i = t; i < BINS; i += N)
        if (s_hist[i] != 0u) atomicAdd(hist.rgba[i], s_hist[i]);
}

// Range pass, step 1: per tile, the pixel classes and min/max of the valid luminances.
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;
layout(std430, binding = HT_BIND_TILES) writeonly buffer Tiles { ht_tile tiles[]; };
uniform ivec2 u_size;
uniform float u_scale;

const uint N = uint(HT_GROUP_X * HT_GROUP_Y);
shared float s_min[N], s_max[N];
shared uint s_valid[N], s_nonfinite[N], s_nonpositive[N];

void main()
{
    uint t = gl_LocalInvocationIndex;
    ivec2 base = ivec2(gl_WorkGroupID.xy) * ivec2(HT_TILE_X, HT_TILE_Y) + ivec2(gl_LocalInvocationID.xy);
    float mn = uintBitsToFloat(0x7f7fffffu), mx = 0.0;
    uint valid = 0u, nonfinite = 0u, nonpositive = 0u;
    for (int j = 0; j < HT_TILE_Y; j += HT_GROUP_Y)
        for (int i = 0; i < HT_TILE_X; i += HT_GROUP_X) {
            ivec2 p = base + ivec2(i, j);
            if (p.x >= u_size.x || p.y >= u_size.y) continue;
            float lw;
            int cls = ht_classify(ht_load(p).rgb, u_scale, lw);
            if (cls == HT_PIX_VALID) { valid++; mn = min(mn, lw); mx = max(mx, lw); }
            else if (cls == HT_PIX_NONFINITE) nonfinite++;
            else nonpositive++;
        }
    s_min[t] = mn; s_max[t] = mx;
    s_valid[t] = valid; s_nonfinite[t] = nonfinite; s_nonpositive[t] = nonpositive;
    barrier();
    for (uint s = N / 2u; s > 0u; s >>= 1) {
        if (t < s) {
            s_min[t] = min(s_min[t], s_min[t + s]);
            s_max[t] = max(s_max[t], s_max[t + s]);
            s_valid[t] += s_valid[t + s];
            s_nonfinite[t] += s_nonfinite[t + s];
            s_nonpositive[t] += s_nonpositive[t + s];
        }
        barrier();
    }
    if (t == 0u) {
        uint k = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
        tiles[k].lw_min = s_min[0];
        tiles[k].lw_max = s_max[0];
        tiles[k].n_valid = s_valid[0];
        tiles[k].n_nonfinite = s_nonfinite[0];
        tiles[k].n_nonpositive = s_nonpositive[0];
    }
}

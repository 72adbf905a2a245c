// Brightest/darkest pixel search (imgstats_gpu.c), in two levels with group-shared tree
// reductions over ht_extrema: the keys (Y_f, row-major index) -- ties to the smaller index --
// of the pixels with Y_f > 0, and the bounds lo/hi = Y_f -/+ e that let the CPU make the
// answer exact in double (gpu_shared.h HT_EXTREMA_FIELDS).
//  level 1: one group per 64x64 tile of the image -> tiles[]
//  level 2: one group over every tile -> total, then the list of the tiles that may hold the
//           exact answer: bright when the tile's max hi >= the image's max lo, dark when its
//           min lo <= the image's min hi over surely positive pixels (lo > 0).
const uint NONE = 0xffffffffu;
const float FMAX = uintBitsToFloat(0x7f7fffffu);

#if HT_EXTREMA_LEVEL == 1
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;
const uint N = uint(HT_GROUP_X * HT_GROUP_Y);
layout(std430, binding = HT_BIND_EXTREMA_TILES) writeonly buffer Tiles { ht_extrema tiles[]; };
uniform ivec2 u_size;
#else
layout(local_size_x = HT_EXTREMA_REDUCE_GROUP) in;
const uint N = uint(HT_EXTREMA_REDUCE_GROUP);
layout(std430, binding = HT_BIND_EXTREMA_TILES) readonly buffer Tiles { ht_extrema tiles[]; };
layout(std430, binding = HT_BIND_EXTREMA) writeonly buffer Extrema {
    ht_extrema total;
    uint cand[];   // [0, u_tiles): bright candidate tiles; [u_tiles, 2 u_tiles): dark ones
};
uniform uint u_tiles;
shared uint s_nb, s_nd;
#endif

shared ht_extrema s_ext[N];

ht_extrema extrema_empty()
{
    return ht_extrema(-FMAX, NONE, FMAX, NONE, -FMAX, -FMAX, FMAX, FMAX, 0u, 0u, 0u, 0u);
}

void extrema_merge(inout ht_extrema a, ht_extrema b)
{
    if (b.bright_idx != NONE && (a.bright_idx == NONE || b.bright_y > a.bright_y ||
                                 (b.bright_y == a.bright_y && b.bright_idx < a.bright_idx))) {
        a.bright_y = b.bright_y;
        a.bright_idx = b.bright_idx;
    }
    if (b.dark_idx != NONE && (a.dark_idx == NONE || b.dark_y < a.dark_y ||
                               (b.dark_y == a.dark_y && b.dark_idx < a.dark_idx))) {
        a.dark_y = b.dark_y;
        a.dark_idx = b.dark_idx;
    }
    a.bright_lo = max(a.bright_lo, b.bright_lo);
    a.bright_hi = max(a.bright_hi, b.bright_hi);
    a.dark_lo = min(a.dark_lo, b.dark_lo);
    a.dark_hi = min(a.dark_hi, b.dark_hi);
    a.n_finite += b.n_finite;
    a.n_possible += b.n_possible;
}

// The group's reduction of every thread's MINE, in s_ext[0] for every thread.
void extrema_reduce(ht_extrema mine)
{
    uint t = gl_LocalInvocationIndex;
    s_ext[t] = mine;
    barrier();
    for (uint s = N / 2u; s > 0u; s >>= 1) {
        if (t < s) extrema_merge(s_ext[t], s_ext[t + s]);
        barrier();
    }
}

#if HT_EXTREMA_LEVEL == 1
void main()
{
    ht_extrema acc = extrema_empty();
    ivec2 base = ivec2(gl_WorkGroupID.xy) * ivec2(HT_TILE_X, HT_TILE_Y) + ivec2(gl_LocalInvocationID.xy);
    for (int j = 0; j < HT_TILE_Y; j += HT_GROUP_Y)
        for (int i = 0; i < HT_TILE_X; i += HT_GROUP_X) {
            ivec2 p = base + ivec2(i, j);
            if (p.x >= u_size.x || p.y >= u_size.y) continue;
            vec3 c = ht_load(p).rgb;
            if (!ht_finite(c.r) || !ht_finite(c.g) || !ht_finite(c.b)) continue;
            acc.n_finite++;
            float y;
            ht_classify(c, 1.0, y);
            float m = float(HT_LUM_R) * abs(c.r) + float(HT_LUM_G) * abs(c.g) + float(HT_LUM_B) * abs(c.b);
            float e = m == 0.0 ? 0.0 : float(HT_EXTREMA_REL_ERR) * m + float(HT_EXTREMA_ABS_ERR);
            float lo = y - e, hi = y + e;
            bool bounded = ht_finite(y) && ht_finite(e) && ht_finite(lo) && ht_finite(hi);
            if (!bounded) { lo = -FMAX; hi = FMAX; }   // overflow: always a candidate
            if (!(hi > 0.0)) continue;                  // surely Y <= 0
            uint idx = uint(p.y) * uint(u_size.x) + uint(p.x);
            bool key = bounded && y > 0.0;
            extrema_merge(acc, ht_extrema(y, key ? idx : NONE, y, key ? idx : NONE, lo, hi, lo,
                                          lo > 0.0 ? hi : FMAX, 0u, 1u, 0u, 0u));
        }
    extrema_reduce(acc);
    if (gl_LocalInvocationIndex == 0u)
        tiles[gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x] = s_ext[0];
}
#else
void main()
{
    uint t = gl_LocalInvocationIndex;
    ht_extrema acc = extrema_empty();
    for (uint k = t; k < u_tiles; k += N) extrema_merge(acc, tiles[k]);
    if (t == 0u) { s_nb = 0u; s_nd = 0u; }
    extrema_reduce(acc);
    ht_extrema all = s_ext[0];
    for (uint k = t; k < u_tiles; k += N) {
        ht_extrema e = tiles[k];
        if (e.n_possible == 0u) continue;
        if (e.bright_hi >= all.bright_lo) cand[atomicAdd(s_nb, 1u)] = k;
        if (e.dark_lo <= all.dark_hi) cand[u_tiles + atomicAdd(s_nd, 1u)] = k;
    }
    barrier();
    if (t == 0u) {
        all.n_bright_tiles = s_nb;
        all.n_dark_tiles = s_nd;
        total = all;
    }
}
#endif

// Brightest/darkest search (imgstats_gpu.c): one work group per 64x64 tile, reading the image
// as probe_read.comp does (same group, same texels per thread, one record per group), writes
// the tile's ht_extrema: the bounds lo/hi = Y_f -/+ e of its pixels that may have Y > 0, one
// vec4 per thread and in the group's tree reduction. The CPU reads the records, picks the
// tiles that may hold the exact answer and rescans only those in double: a second dispatch of
// one group over every tile costs a dispatch's fixed time (BENCHMARKS.md), about a third of
// the image's read at 4K.
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;
layout(std430, binding = HT_BIND_EXTREMA_TILES) writeonly buffer Tiles { ht_extrema tiles[]; };
uniform ivec2 u_size;

const uint N = uint(HT_GROUP_X * HT_GROUP_Y);
const float FMAX = uintBitsToFloat(0x7f7fffffu);

// (bright_lo, bright_hi, dark_lo, dark_hi): maxima in xy, minima in zw.
shared vec4 s_ext[N];

vec4 extrema_merge(vec4 a, vec4 b)
{
    return vec4(max(a.xy, b.xy), min(a.zw, b.zw));
}

void main()
{
    vec4 acc = vec4(-FMAX, -FMAX, FMAX, FMAX);
    ivec2 base = ivec2(gl_WorkGroupID.xy) * ivec2(HT_TILE_X, HT_TILE_Y) +
                 ivec2(gl_LocalInvocationID.xy);
    for (int j = 0; j < HT_TILE_Y; j += HT_GROUP_Y)
        for (int i = 0; i < HT_TILE_X; i += HT_GROUP_X) {
            ivec2 p = base + ivec2(i, j);
            if (p.x >= u_size.x || p.y >= u_size.y) continue;
            vec3 c = ht_load(p).rgb;
            if (!ht_finite(c.r) || !ht_finite(c.g) || !ht_finite(c.b)) continue;
            float y;
            ht_classify(c, 1.0, y);
            float m = dot(abs(u_lum_w), abs(c));
            float e = m == 0.0 ? 0.0 : float(HT_EXTREMA_REL_ERR) * m + float(HT_EXTREMA_ABS_ERR);
            float lo = y - e, hi = y + e;
            bool bounded = ht_finite(y) && ht_finite(e) && ht_finite(lo) && ht_finite(hi);
            if (!bounded) { lo = -FMAX; hi = FMAX; }   // overflow: always a candidate
            if (!(hi > 0.0)) continue;                  // surely Y <= 0
            acc = extrema_merge(acc, vec4(lo, hi, lo, lo > 0.0 ? hi : FMAX));
        }
    uint t = gl_LocalInvocationIndex;
    s_ext[t] = acc;
    barrier();
    for (uint s = N / 2u; s > 0u; s >>= 1) {
        if (t < s) s_ext[t] = extrema_merge(s_ext[t], s_ext[t + s]);
        barrier();
    }
    if (t == 0u) {
        vec4 r = s_ext[0];
        uint tile = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
        tiles[tile] = ht_extrema(r.x, r.y, r.z, r.w);
    }
}

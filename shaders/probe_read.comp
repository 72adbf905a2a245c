// Bandwidth probe: reads every texel once, in the same tiles and order as the histogram pass,
// and writes one value per group (so the reads cannot be optimised away).
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;
layout(std430, binding = HT_BIND_OUT) writeonly buffer Out { float group_sums[]; };
uniform ivec2 u_size;
uniform int u_samples;

const uint N = uint(HT_GROUP_X * HT_GROUP_Y);
shared float s_sum[N];

void main()
{
    ivec2 base = ivec2(gl_WorkGroupID.xy) * ivec2(HT_TILE_X, HT_TILE_Y) + ivec2(gl_LocalInvocationID.xy);
    float sum = 0.0;
    for (int j = 0; j < HT_TILE_Y; j += HT_GROUP_Y)
        for (int i = 0; i < HT_TILE_X; i += HT_GROUP_X) {
            ivec2 p = base + ivec2(i, j);
            if (p.x < u_size.x && p.y < u_size.y) {
#ifdef HT_SRC_MS
                for (int s = 0; s < u_samples; s++) sum += dot(ht_load_sample(p, s), vec4(1.0));
#else
                sum += dot(ht_load(p), vec4(1.0));
#endif
            }
        }
    uint t = gl_LocalInvocationIndex;
    s_sum[t] = sum;
    barrier();
    for (uint s = N / 2u; s > 0u; s >>= 1) {
        if (t < s) s_sum[t] += s_sum[t + s];
        barrier();
    }
    if (t == 0u) group_sums[gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x] = s_sum[0];
}

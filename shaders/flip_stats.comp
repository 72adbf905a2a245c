// The comparison's numbers over a rectangle: per 16x16 group, the sums of FLIP's error and
// of the metrics (to the partials, for flip_finish), the extremes (atomics on float bits:
// the values are >= 0), the tool's 100-bucket histogram (shared, then global) and the fine
// histogram of the weighted percentiles (global atomics).
#include "flip_common.glsl"
layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) uniform sampler2D u_map;
layout(binding = 1) uniform sampler2D u_ref;
layout(binding = 2) uniform sampler2D u_test;
layout(std430, binding = FLIP_BIND_PARTIALS) writeonly buffer Partials { float partial[]; };
layout(std430, binding = FLIP_BIND_TOTALS) buffer Totals { flip_totals tot; };
layout(std430, binding = FLIP_BIND_FINE) buffer Fine { uint fine[]; };
uniform ivec4 u_rect;        // x, y, w, h
uniform int u_mode;          // FLIP_SRC_*: how the sources hold their values
uniform int u_has_flip;      // 0: the map is not computed (FLIP's numbers are not gathered)

const int N = 256, K = METRICS_MAP_RELATIVE + 1;
shared float s_sum[K][N];
shared uint s_max[K], s_min;
shared uint s_hist[FLIP_HIST_BINS];

void main()
{
    int lid = int(gl_LocalInvocationIndex);
    for (int i = lid; i < FLIP_HIST_BINS; i += N)
        s_hist[i] = 0u;
    if (lid < K)
        s_max[lid] = 0u;
    if (lid == 0)
        s_min = 0x7f800000u;
    barrier();
    ivec2 q = ivec2(gl_GlobalInvocationID.xy);
    float v[K];
    for (int k = 0; k < K; k++)
        v[k] = 0.0;
    if (q.x < u_rect.z && q.y < u_rect.w) {
        ivec2 p = u_rect.xy + q;
        vec3 r = flip_linear(texelFetch(u_ref, p, 0).rgb, u_mode);
        vec3 t = flip_linear(texelFetch(u_test, p, 0).rgb, u_mode);
        for (int k = METRICS_MAP_DIFF; k < K; k++)
            v[k] = flip_metric(k, r, t);
        if (u_has_flip != 0) {
            float e = texelFetch(u_map, p, 0).r;
            v[METRICS_MAP_FLIP] = e;
            atomicAdd(fine[clamp(int(e * float(FLIP_FINE_BINS)), 0, FLIP_FINE_BINS - 1)], 1u);
            int b = int(double(e) / double(1.0 / float(FLIP_HIST_BINS)));
            if (e >= 0.0 && e <= 1.0)
                atomicAdd(s_hist[min(b, FLIP_HIST_BINS - 1)], 1u);
            atomicMin(s_min, floatBitsToUint(e));
        }
        for (int k = 0; k < K; k++)
            atomicMax(s_max[k], floatBitsToUint(abs(v[k])));
    }
    for (int k = 0; k < K; k++)
        s_sum[k][lid] = v[k];
    barrier();
    for (int s = N / 2; s > 0; s >>= 1) {
        if (lid < s)
            for (int k = 0; k < K; k++)
                s_sum[k][lid] += s_sum[k][lid + s];
        barrier();
    }
    uint g = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (lid < K) {
        partial[g * uint(K) + uint(lid)] = s_sum[lid][0];
        atomicMax(tot.max_bits[lid], s_max[lid]);
    }
    if (lid == 0 && u_has_flip != 0)
        atomicMin(tot.flip_min, s_min);
    for (int i = lid; i < FLIP_HIST_BINS; i += N)
        if (s_hist[i] != 0u)
            atomicAdd(tot.hist[i], s_hist[i]);
}

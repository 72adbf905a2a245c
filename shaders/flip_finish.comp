// The sums of flip_stats' partials, in double, by one group: the totals' sums.
#include "flip_common.glsl"
layout(local_size_x = 256) in;

layout(std430, binding = FLIP_BIND_PARTIALS) readonly buffer Partials { float partial[]; };
layout(std430, binding = FLIP_BIND_TOTALS) buffer Totals { flip_totals tot; };
uniform int u_groups;

const int N = 256, K = METRICS_MAP_RELATIVE + 1;
shared double s_sum[K][N];

void main()
{
    int lid = int(gl_LocalInvocationIndex);
    double acc[K];
    for (int k = 0; k < K; k++)
        acc[k] = 0.0;
    for (int g = lid; g < u_groups; g += N)
        for (int k = 0; k < K; k++)
            acc[k] += double(partial[g * K + k]);
    for (int k = 0; k < K; k++)
        s_sum[k][lid] = acc[k];
    barrier();
    for (int s = N / 2; s > 0; s >>= 1) {
        if (lid < s)
            for (int k = 0; k < K; k++)
                s_sum[k][lid] += s_sum[k][lid + s];
        barrier();
    }
    if (lid < K)
        tot.sum[lid] = s_sum[lid][0];
}

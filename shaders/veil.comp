// Veil pass (human_veil_image, human_veil_foveal; pcond compveil): HT_VEIL_STAGE 0, one group
// per foveal pixel p, writes the veil V(p): HT_VEIL_ADAPT times the mean of every other foveal
// pixel q weighted by cos / (2 (1 - cos)) of the angle between their view rays (pairs at 90
// degrees or more left out). Stage 1, one thread per foveal pixel, then makes the foveal
// image the veiled one, (1 - HT_VEIL_ADAPT) F + V, rounded as the CPU rounds it.
layout(local_size_x = HT_VEIL_GROUP) in;
layout(rgba32f, binding = 0) uniform image2D u_fov;   // fw x fh, top row first
layout(std430, binding = HT_BIND_RAY_DIRS) readonly buffer Dirs { vec4 dirs[]; };
layout(std430, binding = HT_BIND_VEIL) buffer Veil { vec4 veil[]; };
uniform ivec2 u_grid;   // fw, fh
uniform double u_keep;  // 1 - HT_VEIL_ADAPT in double, as the CPU multiplies

#if HT_VEIL_STAGE == 0
const uint N = uint(HT_VEIL_GROUP);
shared vec4 s_sum[N];   // rgb: the weighted sum, a: the weights' sum

void main()
{
    int p = int(gl_WorkGroupID.x), n = u_grid.x * u_grid.y;
    uint t = gl_LocalInvocationIndex;
    vec3 up = dirs[p].xyz;
    vec4 acc = vec4(0.0);
    for (int q = int(t); q < n; q += int(N)) {
        vec3 uq = dirs[q].xyz;
        precise float cosv = up.x * uq.x + up.y * uq.y + up.z * uq.z;   // in float, as pcond
        if (q == p || cosv <= float(HT_VEIL_MIN_COS)) continue;
        float wt = 0.5 * cosv / (1.0 - cosv);   // ~ cos / theta^2, without an acos
        acc += vec4(wt * imageLoad(u_fov, ivec2(q % u_grid.x, q / u_grid.x)).rgb, wt);
    }
    s_sum[t] = acc;
    barrier();
    for (uint s = N / 2u; s > 0u; s >>= 1) {
        if (t < s) s_sum[t] += s_sum[t + s];
        barrier();
    }
    if (t != 0u) return;
    float wsum = s_sum[0].a;
    float k = wsum > float(HT_HUMAN_TINY) ? float(HT_VEIL_ADAPT) / wsum : 1.0;
    veil[p] = vec4(s_sum[0].rgb * k, 0.0);
}
#else
void main()
{
    int p = int(gl_GlobalInvocationID.x);
    if (p >= u_grid.x * u_grid.y) return;
    ivec2 c = ivec2(p % u_grid.x, p / u_grid.x);
    vec4 f = imageLoad(u_fov, c);
    vec3 kept = vec3(dvec3(f.rgb) * u_keep);
    imageStore(u_fov, c, vec4(kept + veil[p].rgb, f.a));
}
#endif

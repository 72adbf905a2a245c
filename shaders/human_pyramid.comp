// Acuity pyramid, one level per dispatch (human_pyramid_build): level k is the 2x2 box average
// of level k - 1, level 0 being the picture with its non-finite and negative channels as 0,
// summed in the CPU's order. Levels k >= 1 are the mip levels k - 1 of one RGBA32F texture
// (their sizes match: (w >> 1) >> (k - 1) = w >> k).
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;
layout(rgba32f, binding = 1) readonly uniform image2D u_prev;   // level k - 1 (k > 1)
layout(rgba32f, binding = 2) writeonly uniform image2D u_next;  // level k
uniform int u_level;     // k
uniform ivec2 u_size;    // level k's size

vec3 level_below(ivec2 q)
{
    if (u_level > 1) return imageLoad(u_prev, q).rgb;
    vec3 c = ht_load(q).rgb;
    return vec3(ht_finite(c.r) && c.r > 0.0 ? c.r : 0.0, ht_finite(c.g) && c.g > 0.0 ? c.g : 0.0,
                ht_finite(c.b) && c.b > 0.0 ? c.b : 0.0);
}

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= u_size.x || p.y >= u_size.y) return;
    ivec2 q = 2 * p;
    vec3 a0 = level_below(q), a1 = level_below(q + ivec2(1, 0));
    vec3 a2 = level_below(q + ivec2(0, 1)), a3 = level_below(q + ivec2(1, 1));
    precise vec3 sum = ((a0 + a1) + a2) + a3;
    precise vec3 mean = sum * 0.25;
    imageStore(u_next, p, vec4(mean, 1.0));
}

// Bandwidth probe: reads every texel (all samples) and writes RGBA8, like the apply pass
// without its arithmetic.
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;
layout(rgba8, binding = 0) writeonly uniform image2D u_out;
uniform ivec2 u_size;
uniform int u_samples;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= u_size.x || p.y >= u_size.y) return;
#ifdef HT_SRC_MS
    vec4 v = vec4(0.0);
    for (int s = 0; s < u_samples; s++) v += ht_load_sample(p, s);
#else
    vec4 v = ht_load(p);
#endif
    imageStore(u_out, p, v * 1e-3);
}

// Apply pass: every sample through the response (chromaticity kept), clipped, averaged over
// the samples (the MSAA resolve comes after the tone mapping), encoded for the display. The
// encoding is a search in the CPU's table of the 255 thresholds between 8-bit codes
// (tonemap_encode_thresholds): exact, and no transcendental function per channel.
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;
layout(rgba8, binding = 0) writeonly uniform image2D u_out;
uniform ivec2 u_size;
uniform float u_scale;
uniform float u_ldmax;
uniform float u_drange;
uniform int u_samples;
layout(std430, binding = HT_BIND_ENCODE) readonly buffer Encode { float thresholds[256]; };

shared float s_thr[256];

float encode8(float v)
{
    uint k = 0u;
    for (uint step = 128u; step > 0u; step >>= 1)
        if (v >= s_thr[k + step]) k += step;
    return float(k) / 255.0;
}

vec3 tonemap(vec4 c)
{
    float lw;
    if (ht_classify(c.rgb, u_scale, lw) != HT_PIX_VALID) return vec3(0.0);
    float factor = ht_pixel_factor(lw, u_ldmax, u_drange);
    return clamp(u_scale * c.rgb * factor, 0.0, 1.0);
}

void main()
{
    for (uint i = gl_LocalInvocationIndex; i < 256u; i += uint(HT_GROUP_X * HT_GROUP_Y))
        s_thr[i] = thresholds[i];
    barrier();
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= u_size.x || p.y >= u_size.y) return;
#ifdef HT_SRC_MS
    vec3 acc = vec3(0.0);
    for (int s = 0; s < u_samples; s++) acc += tonemap(ht_load_sample(p, s));
    vec3 v = acc / float(u_samples);
#else
    vec3 v = tonemap(ht_load(p));
#endif
    imageStore(u_out, p, vec4(encode8(v.r), encode8(v.g), encode8(v.b), 1.0));
}

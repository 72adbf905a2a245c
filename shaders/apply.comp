// Apply pass: every sample through the response (chromaticity kept), clipped, averaged over
// the samples (the MSAA resolve comes after the tone mapping), encoded for the display. The
// GPU's pow gives the 8-bit code to within one; the CPU's table of the thresholds between
// codes (tonemap_encode_thresholds) then makes it exactly the CPU reference's code.
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;
layout(rgba8, binding = 0) writeonly uniform image2D u_out;
uniform ivec2 u_size;
uniform float u_scale;
uniform float u_ldmax;
uniform float u_drange;
uniform int u_samples;
uniform int u_transfer;
uniform float u_gamma;
layout(std430, binding = HT_BIND_ENCODE) readonly buffer Encode { float thresholds[256]; };

// v: the linear value; e: its encoding by ht_encode.
float encode8(float v, float e)
{
    uint k = uint(e * 255.0 + 0.5);
    if (k > 0u && v < thresholds[k]) k--;
    else if (k < 255u && v >= thresholds[k + 1u]) k++;
    return float(k) / 255.0;
}

vec3 tonemap(vec4 c)
{
    float lw;
    if (ht_classify(c.rgb, u_scale, lw) != HT_PIX_VALID) return vec3(0.0);
    float factor = ht_pixel_factor(lw, u_ldmax, u_drange);
    return clamp(u_scale * c.rgb * factor, 0.0, 1.0);
}

void apply_pixel(ivec2 p)
{
#ifdef HT_SRC_MS
    vec3 acc = vec3(0.0);
    for (int s = 0; s < u_samples; s++) acc += tonemap(ht_load_sample(p, s));
    vec3 v = acc / float(u_samples);
#else
    vec3 v = tonemap(ht_load(p));
#endif
    vec3 e = ht_encode(v, u_transfer, u_gamma);
    imageStore(u_out, p, vec4(encode8(v.r, e.r), encode8(v.g, e.g), encode8(v.b, e.b), 1.0));
}

// HT_APPLY_STEP^2 pixels per thread, a group's threads side by side in each step (coalesced).
void main()
{
    ivec2 base = ivec2(gl_WorkGroupID.xy) * ivec2(HT_GROUP_X, HT_GROUP_Y) * HT_APPLY_STEP +
                 ivec2(gl_LocalInvocationID.xy);
    for (int j = 0; j < HT_APPLY_STEP; j++)
        for (int i = 0; i < HT_APPLY_STEP; i++) {
            ivec2 p = base + ivec2(i * HT_GROUP_X, j * HT_GROUP_Y);
            if (p.x < u_size.x && p.y < u_size.y) apply_pixel(p);
        }
}

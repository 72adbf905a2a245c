// Apply pass (with HT_DISPLAY: the display modes of apply_display.glsl instead of the
// tone mapping): every sample through the response (chromaticity kept), clipped, averaged over
// the samples (the MSAA resolve comes after the tone mapping; the OCIO view's before it),
// encoded for the display and
// rounded to 8 bits as tonemap_encode does (PQ and HLG: 1 is u_ldmax cd/m^2) (the GPU's pow may differ from libm's by an ulp,
// so a value can land one code away: the tests allow 1 LSB), or to 16 bits into an RGBA16
// output as tonemap_cpu_apply16 does (u_levels 65535; no format qualifier: writeonly takes
// the bound one).
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;
layout(binding = 0) writeonly uniform image2D u_out;
uniform ivec2 u_size;
uniform float u_scale;
uniform float u_ldmax;
uniform float u_drange;
uniform int u_samples;
uniform int u_transfer;
uniform float u_gamma;
uniform float u_levels;   // 255 (RGBA8 output) or 65535 (RGBA16)

vec3 tonemap(vec4 c)
{
    float lw;
    if (ht_classify(c.rgb, u_scale, lw) != HT_PIX_VALID) return vec3(0.0);
    return clamp(ht_to_display(ht_pixel_out(c.rgb, lw, u_scale, u_ldmax, u_drange)), 0.0, 1.0);
}

#ifdef HT_DISPLAY
#include "apply_display.glsl"
#endif

void apply_pixel(ivec2 p)
{
#if defined(HT_OCIO) && defined(HT_SRC_MS)
    // The OCIO view once per pixel, on the samples resolved in scene-linear light (as OCIO's
    // viewers filter the image before the view; the non-finite channels 0, as ocio_sample).
    vec3 acc = vec3(0.0);
    for (int s = 0; s < u_samples; s++) {
        vec3 c = ht_load_sample(p, s).rgb;
        acc += mix(vec3(0.0), c, bvec3(ht_finite(c.r), ht_finite(c.g), ht_finite(c.b)));
    }
    vec3 v = ocio_sample(vec4(acc / float(u_samples), 1.0));
#elif defined(HT_DISPLAY) && defined(HT_SRC_MS)
    // Every sample in the mode, then the resolve, as the tone mapping does.
    vec3 acc = vec3(0.0);
    for (int s = 0; s < u_samples; s++)
        acc += clamp(display_sample(p, ht_load_sample(p, s)), 0.0, 1.0);
    vec3 v = acc / float(u_samples);
#elif defined(HT_DISPLAY)
    vec3 v = display_sample(p, ht_load(p));
#elif defined(HT_SRC_MS)
    vec3 acc = vec3(0.0);
    for (int s = 0; s < u_samples; s++) acc += tonemap(ht_load_sample(p, s));
    vec3 v = acc / float(u_samples);
#elif defined(HT_HUMAN)
    // The human-vision stage first (common.glsl): p is the picture's pixel (one texture).
    vec3 v = tonemap(vec4(ht_human_pixel(p, ht_load(p).rgb, u_scale), 1.0));
#else
    vec3 v = tonemap(ht_load(p));
#endif
#ifdef HT_OCIO
    vec3 e = clamp(v, 0.0, 1.0);   // OCIO's view encoded it for its display
#else
    vec3 e = ht_encode(v, u_transfer, u_gamma, u_ldmax);
#endif
    // Rounded here so that the unorm conversion of the store is exact on every driver.
    imageStore(u_out, p, vec4(floor(e * u_levels + 0.5) / u_levels, 1.0));
}

#ifdef HT_APPLY_BIN
// The one-frame-latency form (pipeline_set_latency): a group per tile of the histogram pass,
// which applies every pixel of it as it bins it (the frame's binning, for the next curve).
#define HT_TILE_PIXEL(p) apply_pixel(p)
#include "tilebin.glsl"
void main()
{
    bin_tile(gl_LocalInvocationIndex);
}
#else
// HT_APPLY_STEP^2 pixels per thread, a group's threads side by side in each step (coalesced).
void main()
{
#ifdef HT_OCIO
    ht_ocio_init();   // its shared arrays (ocio_gpu.c)
#endif
    ivec2 base = ivec2(gl_WorkGroupID.xy) * ivec2(HT_GROUP_X, HT_GROUP_Y) * HT_APPLY_STEP +
                 ivec2(gl_LocalInvocationID.xy);
    for (int j = 0; j < HT_APPLY_STEP; j++)
        for (int i = 0; i < HT_APPLY_STEP; i++) {
            ivec2 p = base + ivec2(i * HT_GROUP_X, j * HT_GROUP_Y);
            if (p.x < u_size.x && p.y < u_size.y) apply_pixel(p);
        }
}
#endif

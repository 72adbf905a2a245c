// FLIP's first passes on a row segment (flip.c's band_x): each input pixel of the segment and
// its halo becomes linear RGB in [0, 1] (LDR: clamped, sRGB-decoded when so stored; HDR:
// scaled by 2^exposure, tone-mapped, clamped) and then YCxCz, once, in shared memory; then
// the x halves of the separable filters: the spatial filters (Y, Cx, Cz's two Gaussians) and
// the feature filters (Gaussian, first and second derivative of the normalised Y).
#include "flip_common.glsl"
layout(local_size_x = FLIP_X_GROUP) in;

layout(binding = 0) uniform sampler2D u_ref;
layout(binding = 1) uniform sampler2D u_test;
// The intermediates, row-major W x H vec4 buffers (flip_y reads them through L1, not the
// texture units, whose RGBA32F rate is a quarter of their 32-bit one).
layout(std430, binding = FLIP_BIND_COL_REF) writeonly buffer ColRef { vec4 col_ref[]; };
layout(std430, binding = FLIP_BIND_COL_TEST) writeonly buffer ColTest { vec4 col_test[]; };
layout(std430, binding = FLIP_BIND_FEAT_REF) writeonly buffer FeatRef { vec4 feat_ref[]; };
layout(std430, binding = FLIP_BIND_FEAT_TEST) writeonly buffer FeatTest { vec4 feat_test[]; };
uniform ivec2 u_size;
uniform int u_mode;          // FLIP_SRC_*
uniform float u_scale;       // HDR: 2^exposure
uniform int u_tm;            // flip_tonemapper
uniform float u_tc[6];       // its coefficients (flip_tonemap_coefficients)
uniform int u_halo;          // max(spatial_radius, feature_radius)

shared vec3 s_ref[FLIP_X_GROUP + 2 * FLIP_MAX_RADIUS];
shared vec3 s_test[FLIP_X_GROUP + 2 * FLIP_MAX_RADIUS];

float tonemap_rational(float x)
{
    return ((x * x) * u_tc[0] + x * u_tc[1] + u_tc[2]) / ((x * x) * u_tc[3] + x * u_tc[4] + u_tc[5]);
}

vec3 source_rgb(vec3 c)
{
    if (u_mode != FLIP_SRC_HDR)
        return clamp(flip_linear(c, u_mode), 0.0, 1.0);
    vec3 v = c * u_scale;
    if (u_tm == FLIP_TM_REINHARD)
        return clamp(v * (1.0 / (1.0 + (0.2126 * v.r + 0.7152 * v.g + 0.0722 * v.b))), 0.0, 1.0);
    return clamp(vec3(tonemap_rational(v.r), tonemap_rational(v.g), tonemap_rational(v.b)),
                 0.0, 1.0);
}

void main()
{
    int y = int(gl_WorkGroupID.y), x0 = int(gl_WorkGroupID.x) * FLIP_X_GROUP;
    int lid = int(gl_LocalInvocationID.x), n = FLIP_X_GROUP + 2 * u_halo;
    for (int i = lid; i < n; i += FLIP_X_GROUP) {
        ivec2 p = ivec2(clamp(x0 - u_halo + i, 0, u_size.x - 1), y);
        s_ref[i] = flip_ycxcz(source_rgb(texelFetch(u_ref, p, 0).rgb));
        s_test[i] = flip_ycxcz(source_rgb(texelFetch(u_test, p, 0).rgb));
    }
    barrier();
    int x = x0 + lid;
    if (x >= u_size.x)
        return;
    int rs = spatial_radius, rf = feature_radius;
    vec4 cr = vec4(0.0), ct = vec4(0.0);
    for (int i = 0, j = lid + u_halo - rs; i <= 2 * rs; i++, j++) {
        vec4 w = vec4(f_y[i], f_cx[i], f_cz1[i], f_cz2[i]);
        cr += w * s_ref[j].xyzz;
        ct += w * s_test[j].xyzz;
    }
    vec3 fr = vec3(0.0), ft = vec3(0.0);
    for (int i = 0, j = lid + u_halo - rf; i <= 2 * rf; i++, j++) {
        vec3 w = vec3(f_dg[i], f_ddg[i], f_g[i]);
        fr += w * (s_ref[j].x * (1.0 / 116.0) + 16.0 / 116.0);
        ft += w * (s_test[j].x * (1.0 / 116.0) + 16.0 / 116.0);
    }
    int i = y * u_size.x + x;
    col_ref[i] = cr;
    col_test[i] = ct;
    feat_ref[i] = vec4(fr, 0.0);
    feat_test[i] = vec4(ft, 0.0);
}

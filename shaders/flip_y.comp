// FLIP's last pass (flip.c's band_y and band_run): the y halves of the filters, then the
// colour error (back to linear RGB clamped, Hunt-adjusted CIELab, HyAB distance to the power
// qc, remapped to [0, 1]), the feature error (edges and points) and FLIP's error
// colour^(1 - feature), stored into the map, or the larger of it and the map (HDR-FLIP's
// maximum over exposures).
#include "flip_common.glsl"
layout(local_size_x = FLIP_Y_GROUP_X, local_size_y = FLIP_Y_GROUP_Y) in;

layout(std430, binding = FLIP_BIND_COL_REF) readonly buffer ColRef { vec4 col_ref[]; };
layout(std430, binding = FLIP_BIND_COL_TEST) readonly buffer ColTest { vec4 col_test[]; };
layout(std430, binding = FLIP_BIND_FEAT_REF) readonly buffer FeatRef { vec4 feat_ref[]; };
layout(std430, binding = FLIP_BIND_FEAT_TEST) readonly buffer FeatTest { vec4 feat_test[]; };
layout(r32f, binding = 0) uniform image2D u_map;
uniform ivec2 u_size;
uniform int u_first;         // 1: store; 0: keep the larger
uniform float u_cmax, u_pccmax;

float color_error(vec4 r, vec4 t)
{
    vec3 a = flip_hunt_lab(flip_rgb_of_ycxcz(vec3(r.xy, r.z + r.w)));
    vec3 b = flip_hunt_lab(flip_rgb_of_ycxcz(vec3(t.xy, t.z + t.w)));
    vec2 d = a.yz - b.yz;
    float e = pow(abs(a.x - b.x) + sqrt(d.x * d.x + d.y * d.y), FLIP_GQC);
    if (e < u_pccmax)
        return e * (FLIP_GPT / u_pccmax);
    return FLIP_GPT + ((e - u_pccmax) / (u_cmax - u_pccmax)) * (1.0 - FLIP_GPT);
}

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= u_size.x || p.y >= u_size.y)
        return;
    int rs = spatial_radius, rf = feature_radius;
    vec4 cr = vec4(0.0), ct = vec4(0.0);
    for (int i = 0; i <= 2 * rs; i++) {
        int q = clamp(p.y - rs + i, 0, u_size.y - 1) * u_size.x + p.x;
        vec4 w = vec4(f_y[i], f_cx[i], f_cz1[i], f_cz2[i]);
        cr += w * col_ref[q];
        ct += w * col_test[q];
    }
    // dx, ddx (Gaussian in y), dy, ddy (derivatives in y of the x-Gaussian-filtered Y).
    vec4 er = vec4(0.0), et = vec4(0.0);
    for (int i = 0; i <= 2 * rf; i++) {
        int q = clamp(p.y - rf + i, 0, u_size.y - 1) * u_size.x + p.x;
        vec3 a = feat_ref[q].xyz, b = feat_test[q].xyz;
        vec4 w = vec4(f_g[i], f_g[i], f_dg[i], f_ddg[i]);
        er += w * a.xyzz;
        et += w * b.xyzz;
    }
    float edge = abs(sqrt(er.x * er.x + er.z * er.z) - sqrt(et.x * et.x + et.z * et.z));
    float point = abs(sqrt(er.y * er.y + er.w * er.w) - sqrt(et.y * et.y + et.w * et.w));
    float fd = pow((1.0 / sqrt(2.0)) * max(edge, point), FLIP_GQF);
    float cd = color_error(cr, ct);
    float e = cd > 0.0 ? pow(cd, 1.0 - fd) : 0.0;
    if (u_first == 0)
        e = max(e, imageLoad(u_map, p).r);
    imageStore(u_map, p, vec4(e));
}

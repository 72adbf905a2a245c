// The display texture of a comparison: each pixel's value of the chosen map (FLIP's from its
// map, the metrics from the sources) through the map's colour bar (metrics.h's
// metrics_colorbar_for and metrics_colorbar_index), its range from the whole image's totals.
#include "flip_common.glsl"
layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) uniform sampler2D u_map;
layout(binding = 1) uniform sampler2D u_ref;
layout(binding = 2) uniform sampler2D u_test;
layout(rgba8, binding = 0) writeonly uniform image2D u_out;
layout(std430, binding = FLIP_BIND_TOTALS) readonly buffer Totals { flip_totals tot; };
layout(std430, binding = FLIP_BIND_LUT) readonly buffer Lut { uint lut[]; };  // RGBA8 entries
uniform ivec2 u_size;
uniform int u_kind;          // METRICS_MAP_*
uniform int u_mode;          // FLIP_SRC_*
uniform int u_lut;           // the first entry of the colour map in lut

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= u_size.x || p.y >= u_size.y)
        return;
    float v, lo = 0.0, hi = 1.0;
    if (u_kind == METRICS_MAP_FLIP) {
        v = texelFetch(u_map, p, 0).r;
    } else {
        v = flip_metric(u_kind, flip_linear(texelFetch(u_ref, p, 0).rgb, u_mode),
                        flip_linear(texelFetch(u_test, p, 0).rgb, u_mode));
        float top = uintBitsToFloat(tot.max_bits[u_kind]);
        hi = top > 0.0 ? top : 1.0;
        lo = u_kind == METRICS_MAP_DIFF ? -hi : 0.0;
    }
    float t = (v - lo) / (hi - lo);
    t = t > 0.0 ? min(t, 1.0) : 0.0;
    imageStore(u_out, p, unpackUnorm4x8(lut[u_lut + int(t * 255.0 + 0.5)]));
}

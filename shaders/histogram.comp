// Histogram pass: the one read of the image the analysis needs, binning each tile (bin_tile,
// tilebin.glsl). With u_rebin set (the re-binning dispatch) groups leave at once unless the
// range pass found the binning stale.
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;
uniform ivec2 u_size;          // of the piece this dispatch reads
uniform float u_scale;
uniform bool u_rebin;

#ifdef HT_HIST_VEIL
// The veil's second histogram in pixel sampling: every pixel with the veil added,
// (1 - HT_VEIL_ADAPT) P + the bilinear veil, as human.c's veiled_copy.
layout(std430, binding = HT_BIND_VEIL) readonly buffer Veil { vec4 veil[]; };
uniform ivec2 u_origin;   // the piece in the picture
uniform ivec2 u_pic;      // the picture
uniform ivec2 u_grid;     // the veil's foveal grid
vec3 veiled(ivec2 p)
{
    ht_grid_cell g = ht_grid_lookup(p + u_origin, u_pic, u_grid);
    vec3 v = ht_grid_mix(g, veil[g.i00], veil[g.i01], veil[g.i10], veil[g.i11]).rgb;
    precise vec3 c = float(1.0 - HT_VEIL_ADAPT) * ht_load(p).rgb + v;
    return c;
}
#define HT_TILE_RGB(p) veiled(p)
#endif
#include "tilebin.glsl"


void main()
{
    if (u_rebin && frame.rebinned == 0u) return;   // the same for the whole group
    bin_tile(gl_LocalInvocationIndex);
}

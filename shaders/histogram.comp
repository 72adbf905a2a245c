// Histogram pass: the one read of the image the analysis needs, binning each tile (bin_tile,
// tilebin.glsl). With u_rebin set (the re-binning dispatch) groups leave at once unless the
// range pass found the binning stale.
// HT_REBIN_FINISH: the re-binning of the fused finishing (finish.comp; with finish.glsl,
// dispatched only for a stale frame), whose last group merges every tile and makes the curve;
// its groups have HT_LAYERS layers of HT_GROUP_X x HT_GROUP_Y threads, the first binning as
// the plain program does, all of them making the curve (one thread per bin).
#ifndef HT_LAYERS
#define HT_LAYERS 1
#endif
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y, local_size_z = HT_LAYERS) in;
#ifdef HT_REBIN_FINISH
#include "finish.glsl"
#endif
uniform ivec2 u_size;          // of the piece this dispatch reads
uniform float u_scale;
uniform bool u_rebin;
#include "tilebin.glsl"

void main()
{
    if (u_rebin && frame.rebinned == 0u) return;   // the same for the whole group
    uint t = gl_LocalInvocationIndex;
    bin_tile(t);
#ifdef HT_REBIN_FINISH
    const uint T = N * uint(HT_LAYERS);
    if (ht_last_group(t, u_tile_count, true)) ht_finish_one_group(t, T);
#endif
}

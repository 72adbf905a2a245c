// Curve pass: ht_curve (analysis.glsl) from the merge pass's counts and partial sums, one thread
// per bin: pass_curve.c builds it for HT_MAX_BINS threads and, for the usual bin counts, for
// fewer (HT_CURVE_THREADS), since every barrier of the ceiling loop waits for all of them.
#ifndef HT_CURVE_THREADS
#define HT_CURVE_THREADS HT_MAX_BINS
#endif
layout(local_size_x = HT_CURVE_THREADS) in;
#include "analysis.glsl"
uniform uint u_partials;   // merge groups, each left a sum of ln Lw

void main()
{
    uint t = gl_LocalInvocationIndex, S = uint(HT_CURVE_THREADS);
    float ln = 0.0;
    for (uint k = t; k < u_partials; k += S) ln += partials[k];
    ht_curve(t, S, t < frame.bins ? frame.hist[t] : 0u, frame.n_counted, ln);
}

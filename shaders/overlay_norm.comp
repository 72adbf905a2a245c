// Overlay: the histogram's second-largest bin, the height the panel scales to, so that one
// spike (a flat sky, a black border) cannot flatten every other bar (tev and HDRView do the
// same). One group; the panel's vertex shader reads the result.
layout(local_size_x = 256) in;
layout(std430, binding = HT_BIND_OVERLAY) writeonly buffer OverlayNorm { float norm; };
shared vec2 s_top[256];

// The two largest of a and b's top-two pairs.
vec2 top2(vec2 a, vec2 b)
{
    return a.x >= b.x ? vec2(a.x, max(a.y, b.x)) : vec2(b.x, max(b.y, a.x));
}

void main()
{
    uint t = gl_LocalInvocationIndex;
    vec2 top = vec2(0.0);
    for (uint i = t; i < frame.bins && i < uint(HT_MAX_BINS); i += 256u)
        top = top2(top, vec2(float(frame.hist[i]), 0.0));
    s_top[t] = top;
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1) {
        if (t < s) s_top[t] = top2(s_top[t], s_top[t + s]);
        barrier();
    }
    if (t == 0u) {
        vec2 r = s_top[0];
        norm = r.y > 0.0 ? r.y : max(r.x, 1.0);
    }
}

// Peaks, step 1: the local maxima of Y_f (docs/statistics.md): pixels with Y_f > 0 whose
// every counted 8-neighbour (R, G, B and Y_f finite) is lower, or equal and later in
// row-major order. Two maxima are never 8-adjacent, so ceil(w/2) * ceil(h/2) entries always
// suffice. The CPU chooses the peaks among them (imgstats_select_peaks).
// The maxima are counted in shared memory and a group reserves its slots with one global
// atomic: one atomic per maximum on the one counter serialised the pass (a noisy picture has
// a maximum every few pixels); the CPU orders them, so where each lands does not matter.
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;
layout(std430, binding = HT_BIND_PEAKS) buffer Peaks { ht_peaks_head head; ht_peak peaks[]; };
uniform ivec2 u_size;

shared uint s_count, s_base;

// Whether the pixel at P (inside the picture) is a local maximum; its Y_f in y.
bool local_max(ivec2 p, out float y)
{
    float q;
    if (ht_classify(ht_load(p).rgb, 1.0, y) != HT_PIX_VALID) return false;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            ivec2 n = p + ivec2(dx, dy);
            if ((dx == 0 && dy == 0) || any(lessThan(n, ivec2(0))) || any(greaterThanEqual(n, u_size)))
                continue;
            if (ht_classify(ht_load(n).rgb, 1.0, q) == HT_PIX_NONFINITE) continue;
            bool earlier = dy < 0 || (dy == 0 && dx < 0);
            if (q > y || (q == y && earlier)) return false;
        }
    return true;
}

void main()
{
    if (gl_LocalInvocationIndex == 0u) s_count = 0u;
    barrier();
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    float y = 0.0;
    bool is_max = all(lessThan(p, u_size)) && local_max(p, y);
    uint mine = is_max ? atomicAdd(s_count, 1u) : 0u;
    barrier();
    if (gl_LocalInvocationIndex == 0u && s_count > 0u) s_base = atomicAdd(head.count, s_count);
    barrier();
    uint slot = s_base + mine;
    if (is_max && slot < head.capacity)
        peaks[slot] = ht_peak(y, uint(p.y) * uint(u_size.x) + uint(p.x));
}

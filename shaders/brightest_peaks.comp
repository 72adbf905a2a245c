// Peaks, step 1: the local maxima of Y_f (README.md, Statistics): pixels with Y_f > 0 whose
// every counted 8-neighbour (R, G, B and Y_f finite) is lower, or equal and later in
// row-major order. Two maxima are never 8-adjacent, so ceil(w/2) * ceil(h/2) entries always
// suffice. The CPU chooses the peaks among them (imgstats_select_peaks).
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;
layout(std430, binding = HT_BIND_PEAKS) buffer Peaks { ht_peaks_head head; ht_peak peaks[]; };
uniform ivec2 u_size;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= u_size.x || p.y >= u_size.y) return;
    float y, q;
    if (ht_classify(ht_load(p).rgb, 1.0, y) != HT_PIX_VALID) return;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            ivec2 n = p + ivec2(dx, dy);
            if ((dx == 0 && dy == 0) || any(lessThan(n, ivec2(0))) || any(greaterThanEqual(n, u_size)))
                continue;
            if (ht_classify(ht_load(n).rgb, 1.0, q) == HT_PIX_NONFINITE) continue;
            bool earlier = dy < 0 || (dy == 0 && dx < 0);
            if (q > y || (q == y && earlier)) return;
        }
    uint slot = atomicAdd(head.count, 1u);
    if (slot < head.capacity) peaks[slot] = ht_peak(y, uint(p.y) * uint(u_size.x) + uint(p.x));
}

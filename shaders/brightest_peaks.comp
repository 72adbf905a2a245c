// Peaks, step 1: the local maxima of Y_f (README.md, Statistics): pixels with Y_f > 0 whose
// every counted 8-neighbour (R, G, B and Y_f finite) is lower, or equal and later in
// row-major order. Two maxima are never 8-adjacent, so ceil(w/2) * ceil(h/2) entries always
// suffice. The CPU chooses the peaks among them (imgstats_select_peaks).
// A thread per pixel, a work group per HT_GROUP_X x HT_GROUP_Y block: the block and its
// one-pixel border are read and classified once into shared memory (1.27 reads per pixel, not
// the nine of a thread reading its own neighbours), then each thread tests its pixel there.
// The maxima are counted in shared memory and a group reserves its slots with one global
// atomic: one atomic per maximum on the one counter serialised the pass (a noisy picture has
// a maximum every few pixels); the CPU orders them, so where each lands does not matter.
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;
layout(std430, binding = HT_BIND_PEAKS) buffer Peaks { ht_peaks_head head; ht_peak peaks[]; };
uniform ivec2 u_size;

const int N = HT_GROUP_X * HT_GROUP_Y;
const int W = HT_GROUP_X + 2, H = HT_GROUP_Y + 2;   // the block and its border
// Per pixel of the block and border: Y_f for a pixel with Y_f > 0 that counts, else 0. A 0
// never beats a candidate's Y_f > 0, as the neighbours the definition ignores (not counting,
// outside the image) and the counted ones with Y_f <= 0 never do.
shared float s_key[H * W];
shared uint s_count, s_base;

float key_at(ivec2 q)   // q: in the block, or -1 / HT_GROUP_* on its border
{
    return s_key[(q.y + 1) * W + q.x + 1];
}

// Earlier neighbours (the row above, the left one) must be lower, later ones lower or equal.
bool local_max(ivec2 q, float y)
{
    bool m = y > 0.0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            if (dx == 0 && dy == 0) continue;
            float n = key_at(q + ivec2(dx, dy));
            m = m && (dy < 0 || (dy == 0 && dx < 0) ? n < y : n <= y);
        }
    return m;
}

void main()
{
    ivec2 origin = ivec2(gl_WorkGroupID.xy) * ivec2(HT_GROUP_X, HT_GROUP_Y);
    int t = int(gl_LocalInvocationIndex);
    if (t == 0) s_count = 0u;
    for (int k = t; k < W * H; k += N) {
        ivec2 b = ivec2(k % W, k / W);
        ivec2 p = origin + b - 1;
        float y, key = 0.0;
        if (all(greaterThanEqual(p, ivec2(0))) && all(lessThan(p, u_size)) &&
            ht_classify(ht_load(p).rgb, 1.0, y) == HT_PIX_VALID)
            key = y;
        s_key[k] = key;
    }
    barrier();
    ivec2 q = ivec2(gl_LocalInvocationID.xy), p = origin + q;
    float y = key_at(q);
    bool is_max = all(lessThan(p, u_size)) && local_max(q, y);
    uint mine = is_max ? atomicAdd(s_count, 1u) : 0u;
    barrier();
    if (t == 0 && s_count > 0u) s_base = atomicAdd(head.count, s_count);
    barrier();
    uint slot = s_base + mine;
    if (is_max && slot < head.capacity)
        peaks[slot] = ht_peak(y, uint(p.y) * uint(u_size.x) + uint(p.x));
}

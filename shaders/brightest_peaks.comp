// Peaks, step 1: the local maxima of Y_f (README.md, Statistics): pixels with Y_f > 0 whose
// every counted 8-neighbour (R, G, B and Y_f finite) is lower, or equal and later in
// row-major order. Two maxima are never 8-adjacent, so ceil(w/2) * ceil(h/2) entries always
// suffice. The CPU chooses the peaks among them (imgstats_select_peaks).
// One work group per 64x64 tile, reading as probe_read.comp does: the tile and its one-pixel
// border are loaded and classified once into shared memory, then each thread tests its 16
// pixels there (a thread per pixel loading its nine texels read the image nine times).
// The maxima are gathered in shared memory and a group reserves its slots with one global
// atomic: one atomic per maximum on the one counter serialised the pass (a noisy picture has
// a maximum every few pixels); the CPU orders them, so where each lands does not matter.
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;
layout(std430, binding = HT_BIND_PEAKS) buffer Peaks { ht_peaks_head head; ht_peak peaks[]; };
uniform ivec2 u_size;

const int N = HT_GROUP_X * HT_GROUP_Y;
const int W = HT_TILE_X + 2, H = HT_TILE_Y + 2;   // the tile and its border
// Row stride = 16 (mod 32) words: the two rows of 16 threads of a 32-wide subgroup fall on
// disjoint banks.
const int STRIDE = (W + 15) / 32 * 32 + 16;
const int PER_THREAD = (HT_TILE_X / HT_GROUP_X) * (HT_TILE_Y / HT_GROUP_Y);
#if (HT_TILE_X / HT_GROUP_X) * (HT_TILE_Y / HT_GROUP_Y) > 32
#error "a thread's maxima are a 32-bit mask"
#endif

// Per pixel of the tile and border: Y_f for a pixel with Y_f > 0 that counts, else 0. A 0
// never beats a candidate's Y_f > 0, as the neighbours the definition ignores (not counting,
// outside the image) and the counted ones with Y_f <= 0 never do.
shared float s_key[H * STRIDE];
shared uint s_count, s_base;
// The group's maxima, at most one per 2x2 block, written out together so that the stores
// are contiguous.
shared ht_peak s_out[(HT_TILE_X + 1) / 2 * ((HT_TILE_Y + 1) / 2)];

// The pixel of this thread's K-th test, relative to the tile (as probe_read.comp's loop).
ivec2 pixel_of(int k)
{
    const int per_row = HT_TILE_X / HT_GROUP_X;
    return ivec2(gl_LocalInvocationID.xy) +
           ivec2(k % per_row * HT_GROUP_X, k / per_row * HT_GROUP_Y);
}

float key_at(ivec2 q)   // q: in the tile, or -1 / HT_TILE_* on its border
{
    return s_key[(q.y + 1) * STRIDE + q.x + 1];
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
    ivec2 origin = ivec2(gl_WorkGroupID.xy) * ivec2(HT_TILE_X, HT_TILE_Y);
    int t = int(gl_LocalInvocationIndex);
    if (t == 0) s_count = 0u;
    for (int k = t; k < W * H; k += N) {
        ivec2 b = ivec2(k % W, k / W);
        ivec2 p = origin + b - 1;
        float y, key = 0.0;
        if (all(greaterThanEqual(p, ivec2(0))) && all(lessThan(p, u_size)) &&
            ht_classify(ht_load(p).rgb, 1.0, y) == HT_PIX_VALID)
            key = y;
        s_key[b.y * STRIDE + b.x] = key;
    }
    barrier();
    uint mask = 0u;
    for (int k = 0; k < PER_THREAD; k++) {
        ivec2 q = pixel_of(k);
        if (all(lessThan(origin + q, u_size)) && local_max(q, key_at(q))) mask |= 1u << k;
    }
    uint slot = atomicAdd(s_count, uint(bitCount(mask)));
    for (int k = 0; k < PER_THREAD; k++) {
        if ((mask & (1u << k)) == 0u) continue;
        ivec2 q = pixel_of(k), p = origin + q;
        s_out[slot++] = ht_peak(key_at(q), uint(p.y) * uint(u_size.x) + uint(p.x));
    }
    barrier();
    if (t == 0 && s_count > 0u) s_base = atomicAdd(head.count, s_count);
    barrier();
    for (uint k = uint(t); k < s_count && s_base + k < head.capacity; k += uint(N))
        peaks[s_base + k] = s_out[k];
}

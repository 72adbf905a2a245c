// 256-bin histogram of the grey level of the tone-mapped 8-bit output,
// grey = (54 R + 183 G + 19 B + 128) >> 8, with one of three strategies (HT_GREY_KERNEL):
//  global:  one thread per pixel, an atomic add to the global histogram per pixel;
//  shared:  per 64x64 tile, a group-shared histogram (shared atomics), then one global atomic
//           add per non-empty bin;
//  private: per 64x64 tile, 64 threads each with its own 256 8-bit counters in shared memory
//           (16 KiB; no atomics: a thread counts 64 pixels, so a counter cannot overflow),
//           summed inside the group, then one global atomic add per non-empty bin.
layout(std430, binding = HT_BIND_HIST) buffer Hist { ht_hist hist; };
uniform ivec2 u_size;

uint grey_at(ivec2 p)
{
    uvec3 v = uvec3(ht_load(p).rgb * 255.0 + 0.5);
    return (uint(HT_GREY_WR) * v.r + uint(HT_GREY_WG) * v.g + uint(HT_GREY_WB) * v.b + 128u) >> 8;
}

#if HT_GREY_KERNEL == HT_GREY_GLOBAL
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x < u_size.x && p.y < u_size.y) atomicAdd(hist.grey[grey_at(p)], 1u);
}

#elif HT_GREY_KERNEL == HT_GREY_SHARED
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;
const uint N = uint(HT_GROUP_X * HT_GROUP_Y);
shared uint s_hist[HT_GREY_BINS];

void main()
{
    uint t = gl_LocalInvocationIndex;
    for (uint i = t; i < uint(HT_GREY_BINS); i += N) s_hist[i] = 0u;
    barrier();
    ivec2 base = ivec2(gl_WorkGroupID.xy) * ivec2(HT_TILE_X, HT_TILE_Y) + ivec2(gl_LocalInvocationID.xy);
    for (int j = 0; j < HT_TILE_Y; j += HT_GROUP_Y)
        for (int i = 0; i < HT_TILE_X; i += HT_GROUP_X) {
            ivec2 p = base + ivec2(i, j);
            if (p.x < u_size.x && p.y < u_size.y) atomicAdd(s_hist[grey_at(p)], 1u);
        }
    barrier();
    for (uint i = t; i < uint(HT_GREY_BINS); i += N)
        if (s_hist[i] != 0u) atomicAdd(hist.grey[i], s_hist[i]);
}

#else // HT_GREY_PRIVATE
layout(local_size_x = HT_GREY_PRIVATE_X, local_size_y = HT_GREY_PRIVATE_Y) in;
const uint N = uint(HT_GREY_PRIVATE_X * HT_GREY_PRIVATE_Y);
const uint WORDS = uint(HT_GREY_BINS) / 4u;   // four 8-bit counters per word
#if HT_GREY_BINS / 4 != HT_GREY_PRIVATE_X * HT_GREY_PRIVATE_Y || \
    HT_TILE_X * HT_TILE_Y / (HT_GREY_PRIVATE_X * HT_GREY_PRIVATE_Y) > 255
#error "the merge gives each thread one word; 8-bit counters need <= 255 pixels per thread"
#endif
// Word w of thread t at w * N + t: in the counting loop the threads of a warp touch
// consecutive words whatever their bins are (no bank conflicts).
shared uint s_priv[WORDS * N];

void main()
{
    uint t = gl_LocalInvocationIndex;
    for (uint w = 0u; w < WORDS; w++) s_priv[w * N + t] = 0u;
    ivec2 base = ivec2(gl_WorkGroupID.xy) * ivec2(HT_TILE_X, HT_TILE_Y) + ivec2(gl_LocalInvocationID.xy);
    for (int j = 0; j < HT_TILE_Y; j += HT_GREY_PRIVATE_Y)
        for (int i = 0; i < HT_TILE_X; i += HT_GREY_PRIVATE_X) {
            ivec2 p = base + ivec2(i, j);
            if (p.x >= u_size.x || p.y >= u_size.y) continue;
            uint g = grey_at(p);
            s_priv[(g >> 2) * N + t] += 1u << ((g & 3u) * 8u);
        }
    barrier();
    // Thread t sums word t (bins 4t .. 4t+3) of every thread, starting at a different thread
    // each so the reads spread over the banks.
    uvec4 sum = uvec4(0u);
    for (uint k = 0u; k < N; k++) {
        uint w = s_priv[t * N + (k + t) % N];
        sum += uvec4(w & 255u, (w >> 8) & 255u, (w >> 16) & 255u, w >> 24);
    }
    for (uint c = 0u; c < 4u; c++)
        if (sum[c] != 0u) atomicAdd(hist.grey[4u * t + c], sum[c]);
}
#endif

// pcond's random point samples (pass_foveal). Three stages of one shader:
//  HT_POINTS_STAGE 0, before the range pass: Lw of each sample at its position (x | y << 16)
//    into point_lum (NaN when not finite), and the classes and min/max of the samples into
//    the frame's pt_* fields (one atomic per group), which the range pass folds in. A picture
//    in pieces takes one dispatch per piece, each gathering the samples inside its piece.
//  HT_POINTS_STAGE 1, after the range pass (one group): the samples binned with the frame's
//    binning into pt_hist, with their count and sum of ln Lw; the curve pass weighs them.
//  HT_POINTS_STAGE 2, for pcond's darkest-bin rule (pipeline_human.c; a picture in one
//    piece): pcond's exact sum (pcond_sum) of each point sample into point_exact (NaN: not
//    valid), and the extremes of it over the veiled foveal image and over the samples.
#if HT_POINTS_STAGE == 1
#define HT_POINTS_THREADS HT_POINTS_BIN_GROUP
#else
#define HT_POINTS_THREADS HT_POINTS_GROUP
#endif
layout(local_size_x = HT_POINTS_THREADS) in;
layout(std430, binding = HT_BIND_POINT_LUM) buffer PointLum { float point_lum[]; };
layout(std430, binding = HT_BIND_POINT_POS) readonly buffer PointPos { uint point_pos[]; };
// ext: order keys (order_key) of the smallest sum of the foveal image's valid pixels, of
// the point samples', then the largest of each (pass_foveal_exact clears them and reads
// them back).
layout(std430, binding = HT_BIND_POINT_EXACT) buffer PointExact {
    uint ext[HT_POINT_EXACT_HEAD];
    float point_exact[];
};
uniform uint u_count;
uniform float u_scale;

const uint N = uint(HT_POINTS_THREADS);
#if HT_POINTS_STAGE == 0
uniform ivec2 u_origin;   // the piece this dispatch reads: where it lies in the picture,
uniform ivec2 u_piece;    // and its size
shared uint s_valid, s_nonfinite, s_min, s_max;

void main()
{
    uint t = gl_LocalInvocationIndex, k = gl_GlobalInvocationID.x;
    if (t == 0u) { s_valid = 0u; s_nonfinite = 0u; s_min = 0x7f7fffffu; s_max = 0u; }
    barrier();
    uint xy = k < u_count ? point_pos[k] : 0u;
    ivec2 q = ivec2(xy & 0xffffu, xy >> 16) - u_origin;
    if (k < u_count && all(greaterThanEqual(q, ivec2(0))) && all(lessThan(q, u_piece))) {
        float lw;
        int cls = ht_classify(ht_load(q).rgb, u_scale, lw);
        point_lum[k] = cls == HT_PIX_NONFINITE ? uintBitsToFloat(0x7fc00000u) : lw;
        if (cls == HT_PIX_VALID) {
            atomicAdd(s_valid, 1u);
            atomicMin(s_min, floatBitsToUint(lw));
            atomicMax(s_max, floatBitsToUint(lw));
        } else if (cls == HT_PIX_NONFINITE) {
            atomicAdd(s_nonfinite, 1u);
        }
    }
    barrier();
    if (t == 0u && (s_valid > 0u || s_nonfinite > 0u)) {
        atomicAdd(frame.pt_valid, s_valid);
        atomicAdd(frame.pt_nonfinite, s_nonfinite);
        if (s_valid > 0u) {
            atomicMin(frame.pt_min_bits, s_min);
            atomicMax(frame.pt_max_bits, s_max);
        }
    }
}
#elif HT_POINTS_STAGE == 2
layout(rgba32f, binding = 0) readonly uniform image2D u_fov;   // the veiled foveal image
uniform ivec2 u_grid;
shared uint s_ext[4];

// tonemap_pcond_lw of a valid colour c over HT_WHTEFFICACY (179 times a float is exact in
// double: the CPU rebuilds the Lw from it): each channel scale c / 179 in doubles rounded to
// float, then the weighted sum in float, in the CPU's order.
float pcond_sum(vec3 c)
{
    vec3 w = ht_luminance_weights();
    vec3 s = vec3(dvec3(double(u_scale)) * dvec3(c) / double(HT_WHTEFFICACY));
    precise float f = w.r * s.r + w.g * s.g;
    precise float g = f + w.b * s.b;
    return g;
}

// A key whose unsigned order is the order of the floats (pass_foveal.c decodes it).
uint order_key(float f)
{
    uint b = floatBitsToUint(f);
    return (b & 0x80000000u) != 0u ? ~b : b | 0x80000000u;
}

// Into s_ext[i] and s_ext[i + 2]: the key of c's pcond_sum when c is valid; returns the sum
// (NaN when not valid).
float add(vec3 c, int i)
{
    float lw;
    if (ht_classify(c, u_scale, lw) != HT_PIX_VALID) return uintBitsToFloat(0x7fc00000u);
    float f = pcond_sum(c);
    atomicMin(s_ext[i], order_key(f));
    atomicMax(s_ext[i + 2], order_key(f));
    return f;
}

void main()
{
    uint t = gl_LocalInvocationIndex, k = gl_GlobalInvocationID.x;
    if (t < 4u) s_ext[t] = t < 2u ? 0xffffffffu : 0u;
    barrier();
    if (k < u_count) {
        uint xy = point_pos[k];
        point_exact[k] = add(ht_load(ivec2(xy & 0xffffu, xy >> 16)).rgb, 1);
    }
    if (k < uint(u_grid.x * u_grid.y))
        add(imageLoad(u_fov, ivec2(int(k) % u_grid.x, int(k) / u_grid.x)).rgb, 0);
    barrier();
    if (t < 2u && s_ext[t] != 0xffffffffu) atomicMin(ext[t], s_ext[t]);
    else if (t >= 2u && t < 4u && s_ext[t] != 0u) atomicMax(ext[t], s_ext[t]);
}
#else
// pcond's darkest-bin rule (tonemap_darkest_bin): u_dark >= 0, the bin of the samples with
// the Lw of the first sample whose exact sum (stage 2) lies in u_dark_exact (the darkest
// exact Lw), instead of the binning's, where the range pass widened the range (the CPU sets
// it without waiting for that pass); -1 in every analysis but the one it is set for.
uniform int u_dark;
uniform vec2 u_dark_exact;
shared uint s_hist[HT_MAX_BINS];
shared float s_sum[N];
shared uint s_count, s_first;

void main()
{
    uint t = gl_LocalInvocationIndex;
    uint bins = max(frame.bins, 1u);
    for (uint i = t; i < bins; i += N) s_hist[i] = 0u;
    if (t == 0u) { s_count = 0u; s_first = 0xffffffffu; }
    barrier();
    int dark_bin = frame.widened != 0u ? u_dark : -1;
    for (uint k = t; dark_bin >= 0 && k < u_count; k += N) {
        float f = point_exact[k];
        if (f >= u_dark_exact.x && f <= u_dark_exact.y) { atomicMin(s_first, k); break; }
    }
    barrier();
    bool dark = s_first != 0xffffffffu;
    float dark_lw = dark ? point_lum[s_first] : 0.0;
    // The histogram pass's binning, to the instruction (histogram.comp).
    float bwmin = frame.bw_min;
    float inv_width = float(bins) / max(frame.bw_max - frame.bw_min, 1e-30);
    float lo = frame.lo_thresh, hi = frame.hi_thresh;
    int lowest = int(frame.widened);
    float sum = 0.0;
    uint count = 0u;
    for (uint k = t; k < u_count; k += N) {
        float lw = point_lum[k];
        if (!(lw > 0.0) || !ht_finite(lw) || lw < lo || lw >= hi) continue;
        float b = log(lw);
        int bin = dark && lw == dark_lw
                  ? dark_bin : clamp(int(floor((b - bwmin) * inv_width)), lowest, int(bins) - 1);
        atomicAdd(s_hist[bin], 1u);
        sum += b;
        count++;
    }
    if (count > 0u) atomicAdd(s_count, count);
    s_sum[t] = sum;
    barrier();
    for (uint s = N / 2u; s > 0u; s >>= 1) {
        if (t < s) s_sum[t] += s_sum[t + s];
        barrier();
    }
    for (uint i = t; i < bins; i += N) frame.pt_hist[i] = s_hist[i];
    if (t == 0u) {
        frame.pt_counted = s_count;
        frame.pt_sum_ln = s_sum[0];
    }
}
#endif

// pcond's random point samples (pass_foveal). Two stages of one shader:
//  HT_POINTS_STAGE 0, before the range pass: Lw of each sample at its position (x | y << 16)
//    into point_lum (NaN when not finite), and the classes and min/max of the samples into
//    the frame's pt_* fields (one atomic per group), which the range pass folds in. A picture
//    in pieces takes one dispatch per piece, each gathering the samples inside its piece.
//  HT_POINTS_STAGE 1, after the range pass (one group): the samples binned with the frame's
//    binning into pt_hist, with their count and sum of ln Lw; the curve pass weighs them.
//  HT_POINTS_STAGE 2, for pcond's darkest-bin rule (pipeline_human.c; a picture in one
//    piece): the RGB of each sample into point_rgb, which the CPU reads back.
layout(local_size_x = HT_POINTS_GROUP) in;
#if HT_POINTS_STAGE == 2
// Its own buffer on the point_lum binding: stage 2 runs alone and binds it before each run.
layout(std430, binding = HT_BIND_POINT_LUM) writeonly buffer PointRgb { vec4 point_rgb[]; };
#else
layout(std430, binding = HT_BIND_POINT_LUM) buffer PointLum { float point_lum[]; };
#endif
layout(std430, binding = HT_BIND_POINT_POS) readonly buffer PointPos { uint point_pos[]; };
uniform uint u_count;
uniform float u_scale;

const uint N = uint(HT_POINTS_GROUP);
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
void main()
{
    uint k = gl_GlobalInvocationID.x;
    if (k < u_count) {
        uint xy = point_pos[k];
        point_rgb[k] = vec4(ht_load(ivec2(xy & 0xffffu, xy >> 16)).rgb, 0.0);
    }
}
#else
// pcond's darkest-bin rule (tonemap_darkest_bin): u_dark >= 0, the bin of the samples with
// Lw == u_dark_lw instead of the binning's; -1 in every analysis but the one it is set for.
uniform int u_dark;
uniform float u_dark_lw;
shared uint s_hist[HT_MAX_BINS];
shared float s_sum[N];
shared uint s_count;

void main()
{
    uint t = gl_LocalInvocationIndex;
    uint bins = max(frame.bins, 1u);
    for (uint i = t; i < bins; i += N) s_hist[i] = 0u;
    if (t == 0u) s_count = 0u;
    barrier();
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
        int bin = u_dark >= 0 && lw == u_dark_lw
                  ? u_dark : clamp(int(floor((b - bwmin) * inv_width)), lowest, int(bins) - 1);
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

// Curve pass: the bottom-bin rule, the ceiling iteration as pcond does it, cumf at the bin
// edges and the linear-mapping scale (tonemap_cpu.c compute_curve). One thread per bin:
// pass_curve.c builds it for HT_MAX_BINS threads and, for the usual bin counts, for fewer
// (HT_CURVE_THREADS), since every barrier of the ceiling loop waits for all of them.
#ifndef HT_CURVE_THREADS
#define HT_CURVE_THREADS HT_MAX_BINS
#endif
layout(local_size_x = HT_CURVE_THREADS) in;
uniform float u_ldmax;
uniform float u_drange;
uniform int u_ceiling;
uniform bool u_force_linear;
uniform int u_range_fits;   // ht_buffers.range_fits (pass.h)
uniform uint u_width;      // reductions span the bins rounded up to a power of two
uniform uint u_partials;   // merge groups, each left a sum of ln Lw
layout(std430, binding = HT_BIND_PARTIALS) readonly buffer Partials { float partials[]; };

shared float s_red[HT_MAX_BINS];
shared float s_scan[2][HT_MAX_BINS];

float reduce_sum(float v)
{
    uint t = gl_LocalInvocationIndex;
    s_red[t] = v;
    barrier();
    for (uint s = u_width / 2u; s > 0u; s >>= 1) {
        if (t < s) s_red[t] += s_red[t + s];
        barrier();
    }
    float r = s_red[0];
    barrier();
    return r;
}

// Inclusive prefix sum of v over the bins (u_width threads take part; all call it).
float scan_inclusive(float v)
{
    uint t = gl_LocalInvocationIndex, src = 0u;
    s_scan[0][t] = v;
    barrier();
    for (uint off = 1u; off < u_width; off <<= 1) {
        float x = s_scan[src][t];
        if (t >= off) x += s_scan[src][t - off];
        s_scan[1u - src][t] = x;
        src = 1u - src;
        barrier();
    }
    float r = s_scan[src][t];
    barrier();
    return r;
}

void main()
{
    uint t = gl_LocalInvocationIndex;
    uint n = frame.bins;
    bool own_bin = t < n;
    float ln_sum = 0.0;
    for (uint k = t; k < u_partials; k += uint(HT_CURVE_THREADS)) ln_sum += partials[k];
    s_red[t] = ln_sum;   // summed over all threads, not only u_width
    barrier();
    for (uint s = uint(HT_CURVE_THREADS) / 2u; s > 0u; s >>= 1) {
        if (t < s) s_red[t] += s_red[t + s];
        barrier();
    }
    // Foveal sampling: a point sample weighs (counted foveal samples) / (point samples).
    bool points = frame.n_points > 0u;
    float w = points ? float(frame.n_counted) / float(frame.n_points) : 0.0;
    float counted = float(frame.n_counted) + (points ? w * float(frame.pt_counted) : 0.0);
    float ln_total = s_red[0] + (points ? w * frame.pt_sum_ln : 0.0);
    float ln_avg = counted > 0.0 ? ln_total / counted : 0.0;
    barrier();
    float f = own_bin ? float(frame.hist[t]) : 0.0;
    if (points && own_bin) f += w * float(frame.pt_hist[t]);
    if (frame.widened != 0u) {   // pcond: half of bin 1 moves to the duplicated bin 0
        s_red[t] = f;
        barrier();
        float half_bin1 = 0.5 * s_red[1];
        barrier();
        if (t == 1u) f -= half_bin1;
        if (t == 0u) f += half_bin1;
    }
    float t0 = reduce_sum(f);
    float range = frame.bw_max - frame.bw_min;
    float start = f, final_total = t0;
    uint mapping, iterations = 0u;
    if (frame.n_valid == 0u) {
        mapping = uint(HT_MAP_NONE);
    } else if (u_force_linear) {
        mapping = uint(HT_MAP_LINEAR_FORCED);
    } else if (u_ceiling == HT_CEILING_NONE || t0 <= 0.0) {
        mapping = t0 > 0.0 ? uint(HT_MAP_EQUALIZE) : uint(HT_MAP_HISTOGRAM);
    } else if (u_range_fits < 0 ? range <= log(u_drange) : u_range_fits > 0) {
        mapping = uint(HT_MAP_LINEAR_FITS);
    } else {
        mapping = uint(HT_MAP_HISTOGRAM);
        float ratio = (range / float(n)) / log(u_drange);
        float total = t0;
        for (;;) {   // every value steering this loop is uniform across the group
            start = f;
            final_total = total;
            if (total <= float(HT_CVRATIO) * t0) { mapping = uint(HT_MAP_LINEAR_GAVE_UP); break; }
            float ceiling = total * ratio;
            if (u_ceiling == HT_CEILING_HUMAN) {
                // The ceiling follows the current curve at the bin centre (pcond3.c clampf).
                float cf = (scan_inclusive(f) - 0.5 * f) / total;
                float lw = exp(frame.bw_min + (float(t) + 0.5) * (range / float(n)));
                float ld = exp(log(u_ldmax / u_drange) + cf * log(u_drange));
                ceiling *= ht_tvi(ld) / ht_tvi(lw) * lw / ld;
            }
            float trimmings = reduce_sum(own_bin ? max(f - ceiling, 0.0) : 0.0);
            if (own_bin) f = min(f, ceiling);
            iterations++;
            if (trimmings <= float(HT_CVRATIO) * total || iterations >= uint(HT_MAX_CEILING_ITERATIONS))
                break;
            total -= trimmings;   // the sum of the cut histogram, without another reduction
        }
    }
    if (own_bin) frame.trimmed[t] = f;

    // cumf: inclusive scan of the histogram at the start of the last pass.
    float total = reduce_sum(start);
    uint src = 0u;
    s_scan[0][t] = start;
    barrier();
    for (uint off = 1u; off < u_width; off <<= 1) {
        float v = s_scan[src][t];
        if (t >= off) v += s_scan[src][t - off];
        s_scan[1u - src][t] = v;
        src = 1u - src;
        barrier();
    }
    if (own_bin)
        frame.cumf[t + 1u] = t + 1u == n ? 1.0
            : (total > 0.0 ? s_scan[src][t] / total : float(t + 1u) / float(n));
    if (t == 0u) {
        float ldmin = u_ldmax / u_drange;
        frame.cumf[0] = 0.0;
        frame.mapping = mapping;
        frame.iterations = iterations;
        frame.hist_total = t0;
        frame.final_total = final_total;
        frame.ln_avg = ln_avg;
        float ldmid = sqrt(ldmin * u_ldmax), lwa = exp(ln_avg);
        frame.linear_scale = counted > 0.0
            ? (u_ceiling == HT_CEILING_HUMAN ? ht_tvi(ldmid) / ht_tvi(lwa) : ldmid / lwa) : 0.0;
        frame.pt_weight = w;
    }
}

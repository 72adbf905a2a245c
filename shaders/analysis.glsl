// The analysis after the histogram pass, as functions: the range, the merge of the per-tile
// histograms and the curve (WARD97.md; tonemap_cpu.c compute_range and compute_curve),
// included (#include "analysis.glsl", shaders.c) by the programs that run them, one per
// dispatch (range.comp, merge.comp, curve.comp). Every function is called by all T invocations
// of the group (they hold barriers); t = gl_LocalInvocationIndex. (Fused forms, range, merge
// and curve in one or two dispatches, were measured slower on the H100 and the H200 and left
// the code: BENCHMARKS.md, "The forms of the finishing".)
layout(std430, binding = HT_BIND_TILE_HIST) buffer TileHist { uint tile_hist[]; };
layout(std430, binding = HT_BIND_TILE_SUMS) buffer TileSums {
    ht_tilesum tile_sums[];
};
layout(std430, binding = HT_BIND_PARTIALS) buffer Partials { float partials[]; };
// The re-binning's indirect dispatch: 3 uints per piece of the analysed image (its groups
// when the binning is stale, else 0), then 3 per piece again, the groups of a whole
// re-binning (pipeline.c writes them).
layout(std430, binding = HT_BIND_DISPATCH) buffer HtDispatch { uint disp_args[]; };

uniform uint u_tile_count;   // tiles of the whole image
// Range.
uniform uint u_total;        // samples of the whole image
uniform int u_bins;
uniform vec2 u_user_range;   // lmin, lmax in cd/m^2; (0,0) = automatic
// Curve.
uniform float u_ldmax;
uniform float u_drange;
uniform int u_ceiling;
uniform bool u_force_linear;
uniform int u_range_fits;    // ht_buffers.range_fits (pass.h): -1 the range decides
uniform uint u_width;        // reductions span the bins rounded up to a power of two
uniform uint u_pieces;       // pieces of the analysed image (re-binning dispatches)

shared uint s_hist[HT_MAX_BINS];
shared float s_red[HT_MAX_BINS];
shared float s_scan[2][HT_MAX_BINS];
shared uint s_count, s_min, s_max, s_valid, s_nonfinite;
shared bool s_flag;

// The tiles' counts and min/max, and from them the histogram range, which becomes the frame's
// binning. Returns whether it differs in any bit from the binning the per-tile histograms
// used (frame.rebinned: the image must be binned again).
bool ht_range(uint t, uint T)
{
    if (t == 0u) { s_min = 0x7f7fffffu; s_max = 0u; s_valid = 0u; s_nonfinite = 0u; }
    barrier();
    uint mn = 0x7f7fffffu, mx = 0u, valid = 0u, nonfinite = 0u;
    for (uint k = t; k < u_tile_count; k += T) {
        ht_tilesum s = tile_sums[k];
        if (s.n_valid > 0u) { mn = min(mn, s.lw_min_bits); mx = max(mx, s.lw_max_bits); }
        valid += s.n_valid;
        nonfinite += s.n_nonfinite;
    }
    // Integers: shared atomics give the tree's answer.
    if (valid > 0u) { atomicMin(s_min, mn); atomicMax(s_max, mx); atomicAdd(s_valid, valid); }
    if (nonfinite > 0u) atomicAdd(s_nonfinite, nonfinite);
    barrier();
    if (t == 0u) {
        // Foveal sampling: pcond's point samples join the foveal image's samples (points.comp).
        uint total = u_total + frame.n_points;
        uint n_valid = s_valid + frame.pt_valid, n_nonfinite = s_nonfinite + frame.pt_nonfinite;
        float lwmin = uintBitsToFloat(min(s_min, frame.pt_min_bits));
        float lwmax = uintBitsToFloat(max(s_max, frame.pt_max_bits));
        frame.n_total = total;
        frame.n_valid = n_valid;
        frame.n_nonfinite = n_nonfinite;
        frame.n_nonpositive = total - n_valid - n_nonfinite;
        // pcond's rules: a sample with Lw <= 0 drops the bottom to LMIN as well.
        bool pcond = frame.pcond_rules != 0u;
        bool black = pcond && frame.n_nonpositive > 0u;
        frame.lw_min = n_valid > 0u ? lwmin : 0.0;
        frame.lw_max = n_valid > 0u ? lwmax : 0.0;
        uint widened = 0u;
        float bwmin, bwmax;
        if (n_valid == 0u) {
            bwmin = 0.0; bwmax = 1.0;
        } else if (u_user_range.x > 0.0 && u_user_range.y > u_user_range.x) {
            bwmin = log(u_user_range.x); bwmax = log(u_user_range.y);
        } else {
            bwmax = log(min(1.01 * lwmax, float(HT_LMAX)));
            if (lwmin < float(HT_LMIN) || black) {
                bwmin = log(float(HT_LMIN));
            } else {
                float span = max(bwmax - log(lwmin), log(1.01));
                bwmin = bwmax - span * float(u_bins) / float(u_bins - 1);
                widened = 1u;
            }
            if (bwmin >= bwmax) bwmin = bwmax - log(1.01);
        }
        float lo = max(exp(bwmin), float(HT_LMIN)), hi = exp(bwmax);
        if (pcond && n_valid > 0u && !(u_user_range.x > 0.0 && u_user_range.y > u_user_range.x)) {
            // pcond3.c comphist: HT_FTINY inside both ends; no bottom-bin rule for a bottom
            // within HT_FTINY of LMIN (tonemap_cpu.c compute_range).
            lo = exp(bwmin) + float(HT_FTINY);
            hi = min(1.01 * lwmax, float(HT_LMAX)) - float(HT_FTINY);
            widened = widened != 0u && exp(bwmin) > float(HT_LMIN + HT_FTINY) ? 1u : 0u;
        }
        bool same = frame.bins == uint(u_bins) && frame.widened == widened &&
                    floatBitsToUint(frame.bw_min) == floatBitsToUint(bwmin) &&
                    floatBitsToUint(frame.bw_max) == floatBitsToUint(bwmax) &&
                    floatBitsToUint(frame.lo_thresh) == floatBitsToUint(lo) &&
                    floatBitsToUint(frame.hi_thresh) == floatBitsToUint(hi);
        frame.bins = uint(u_bins);
        frame.widened = widened;
        frame.bw_min = bwmin;
        frame.bw_max = bwmax;
        frame.lo_thresh = lo;
        frame.hi_thresh = hi;
        frame.rebinned = same ? 0u : 1u;
        s_flag = !same;
    }
    memoryBarrierBuffer();
    barrier();
    bool stale = s_flag;
    barrier();
    return stale;
}

// The re-binning's indirect dispatch: for each piece, its groups when STALE, else none.
void ht_rebin_args(uint t, uint T, bool stale)
{
    for (uint i = t; i < 3u * u_pieces; i += T)
        disp_args[i] = stale ? disp_args[3u * u_pieces + i] : 0u;
}

// Adds the histograms of tiles [first, last) (BINS bins each) into s_hist, which the caller
// zeroed; consecutive threads read consecutive words.
void ht_hist_add(uint t, uint T, uint first, uint last, uint bins)
{
    for (uint w = first * bins + t; w < last * bins; w += T) {
        uint c = tile_hist[w];
        if (c != 0u) atomicAdd(s_hist[w % bins], c);
    }
}

// The sum of ln Lw of merge group G's tiles, as the tree merge.comp reduces them: with
// s_red, all threads taking part (the value for all).
float ht_chunk_tree(uint t, uint g)
{
    uint k = g * uint(HT_MERGE_TILES) + t;
    if (t < uint(HT_MERGE_TILES)) s_red[t] = k < u_tile_count ? tile_sums[k].sum_ln : 0.0;
    barrier();
    for (uint s = uint(HT_MERGE_TILES) / 2u; s > 0u; s >>= 1) {
        if (t < s) s_red[t] += s_red[t + s];
        barrier();
    }
    float r = s_red[0];
    barrier();
    return r;
}

// Merge group G: the counts of its HT_MERGE_TILES tiles (binned with BINS bins) into s_hist
// and their n_counted into s_count; returns their sum of ln Lw.
float ht_merge_group(uint t, uint T, uint g, uint bins)
{
    for (uint i = t; i < bins; i += T) s_hist[i] = 0u;
    if (t == 0u) s_count = 0u;
    barrier();
    uint first = g * uint(HT_MERGE_TILES), last = min(first + uint(HT_MERGE_TILES), u_tile_count);
    ht_hist_add(t, T, first, last, bins);
    if (t < uint(HT_MERGE_TILES) && first + t < last)
        atomicAdd(s_count, tile_sums[first + t].n_counted);
    return ht_chunk_tree(t, g);   // its barriers end the adding into s_hist and s_count
}

// The bottom-bin rule, the ceiling iteration as pcond does it, cumf at the bin edges and the
// linear-mapping scale, one thread per bin (S threads, S >= the bins; threads beyond S, if
// any, take part in the barriers only). COUNT: the merged count of bin t (0 for t >= the
// bins); N_COUNTED: the samples merged; LN_PART: this thread's share of their sum of ln Lw
// (the curve pass's: partials t, t + S, ...; 0 for t >= S).
float ht_reduce_sum(float v)
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
float ht_scan_inclusive(float v)
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

// The ceiling iteration from the weights F (one per bin) of total T0: the weights it ends
// with (into f), those at the start of the last pass (into start), the mapping, the
// iterations and the total at the start of the last pass.
uint ht_ceiling(uint t, uint n, float t0, inout float f, out float start, out float final_total,
                out uint iterations)
{
    bool own_bin = t < n;
    float range = frame.bw_max - frame.bw_min;
    start = f;
    final_total = t0;
    iterations = 0u;
    if (frame.n_valid == 0u) return uint(HT_MAP_NONE);
    if (u_force_linear) return uint(HT_MAP_LINEAR_FORCED);
    if (u_ceiling == HT_CEILING_NONE || t0 <= 0.0)
        return t0 > 0.0 ? uint(HT_MAP_EQUALIZE) : uint(HT_MAP_HISTOGRAM);
    if (u_range_fits < 0 ? range <= log(u_drange) : u_range_fits > 0)
        return uint(HT_MAP_LINEAR_FITS);
    uint mapping = uint(HT_MAP_HISTOGRAM);
    float ratio = (range / float(n)) / log(u_drange);
    float total = t0;
    for (;;) {   // every value steering this loop is uniform across the group
        start = f;
        final_total = total;
        if (total <= float(HT_CVRATIO) * t0) { mapping = uint(HT_MAP_LINEAR_GAVE_UP); break; }
        float ceiling = total * ratio;
        if (u_ceiling == HT_CEILING_HUMAN) {
            // The ceiling follows the current curve at the bin centre (pcond3.c clampf).
            float cf = (ht_scan_inclusive(f) - 0.5 * f) / total;
            float lw = exp(frame.bw_min + (float(t) + 0.5) * (range / float(n)));
            float ld = exp(log(u_ldmax / u_drange) + cf * log(u_drange));
            ceiling *= ht_tvi(ld) / ht_tvi(lw) * lw / ld;
        }
        float trimmings = ht_reduce_sum(own_bin ? max(f - ceiling, 0.0) : 0.0);
        if (own_bin) f = min(f, ceiling);
        iterations++;
        if (trimmings <= float(HT_CVRATIO) * total ||
            iterations >= uint(HT_MAX_CEILING_ITERATIONS))
            break;
        total -= trimmings;   // the sum of the cut histogram, without another reduction
    }
    return mapping;
}

void ht_curve(uint t, uint S, uint count, uint n_counted, float ln_part)
{
    uint n = frame.bins;
    bool own_bin = t < n;
    s_red[t] = ln_part;   // summed over all S threads, not only u_width
    barrier();
    for (uint s = S / 2u; s > 0u; s >>= 1) {
        if (t < s) s_red[t] += s_red[t + s];
        barrier();
    }
    // Foveal sampling: a point sample weighs (counted foveal samples) / (point samples).
    bool points = frame.n_points > 0u;
    float w = points ? float(n_counted) / float(frame.n_points) : 0.0;
    float counted = float(n_counted) + (points ? w * float(frame.pt_counted) : 0.0);
    float ln_total = s_red[0] + (points ? w * frame.pt_sum_ln : 0.0);
    float ln_avg = counted > 0.0 ? ln_total / counted : 0.0;
    barrier();
    float f = own_bin ? float(count) : 0.0;
    if (points && own_bin) f += w * float(frame.pt_hist[t]);
    if (frame.widened != 0u) {   // pcond: half of bin 1 moves to the duplicated bin 0
        s_red[t] = f;
        barrier();
        float half_bin1 = 0.5 * s_red[1];
        barrier();
        if (t == 1u) f -= half_bin1;
        if (t == 0u) f += half_bin1;
    }
    float t0 = ht_reduce_sum(f);
    float start, final_total;
    uint iterations;
    uint mapping = ht_ceiling(t, n, t0, f, start, final_total, iterations);
    if (own_bin) frame.trimmed[t] = f;

    // cumf: inclusive scan of the histogram at the start of the last pass.
    float total = ht_reduce_sum(start);
    float cum = ht_scan_inclusive(start);
    if (own_bin)
        frame.cumf[t + 1u] = t + 1u == n ? 1.0
            : (total > 0.0 ? cum / total : float(t + 1u) / float(n));
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

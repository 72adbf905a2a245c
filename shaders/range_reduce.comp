// Range pass, step 2: tiles -> the frame's counts, min/max and histogram range (WARD97.md,
// tonemap_cpu.c compute_range).
layout(local_size_x = HT_REDUCE_GROUP) in;
layout(std430, binding = HT_BIND_TILES) readonly buffer Tiles { ht_tile tiles[]; };
uniform uint u_tiles;
uniform uint u_total;
uniform int u_bins;
uniform vec2 u_user_range;   // lmin, lmax in cd/m^2; (0,0) = automatic

const uint N = uint(HT_REDUCE_GROUP);
shared float s_min[N], s_max[N];
shared uint s_valid[N], s_nonfinite[N], s_nonpositive[N];

void main()
{
    uint t = gl_LocalInvocationIndex;
    float mn = uintBitsToFloat(0x7f7fffffu), mx = 0.0;
    uint valid = 0u, nonfinite = 0u, nonpositive = 0u;
    for (uint k = t; k < u_tiles; k += N) {
        if (tiles[k].n_valid > 0u) {
            mn = min(mn, tiles[k].lw_min);
            mx = max(mx, tiles[k].lw_max);
        }
        valid += tiles[k].n_valid;
        nonfinite += tiles[k].n_nonfinite;
        nonpositive += tiles[k].n_nonpositive;
    }
    s_min[t] = mn; s_max[t] = mx;
    s_valid[t] = valid; s_nonfinite[t] = nonfinite; s_nonpositive[t] = nonpositive;
    barrier();
    for (uint s = N / 2u; s > 0u; s >>= 1) {
        if (t < s) {
            s_min[t] = min(s_min[t], s_min[t + s]);
            s_max[t] = max(s_max[t], s_max[t + s]);
            s_valid[t] += s_valid[t + s];
            s_nonfinite[t] += s_nonfinite[t + s];
            s_nonpositive[t] += s_nonpositive[t + s];
        }
        barrier();
    }
    if (t != 0u) return;
    uint n_valid = s_valid[0];
    frame.n_total = u_total;
    frame.n_valid = n_valid;
    frame.n_nonfinite = s_nonfinite[0];
    frame.n_nonpositive = s_nonpositive[0];
    frame.bins = uint(u_bins);
    frame.lw_min = n_valid > 0u ? s_min[0] : 0.0;
    frame.lw_max = s_max[0];
    frame.widened = 0u;
    float bwmin, bwmax;
    if (n_valid == 0u) {
        bwmin = 0.0; bwmax = 1.0;
    } else if (u_user_range.x > 0.0 && u_user_range.y > u_user_range.x) {
        bwmin = log(u_user_range.x); bwmax = log(u_user_range.y);
    } else {
        bwmax = log(min(1.01 * s_max[0], float(HT_LMAX)));
        if (s_min[0] < float(HT_LMIN)) {
            bwmin = log(float(HT_LMIN));
        } else {
            float span = max(bwmax - log(s_min[0]), log(1.01));
            bwmin = bwmax - span * float(u_bins) / float(u_bins - 1);
            frame.widened = 1u;
        }
        if (bwmin >= bwmax) bwmin = bwmax - log(1.01);
    }
    frame.bw_min = bwmin;
    frame.bw_max = bwmax;
    frame.lo_thresh = max(exp(bwmin), float(HT_LMIN));
    frame.hi_thresh = exp(bwmax);
}

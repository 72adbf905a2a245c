// Shared by every shader, after the preamble generated from gpu_shared.h. The CPU reference
// (tonemap_cpu.c) mirrors each function here.

// isnan/isinf may be optimised away by some compilers; the exponent bits cannot.
bool ht_finite(float v) { return (floatBitsToUint(v) & 0x7f800000u) != 0x7f800000u; }

// Colour (pass_set_colour): the luminance weights of every Lw, set on the programs that
// classify pixels; the image -> display matrix, the display's Y row and the gamut rule
// (HT_GAMUT_*) on those that write display colours.
uniform vec3 u_lum_w;
uniform bool u_convert;   // false: the identity (bit for bit the Rec. 709 pipeline)
uniform mat3 u_to_display;
uniform vec3 u_display_lum;
uniform int u_gamut;

// World luminance and the class of a pixel (HT_PIX_*). 'precise' keeps the compiler from fusing
// multiply-adds, so the GPU computes the same float as the CPU reference.
vec3 ht_luminance_weights() { return u_lum_w; }

// Image RGB to display-linear RGB, the gamut rule applied (colour_xform_apply then
// colour_gamut_apply; the clip follows in the caller).
vec3 ht_to_display(vec3 c)
{
    if (!u_convert) return c;
    vec3 d = u_to_display * c;
    float lo = min(d.r, min(d.g, d.b));
    if (u_gamut != HT_GAMUT_COMPRESS || !(lo < 0.0)) return d;
    float y = dot(u_display_lum, d);
    return y > 0.0 ? vec3(y) + (y / (y - lo)) * (d - vec3(y)) : vec3(0.0);
}

int ht_classify(vec3 c, float scale, out float lw)
{
    vec3 w = ht_luminance_weights();
    precise float y = w.r * c.r + w.g * c.g + w.b * c.b;
    precise float l = scale * y;
    lw = l;
    if (!ht_finite(c.r) || !ht_finite(c.g) || !ht_finite(c.b) || !ht_finite(l))
        return HT_PIX_NONFINITE;
    return l > 0.0 ? HT_PIX_VALID : HT_PIX_NONPOSITIVE;
}

#if defined(HT_SRC_MS)
layout(binding = 0) uniform sampler2DMS u_src;
vec4 ht_load(ivec2 p) { return texelFetch(u_src, p, 0); }
vec4 ht_load_sample(ivec2 p, int s) { return texelFetch(u_src, p, s); }
#elif defined(HT_SRC_2D)
layout(binding = 0) uniform sampler2D u_src;
vec4 ht_load(ivec2 p) { return texelFetch(u_src, p, 0); }
#endif

bool ht_is_linear(uint m)
{
    return m == uint(HT_MAP_LINEAR_FITS) || m == uint(HT_MAP_LINEAR_GAVE_UP) ||
           m == uint(HT_MAP_LINEAR_FORCED);
}

// Human threshold contrast sensitivity dL(La) (tonemap_tvi; Ferwerda et al.).
float ht_tvi(float la)
{
    if (la < 1.148e-4) return 1.38e-3;
    float x = log2(la) * 0.30102999566, y;
    if (x < -1.44) y = pow(0.405 * x + 1.6, 2.18) - 2.86;
    else if (x < -0.0184) y = x - 0.395;
    else if (x < 1.9) y = pow(0.249 * x + 0.65, 2.7) - 0.72;
    else y = x - 1.255;
    return exp2(y * 3.32192809489);
}

// RGB as a Radiance picture stores it, in UNITs (tonemap_rgbe_round, encode_rgbe): nothing
// for a non-finite colour, the largest RGBE value beyond it.
vec3 ht_rgbe_round(vec3 rgb, float unit)
{
    if (!ht_finite(rgb.r) || !ht_finite(rgb.g) || !ht_finite(rgb.b)) return vec3(0.0);
    vec3 big = vec3(255.5 * exp2(119.0) * unit);   // 2^127 UNITs or more: (255.5, e 255)
    if (max(rgb.r, max(rgb.g, rgb.b)) >= exp2(127.0) * unit)   // (before rgb / unit overflows)
        return mix(vec3(0.0), big, greaterThan(rgb, vec3(0.0)));
    vec3 v = rgb / unit;
    float d = max(v.r, max(v.g, v.b));
    if (!(d > 1e-32)) return vec3(0.0);
    int e;
    frexp(d, e);
    vec3 q = (floor(v * exp2(float(8 - e))) + 0.5) * exp2(float(e - 8)) * unit;
    return mix(vec3(0.0), q, greaterThan(v, vec3(0.0)));
}

#ifndef HT_NO_FRAME
layout(std430, binding = HT_BIND_FRAME) buffer HtFrame { ht_frame frame; };

// Display luminance for world luminance lw (tonemap_curve_ld).
float ht_display_luminance(float lw, float ldmax, float drange)
{
    float ldmin = ldmax / drange;
    uint m = frame.mapping;
    if (m == uint(HT_MAP_HISTOGRAM) || m == uint(HT_MAP_EQUALIZE)) {
        float b = log(lw);
        if (!(b > frame.bw_min)) return ldmin;
        if (b >= frame.bw_max) return ldmax;
        int n = int(frame.bins);
        float x = float(n) * (b - frame.bw_min) / (frame.bw_max - frame.bw_min);
        int i = clamp(int(floor(x)), 0, n - 1);
        float cf = mix(frame.cumf[i], frame.cumf[i + 1], x - float(i));
        return exp(log(ldmin) + cf * log(drange));
    }
    if (ht_is_linear(m))
        return clamp(lw * frame.linear_scale, ldmin, ldmax);
    return ldmin;
}

// The output RGB of a valid pixel of world luminance lw (tonemap_pixel_factor: out = scale *
// rgb * factor). Formed as rgb relative to the pixel's own luminance times its display value,
// so that nothing overflows for the brightest floats (scale * Y near 3e38 made
// (Ldmax - Ldmin) * lw infinite, and such a pixel black instead of white).
vec3 ht_pixel_out(vec3 rgb, float lw, float scale, float ldmax, float drange)
{
    if (!(lw >= float(HT_LMIN))) return vec3(0.0);
    float ldmin = ldmax / drange;
    uint m = frame.mapping;
    if (m == uint(HT_MAP_HISTOGRAM) || m == uint(HT_MAP_EQUALIZE)) {
        float ld = ht_display_luminance(lw, ldmax, drange);
        // One division per pixel (the special-function units set this pass's speed), except
        // for the brightest floats, where (Ldmax - Ldmin) * lw would overflow: there rgb is
        // taken relative to the pixel's luminance first.
        if (lw < 1e30)
            return scale * rgb * ((ld - ldmin) / ((ldmax - ldmin) * lw));
        return rgb / (lw / scale) * ((ld - ldmin) / (ldmax - ldmin));
    }
    if (ht_is_linear(m))
        return scale * rgb * (frame.linear_scale / ldmax);
    return vec3(0.0);
}
#endif

// SMPTE ST 2084 of y = L / HT_PQ_PEAK (transfer_pq_encode).
vec3 ht_pq_encode(vec3 y)
{
    vec3 p = pow(clamp(y, 0.0, 1.0), vec3(HT_PQ_M1));
    return pow((HT_PQ_C1 + HT_PQ_C2 * p) / (1.0 + HT_PQ_C3 * p), vec3(HT_PQ_M2));
}

// BT.2100 HLG for a display of nominal peak `peak` cd/m^2: the inverse OOTF on the display's
// luminance (tonemap_encode_prepare), then the OETF (transfer_hlg_oetf).
vec3 ht_hlg_encode(vec3 v, float peak)
{
    float g = HT_HLG_GAMMA_REF + HT_HLG_GAMMA_K * log2(peak / 1000.0) * 0.30102999566;
    float y = dot(u_display_lum, v);
    vec3 e = y > 0.0 ? clamp(v * pow(y, (1.0 - g) / g), 0.0, 1.0) : vec3(0.0);
    return mix(sqrt(3.0 * e), HT_HLG_A * log(12.0 * e - HT_HLG_B) + HT_HLG_C,
               greaterThan(e, vec3(1.0 / 12.0)));
}

// Display encoding of linear [0,1] (tonemap_encode_unit, before the rounding): 1 is `ldmax`
// cd/m^2 for PQ and HLG.
vec3 ht_encode(vec3 v, int transfer, float gamma, float ldmax)
{
    v = clamp(v, 0.0, 1.0);
    if (transfer == HT_TRANSFER_PQ)
        return ht_pq_encode(v * (ldmax / HT_PQ_PEAK));
    if (transfer == HT_TRANSFER_HLG)
        return ht_hlg_encode(v, ldmax);
    if (transfer == HT_TRANSFER_GAMMA)
        return pow(v, vec3(1.0 / gamma));
    return mix(12.92 * v, 1.055 * pow(v, vec3(1.0 / 2.4)) - 0.055, greaterThan(v, vec3(0.0031308)));
}

// The bilinear lookup of an fw x fh foveal grid (top row first) at pixel p (x, row from the
// top) of a picture of size pic, extrapolating linearly at the borders, as human_foveal_lerp
// (human.h) does: the four cells' indices (i00, i01 = next row, i10 = next column, i11) and the
// weights (dx, dy), which lie outside [0, 1] at the borders. The callers read their own grid.
struct ht_grid_cell { int i00, i01, i10, i11; float dx, dy; };

int ht_lerp_cell(float t, int n, out float d)
{
    int i = min(int(t), max(n - 2, 0));   // int() truncates toward zero, as the C cast
    d = n > 1 ? t - float(i) : 0.0;
    return i;
}

ht_grid_cell ht_grid_lookup(ivec2 p, ivec2 pic, ivec2 grid)
{
    ht_grid_cell c;
    vec2 t = (vec2(p) + 0.5) / vec2(pic) * vec2(grid) - 0.5;
    int ix = ht_lerp_cell(t.x, grid.x, c.dx), iy = ht_lerp_cell(t.y, grid.y, c.dy);
    int ix1 = min(ix + 1, grid.x - 1), iy1 = min(iy + 1, grid.y - 1);
    c.i00 = iy * grid.x + ix;
    c.i01 = iy1 * grid.x + ix;
    c.i10 = iy * grid.x + ix1;
    c.i11 = iy1 * grid.x + ix1;
    return c;
}

// The interpolated value from the four cells' values, in human_foveal_lerp's order.
vec4 ht_grid_mix(ht_grid_cell c, vec4 v00, vec4 v01, vec4 v10, vec4 v11)
{
    vec4 lv = (1.0 - c.dy) * v00 + c.dy * v01, uv = (1.0 - c.dy) * v10 + c.dy * v11;
    return (1.0 - c.dx) * lv + c.dx * uv;
}

#ifdef HT_HUMAN
// The human-vision per-pixel stage (human_cpu_pixel): acuity, veil, colour loss, in that order,
// on pixel p of the picture (u_human_pic; the picture's own pixel c, in its units). In float
// where the CPU reference computes in double (the interpolated radius and veil, the blend
// weight, the mesopic factor): a few float ulps apart (test_human_stage says how far); every
// step is continuous where its branches meet, so a branch taken an ulp away changes no more.
// The pyramid lookups are exact: their coordinates and weights are multiples of powers of two.
layout(std430, binding = HT_BIND_VEIL) readonly buffer HtVeil { vec4 ht_veil_grid[]; };
layout(std430, binding = HT_BIND_SAMPLE_RADII) readonly buffer HtRadii { float ht_sr_grid[]; };
// Mip level k - 1 is pyramid level k (human_pyramid.comp).
layout(binding = 1) uniform sampler2D u_human_pyramid;
uniform int u_human_stages;   // HT_HUMAN_* bits
uniform int u_human_levels;   // pyramid levels 1..u_human_levels were built
uniform ivec2 u_human_grid;   // fw, fh
uniform ivec2 u_human_pic;    // the picture's size

// Level k of the pyramid bilinearly at p, channels clamped to >= 0 (human_pyramid_sample): the
// CPU's products of a float and a double weight are exact float products here (du, dw and
// 1 - du are multiples of 2^-(k+1)), rounded as the CPU rounds them. The CPU divides by 2^k:
// ldexp is that division, exactly, without one.
vec3 ht_pyramid_sample(int k, ivec2 p)
{
    ivec2 n = u_human_pic >> k;   // not textureSize: llvmpipe's ignores a per-invocation level
    float du, dw;
    int iu = ht_lerp_cell(ldexp(float(p.x) + 0.5, -k) - 0.5, n.x, du);
    int iw = ht_lerp_cell(ldexp(float(p.y) + 0.5, -k) - 0.5, n.y, dw);
    int iu1 = min(iu + 1, n.x - 1), iw1 = min(iw + 1, n.y - 1);
    vec3 a00 = texelFetch(u_human_pyramid, ivec2(iu, iw), k - 1).rgb;
    vec3 a01 = texelFetch(u_human_pyramid, ivec2(iu1, iw), k - 1).rgb;
    vec3 a10 = texelFetch(u_human_pyramid, ivec2(iu, iw1), k - 1).rgb;
    vec3 a11 = texelFetch(u_human_pyramid, ivec2(iu1, iw1), k - 1).rgb;
    precise vec3 lo = a00 * (1.0 - du) + a01 * du;
    precise vec3 hi = a10 * (1.0 - du) + a11 * du;
    precise vec3 v = lo * (1.0 - dw) + hi * dw;
    return max(v, vec3(0.0));
}

// Acuity (acuity_pixel): the blend of the two levels around the sample radius interpolated
// in grid cell g: level s is the highest (at most the root) with 2^(s-1) <= sr.
vec3 ht_human_acuity(ivec2 p, ht_grid_cell g, vec3 c)
{
    float sr = ht_grid_mix(g, vec4(ht_sr_grid[g.i00]), vec4(ht_sr_grid[g.i01]),
                           vec4(ht_sr_grid[g.i10]), vec4(ht_sr_grid[g.i11])).x;
    if (!(sr >= 1.0)) return c;
    int s = min(u_human_levels, findMSB(int(min(sr, 1073741824.0))) + 1);
    precise float d = clamp(ldexp(float(1 << s) - sr, 1 - s), 0.0, 1.0);
    vec3 coarse = ht_pyramid_sample(s, p), fine = s > 1 ? ht_pyramid_sample(s - 1, p) : c;
    precise vec3 blend = coarse * (1.0 - d) + fine * d;
    return blend;
}

// Mesopic colour loss (human_color_loss).
vec3 ht_human_color(vec3 c, float scale)
{
    vec3 w = ht_luminance_weights();
    precise float y = w.r * c.r + w.g * c.g + w.b * c.b;
    precise float lw = scale * y;
    float bot = float(HT_BOT_MESOPIC), top = float(HT_TOP_MESOPIC);
    float incolor = lw >= top ? 1.0 : lw <= bot ? 0.0 : (lw - bot) / (top - bot);
    if (incolor >= 1.0 - float(HT_HUMAN_TINY)) return c;
    precise float sc = float(HT_SCOT_R) * c.r + float(HT_SCOT_G) * c.g + float(HT_SCOT_B) * c.b;
    if (incolor <= float(HT_HUMAN_TINY)) return vec3(sc);
    precise vec3 kept = c * incolor + (1.0 - incolor) * sc;
    return kept;
}

// Pixel p of the picture, its colour c: what the tone curve gets.
vec3 ht_human_pixel(ivec2 p, vec3 c, float scale)
{
    ht_grid_cell g;   // both grids' cell, where a grid is read
    if ((u_human_stages & (HT_HUMAN_ACUITY | HT_HUMAN_VEIL)) != 0)
        g = ht_grid_lookup(p, u_human_pic, u_human_grid);
    if ((u_human_stages & HT_HUMAN_ACUITY) != 0) c = ht_human_acuity(p, g, c);
    if ((u_human_stages & HT_HUMAN_VEIL) != 0) {
        vec3 v = ht_grid_mix(g, ht_veil_grid[g.i00], ht_veil_grid[g.i01], ht_veil_grid[g.i10],
                             ht_veil_grid[g.i11]).rgb;
        precise vec3 veiled = (1.0 - float(HT_VEIL_ADAPT)) * c + v;
        c = veiled;
    }
    if ((u_human_stages & HT_HUMAN_COLOR) != 0) c = ht_human_color(c, scale);
    return c;
}
#endif

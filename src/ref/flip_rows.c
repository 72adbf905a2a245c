/* FLIP's row passes (flip_rows.h). Each loop runs across a row's pixels so the vectoriser
 * takes 4 (SSE2) or 8 (the AVX2 clone) pixels at once; a filter adds its taps one at a time
 * in the tool's order of taps. No FMA (the AVX2
 * clone does not enable it): each product is rounded before it is added, as in the tool. */
#include "flip_rows.h"
#include "flip_color.h"

#include <math.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
/* glibc's libmvec has powf for 4 and 8 lanes; this declaration lets GCC call it from the
 * vectorised loops (math.h declares it so only under -ffast-math). */
__attribute__((__simd__("notinbranch"))) float powf(float x, float y);
#define FLIP_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define FLIP_CLONES
#endif

/* The tone mapper of the authors on one channel value X (Reinhard is done per pixel). */
static inline float tonemap_rational(const float *tc, float x)
{
    return ((x * x) * tc[0] + x * tc[1] + tc[2]) / ((x * x) * tc[3] + x * tc[4] + tc[5]);
}

/* Linear RGB C (in [0, 1]) of row pixel X -> the planes at X. */
static inline void store_ycxcz(const float c[3], int x, float *y, float *cx, float *cz,
                               float *yn)
{
    float v[3];
    flip_rgb_to_xyz_white(c, v);
    y[x] = 116.0f * v[1] - 16.0f;
    cx[x] = 500.0f * (v[0] - v[1]);
    cz[x] = 200.0f * (v[1] - v[2]);
    yn[x] = y[x] * (1.0f / 116.0f) + 16.0f / 116.0f;
}

FLIP_CLONES
static void convert_ldr(const float *restrict in, int ch, int w, float *restrict y,
                        float *restrict cx, float *restrict cz, float *restrict yn)
{
    for (int x = 0; x < w; x++) {
        const float *p = in + (size_t)x * ch;
        float c[3] = {flip_clamp01(p[0]), flip_clamp01(p[1]), flip_clamp01(p[2])};
        store_ycxcz(c, x, y, cx, cz, yn);
    }
}

FLIP_CLONES
static void convert_rational(const float *restrict in, int ch, int w, float scale,
                             const float *restrict tc, float *restrict y, float *restrict cx,
                             float *restrict cz, float *restrict yn)
{
    for (int x = 0; x < w; x++) {
        const float *p = in + (size_t)x * ch;
        float c[3];
        for (int k = 0; k < 3; k++)
            c[k] = flip_clamp01(tonemap_rational(tc, p[k] * scale));
        store_ycxcz(c, x, y, cx, cz, yn);
    }
}

FLIP_CLONES
static void convert_reinhard(const float *restrict in, int ch, int w, float scale,
                             float *restrict y, float *restrict cx, float *restrict cz,
                             float *restrict yn)
{
    for (int x = 0; x < w; x++) {
        const float *p = in + (size_t)x * ch;
        float v[3] = {p[0] * scale, p[1] * scale, p[2] * scale};
        float f = 1.0f / (1.0f + (0.2126f * v[0] + 0.7152f * v[1] + 0.0722f * v[2]));
        float c[3] = {flip_clamp01(v[0] * f), flip_clamp01(v[1] * f), flip_clamp01(v[2] * f)};
        store_ycxcz(c, x, y, cx, cz, yn);
    }
}

/* Repeats P[HALO] into the HALO floats before it and P[HALO + W - 1] into those after. */
static void pad_edges(float *p, int w, int halo)
{
    for (int k = 0; k < halo; k++) {
        p[k] = p[halo];
        p[halo + w + k] = p[halo + w - 1];
    }
}

void flip_row_convert(const flip_source *s, int sy, int w, int halo, float *y, float *cx,
                      float *cz, float *yn)
{
    const float *in = s->rgb + (size_t)sy * w * s->channels;
    float *py = y + halo, *pcx = cx + halo, *pcz = cz + halo, *pyn = yn + halo;
    if (!s->hdr)
        convert_ldr(in, s->channels, w, py, pcx, pcz, pyn);
    else if (s->tm == FLIP_TM_REINHARD)
        convert_reinhard(in, s->channels, w, s->scale, py, pcx, pcz, pyn);
    else
        convert_rational(in, s->channels, w, s->scale, flip_tonemap_coefficients(s->tm), py,
                         pcx, pcz, pyn);
    float *planes[4] = {y, cx, cz, yn};
    for (int k = 0; k < 4; k++)
        pad_edges(planes[k], w, halo);
}

/* Eight floats, loaded and stored at any float's alignment (GCC's vector extension: two
 * SSE registers in the default build, one in the AVX2 clone). */
typedef float vec8 __attribute__((vector_size(32), aligned(4), may_alias));
enum { LANES = 8, BLOCK = 4 * LANES };

/* OUT[x] = sum over i of TAPS[i] ROWS[i][x], i = 0..N-1 in order, x = 0..W-1; ROWS[i] may
 * be any rows (the x filters pass one row at successive offsets). Blocks of 32 pixels keep
 * their four sums in registers over all the taps. */
FLIP_CLONES
static void fir(const float *const *rows, const float *restrict taps, int n, int w,
                float *restrict out)
{
    int x = 0;
    for (; x + BLOCK <= w; x += BLOCK) {
        vec8 a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0};
        for (int i = 0; i < n; i++) {
            const float *s = rows[i] + x;
            float t = taps[i];
            a0 += t * *(const vec8 *)s;
            a1 += t * *(const vec8 *)(s + LANES);
            a2 += t * *(const vec8 *)(s + 2 * LANES);
            a3 += t * *(const vec8 *)(s + 3 * LANES);
        }
        *(vec8 *)(out + x) = a0;
        *(vec8 *)(out + x + LANES) = a1;
        *(vec8 *)(out + x + 2 * LANES) = a2;
        *(vec8 *)(out + x + 3 * LANES) = a3;
    }
    for (; x < w; x++) {
        float a = 0.0f;
        for (int i = 0; i < n; i++)
            a += taps[i] * rows[i][x];
        out[x] = a;
    }
}

/* FIR of one row P (padded by HALO) with a filter of RADIUS. */
static void fir_x(const float *p, int halo, const float *taps, int radius, int w, float *out)
{
    const float *rows[FLIP_MAX_TAPS];
    for (int i = 0; i <= 2 * radius; i++)
        rows[i] = p + halo - radius + i;
    fir(rows, taps, 2 * radius + 1, w, out);
}

void flip_row_filter_x(const flip_filters *f, int w, int halo, const float *y,
                       const float *cx, const float *cz, const float *yn, float *out)
{
    int rs = f->spatial_radius, rf = f->feature_radius;
    const float *in[FLIP_XPLANES] = {y, cx, cz, cz, yn, yn, yn};
    const float *taps[FLIP_XPLANES] = {f->y, f->cx, f->cz1, f->cz2, f->dg, f->ddg, f->g};
    for (int k = 0; k < FLIP_XPLANES; k++)
        fir_x(in[k], halo, taps[k], k < 4 ? rs : rf, w, out + (size_t)k * w);
}

void flip_row_filter_y(const flip_filters *f, int w, int halo, const float *const *rows,
                       float *out)
{
    int rs = f->spatial_radius, rf = f->feature_radius;
    /* Output plane k filters input plane PLANE[k] with TAPS[k]. */
    static const int plane[FLIP_YPLANES] = {0, 1, 2, 3, 4, 5, 6, 6};
    const float *taps[FLIP_YPLANES] = {f->y, f->cx, f->cz1, f->cz2, f->g, f->g, f->dg, f->ddg};
    for (int k = 0; k < FLIP_YPLANES; k++) {
        int r = k < 4 ? rs : rf;
        const float *in[FLIP_MAX_TAPS];
        for (int i = 0; i <= 2 * r; i++)
            in[i] = rows[halo - r + i] + (size_t)plane[k] * w;
        fir(in, taps[k], 2 * r + 1, w, out + (size_t)k * w);
    }
}

/* Filtered YCxCz -> linear RGB clamped to [0, 1]. */
static inline void rgb_of_ycxcz(float y_, float cx_, float cz_, float rgb[3])
{
    float yy = (y_ + 16.0f) / 116.0f, cx = cx_ / 500.0f, cz = cz_ / 200.0f;
    float x = (yy + cx) * 0.950428545f, y = yy, z = (yy - cz) * 1.088900371f;
    rgb[0] = flip_clamp01(3.241003275f * x + -1.537398934f * y + -0.498615861f * z);
    rgb[1] = flip_clamp01(-0.969224334f * x + 1.875930071f * y + 0.041554224f * z);
    rgb[2] = flip_clamp01(0.055639423f * x + -0.204011202f * y + 1.057148933f * z);
}

/* The colour error in [0, 1] of pixel X of two y-filtered rows: back to linear RGB, Hunt-
 * adjusted CIELab, HyAB distance to the power 0.7, remapped so that the knee pccmax maps to
 * 0.95 and cmax to 1. */
static inline float color_error(const float *r, const float *t, int w, int x,
                                flip_color_consts cc)
{
    float c[3], a[3], b[3];
    rgb_of_ycxcz(r[x], r[w + x], r[2 * w + x] + r[3 * w + x], c);
    flip_rgb_to_hunt_lab(c, a);
    rgb_of_ycxcz(t[x], t[w + x], t[2 * w + x] + t[3 * w + x], c);
    flip_rgb_to_hunt_lab(c, b);
    float e = powf(flip_hyab(a, b), FLIP_GQC);
    float low = e * (FLIP_GPT / cc.pccmax);
    float high = FLIP_GPT + ((e - cc.pccmax) / (cc.cmax - cc.pccmax)) * (1.0f - FLIP_GPT);
    return e < cc.pccmax ? low : high;
}

/* The edge and point strengths of pixel X of a y-filtered row. */
static inline float edge_at(const float *p, int w, int x)
{
    float dx = p[4 * w + x], dy = p[6 * w + x];
    return sqrtf(dx * dx + dy * dy);
}

static inline float point_at(const float *p, int w, int x)
{
    float ddx = p[5 * w + x], ddy = p[7 * w + x];
    return sqrtf(ddx * ddx + ddy * ddy);
}

FLIP_CLONES
void flip_row_error(const float *restrict ref, const float *restrict test, int w,
                    flip_color_consts cc, bool max_into, float *restrict map)
{
    const float norm = 1.0f / sqrtf(2.0f);
    for (int x = 0; x < w; x++) {
        float cd = color_error(ref, test, w, x, cc);
        float de = fabsf(edge_at(ref, w, x) - edge_at(test, w, x));
        float dp = fabsf(point_at(ref, w, x) - point_at(test, w, x));
        float fd = powf(norm * (de > dp ? de : dp), FLIP_GQF);
        float e = powf(cd, 1.0f - fd);
        float old = map[x];
        map[x] = max_into && !(e > old) ? old : e;
    }
}

// FLIP's colour conversions and inputs on the GPU, as src/ref/flip_color.h and flip.c do them
// on the CPU (float, in the same order). The FLIP_* constants come from flip.h through the
// programs' defines (flip_gpu.c).

// The filter weights of flip_filters (flip.h): the C struct, std430 (4-byte fields only).
layout(std430, binding = FLIP_BIND_FILTERS) readonly buffer Filters {
    int spatial_radius, feature_radius;
    float f_y[FLIP_MAX_TAPS], f_cx[FLIP_MAX_TAPS], f_cz1[FLIP_MAX_TAPS], f_cz2[FLIP_MAX_TAPS];
    float f_g[FLIP_MAX_TAPS], f_dg[FLIP_MAX_TAPS], f_ddg[FLIP_MAX_TAPS];
};

float flip_srgb_to_linear(float v)
{
    return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

// An input texel as the linear RGB the metrics read: sRGB-encoded pictures decoded.
vec3 flip_linear(vec3 c, int mode)
{
    if (mode == FLIP_SRC_SRGB)
        return vec3(flip_srgb_to_linear(c.r), flip_srgb_to_linear(c.g), flip_srgb_to_linear(c.b));
    return c;
}

// Linear sRGB -> XYZ divided by the D65 white.
vec3 flip_xyz_white(vec3 c)
{
    return vec3(((10135552.0 / 24577794.0) * c.r + (8788810.0 / 24577794.0) * c.g +
                 (4435075.0 / 24577794.0) * c.b) * 1.052156925,
                (2613072.0 / 12288897.0) * c.r + (8788810.0 / 12288897.0) * c.g +
                    (887015.0 / 12288897.0) * c.b,
                ((1425312.0 / 73733382.0) * c.r + (8788810.0 / 73733382.0) * c.g +
                 (70074185.0 / 73733382.0) * c.b) * 0.918357670);
}

vec3 flip_ycxcz(vec3 c)
{
    vec3 v = flip_xyz_white(c);
    return vec3(116.0 * v.y - 16.0, 500.0 * (v.x - v.y), 200.0 * (v.y - v.z));
}

// Linear RGB -> CIELab with Hunt's chroma adjustment.
vec3 flip_hunt_lab(vec3 c)
{
    const float d = 6.0 / 29.0, d2 = d * d, d3 = d * d2;
    const float k = 1.0 / (3.0 * d2), t = 4.0 / 29.0;
    vec3 v = flip_xyz_white(c);
    for (int i = 0; i < 3; i++)
        v[i] = v[i] > d3 ? pow(v[i], 1.0 / 3.0) : k * v[i] + t;
    float l = 116.0 * v.y - 16.0;
    return vec3(l, 0.01 * l * (500.0 * (v.x - v.y)), 0.01 * l * (200.0 * (v.y - v.z)));
}

vec3 flip_rgb_of_ycxcz(vec3 q)
{
    float yy = (q.x + 16.0) / 116.0, cx = q.y / 500.0, cz = q.z / 200.0;
    float x = (yy + cx) * 0.950428545, y = yy, z = (yy - cz) * 1.088900371;
    return clamp(vec3(3.241003275 * x + -1.537398934 * y + -0.498615861 * z,
                      -0.969224334 * x + 1.875930071 * y + 0.041554224 * z,
                      0.055639423 * x + -0.204011202 * y + 1.057148933 * z), 0.0, 1.0);
}

// The error metrics of one pixel (metrics.h's metrics_pixel): the mean over R, G, B of the
// difference, absolute, squared or relative squared error.
float flip_metric(int kind, vec3 r, vec3 t)
{
    vec3 d = t - r, v;
    if (kind == METRICS_MAP_DIFF)
        v = d;
    else if (kind == METRICS_MAP_ABS)
        v = abs(d);
    else if (kind == METRICS_MAP_SQUARED)
        v = d * d;
    else
        v = d * d / (r * r + METRICS_REL_EPS);
    return (v.r + v.g + v.b) / 3.0;
}

// The comparison's totals of one region (compare_gpu.c's flip_gpu_totals, std430): the sums
// (FLIP, then each metric in METRICS_MAP_* order) made by the finish pass, FLIP's smallest
// value and each map's largest |value| as float bits, the tool's histogram.
struct flip_totals {
    double sum[METRICS_MAP_RELATIVE + 1];
    uint flip_min;
    uint max_bits[METRICS_MAP_RELATIVE + 1];
    uint hist[FLIP_HIST_BINS];
    uint count, pad;
};

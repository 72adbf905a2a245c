// Sample-radius pass (human_sample_radii; pcond initacuity), a thread per foveal pixel (not
// one group, which ran the ~1000 radii of 4K four at a time on one multiprocessor): per
// interior foveal pixel, the solid angle omega of a picture pixel there (from the differences of the
// neighbouring view rays) against the visible frequency at the foveal luminance,
// sr = (pi / 180) / sqrt(omega) / hacuity(La); the border copies its inner neighbour. The
// grid is fw * fh floats; each group's largest radius (at least 1) goes to its slot of
// GroupMax, which the CPU reads and takes the largest of (pass_veil_radii_max): nothing to
// clear before the dispatch nor to copy after it (~5 us each on an H200).
layout(local_size_x = HT_RADII_GROUP) in;
layout(rgba32f, binding = 0) readonly uniform image2D u_fov;   // the current foveal image
layout(std430, binding = HT_BIND_RAY_DIRS) readonly buffer Dirs { vec4 dirs[]; };
layout(std430, binding = HT_BIND_SAMPLE_RADII) writeonly buffer Radii { float sr[]; };
// Bound for this pass alone at a binding its program does not otherwise use.
layout(std430, binding = HT_BIND_POINT_EXACT) writeonly buffer GroupMax { float group_max[]; };
uniform ivec2 u_pic;    // the picture
uniform ivec2 u_grid;   // fw, fh
uniform float u_scale;

const double PI = 3.14159265358979323846lf;
shared uint s_max;   // float bits of radii >= 1: they order as the floats

// human_hacuity: cycles/degree at adaptation luminance la (cd/m^2); its floor at la <= 0.
float hacuity(float la)
{
    float a = la > 0.0 ? atan(1.4 * log2(la) * 0.30102999566 + 0.35) : -1.57079632679;
    return 17.25 * a + 25.72;
}

// The radius of interior foveal pixel c, in doubles where the CPU computes in doubles.
float radius_at(ivec2 c)
{
    int w = u_grid.x, k = c.y * w + c.x;
    dvec2 f = 0.5lf * dvec2(u_grid) / dvec2(u_pic);
    dvec3 dx = f.x * dvec3(dirs[k + 1].xyz - dirs[k - 1].xyz);   // float differences, as pcond
    dvec3 dy = f.y * dvec3(dirs[k + w].xyz - dirs[k - w].xyz);
    dvec3 n = cross(dx, dy);
    double omega = 0.5lf * sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
    if (omega <= double(HT_ACUITY_MIN_OMEGA)) return 1.0;
    float lw;
    ht_classify(imageLoad(u_fov, c).rgb, u_scale, lw);   // human_luminance's float sum
    if (!(lw >= 0.0)) return 0.0;   // the CPU's log10 gives NaN there, and the radius 0
    float r = float(PI / 180.0lf / sqrt(omega)) / hacuity(lw);
    return ht_finite(r) ? r : 0.0;
}

void main()
{
    uint t = gl_LocalInvocationIndex;
    int k = int(gl_GlobalInvocationID.x), n = u_grid.x * u_grid.y;
    bool interior = u_grid.x >= 3 && u_grid.y >= 3;   // else no differences: no blur
    if (t == 0u) s_max = floatBitsToUint(1.0);
    barrier();
    if (k < n) {
        ivec2 c = clamp(ivec2(k % u_grid.x, k / u_grid.x), ivec2(1), u_grid - 2);
        float r = interior ? radius_at(c) : 0.0;
        sr[k] = r;
        atomicMax(s_max, floatBitsToUint(max(r, 1.0)));
    }
    barrier();
    if (t == 0u) group_max[gl_WorkGroupID.x] = uintBitsToFloat(s_max);
}

// Overlay histogram panel, generated from the frame buffer with no vertex data: the bars of
// the histogram and of the trimmed histogram (one instance per bin), the response curve, the
// range limits and the cursor marker. The x axis is world log-luminance (ln cd/m^2), the
// curve's y axis display log-luminance from ln Ldmin (bottom) to ln Ldmax (top).
layout(std430, binding = HT_BIND_OVERLAY) readonly buffer OverlayNorm { float norm; };
uniform vec2 u_viewport;  // framebuffer size, pixels
uniform vec4 u_rect;      // plot area: x, y (top-left, y down), w, h
uniform vec2 u_axis;      // ln cd/m^2 at the left and right edges
uniform int u_mode;       // HT_PLOT_*
uniform int u_points;     // vertices of the curve
uniform float u_ldmax;
uniform float u_drange;
uniform float u_cursor;   // ln Lw under the cursor
uniform float u_dot;      // marker size, pixels

vec4 clip_of(vec2 px)
{
    return vec4(2.0 * px.x / u_viewport.x - 1.0, 1.0 - 2.0 * px.y / u_viewport.y, 0.0, 1.0);
}
float x_of(float b) { return u_rect.x + (b - u_axis.x) / (u_axis.y - u_axis.x) * u_rect.z; }
float y_of(float t) { return u_rect.y + u_rect.w * (1.0 - t); }   // t: 0 bottom, 1 top
float y_of_ld(float ld) { return y_of(log(ld * u_drange / u_ldmax) / log(u_drange)); }

const vec4 NOWHERE = vec4(2.0, 2.0, 2.0, 1.0);   // outside the clip volume

// Corner k (0..5) of a quad as two triangles.
vec2 quad_corner(int k)
{
    const vec2 c[6] = vec2[6](vec2(0, 0), vec2(1, 0), vec2(0, 1), vec2(1, 0), vec2(1, 1),
                              vec2(0, 1));
    return c[k];
}

void main()
{
    uint n = frame.bins;
    float db = (frame.bw_max - frame.bw_min) / float(max(n, 1u));
    if (u_mode == HT_PLOT_HIST || u_mode == HT_PLOT_TRIMMED) {
        uint bin = uint(gl_InstanceID);
        if (bin >= n || frame.mapping == uint(HT_MAP_NONE)) { gl_Position = NOWHERE; return; }
        float count = u_mode == HT_PLOT_HIST ? float(frame.hist[bin]) : frame.trimmed[bin];
        // Square root: small bins stay visible next to big ones.
        float h = clamp(sqrt(max(count, 0.0) / max(norm, 1.0)), 0.0, 1.0);
        vec2 c = quad_corner(gl_VertexID);
        float b = frame.bw_min + (float(bin) + c.x) * db;
        gl_Position = clip_of(vec2(x_of(b), y_of(c.y * h)));
    } else if (u_mode == HT_PLOT_CURVE) {
        if (frame.mapping == uint(HT_MAP_NONE)) { gl_Position = NOWHERE; return; }
        float b = mix(u_axis.x, u_axis.y, float(gl_VertexID) / float(u_points - 1));
        float ld = ht_display_luminance(exp(b), u_ldmax, u_drange);
        gl_Position = clip_of(vec2(x_of(b), y_of_ld(ld)));
    } else if (u_mode == HT_PLOT_RANGE) {
        // Two vertical lines at the ends of the histogram's range.
        float b = (gl_VertexID >> 1) == 0 ? frame.bw_min : frame.bw_max;
        gl_Position = clip_of(vec2(x_of(b), y_of(float(gl_VertexID & 1))));
    } else if (u_mode == HT_PLOT_CEILING) {
        // The linear ceiling of the last pass: T * db / ln(Dr) (WARD97.md), on the bars' scale.
        if (frame.mapping != uint(HT_MAP_HISTOGRAM) || frame.iterations == 0u) {
            gl_Position = NOWHERE;
            return;
        }
        float ceiling = frame.final_total * db / log(u_drange);
        float h = sqrt(ceiling / max(norm, 1.0));
        if (h > 1.0) { gl_Position = NOWHERE; return; }   // above the panel: nothing trimmed shows
        gl_Position = clip_of(vec2(x_of(gl_VertexID == 0 ? frame.bw_min : frame.bw_max), y_of(h)));
    } else if (u_mode == HT_PLOT_CURSOR) {
        gl_Position = clip_of(vec2(x_of(u_cursor), y_of(float(gl_VertexID & 1))));
    } else {   // HT_PLOT_DOT: a square on the curve at the cursor's luminance
        if (frame.mapping == uint(HT_MAP_NONE)) { gl_Position = NOWHERE; return; }
        float ld = ht_display_luminance(exp(u_cursor), u_ldmax, u_drange);
        vec2 p = vec2(x_of(u_cursor), y_of_ld(ld));
        gl_Position = clip_of(p + (quad_corner(gl_VertexID) - 0.5) * u_dot);
    }
}

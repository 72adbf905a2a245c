// Overlay: a histogram of the tone-mapped 8-bit output from imgstats' SSBO (ht_hist), drawn
// with no vertex data: one instance per bin, a quad of 6 vertices each.
layout(std430, binding = HT_BIND_OVERLAY) readonly buffer OverlayNorm { float norm; };
layout(std430, binding = HT_BIND_OVERLAY_HIST) readonly buffer OverlayHist { ht_hist hist; };
uniform vec2 u_viewport;  // framebuffer size, pixels
uniform vec4 u_rect;      // plot area: x, y (top-left, y down), w, h
uniform int u_channel;    // 0..3: R, G, B, A of hist.rgba; 4: hist.grey

vec4 clip_of(vec2 px)
{
    return vec4(2.0 * px.x / u_viewport.x - 1.0, 1.0 - 2.0 * px.y / u_viewport.y, 0.0, 1.0);
}

vec2 quad_corner(int k)
{
    const vec2 c[6] = vec2[6](vec2(0, 0), vec2(1, 0), vec2(0, 1), vec2(1, 0), vec2(1, 1), vec2(0, 1));
    return c[k];
}

void main()
{
    int bin = gl_InstanceID;
    int nbins = u_channel < 4 ? HT_COLOR_BINS : HT_GREY_BINS;
    float count = u_channel < 4 ? float(hist.rgba[u_channel * HT_COLOR_BINS + bin])
                                : float(hist.grey[bin]);
    // Square root, as the log-luminance panel: small bins stay visible next to big ones.
    float h = clamp(sqrt(count / max(norm, 1.0)), 0.0, 1.0);
    vec2 c = quad_corner(gl_VertexID);
    float x = u_rect.x + (float(bin) + c.x) / float(nbins) * u_rect.z;
    float y = u_rect.y + u_rect.w * (1.0 - c.y * h);
    gl_Position = clip_of(vec2(x, y));
}

// The apply pass's display modes other than tone mapping (display.h; the CPU reference is
// display.c and falsecolor.c, which these functions mirror line by line). The uniforms are
// set from display_params by pass_apply.c.
uniform int u_view_mode;        // HT_VIEW_*
uniform float u_white;          // the display value of the mode's 1.0 (display_params.white)
uniform float u_exposure_mul;   // 2^exposure
uniform float u_offset;
uniform float u_fc_max;         // cd/m^2 at the top of the scale
uniform int u_fc_decades;       // 0: linear
uniform int u_fc_steps;
uniform int u_fc_style;         // HT_FC_*
uniform float u_units_scale;    // cd/m^2 per weighted unit
uniform vec3 u_weights;
uniform int u_channel;          // HT_CHANNEL_*
uniform int u_ch_palette;       // HT_CH_PALETTE_* (resolved: not auto)
uniform float u_ch_min;
uniform float u_ch_max;
uniform vec3 u_palette[HT_FC_PALETTE_N];   // falsecolor_palette
uniform vec3 u_diverging[3];               // display_diverging

// falsecolor_palette_rgb
vec3 fc_palette(float x)
{
    float t = x / float(HT_FC_STEP) + 1.0;
    vec3 v;
    if (!(t > 1.0)) v = u_palette[0];
    else if (!(t < float(HT_FC_PALETTE_N))) v = u_palette[HT_FC_PALETTE_N - 1];
    else {
        int i = int(floor(t));
        v = (float(i + 1) - t) * u_palette[i - 1] + (t - float(i)) * u_palette[i];
    }
    return clamp(v, 0.0, 1.0);
}

// falsecolor_map of the pixel's luminance (non-finite: 0)
float fc_position(vec4 c)
{
    float lum = u_units_scale * dot(u_weights, c.rgb);
    float x = (ht_finite(lum) ? lum : 0.0) / u_fc_max;
    if (u_fc_decades <= 0) return x;
    return x > pow(10.0, -float(u_fc_decades)) ? log2(x) / log2(10.0) / float(u_fc_decades) + 1.0
                                              : 0.0;
}

// falsecolor_rgb
vec3 fc_rgb(float v, vec4 nb)
{
    if (!ht_finite(v)) v = 0.0;
    if (u_fc_style == HT_FC_SMOOTH) return fc_palette(v);
    float n = float(u_fc_steps);
    bool drawn = false;
    if (v >= 0.5 / n && v < 1.0 + 0.5 / n) {
        if (u_fc_style == HT_FC_BANDS) {
            float f = fract(n * v);
            drawn = f < float(HT_FC_BAND) || f > 1.0 - float(HT_FC_BAND);
        } else {
            vec4 s = floor(n * nb);
            drawn = s.x != s.y || s.z != s.w;
        }
    }
    return drawn ? fc_palette((v - 1.0 / n) * n / (n - 1.0)) : vec3(0.0);
}

// display_channel_rgb
vec3 channel_rgb(float v)
{
    if (!ht_finite(v)) return vec3(0.0);
    if (u_ch_palette == HT_CH_PALETTE_DIVERGING) {
        float m = max(abs(u_ch_min), abs(u_ch_max));
        float t = m > 0.0 ? clamp(v / m, -1.0, 1.0) : 0.0;
        return u_diverging[1] + abs(t) * (u_diverging[t < 0.0 ? 0 : 2] - u_diverging[1]);
    }
    float span = u_ch_max - u_ch_min;
    float t = span > 0.0 ? clamp((v - u_ch_min) / span, 0.0, 1.0) : 0.5;
    return u_ch_palette == HT_CH_PALETTE_GREY ? vec3(t) : fc_palette(t);
}

float channel_value(vec4 c)
{
    return u_channel == HT_CHANNEL_Y ? dot(u_weights, c.rgb) : c[clamp(u_channel, 0, 3)];
}

// The false-colour scale position of the pixel at q, clamped to the picture (the edges'
// neighbours are the edge pixels, as display.c takes them).
float fc_position_at(ivec2 q)
{
    return fc_position(ht_load(clamp(q, ivec2(0), u_size - 1)));
}

#ifdef HT_OCIO
// The OCIO view (ocio_view_pixel, then OCIO's own function ht_ocio, which ocio_gpu.c puts
// before this file): its display-encoded values, NaN as 0.
vec3 ocio_sample(vec4 c)
{
    bvec3 f = bvec3(ht_finite(c.r), ht_finite(c.g), ht_finite(c.b));
    vec3 o = ht_ocio(vec4(ht_to_display(mix(vec3(0.0), c.rgb * u_exposure_mul, f)), 1.0)).rgb;
    return mix(vec3(0.0), o, not(isnan(o)));
}
#endif

// The linear colour of one sample C of pixel p in the exposure, false-colour or channel
// mode, 1.0 its white (pixel_rgb before the white's scale).
vec3 mode_rgb(ivec2 p, vec4 c)
{
    if (u_view_mode == HT_VIEW_EXPOSURE) {
        bvec3 f = bvec3(ht_finite(c.r), ht_finite(c.g), ht_finite(c.b));
        vec3 o = ht_to_display(mix(vec3(0.0), c.rgb * u_exposure_mul, f)) + u_offset;
        return mix(vec3(0.0), o, f);
    }
    if (u_view_mode == HT_VIEW_FALSECOLOR) {
        vec4 nb = vec4(0.0);
        if (u_fc_style == HT_FC_CONTOURS)
            nb = vec4(fc_position_at(p - ivec2(1, 0)), fc_position_at(p + ivec2(1, 0)),
                      fc_position_at(p - ivec2(0, 1)), fc_position_at(p + ivec2(0, 1)));
        return fc_rgb(fc_position(c), nb);
    }
    return channel_rgb(channel_value(c));
}

// The colour of one sample C of pixel p in the mode (linear, 1 the display's peak; the OCIO
// view's: encoded).
vec3 display_sample(ivec2 p, vec4 c)
{
#ifdef HT_OCIO
    if (u_view_mode == HT_VIEW_OCIO) return ocio_sample(c);
#endif
    return u_white * mode_rgb(p, c);
}

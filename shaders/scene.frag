// Scene pass: nearest image texel, evaluated per sample ('sample' makes the interpolation and
// the shading run once per sample), so MSAA averages several texels when zoomed out. texelFetch
// copies values exactly: at zoom 1 the target holds the image's own numbers.
layout(binding = 0) uniform sampler2D u_tex;
sample in vec2 v_img;
layout(location = 0) out vec4 o_color;

void main()
{
    ivec2 size = textureSize(u_tex, 0);
    ivec2 t = clamp(ivec2(floor(v_img)), ivec2(0), size - 1);
    o_color = texelFetch(u_tex, t, 0);
}

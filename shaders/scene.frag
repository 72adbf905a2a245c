// Scene pass: nearest image texel, evaluated per sample ('sample' makes the interpolation and
// the shading run once per sample), so MSAA averages several texels when zoomed out. texelFetch
// copies values exactly: at zoom 1 the target holds the image's own numbers.
// HT_SCENE_PIECES (an image in pieces, larger than one texture): every piece draws the whole
// image's quad, scissored to around the piece, and keeps the samples whose texel is in the
// piece; the interpolation is the one texture's, so every sample reads exactly its texel.
layout(binding = 0) uniform sampler2D u_tex;
sample in vec2 v_img;
layout(location = 0) out vec4 o_color;
#ifdef HT_SCENE_PIECES
uniform vec2 u_image;    // the whole image's size (scene.vert)
uniform ivec2 u_piece;   // the piece's top-left corner in the image
#endif

void main()
{
#ifdef HT_SCENE_PIECES
    ivec2 t = clamp(ivec2(floor(v_img)), ivec2(0), ivec2(u_image) - 1) - u_piece;
    if (any(lessThan(t, ivec2(0))) || any(greaterThanEqual(t, textureSize(u_tex, 0)))) discard;
#else
    ivec2 size = textureSize(u_tex, 0);
    ivec2 t = clamp(ivec2(floor(v_img)), ivec2(0), size - 1);
#endif
    o_color = texelFetch(u_tex, t, 0);
}

// Scene pass: nearest image texel, evaluated per sample (gl_SamplePosition makes the shading
// run once per sample), so MSAA averages several texels when zoomed out. texelFetch copies
// values exactly: at zoom 1 the target holds the image's own numbers. The image position comes
// from the sample's window position, not from the quad's interpolation, and an image in pieces
// (overlapping quads, scene.vert) keeps the samples whose texel is in the piece drawn: every
// sample reads exactly the texel one texture would.
layout(binding = 0) uniform sampler2D u_tex;
uniform vec2 u_target;   // target size in pixels
uniform vec2 u_origin;   // where image pixel (0,0)'s top-left corner lands (y down)
uniform float u_zoom;    // target pixels per image pixel
uniform vec2 u_piece;    // the piece's top-left corner in the image (0,0 for one texture)
uniform vec2 u_full;     // the whole image's size
layout(location = 0) out vec4 o_color;

void main()
{
    vec2 px = floor(gl_FragCoord.xy) + gl_SamplePosition;   // window, y up
    vec2 v_img = (vec2(px.x, u_target.y - px.y) - u_origin) / u_zoom;
    ivec2 t = clamp(ivec2(floor(v_img)), ivec2(0), ivec2(u_full) - 1) - ivec2(u_piece);
    ivec2 size = textureSize(u_tex, 0);
    if (any(lessThan(t, ivec2(0))) || any(greaterThanEqual(t, size))) discard;   // another piece's
    o_color = texelFetch(u_tex, t, 0);
}

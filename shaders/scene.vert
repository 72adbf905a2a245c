// Scene pass: one quad covering the image, placed by the view (target pixels, y down). An
// image in pieces (larger than one texture) is one quad per piece, each widened by an image
// pixel into its neighbours so that rounding leaves no gap: scene.frag keeps the samples that
// fall on the piece's own texels.
uniform vec2 u_target;   // target size in pixels
uniform vec2 u_origin;   // where image pixel (0,0)'s top-left corner lands
uniform float u_zoom;    // target pixels per image pixel
uniform vec2 u_image;    // image (piece) size in pixels
uniform vec2 u_piece;    // the piece's top-left corner in the image (0,0 for one texture)
uniform vec2 u_full;     // the whole image's size

void main()
{
    // Attribute-less triangle strip: vertex i is corner (i & 1, i >> 1).
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec2 lo = max(u_piece - 1.0, vec2(0.0)), hi = min(u_piece + u_image + 1.0, u_full);
    vec2 px = u_origin + mix(lo, hi, corner) * u_zoom;
    gl_Position = vec4(2.0 * px.x / u_target.x - 1.0, 1.0 - 2.0 * px.y / u_target.y, 0.0, 1.0);
}

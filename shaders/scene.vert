// Scene pass: one quad covering the image, placed by the view (target pixels, y down).
uniform vec2 u_target;   // target size in pixels
uniform vec2 u_origin;   // where image pixel (0,0)'s top-left corner lands
uniform float u_zoom;    // target pixels per image pixel
uniform vec2 u_image;    // image size in pixels
sample out vec2 v_img;   // image pixel coordinates, (0,0) = top-left corner of the image

void main()
{
    // Attribute-less triangle strip: vertex i is corner (i & 1, i >> 1).
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    v_img = corner * u_image;
    vec2 px = u_origin + v_img * u_zoom;
    gl_Position = vec4(2.0 * px.x / u_target.x - 1.0, 1.0 - 2.0 * px.y / u_target.y, 0.0, 1.0);
}

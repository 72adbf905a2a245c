// Overlay rectangles and text: CPU-made triangles in framebuffer pixels (y down).
layout(location = 0) in vec2 a_pos;
layout(location = 1) in vec4 a_color;
uniform vec2 u_viewport;
out vec4 v_color;

void main()
{
    v_color = a_color;
    gl_Position = vec4(2.0 * a_pos.x / u_viewport.x - 1.0, 1.0 - 2.0 * a_pos.y / u_viewport.y, 0.0, 1.0);
}

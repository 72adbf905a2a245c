// The GUI's triangles (src/gpu/ui_draw.c): framebuffer pixels (y down) to clip space.
layout(location = 0) in vec2 pos;
layout(location = 1) in vec2 uv;
layout(location = 2) in vec4 col;
uniform vec2 fb_size;
out vec2 f_uv;
out vec4 f_col;
void main()
{
    f_uv = uv;
    f_col = col;
    gl_Position = vec4(pos.x / fb_size.x * 2.0 - 1.0, 1.0 - pos.y / fb_size.y * 2.0, 0.0, 1.0);
}

// The GUI's pixels: the texture (font atlas, white texel for shapes) times the colour. The
// colours are display values already: the default framebuffer is not sRGB.
in vec2 f_uv;
in vec4 f_col;
uniform sampler2D tex;
out vec4 colour;
void main()
{
    colour = f_col * texture(tex, f_uv);
}

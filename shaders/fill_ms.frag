// Copies the image texel under the fragment into every sample.
layout(binding = 0) uniform sampler2D u_image;
out vec4 o_color;
void main() { o_color = texelFetch(u_image, ivec2(gl_FragCoord.xy), 0); }

// bench's "present by triangle": each window pixel the output's pixel at the same place (1:1).
layout(binding = 0) uniform sampler2D u_src;
layout(location = 0) out vec4 o_color;

void main() { o_color = texelFetch(u_src, ivec2(gl_FragCoord.xy), 0); }

// Prepare pass: every pixel of the picture through the human-vision stage (common.glsl's
// ht_human_pixel), what the tone curve gets, into an RGBA32F texture of the picture's size
// (human_cpu_prepare) that the viewer's scene pass zooms instead of the picture.
layout(local_size_x = HT_GROUP_X, local_size_y = HT_GROUP_Y) in;
layout(rgba32f, binding = 0) writeonly uniform image2D u_out;
uniform float u_scale;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= u_human_pic.x || p.y >= u_human_pic.y) return;
    vec4 c = ht_load(p);
    imageStore(u_out, p, vec4(ht_human_pixel(p, c.rgb, u_scale), c.a));
}

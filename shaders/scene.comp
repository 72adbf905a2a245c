// Scene pass (compute): the view of the image in the window's (multisampled) float target.
// Every sample of every target pixel, at the driver's sample position (u_pos, window
// coordinates within the pixel, y up), takes the nearest image texel (texelFetch: at zoom 1
// the target holds the image's own numbers), or 0 outside the image; MSAA then averages
// several texels when zoomed out. It replaces a fragment pass that drew one quad with
// per-sample shading: the same samples, without the raster hardware a compute GPU has little
// of. HT_SCENE_PIECES: an image in pieces (larger than one texture) is drawn one piece per
// dispatch over that piece's window rectangle (u_offset), each writing the samples whose
// texel is in it, onto a target cleared to 0 first.
layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0) uniform sampler2D u_tex;
#if HT_SCENE_SAMPLES > 1
layout(HT_SCENE_FORMAT, binding = 0) writeonly uniform image2DMS u_out;
#else
layout(HT_SCENE_FORMAT, binding = 0) writeonly uniform image2D u_out;
#endif
uniform ivec2 u_size;     // the target's size
uniform ivec2 u_offset;   // the window pixel this dispatch starts at (y up)
uniform ivec2 u_extent;   // and the pixels it covers
uniform vec2 u_origin;    // where image pixel (0,0)'s top-left corner lands (y down)
uniform float u_zoom;     // target pixels per image pixel
uniform vec2 u_image;     // the whole image's size
uniform ivec2 u_piece;    // the piece's top-left corner in the image
uniform vec2 u_pos[HT_SCENE_SAMPLES];   // sample positions within a pixel, y up

void store(ivec2 q, int s, vec4 c)
{
#if HT_SCENE_SAMPLES > 1
    imageStore(u_out, q, s, c);
#else
    imageStore(u_out, q, c);
#endif
}

void main()
{
    ivec2 g = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(g, u_extent))) return;
    ivec2 q = g + u_offset;
    ivec2 size = textureSize(u_tex, 0);
    for (int s = 0; s < HT_SCENE_SAMPLES; s++) {
        vec2 w = vec2(q) + u_pos[s];
        vec2 img = (vec2(w.x, float(u_size.y) - w.y) - u_origin) / u_zoom;
        bool inside = all(greaterThanEqual(img, vec2(0.0))) && all(lessThan(img, u_image));
        ivec2 t = clamp(ivec2(floor(img)), ivec2(0), ivec2(u_image) - 1) - u_piece;
#ifdef HT_SCENE_PIECES
        if (inside && all(greaterThanEqual(t, ivec2(0))) && all(lessThan(t, size)))
            store(q, s, texelFetch(u_tex, t, 0));
#else
        store(q, s, inside ? texelFetch(u_tex, clamp(t, ivec2(0), size - 1), 0) : vec4(0.0));
#endif
    }
}

// Foveal pass: the box average of linear RGB that pcond gets from pfilt -1 -b (one group per
// foveal pixel: foveal pixel (c, r) averages the pixels with floor(x fw / W) = c and
// floor(row fh / H) = r; non-finite pixels are left out, a box without a finite pixel is
// black). With u_rgbe the average is rounded as pfilt writes it (RGBE, Radiance's units).
// The result is a small RGBA32F image that the histogram passes read as their source.
// A picture in pieces (larger than a texture) takes one dispatch per piece: each adds the
// part of every box inside its piece to the sums the previous ones left in u_fov (rgb, count);
// the last one divides. One piece is first and last: the single-texture pass.
// A group walks its box in steps of GX columns by GY * R rows, each thread loading R pixels
// (GY rows apart) before it adds any: with one group per box (42 x 23 at 4K) the GPU holds
// too few threads to hide the memory latency one read at a time. Threads side by side read
// side by side in a row, and no pixel position needs a division.
layout(local_size_x = HT_FOVEAL_GROUP_X, local_size_y = HT_FOVEAL_GROUP_Y) in;
layout(rgba32f, binding = 0) uniform image2D u_fov;
uniform ivec2 u_size;     // the picture
uniform ivec2 u_grid;     // fw, fh
uniform ivec2 u_origin;   // the piece this dispatch reads: where it lies in the picture,
uniform ivec2 u_piece;    // and its size
uniform bool u_first, u_last;
uniform bool u_rgbe;
uniform float u_rgbe_unit;   // a stored value's worth in the picture's units: 179 / scale

const int GX = HT_FOVEAL_GROUP_X, GY = HT_FOVEAL_GROUP_Y, R = HT_FOVEAL_ROWS;
const uint N = uint(GX * GY);   // a power of two (the tree below)
shared vec4 s_sum[N];

void main()
{
    ivec2 c = ivec2(gl_WorkGroupID.xy);
    // The first x with floor(x fw / W) = c is ceil(c W / fw).
    ivec2 lo = (c * u_size + u_grid - 1) / u_grid, hi = ((c + 1) * u_size + u_grid - 1) / u_grid;
    // The part of the box inside this piece, in the piece's coordinates.
    lo = max(lo - u_origin, ivec2(0));
    hi = min(hi - u_origin, u_piece);
    if ((hi.x <= lo.x || hi.y <= lo.y) && !u_first && !u_last)
        return;   // the same for the whole group
    uint t = gl_LocalInvocationIndex;
    ivec2 l = ivec2(gl_LocalInvocationID.xy);
    vec4 acc = vec4(0.0);
    for (int y0 = lo.y + l.y; y0 < hi.y; y0 += GY * R)
        for (int x = lo.x + l.x; x < hi.x; x += GX) {
            // Rows past the box read its last row (cached) and are not added: the loads
            // stay unconditional, all R in flight at once.
            vec3 v[R];
            for (int j = 0; j < R; j++)
                v[j] = ht_load(ivec2(x, min(y0 + j * GY, hi.y - 1))).rgb;
            for (int j = 0; j < R; j++)
                if (y0 + j * GY < hi.y && ht_finite(v[j].r) && ht_finite(v[j].g) &&
                    ht_finite(v[j].b))
                    acc += vec4(v[j], 1.0);
        }
    s_sum[t] = acc;
    barrier();
    for (uint s = N / 2u; s > 0u; s >>= 1) {
        if (t < s) s_sum[t] += s_sum[t + s];
        barrier();
    }
    if (t != 0u) return;
    vec4 total = s_sum[0];
    if (!u_first) total += imageLoad(u_fov, c);
    if (!u_last) { imageStore(u_fov, c, total); return; }
    vec3 avg = total.w > 0.0 ? total.rgb / total.w : vec3(0.0);
    if (u_rgbe) avg = ht_rgbe_round(avg, u_rgbe_unit);
    imageStore(u_fov, c, vec4(avg, 1.0));
}
